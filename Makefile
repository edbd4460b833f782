# SPDX-License-Identifier: MIT
# segc - the one Makefile: this file builds segc; the rest is included.
#
#   make              build build/segc
#   make test         every test, with one closing total (mk/tests.mk)
#   make python       build/python/segc*.so, the Python module (mk/libsegc.mk)
#   make windows      build/windows/segc.exe with mingw-w64 (mk/windows.mk)
#   make install      PREFIX=/usr/local DESTDIR= (mk/dist.mk; make dist
#                     writes the release archives)
#   make clean        remove $(B)
#
# Generated sources (re2c, Lemon, the compiled templates) go to $(B)/gen, never
# into compiler/.  A failed generator leaves nothing that looks built.

.DELETE_ON_ERROR:
# Generated sources are kept between builds (they are not intermediates).
.SECONDARY:
.SUFFIXES:

B        ?= build
PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
ifeq ($(origin CC),default)
CC       := cc
endif
CFLAGS   ?= -O2 -g
SAN      ?=
RE2C     ?= re2c
LEMON    ?= lemon
LEMPAR   ?= /usr/share/lemon/lempar.c

YAML_CFLAGS  := $(shell pkg-config --cflags yaml-0.1 2>/dev/null)
YAML_LIBS    := $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)
JSON_CFLAGS  := $(shell pkg-config --cflags jansson 2>/dev/null)
JSON_LIBS    := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)

ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
# The library as the libFuzzer targets link it (make fuzz).
ifeq ($(SAN),fuzz)
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# Every object can go into libsegc.so (mk/libsegc.mk): position-independent,
# each function and datum in a section of its own, so that the library
# keeps only what its API reaches.
PIC      := -fPIC -ffunction-sections -fdata-sections
ALL_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 $(WARN) $(CFLAGS) $(SANFLAGS) $(THREADS) $(PIC) \
             -Icompiler -I$(B)/gen $(YAML_CFLAGS) -MMD -MP
# Lemon's and re2c's output is not ours to warn about beyond -Wall.  NDEBUG
# leaves out Lemon's assert()s and its tracing (a global FILE *).
GEN_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 -DNDEBUG -Wall -Werror -Wno-unused-variable \
             -Wno-unused-but-set-variable $(CFLAGS) $(SANFLAGS) $(PIC) -Icompiler -I$(B)/gen -MMD -MP
LDFLAGS  ?=
THREADS  := -pthread
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS) $(THREADS)

RE_SRC   := $(wildcard compiler/*.re)
Y_SRC    := $(wildcard compiler/*.y)
C_SRC    := $(filter-out compiler/main.c,$(wildcard compiler/*.c))
FRAGS    := $(sort $(wildcard templates/*.frag)) templates/segc_dxgk.h

GEN_RE_C := $(RE_SRC:compiler/%.re=$(B)/gen/%.c)
GEN_Y_C  := $(Y_SRC:compiler/%.y=$(B)/gen/%.c)
GEN_Y_H  := $(Y_SRC:compiler/%.y=$(B)/gen/%.h)
GEN_FRAG := $(B)/gen/frags.c

LIB_OBJ  := $(C_SRC:compiler/%.c=$(B)/obj/%.o) \
            $(GEN_RE_C:$(B)/gen/%.c=$(B)/obj/gen/%.o) \
            $(GEN_Y_C:$(B)/gen/%.c=$(B)/obj/gen/%.o) \
            $(B)/obj/gen/frags.o
LIB      := $(B)/libsegc.a
SEGC     := $(B)/segc

# segc lsp (compiler/lsp/): only the segc binary links it and jansson.
LSP_SRC  := $(wildcard compiler/lsp/*.c)
LSP_OBJ  := $(LSP_SRC:compiler/lsp/%.c=$(B)/obj/lsp/%.o)

all: $(SEGC)

$(B)/gen $(B)/obj $(B)/obj/gen:
	@mkdir -p $@

# ---- generators ------------------------------------------------------------

$(B)/gen/%.c: compiler/%.re | $(B)/gen
	$(RE2C) -W -Werror --no-generation-date --no-version -o $@ $<

# Lemon writes %.c, %.h and %.out together.  It leaves an unchanged header
# untouched, so the header gets a rule with no recipe.
$(B)/gen/%.c: compiler/%.y $(LEMPAR) | $(B)/gen
	@rm -f $@
	$(LEMON) -q -d$(B)/gen -T$(LEMPAR) $< || { rm -f $@; exit 1; }
$(B)/gen/%.h: $(B)/gen/%.c ;

# The text segc writes (templates/) is compiled into the binary, so an
# installed segc needs no source tree: compiler/tools/frag.c writes the
# fragments and a typed function for each (frags.h).
$(B)/frag: compiler/tools/frag.c compiler/tools/cdefs.h | $(B)
	$(CC) -std=c11 -O1 -Wall -Wextra -Werror -o $@ $<
$(GEN_FRAG): $(B)/frag $(FRAGS) | $(B)/gen
	$(B)/frag $(B)/gen/frags.h $@ $(FRAGS)
$(B)/gen/frags.h: $(GEN_FRAG) ;

# ---- compile ---------------------------------------------------------------

# Every object waits for every generated header (the first build has no
# dependency files yet); -MMD records the real dependencies afterwards.
$(B)/obj/%.o: compiler/%.c | $(B)/obj $(GEN_Y_H) $(B)/gen/frags.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<
$(B)/obj/gen/%.o: $(B)/gen/%.c | $(B)/obj/gen $(GEN_Y_H) $(B)/gen/frags.h
	$(CC) $(GEN_CFLAGS) $(YAML_CFLAGS) -c -o $@ $<
$(B)/obj/lsp/%.o: compiler/lsp/%.c | $(GEN_Y_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(JSON_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# segc and segc lsp run the library's pipeline (compiler/libsegc.c),
# linked from the archive of the objects libsegc.so is made of.
$(SEGC): $(B)/obj/main.o $(LSP_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(YAML_LIBS) $(JSON_LIBS)

# What segc's tables say (compiler/tools/tables.c, which compiles main.c):
# the JSON Schema of the spec format, generated from the structure, field
# and flag tables, and the keys and options the man-page test reads.
# schema/segc.schema.json, which editors open from the source tree (the
# samples name it), must be what the tables generate: the build stops
# when it is not, and `make SEGC_UPDATE=1` rewrites it (review the diff).
TABLES := $(B)/tables
$(TABLES): compiler/tools/tables.c $(LSP_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(JSON_CFLAGS) -o $@ $< $(LSP_OBJ) $(LIB) $(ALL_LDFLAGS) $(YAML_LIBS) $(JSON_LIBS)
$(B)/segc.schema.json: $(TABLES)
	$(TABLES) schema > $@
$(B)/schema.ok: $(B)/segc.schema.json schema/segc.schema.json
	@if [ -n "$(SEGC_UPDATE)" ]; then cp $< schema/segc.schema.json; fi
	@cmp -s $< schema/segc.schema.json || { echo "schema/segc.schema.json is not what segc's tables generate ($<):"; \
	  diff -u schema/segc.schema.json $< | head -n 20; echo "review it, then: make SEGC_UPDATE=1"; exit 1; }
	@touch $@
all: $(B)/schema.ok

$(B):
	@mkdir -p $@

# ---- the rest ----------------------------------------------------------------

include mk/libsegc.mk mk/windows.mk mk/dist.mk mk/tests.mk

clean:
	rm -rf $(B)

.PHONY: all clean

-include $(wildcard $(B)/obj/*.d $(B)/obj/gen/*.d $(B)/obj/lsp/*.d $(B)/tables.d)

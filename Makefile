# segc - one Makefile for the compiler, its tests and its benchmarks.
#
#   make              build build/segc
#   make test         every test: unit (Check), golden, schema, generated
#                     code, JSON/SARIF outputs, man pages, build-system
#                     examples, hostile input, failing disks, valgrind
#                     memcheck, the same suites again under ASan+UBSan, and
#                     a short fuzzing run
#   make fuzz         libFuzzer targets, FUZZ_SECONDS=N each (default 60)
#   make windows      build/windows/segc.exe (mingw-w64; make windows-test runs it under Wine)
#   make install      PREFIX=/usr/local DESTDIR= (segc, man pages, CMake package)
#   make bench        lookup benchmarks (bench/)
#
# Generated sources (re2c, Lemon, embedded templates) go to $(B)/gen, never
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
PYTHON   ?= /usr/bin/python3

YAML_CFLAGS  := $(shell pkg-config --cflags yaml-0.1 2>/dev/null)
YAML_LIBS    := $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
# The library as the libFuzzer targets link it (make fuzz).
ifeq ($(SAN),fuzz)
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 $(WARN) $(CFLAGS) $(SANFLAGS) $(THREADS) \
             -Icompiler -I$(B)/gen $(YAML_CFLAGS) -MMD -MP
# Lemon's and re2c's output is not ours to warn about beyond -Wall.
GEN_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 -Wall -Werror -Wno-unused-variable \
             -Wno-unused-but-set-variable $(CFLAGS) $(SANFLAGS) -Icompiler -I$(B)/gen -MMD -MP
LDFLAGS  ?=
THREADS  := -pthread
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS) $(THREADS)

RE_SRC   := $(wildcard compiler/*.re)
Y_SRC    := $(wildcard compiler/*.y)
C_SRC    := $(filter-out compiler/main.c,$(wildcard compiler/*.c))
TMPL     := $(sort $(wildcard templates/*.tmpl templates/*.h))

GEN_RE_C := $(RE_SRC:compiler/%.re=$(B)/gen/%.c)
GEN_Y_C  := $(Y_SRC:compiler/%.y=$(B)/gen/%.c)
GEN_Y_H  := $(Y_SRC:compiler/%.y=$(B)/gen/%.h)
GEN_TMPL := $(B)/gen/templates.c

LIB_OBJ  := $(C_SRC:compiler/%.c=$(B)/obj/%.o) \
            $(GEN_RE_C:$(B)/gen/%.c=$(B)/obj/gen/%.o) \
            $(GEN_Y_C:$(B)/gen/%.c=$(B)/obj/gen/%.o) \
            $(B)/obj/gen/templates.o
LIB      := $(B)/libsegc.a
SEGC     := $(B)/segc

UNIT_SRC := $(sort $(wildcard tests/unit/check_*.c))
UNIT_OBJ := $(UNIT_SRC:tests/unit/%.c=$(B)/obj/unit/%.o) $(B)/obj/unit/runner.o
UNIT_BIN := $(B)/unit-tests

all: $(SEGC)

$(B)/gen $(B)/obj $(B)/obj/gen $(B)/obj/unit:
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

# Templates are embedded in the binary, so an installed segc needs no source tree.
$(B)/embed: compiler/tools/embed.c | $(B)
	$(CC) -std=c11 -O1 -Wall -Wextra -Werror -o $@ $<
$(GEN_TMPL): $(B)/embed $(TMPL) | $(B)/gen
	$(B)/embed $(TMPL) > $@

# ---- compile ---------------------------------------------------------------

# Every object waits for every generated header (the first build has no
# dependency files yet); -MMD records the real dependencies afterwards.
$(B)/obj/%.o: compiler/%.c | $(B)/obj $(GEN_Y_H)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<
$(B)/obj/gen/%.o: $(B)/gen/%.c | $(B)/obj/gen $(GEN_Y_H)
	$(CC) $(GEN_CFLAGS) $(YAML_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SEGC): $(B)/obj/main.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(YAML_LIBS)

$(B):
	@mkdir -p $@

# ---- segc.exe ----------------------------------------------------------------

# x86_64 Windows, cross-built with Debian's mingw-w64 and statically linked
# (libyaml from Debian's source package, winpthreads): build/windows/segc.exe.
# The generators (re2c, Lemon, embed) run here; their output is shared.
WIN_CC     ?= x86_64-w64-mingw32-gcc
WIN_AR     ?= x86_64-w64-mingw32-ar
WB         := $(B)/windows
WIN_YAML   := $(WB)/libyaml/lib/libyaml.a
WIN_EXE    := $(WB)/segc.exe
WIN_CFLAGS := -std=c11 -D_XOPEN_SOURCE=700 -D__USE_MINGW_ANSI_STDIO=1 -DYAML_DECLARE_STATIC -O2 \
              -Icompiler -I$(B)/gen -I$(WB)/libyaml/include -MMD -MP
WIN_OBJ    := $(patsubst compiler/%.c,$(WB)/obj/%.o,$(C_SRC) compiler/main.c) \
              $(patsubst $(B)/gen/%.c,$(WB)/obj/gen/%.o,$(GEN_RE_C) $(GEN_Y_C) $(GEN_TMPL))

windows: $(WIN_EXE)
.PHONY: windows

$(WIN_YAML):
	sh build-aux/libyaml-mingw.sh $(WB)/libyaml $(WIN_CC) $(WIN_AR)

$(WB)/obj/%.o: compiler/%.c $(WIN_YAML) | $(GEN_Y_H)
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) $(WARN) -c -o $@ $<
# (gcc 12 sees an out-of-bounds read in Lemon's table lookup that its guard rules out.)
$(WB)/obj/gen/%.o: $(B)/gen/%.c $(WIN_YAML) | $(GEN_Y_H)
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) -Wall -Werror -Wno-unused-variable -Wno-unused-but-set-variable -Wno-array-bounds -c -o $@ $<

$(WIN_EXE): $(WIN_OBJ) $(WIN_YAML)
	$(WIN_CC) -static -Wl,--no-insert-timestamp -o $@ $(WIN_OBJ) $(WIN_YAML) -lpthread

-include $(wildcard $(WB)/obj/*.d $(WB)/obj/gen/*.d)

# ---- tests -----------------------------------------------------------------

# The unit runner finds each suite by the name its file exports
# (tests/unit/check_foo.c -> foo_suite).
$(B)/gen/suites.h: $(UNIT_SRC) | $(B)/gen
	@for f in $(UNIT_SRC); do \
	  sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void)$$/SUITE(\1)/p' $$f; \
	done > $@.tmp && mv $@.tmp $@

$(B)/obj/unit/%.o: tests/unit/%.c $(B)/gen/suites.h | $(B)/obj/unit $(GEN_Y_H)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Itemplates $(CHECK_CFLAGS) -c -o $@ $<

$(UNIT_BIN): $(UNIT_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(YAML_LIBS)

unit: $(UNIT_BIN)
	CK_FORK=yes $(UNIT_BIN)

golden: $(SEGC)
	@sh tests/golden/run.sh $(SEGC)

schema: $(SEGC)
	@SEGC=$(SEGC) sh tests/schema/run.sh

gencode: $(SEGC)
	@sh tests/gen/run.sh $(SEGC) $(B) "$(SANFLAGS)"

lookup: $(SEGC)
	@sh tests/lookup/run.sh $(SEGC) $(B) "$(SANFLAGS)"

# segc diff over pairs of specs (tests/diff/).
diff-test: $(SEGC)
	@PYTHON=$(PYTHON) sh tests/diff/run.sh $(SEGC)
.PHONY: diff-test

# --diagnostics=json|sarif and dump --json.  Downloads (once, into the
# cache, shared with the sanitizer pass) the SARIF 2.1.0 schema it validates with.
export SEGC_TEST_CACHE ?= $(B)/cache
json-test: $(SEGC)
	@sh tests/json/run.sh $(SEGC) $(B)

# `segc map` rendered in headless Chromium and measured (tests/map/run.sh).
map-test: $(SEGC)
	@sh tests/map/run.sh $(SEGC) $(B)

# The man pages: no groff warnings, every command, option and spec key.
man-test: $(SEGC)
	@sh tests/man/run.sh $(SEGC)

# The build-system examples, against a `make install` into a temporary prefix.
examples-test: $(SEGC)
	@sh tests/examples/run.sh $(B)
.PHONY: man-test examples-test

# --diagnostics=msvc against MSBuild's canonical error format.
msvc-test: $(SEGC)
	@sh tests/msvc/run.sh $(SEGC)
.PHONY: msvc-test

# segc.exe under Wine against the Linux segc, byte for byte (tests/windows).
windows-test: $(SEGC) $(WIN_EXE)
	@WIN_QUIET=1 sh tests/windows/run.sh $(SEGC) $(WIN_EXE) $(WB)/test
.PHONY: windows-test

hostile: $(SEGC)
	@HOSTILE_QUIET=1 sh tests/hostile/run.sh $(SEGC)

disk: $(SEGC)
	@sh tests/hostile/disk.sh $(SEGC) $(B)

# valgrind memcheck over the unit runner and segc (normal build only).
memcheck: $(SEGC) $(UNIT_BIN)
	@sh tests/memcheck.sh $(B)

# One pass of every suite in this build directory.
suites: unit golden schema gencode lookup diff-test json-test msvc-test map-test man-test examples-test hostile disk

# The whole test command: normal build (and valgrind memcheck), then
# everything again under AddressSanitizer and UndefinedBehaviorSanitizer,
# then a short libFuzzer campaign over every target.
test: deps-check
	$(MAKE) suites memcheck windows-test dist-test
	$(MAKE) B=$(B)/san SAN=1 CFLAGS="-O1 -g" suites
	$(MAKE) fuzz-smoke

# Lists missing Debian packages; never installs (./run does that).
deps-check:
	@sh tests/deps.sh --check

# ---- benchmarks --------------------------------------------------------------

# Ratios against baselines measured in the same run; never a timed assertion.
bench: $(SEGC)
	@sh bench/run.sh $(SEGC) $(B)

# ---- fuzzing (libFuzzer; clang) --------------------------------------------

# `make fuzz FUZZ_SECONDS=N` builds the library and the three targets of
# tests/fuzz/ with clang -fsanitize=fuzzer,address,undefined in $(B)/fuzz
# (through the pattern rules above, B=$(B)/fuzz SAN=fuzz) and runs each for
# N seconds.  `make fuzz-smoke` replays every seed and regression input and
# fuzzes each target briefly; `make test` runs it.
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_TARGETS       := pipeline expr tmpl

$(B)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB) $(YAML_LIBS)

fuzz-bin: $(FUZZ_TARGETS:%=$(B)/fuzz_%)

fuzz:
	$(MAKE) B=$(B)/fuzz CC=clang SAN=fuzz CFLAGS="-O1 -g" fuzz-bin
	@sh tests/fuzz/run.sh $(B)/fuzz $(FUZZ_SECONDS)

fuzz-smoke:
	$(MAKE) B=$(B)/fuzz CC=clang SAN=fuzz CFLAGS="-O1 -g" fuzz-bin
	@sh tests/fuzz/run.sh $(B)/fuzz $(FUZZ_SMOKE_SECONDS)

# ---- install ---------------------------------------------------------------

# segc, its man pages, the CMake package (find_package(segc)) and the JSON
# Schemas (for editors).
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/segc
CMAKEDIR ?= $(PREFIX)/lib/cmake/segc
VERSION  := $(shell sed -n 's/^\#define SEGC_VERSION "\(.*\)"$$/\1/p' compiler/segc.h)

$(B)/segcConfigVersion.cmake: cmake/segcConfigVersion.cmake.in compiler/segc.h | $(B)
	sed 's/@SEGC_VERSION@/$(VERSION)/g' $< > $@

install: $(SEGC) $(B)/segcConfigVersion.cmake
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(CMAKEDIR)
	install -m 755 $(SEGC) $(DESTDIR)$(PREFIX)/bin/segc
	install -m 644 doc/segc.1 $(DESTDIR)$(MANDIR)/man1/segc.1
	install -m 644 doc/segc.5 $(DESTDIR)$(MANDIR)/man5/segc.5
	install -m 644 cmake/segcConfig.cmake $(B)/segcConfigVersion.cmake $(DESTDIR)$(CMAKEDIR)
	install -d $(DESTDIR)$(SHAREDIR)
	install -m 644 schema/segc.schema.json schema/model.schema.json schema/diagnostics.schema.json $(DESTDIR)$(SHAREDIR)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/segc $(DESTDIR)$(MANDIR)/man1/segc.1 $(DESTDIR)$(MANDIR)/man5/segc.5
	rm -f $(DESTDIR)$(CMAKEDIR)/segcConfig.cmake $(DESTDIR)$(CMAKEDIR)/segcConfigVersion.cmake
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(SHAREDIR)/segc.schema.json $(DESTDIR)$(SHAREDIR)/model.schema.json $(DESTDIR)$(SHAREDIR)/diagnostics.schema.json
	rmdir $(DESTDIR)$(SHAREDIR) 2>/dev/null || true

# Release archives in $(B)/dist (build-aux/dist.sh): sources, Linux x86_64,
# Windows x86_64; the same commit gives the same bytes.
dist: $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake
	@sh build-aux/dist.sh $(B)/dist $(VERSION) $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake

# Two `make dist` give the same bytes, and segc.exe runs from the zip.
dist-test: $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake
	@sh tests/dist/run.sh $(B) $(VERSION)

clean:
	rm -rf $(B)

.PHONY: dist dist-test bench all unit golden schema gencode lookup json-test map-test hostile disk memcheck suites test deps-check install uninstall clean fuzz fuzz-bin fuzz-smoke

-include $(wildcard $(B)/obj/*.d $(B)/obj/gen/*.d $(B)/obj/unit/*.d)

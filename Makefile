# SPDX-License-Identifier: MIT
# segc - one Makefile for the compiler, its tests and its benchmarks.
#
#   make              build build/segc
#   make test         every test, in parallel: unit (Check), golden, schema,
#                     generated code, lookup tables, diff, JSON/SARIF
#                     outputs, maps, the language server, man pages,
#                     build-system examples, hostile input, failing disks,
#                     valgrind memcheck; the suites that run segc's C again
#                     under ASan+UBSan; a fixed fuzzing smoke run; one
#                     closing total
#   make coverage     line and branch coverage of compiler/ (gcov)
#   make chroot-test  ./run demo and ./run test in a fresh Debian 12 chroot
#   make fuzz         libFuzzer targets, FUZZ_SECONDS=N each (default 60)
#   make windows      build/windows/segc.exe (mingw-w64; make windows-test runs it under Wine)
#   make install      PREFIX=/usr/local DESTDIR= (segc, man pages, CMake package)
#   make bench        build, lookup and language-server benchmarks (bench/)
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
PYTHON   ?= /usr/bin/python3

YAML_CFLAGS  := $(shell pkg-config --cflags yaml-0.1 2>/dev/null)
YAML_LIBS    := $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)
JSON_CFLAGS  := $(shell pkg-config --cflags jansson 2>/dev/null)
JSON_LIBS    := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
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

# The text segc writes (templates/) is compiled into the binary, so an
# installed segc needs no source tree: compiler/tools/frag.c writes the
# fragments and a typed function for each (frags.h).
$(B)/frag: compiler/tools/frag.c | $(B)
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

# ---- segc.exe ----------------------------------------------------------------

# x86_64 Windows, cross-built with Debian's mingw-w64 and statically linked
# (libyaml and jansson from Debian's source packages, winpthreads):
# build/windows/segc.exe, segc lsp included.
# The generators (re2c, Lemon, frag) run here; their output is shared.
WIN_CC     ?= x86_64-w64-mingw32-gcc
WIN_AR     ?= x86_64-w64-mingw32-ar
WB         := $(B)/windows
WIN_YAML   := $(WB)/libyaml/lib/libyaml.a
WIN_JSON   := $(WB)/jansson/lib/libjansson.a
WIN_EXE    := $(WB)/segc.exe
WIN_CFLAGS := -std=c11 -D_XOPEN_SOURCE=700 -D__USE_MINGW_ANSI_STDIO=1 -DYAML_DECLARE_STATIC -O2 \
              -Icompiler -I$(B)/gen -I$(WB)/libyaml/include -I$(WB)/jansson/include -MMD -MP
WIN_OBJ    := $(patsubst compiler/%.c,$(WB)/obj/%.o,$(C_SRC) compiler/main.c $(LSP_SRC)) \
              $(patsubst $(B)/gen/%.c,$(WB)/obj/gen/%.o,$(GEN_RE_C) $(GEN_Y_C) $(GEN_FRAG))

windows: $(WIN_EXE)
.PHONY: windows

$(WIN_YAML):
	sh build-aux/deb-src-mingw.sh libyaml $(WB)/libyaml $(WIN_CC) $(WIN_AR)
$(WIN_JSON):
	sh build-aux/deb-src-mingw.sh jansson $(WB)/jansson $(WIN_CC) $(WIN_AR)

$(WB)/obj/%.o: compiler/%.c $(WIN_YAML) $(WIN_JSON) | $(GEN_Y_H) $(B)/gen/frags.h
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) $(WARN) -c -o $@ $<
# (gcc 12 sees an out-of-bounds read in Lemon's table lookup that its guard rules out.)
$(WB)/obj/gen/%.o: $(B)/gen/%.c $(WIN_YAML) | $(GEN_Y_H) $(B)/gen/frags.h
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) -Wall -Werror -Wno-unused-variable -Wno-unused-but-set-variable -Wno-array-bounds -c -o $@ $<

$(WIN_EXE): $(WIN_OBJ) $(WIN_YAML) $(WIN_JSON)
	$(WIN_CC) -static -Wl,--no-insert-timestamp -o $@ $(WIN_OBJ) $(WIN_YAML) $(WIN_JSON) -lpthread

-include $(wildcard $(WB)/obj/*.d $(WB)/obj/gen/*.d $(WB)/obj/lsp/*.d)

# ---- tests -----------------------------------------------------------------

# Every suite runs through tests/suite.sh, which shows its output, keeps it
# in $(SEGC_RESULTS)/LABEL.log and records its counts for the closing line
# of `make test`.  Suites write only below their own scratch directories
# (tests/lib.sh), so any of them may run at the same time (make -j).  In
# the sanitizer pass (SAN=1) their labels end in -san and SEGC_SAN=1 tells
# them to repeat only what runs segc's own C.
export SEGC_RESULTS ?= $(abspath $(B))/results
SUITE = sh tests/suite.sh $(1)$(if $(filter 1,$(SAN)),-san)
ifeq ($(SAN),1)
export SEGC_SAN := 1
endif

# The unit runner finds each suite by the name its file exports
# (tests/unit/check_foo.c -> foo_suite).
$(B)/gen/suites.h: $(UNIT_SRC) | $(B)/gen
	@for f in $(UNIT_SRC); do \
	  sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void)$$/SUITE(\1)/p' $$f; \
	done > $@.tmp && mv $@.tmp $@

$(B)/obj/unit/%.o: tests/unit/%.c $(B)/gen/suites.h | $(B)/obj/unit $(GEN_Y_H)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Itemplates $(CHECK_CFLAGS) -c -o $@ $<

# The unit tests also link segc lsp's text context, which needs no JSON.
$(UNIT_BIN): $(UNIT_OBJ) $(B)/obj/lsp/context.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(YAML_LIBS)

unit: $(UNIT_BIN)
	@$(call SUITE,unit) sh tests/unit/run.sh $(UNIT_BIN)

golden: $(SEGC)
	@$(call SUITE,golden) sh tests/golden/run.sh $(SEGC)

# Every command and option of the command line (tests/cli/cases).
cli: $(SEGC)
	@$(call SUITE,cli) sh tests/cli/run.sh $(SEGC)

schema: $(SEGC) $(B)/schema.ok
	@SEGC=$(SEGC) $(call SUITE,schema) sh tests/schema/run.sh

gencode: $(SEGC)
	@$(call SUITE,gencode) sh tests/gen/run.sh $(SEGC) $(B) "$(SANFLAGS)"

lookup: $(SEGC)
	@$(call SUITE,lookup) sh tests/lookup/run.sh $(SEGC) $(B) "$(SANFLAGS)"

# Specs near every limit with random -Wno-/waivers: check and build agree,
# and what exits 0 compiles with -Werror -pedantic and passes its self-test.
PROPERTY_CASES ?= 160
PROPERTY_SEED  ?= 20261124
property: $(SEGC)
	@SEGC_QUIET=1 $(call SUITE,property) sh tests/property/run.sh $(SEGC) $(B) $(PROPERTY_CASES) $(PROPERTY_SEED)
.PHONY: property

# `segc check` exits 0 if and only if `segc build` does, over every spec of
# the tree and the property specs, with the defaults, each --ddi list, a
# small --lookup-budget, -Werror and -Wno- of each advisory; every build
# that exits 0 compiles with -Werror -pedantic (tests/agree).
agree: $(SEGC)
	@PYTHON=$(PYTHON) $(call SUITE,agree) sh tests/agree/run.sh $(SEGC) $(B) $(PROPERTY_CASES) $(PROPERTY_SEED)
.PHONY: agree

# segc diff over pairs of specs (tests/diff/).
diff-test: $(SEGC)
	@PYTHON=$(PYTHON) $(call SUITE,diff-test) sh tests/diff/run.sh $(SEGC)

# --diagnostics=json|sarif and dump --json, validated against the SARIF
# 2.1.0 schema that tests/deps.sh --install cached (outside the tree).
json-test: $(SEGC)
	@$(call SUITE,json-test) sh tests/json/run.sh $(SEGC) $(B)

# `segc map` rendered in headless Chromium and measured (tests/map/run.sh).
map-test: $(SEGC)
	@$(call SUITE,map-test) sh tests/map/run.sh $(SEGC) $(B)

# The man pages against the tables the code reads: every key and option
# segc takes is documented and exercised by a test, every one documented
# is taken (tests/man/check.py).
man-test: $(SEGC) $(TABLES)
	@$(call SUITE,man-test) sh tests/man/run.sh $(SEGC) $(TABLES)

# The build-system examples, against a `make install` into a temporary prefix.
examples-test: $(SEGC)
	@$(call SUITE,examples-test) sh tests/examples/run.sh $(B)

# The bash and zsh completions (completions/) against this segc.
completion-test: $(SEGC)
	@$(call SUITE,completion-test) sh tests/completion/run.sh $(SEGC)

# The VS Code extension (editors/vscode) packaged offline with the cached
# vsce and run with a stub VS Code; README's editors section (tests/editors).
editors-test:
	@$(call SUITE,editors-test) sh tests/editors/run.sh

# --diagnostics=msvc against MSBuild's canonical error format.
msvc-test: $(SEGC)
	@$(call SUITE,msvc-test) sh tests/msvc/run.sh $(SEGC)

# segc.exe under Wine against the Linux segc, byte for byte (tests/windows).
windows-test: $(SEGC) $(WIN_EXE)
	@$(call SUITE,windows-test) sh tests/windows/run.sh $(SEGC) $(WIN_EXE) $(WB)/test

hostile: $(SEGC)
	@SEGC_QUIET=1 $(call SUITE,hostile) sh tests/hostile/run.sh $(SEGC)

disk: $(SEGC)
	@$(call SUITE,disk) sh tests/hostile/disk.sh $(SEGC) $(B)

# segc lsp driven as an editor drives it (tests/lsp/).
lsp-test: $(SEGC)
	@PYTHON=$(PYTHON) $(call SUITE,lsp-test) sh tests/lsp/run.sh $(SEGC)

# valgrind memcheck over the unit runner and segc (normal build only).
memcheck: $(SEGC) $(UNIT_BIN)
	@$(call SUITE,memcheck) sh tests/memcheck.sh $(B)

# The suites of one pass, longest first so that make -j finishes soonest.
# The sanitizer pass repeats those that run segc's own C (and, with
# SEGC_SAN=1, only that part of them): CMake, groff and Chromium have
# nothing new to say about an ASan build of segc.
SUITES     := gencode memcheck lookup property agree examples-test windows-test dist-test map-test json-test \
              hostile unit golden cli schema disk diff-test lsp-test editors-test man-test msvc-test \
              completion-test
SAN_SUITES := gencode lookup hostile json-test unit golden cli disk diff-test lsp-test map-test schema
suites: $(filter-out memcheck,$(SUITES))
san-suites: $(SAN_SUITES)
TEST_LABELS = $(SUITES) $(SAN_SUITES:%=%-san) fuzz-smoke

# The whole test command: every suite of the normal build (with valgrind
# memcheck), the sanitizer pass (ASan+UBSan, in $(B)/san) and a fixed
# libFuzzer smoke run (in $(B)/fuzz), all at once on $(TEST_JOBS) jobs
# (the machine's cores unless make was given -j itself).  Each suite shows
# what is not "ok" (its whole log is in $(SEGC_RESULTS)); then one line
# per suite and the closing "N passed, M failed", the total of them all.
# The three passes are three sub-makes, each holding one job slot for as
# long as it runs: `test` gives them one slot more than the cores, so the
# fuzzing pass starts at once instead of waiting for another pass to end
# (which left one core idle for its whole run at the end).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_J = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(TEST_JOBS))
TEST_J_PASSES = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell echo $$(($(TEST_JOBS) + 1))))
test: deps-check
	@mkdir -p $(SEGC_RESULTS)
	@rm -f $(SEGC_RESULTS)/*
	@SEGC_QUIET=1 $(MAKE) -k $(TEST_J_PASSES) --output-sync=target --no-print-directory test-fuzz test-san test-normal; \
	  sh tests/summary.sh $(SEGC_RESULTS) $(TEST_LABELS)
test-normal:
	@$(MAKE) --no-print-directory $(SUITES)
test-san:
	@$(MAKE) --no-print-directory B=$(B)/san SAN=1 CFLAGS="-O1 -g" $(SAN_SUITES)
test-fuzz:
	@$(MAKE) --no-print-directory fuzz-smoke

# Lists what is missing; never installs (./run does that).
deps-check:
	@sh tests/deps.sh --check

# The fast subset a developer runs after an edit (under a minute on two
# idle cores): the suites that kill the most mutants of `make mutate` per
# second, most first, as `make mutate MUTATE_ARGS=--matrix` measured them
# (README.md, "Mutation testing").  mutate.py runs them in this order on
# a mutant until one fails; `make quick` starts them longest first (in
# reverse), so that the long ones do not run alone at the end.
QUICK_SUITES := unit golden diff-test cli lsp-test msvc-test disk json-test schema map-test property \
                hostile lookup gencode
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
quick: deps-check
	@mkdir -p $(SEGC_RESULTS)
	@rm -f $(SEGC_RESULTS)/*
	@SEGC_QUIET=1 $(MAKE) -k $(TEST_J) --output-sync=target --no-print-directory $(call reverse,$(QUICK_SUITES)); \
	  sh tests/summary.sh $(SEGC_RESULTS) $(QUICK_SUITES)

# Mutation testing (tests/mutate/mutate.py): MUTATE_COUNT single-line
# changes of the files MUTATE_SRC names, drawn with MUTATE_SEED, each
# built and run in a scratch copy of the tree against the quick suites,
# and the survivors against `make test`; MUTATE_TIME bounds the seconds
# (0: none), MUTATE_JOBS the mutants run at once.  Prints each survivor
# and the kill rates; fails below the goals, or when an entry of
# tests/mutate/equivalent.txt no longer matches any mutant.
# MUTATE_ARGS adds options (--matrix, --ids, --list, --keep: mutate.py -h).
MUTATE_SRC   := compiler/*.c compiler/*.h compiler/*.y compiler/*.re compiler/*.def \
                compiler/lsp/*.c compiler/lsp/*.h compiler/tools/*.c compiler/tools/*.h \
                templates/*.tmpl templates/*.frag templates/*.h
MUTATE_COUNT ?= 200
MUTATE_SEED  ?= 1
MUTATE_TIME  ?= 0
MUTATE_JOBS  ?= $(TEST_JOBS)
MUTATE_ARGS  ?=
MUTATE = $(PYTHON) tests/mutate/mutate.py --src '$(MUTATE_SRC)' --build 'all $(UNIT_BIN)' \
         --build-dir $(B) --quick '$(QUICK_SUITES)' --equivalent tests/mutate/equivalent.txt \
         --reuse '$(WB)/libyaml $(WB)/jansson $(WB)/wine' --jobs $(MUTATE_JOBS) --stop-on '^FAIL '
mutate:
	@$(MUTATE) --test test --count $(MUTATE_COUNT) --seed $(MUTATE_SEED) --time $(MUTATE_TIME) \
	  --goal-quick 85 --goal-test 95 $(MUTATE_ARGS)
.PHONY: quick mutate

# Line and branch coverage of compiler/*.c and compiler/lsp/*.c over the suites that run
# segc's own C (those of the sanitizer pass, with SEGC_SAN=1; the man
# pages' --help runs; the property cases; --diagnostics=msvc, whose test
# runs `segc rules --markdown`, every code's explanation): segc built with gcc --coverage in $(B)/cov, earlier
# counts cleared, then per file and in total (tests/coverage.sh, gcov).
# Instrumented -O0 code is slower: the hostile cases get 120 s of CPU each.
# The suites' records go to $(B)/cov/results, so a `make test` running at
# the same time keeps its own.
COV_SUITES := $(SAN_SUITES) man-test property msvc-test
coverage:
	@rm -f $(B)/cov/obj/*.gcda $(B)/cov/obj/gen/*.gcda $(B)/cov/obj/lsp/*.gcda
	@SEGC_RESULTS=$(abspath $(B))/cov/results SEGC_SAN=1 SEGC_QUIET=1 HOSTILE_TIMEOUT=120 $(MAKE) -k $(TEST_J) --output-sync=target --no-print-directory \
	  B=$(B)/cov CC=gcc CFLAGS="-O0 -g --coverage" LDFLAGS=--coverage $(COV_SUITES); \
	  status=$$?; sh tests/coverage.sh $(B)/cov && exit $$status

# `./run demo` and `./run test` as root in a new minimal Debian 12 chroot
# built with debootstrap (tests/chroot.sh): what a truly fresh machine
# does with the README.  Needs root and the Debian mirror; not in `test`.
chroot-test:
	@sh tests/chroot.sh

# ---- benchmarks --------------------------------------------------------------

# Ratios against baselines measured in the same run; never a timed assertion.
# bench/build.sh: segc build's instructions against segc --version's (goal:
# at most 8 times, for samples/discrete.yaml); bench/run.sh: the generated
# lookup; bench/lsp.sh: diagnostics after an edit in segc lsp against segc
# check afresh (LSP_EDITS=N edits per board).
bench: $(SEGC)
	@sh bench/build.sh $(SEGC) $(B)
	@sh bench/run.sh $(SEGC) $(B)
	@sh bench/lsp.sh $(SEGC) $(B)
bench-lsp: $(SEGC)
	@sh bench/lsp.sh $(SEGC) $(B)

# ---- fuzzing (libFuzzer; clang) --------------------------------------------

# `make fuzz FUZZ_SECONDS=N` builds the library and the three targets of
# tests/fuzz/ with clang -fsanitize=fuzzer,address,undefined in $(B)/fuzz
# (through the pattern rules above, B=$(B)/fuzz SAN=fuzz) and runs each for
# N seconds.  `make fuzz-smoke` replays every seed and regression input and
# runs each target for exactly FUZZ_SMOKE_RUNS inputs from a fixed seed
# (FUZZ_SEED), so it does the same work on every machine; `make test` runs it.
FUZZ_SECONDS    ?= 60
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_SEED       ?= 1
FUZZ_TARGETS       := pipeline expr lsp

$(B)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB) $(YAML_LIBS)
# The language server's reader and dispatcher: the lsp objects (built with
# the same flags, in $(B)/obj/lsp) and jansson (not instrumented).
$(B)/fuzz_lsp: tests/fuzz/fuzz_lsp.c $(LSP_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LSP_OBJ) $(LIB) $(YAML_LIBS) $(JSON_LIBS)

fuzz-bin: $(FUZZ_TARGETS:%=$(B)/fuzz_%)

fuzz:
	$(MAKE) B=$(B)/fuzz CC=clang SAN=fuzz CFLAGS="-O1 -g" fuzz-bin
	@sh tests/fuzz/run.sh $(B)/fuzz --seconds $(FUZZ_SECONDS)

fuzz-smoke:
	@$(MAKE) --no-print-directory B=$(B)/fuzz CC=clang SAN=fuzz CFLAGS="-O1 -g" fuzz-bin
	@FUZZ_SEED=$(FUZZ_SEED) $(call SUITE,fuzz-smoke) sh tests/fuzz/run.sh $(B)/fuzz --runs $(FUZZ_SMOKE_RUNS)

# ---- install ---------------------------------------------------------------

# segc, its man pages, the CMake package (find_package(segc)) and the JSON
# Schemas (for editors).
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/segc
CMAKEDIR ?= $(PREFIX)/lib/cmake/segc
# Where bash-completion and zsh look for a command's completion.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
VERSION  := $(shell sed -n 's/^\#define SEGC_VERSION "\(.*\)"$$/\1/p' compiler/segc.h)

$(B)/segcConfigVersion.cmake: cmake/segcConfigVersion.cmake.in compiler/segc.h | $(B)
	sed 's/@SEGC_VERSION@/$(VERSION)/g' $< > $@

install: $(SEGC) $(B)/segcConfigVersion.cmake $(B)/segc.schema.json
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(CMAKEDIR)
	install -m 755 $(SEGC) $(DESTDIR)$(PREFIX)/bin/segc
	install -m 644 doc/segc.1 $(DESTDIR)$(MANDIR)/man1/segc.1
	install -m 644 doc/segc.5 $(DESTDIR)$(MANDIR)/man5/segc.5
	install -m 644 cmake/segcConfig.cmake $(B)/segcConfigVersion.cmake $(DESTDIR)$(CMAKEDIR)
	install -d $(DESTDIR)$(SHAREDIR)
	install -m 644 $(B)/segc.schema.json schema/model.schema.json schema/diagnostics.schema.json schema/diff.schema.json $(DESTDIR)$(SHAREDIR)
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 644 completions/segc.bash $(DESTDIR)$(BASHCOMPDIR)/segc
	install -m 644 completions/_segc $(DESTDIR)$(ZSHCOMPDIR)/_segc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/segc $(DESTDIR)$(MANDIR)/man1/segc.1 $(DESTDIR)$(MANDIR)/man5/segc.5
	rm -f $(DESTDIR)$(CMAKEDIR)/segcConfig.cmake $(DESTDIR)$(CMAKEDIR)/segcConfigVersion.cmake
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(SHAREDIR)/segc.schema.json $(DESTDIR)$(SHAREDIR)/model.schema.json $(DESTDIR)$(SHAREDIR)/diagnostics.schema.json $(DESTDIR)$(SHAREDIR)/diff.schema.json
	rmdir $(DESTDIR)$(SHAREDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(BASHCOMPDIR)/segc $(DESTDIR)$(ZSHCOMPDIR)/_segc
	rmdir $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(BASHCOMPDIR)/.. $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)/.. 2>/dev/null || true

# Release archives in $(B)/dist (build-aux/dist.sh): sources, Linux x86_64,
# Windows x86_64; the same commit gives the same bytes.
dist: $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake
	@sh build-aux/dist.sh $(B)/dist $(VERSION) $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake

# Two `make dist` give the same bytes, and segc.exe runs from the zip.
dist-test: $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake
	@$(call SUITE,dist-test) sh tests/dist/run.sh $(B) $(VERSION)

clean:
	rm -rf $(B)

.PHONY: dist dist-test windows windows-test msvc-test completion-test editors-test lsp-test bench bench-lsp all unit golden cli schema gencode lookup diff-test json-test map-test man-test examples-test \
        hostile disk memcheck suites san-suites test test-normal test-san test-fuzz deps-check chroot-test coverage \
        install uninstall clean fuzz fuzz-bin fuzz-smoke

-include $(wildcard $(B)/obj/*.d $(B)/obj/gen/*.d $(B)/obj/unit/*.d $(B)/obj/lsp/*.d $(B)/tables.d)

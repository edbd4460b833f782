#!/bin/sh
# SPDX-License-Identifier: MIT
# Man page tests: doc/segc.1 and doc/segc.5.
#
#   SEGC=build/segc SEGC_TABLES=build/tables sh tests/doc/man.sh   (a part of tests/doc/run.sh)
#
#   - `man --warnings -l` (man-db, MANWIDTH=80) and `groff -man -ww -z` print
#     no warning for either page;
#   - `segc --help` and `segc COMMAND --help` exit 0 for every command;
#   - tests/doc/man.py, from the tables the code reads (`tables keys`,
#     `tables options`): every key and option segc takes is documented in
#     segc.5 and segc.1 and exercised by a test, every one they document is
#     taken, every WDDM version is named with the <PREFIX>_WDDM_VERSION
#     value segc build writes for it, no rendered line is wider than 80
#     columns;
#   - that check fails on a key, an option, an option's value or a WDDM
#     version the tables gain alone, on a paragraph the page loses or gains
#     alone, and on a WDDM_VERSION value the page gets wrong.
#
# Prints `ok   WHAT` or `FAIL WHAT: WHY` per check, then `man: N passed, M failed`.
set -u
SEGC=${SEGC:?SEGC names the segc to test}
TABLES=${SEGC_TABLES:?SEGC_TABLES names the tables program (build/tables)}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin man
PY=${PYTHON:-/usr/bin/python3}

for tool in man groff; do
    command -v $tool >/dev/null 2>&1 || bad "$tool" "not installed (sh tests/deps.sh --install)"
done

for page in doc/segc.1 doc/segc.5; do
    MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/warn" >/dev/null
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/warn" ]; then
        ok "$page: man --warnings -l: no warning"
    else
        bad "$page: man --warnings -l" "exit $rc: $(head -n 5 "$tmp/warn")"
    fi
    groff -man -ww -z "$page" 2>"$tmp/warn"
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/warn" ]; then
        ok "$page: groff -man -ww: no warning"
    else
        bad "$page: groff -man -ww" "exit $rc: $(head -n 5 "$tmp/warn")"
    fi
done

# Every command's --help: exit 0, its usage on standard output.
cmds=$("$SEGC" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || bad "segc --help" "lists no commands"
for c in $cmds; do
    "$SEGC" "$c" --help >"$tmp/help" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "^usage: segc $c" "$tmp/help"; then
        ok "segc $c --help: exit 0, usage"
    else
        bad "segc $c --help" "exit $rc: $(head -n 2 "$tmp/help")"
    fi
done

"$TABLES" keys >"$tmp/keys" && "$TABLES" options >"$tmp/options" || bad "$TABLES" "exit $?"
"$PY" tests/doc/man.py "$SEGC" doc "$tmp/keys" "$tmp/options" >"$tmp/check" 2>&1
rc=$?
cat "$tmp/check"
pass=$((pass + $(grep -c '^ok ' "$tmp/check")))
fail=$((fail + $(grep -c '^FAIL ' "$tmp/check")))
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$tmp/check"; then
    bad "tests/doc/man.py" "exit $rc"
fi

# refused WHAT DOC KEYS OPTIONS PATTERN: check.py fails on a doctored input
# with a FAIL line matching PATTERN (grep -E).
refused() {
    "$PY" tests/doc/man.py "$SEGC" "$2" "$3" "$4" >"$tmp/refused" 2>&1
    line=$(grep -E "^FAIL .*$5" "$tmp/refused" | head -n 1)
    if [ -n "$line" ]; then ok "$1: $line"; else bad "$1" "no FAIL line matching '$5'"; fi
}
mkdir -p "$tmp/doc"
printf 'segments #\tzz_key\texpr\t\tfield\treplace\n' | cat "$tmp/keys" - >"$tmp/keys+"
refused "a key the table gains alone" doc "$tmp/keys+" "$tmp/options" "key zz_key of segments #: no .TP paragraph"
refused "a key no test writes" doc "$tmp/keys+" "$tmp/options" "key zz_key of segments #: written in no spec"
printf 'build\t--zz-option\t-\n' | cat "$tmp/options" - >"$tmp/options+"
refused "an option the table gains alone" doc "$tmp/keys" "$tmp/options+" "segc build --zz-option: taken by the code, documented in no"
refused "an option no test gives" doc "$tmp/keys" "$tmp/options+" "segc build --zz-option: exercised by no test"
awk '/^\.B commit_limit$/ { drop = 1 } drop && /^\.TP$/ { drop = 0 } !drop' doc/segc.5 >"$tmp/doc/segc.5"
cp doc/segc.1 "$tmp/doc/segc.1"
refused "a key the page loses alone" "$tmp/doc" "$tmp/keys" "$tmp/options" "key commit_limit of segments #: no .TP paragraph"
sed 's/^\.B new$/.B neu/' doc/segc.5 >"$tmp/doc/segc.5"
refused "a key the page gains alone" "$tmp/doc" "$tmp/keys" "$tmp/options" "section segments: neu: no map documented there has such a key"
sed 's/\[auto, always or never\]/[auto, always, never or sometimes]/' "$tmp/options" >"$tmp/options-v"
refused "a value an option's table row gains alone" doc "$tmp/keys" "$tmp/options-v" "segc check --color sometimes: a value the table lists, named in no paragraph"
refused "a value no test gives" doc "$tmp/keys" "$tmp/options-v" "segc check --color sometimes: given to no command by a test"
sed 's/"2\.4": 0x2400;/"2.4": 0x2401;/' doc/segc.5 >"$tmp/doc/segc.5"
refused "a WDDM_VERSION value the page gets wrong" "$tmp/doc" "$tmp/keys" "$tmp/options" "wddm 2.4: documented WDDM_VERSION 0x2401, segc build writes 0x2400"
sed 's/ 3\.0 3\.1	/ 3.0 3.1 3.2	/' "$tmp/keys" >"$tmp/keys-v"
refused "a WDDM version the table gains alone" doc "$tmp/keys-v" "$tmp/options" "wddm 3.2: not named in its section"
cp doc/segc.5 "$tmp/doc/segc.5"
sed 's/^\.B \\-\\-annotate$/.B \\-\\-annotated/' doc/segc.1 >"$tmp/doc/segc.1"
refused "an option the page gains alone" "$tmp/doc" "$tmp/keys" "$tmp/options" "--annotated: segc build does not take it"

suite_end

#!/bin/sh
# SPDX-License-Identifier: MIT
# Form coverage comes from the field table, not from rules written one by
# one: segc built with one more row of fields.def (fields/test-fields.def,
# a field that QUERYSEGMENT3 and QUERYSEGMENT4 carry and QUERYSEGMENT does
# not; `make gen-fields` builds it in BUILD_DIR/field-test) reports the
# field where a form the build answers cannot carry it ([key-not-emitted],
# at the key), keeps quiet where every form can, writes nothing for the
# first and the member for the second, and has the rule table of segc
# itself.
#
#   sh tests/gen/run.sh build/segc build "" fields
#   SEGC_UPDATE=1 sh tests/gen/run.sh build/segc build "" fields
#                   rewrite tests/gen/fields/expect/
set -u
SEGC=${1:?usage: fields.sh path/to/segc BUILD_DIR}
B=${2:?usage: fields.sh path/to/segc BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin fields
top=$(pwd)
case $SEGC in /*) ;; *) SEGC=$top/$SEGC ;; esac
TSEGC=$top/$B/field-test/segc
[ -x "$TSEGC" ] || bad "$TSEGC" "not built (make gen-fields builds it)"
D=tests/gen/fields

# The same rules: the row added a key, not a rule.
"$SEGC" rules >"$tmp/rules" 2>&1
"$TSEGC" rules >"$tmp/trules" 2>&1
if [ -s "$tmp/rules" ] && cmp -s "$tmp/rules" "$tmp/trules"; then
    ok "the test build has segc's rules, no more"
else
    bad "the test build has segc's rules, no more" "segc rules differs"
fi

# segc itself does not know the key: the row is what adds it.
"$SEGC" check --color=never $D/spec13.yaml >/dev/null 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q '\[unknown-key\] unknown key .test_qs3_qs4.' "$tmp/err"; then
    ok "segc without the row refuses the key"
else
    bad "segc without the row refuses the key" "$(head -n 3 "$tmp/err")"
fi

# check: EXIT, then the arguments; stderr compared with expect/NAME.err
# (none: nothing at all).
check() { # NAME EXIT ARGS...
    name=$1 want=$2
    shift 2
    "$TSEGC" check --color=never "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    exp=$D/expect/$name.err
    if updating; then
        if [ -s "$tmp/err" ]; then cp "$tmp/err" "$exp"; else rm -f "$exp"; fi
    fi
    if [ "$rc" -ne "$want" ]; then
        bad "check $name" "exit $rc, expected $want"
        indent <"$tmp/err"
    elif [ -f "$exp" ] && ! cmp -s "$exp" "$tmp/err"; then
        bad "check $name" "diagnostics differ from $exp"
        diff -u "$exp" "$tmp/err" | head -n 20 | sed 's/^/    /'
    elif [ ! -f "$exp" ] && [ -s "$tmp/err" ]; then
        bad "check $name" "diagnostics where none were expected"
        indent <"$tmp/err"
    else
        ok "check $name"
    fi
}
check qs3 0 $D/spec13.yaml
check qs4 0 $D/spec20.yaml
check qs-beside-qs3 1 --ddi qs,qs3 $D/spec13.yaml
check qs-of-wddm11 1 $D/spec11.yaml
check qs-beside-qs4 1 --ddi qs,qs4 $D/spec20.yaml
for f in qs-beside-qs3 qs-of-wddm11 qs-beside-qs4; do
    if grep -q "error: \[key-not-emitted\] 'test_qs3_qs4' of segment 'vram' cannot be carried by the QUERYSEGMENT answer" \
        $D/expect/$f.err 2>/dev/null; then
        ok "$f: key-not-emitted at the key"
    else
        bad "$f: key-not-emitted at the key" "not in $D/expect/$f.err"
    fi
done

# build: nothing written where a form lacks the field; the member where
# the forms carry it.
"$TSEGC" build --ddi qs,qs3 -o "$tmp/out1" $D/spec13.yaml >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 1 ] && [ -z "$(ls -A "$tmp/out1" 2>/dev/null)" ]; then
    ok "build --ddi qs,qs3 writes nothing"
else
    bad "build --ddi qs,qs3 writes nothing" "exit $rc; $(ls "$tmp/out1" 2>/dev/null)"
fi
# built NAME SPEC PATTERN: segc builds SPEC and its .c has PATTERN.
built() {
    if "$TSEGC" build -o "$tmp/$1" "$2" >/dev/null 2>&1 && grep -q "$3" "$tmp/$1"/*_segments.c; then
        ok "build ($1) writes the member"
    else
        bad "build ($1) writes the member"
    fi
}
built QUERYSEGMENT3 $D/spec13.yaml 'pDesc\[0\]\.TestMember = 2u;'
built QUERYSEGMENT4 $D/spec20.yaml 'pDesc->TestMember = 2u;'
suite_end

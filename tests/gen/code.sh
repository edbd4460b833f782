#!/bin/sh
# SPDX-License-Identifier: MIT
# Generated-code tests: for every sample, segc build, then
#   - compile the output with gcc and clang, -std=c99 and -std=c11,
#     -Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion (once,
#     with the self-test below: the <board>_segments.[ch] it compiles are
#     checked to be the same bytes);
#   - link tests/gen/check_handler.c against it (with both compilers) and
#     run the handler against tests/gen/expect/<sample>.txt, values
#     computed by hand from the spec;
#   - determinism: a build from another directory is byte-identical, a
#     rebuild keeps mtimes, --annotate still compiles;
#   - safety: an invalid spec leaves existing outputs untouched;
#   - every DDI form a sample can express (--ddi, see forms_of below):
#     built, compiled the same ways, the legacy/QUERYSEGMENT4 handlers and
#     the dispatcher run, and the output compared with the reviewed golden
#     files in tests/gen/golden/ (SEGC_UPDATE=1 rewrites them; review
#     the diff).  The goldens show each lookup table's declaration, and the
#     comment above it with its form, bytes and loads per lookup, but its
#     entries only as their count (checked against the declared size):
#     tests/gen/lookup.sh proves the entries against an independent reference;
#   - --emit-selftest (default forms and every form): the generated
#     <board>_selftest.c compiled with both compilers at C99 and C11,
#     -pedantic -Werror, and run: it passes; run against a copy of the
#     generated .c with a descriptor flag, a bank end or a segment base
#     changed, it fails and its report names the field; no self-test
#     without the option; the same bytes from another directory; built by
#     a segc whose emitter writes a wrong paging segment id, it fails;
#     for the SELFTEST_GOLDENS samples, its text against a reviewed golden;
#   - the hook files of --templates, and a whole-template override refused.
#   - DXGK_ALLOCATIONINFO, DXGK_SEGMENTPREFERENCE and
#     DXGK_SEGMENTBANKPREFERENCE against a layout computed from ReactOS's
#     independent declaration (tests/gen/layout_independent.py);
#   - allocation classes on both pointer widths: tests/gen/classes-x86.yaml's
#     self-test (a 0xA5-filled DXGK_ALLOCATIONINFO per class) run for
#     32-bit x86 (gcc -m32: the 60-byte layout) and x64 (88 bytes), and
#     shown to fail on a FillAllocationInfo that writes a sixth member,
#     a changed placement row or an unknown class accepted.
#     tests/gen/classes-wddm2.yaml the same beside a QuerySegment4
#     handler (--ddi qs4), on x64.
#
#   sh tests/gen/run.sh build/segc build ["-fsanitize=..."] code
#
# In the sanitizer pass (SEGC_SAN=1) every segc run is repeated and the
# handlers and self-tests run under the sanitizers once per compiler; the
# compile-only checks (-pedantic at both standards, segc_dxgk.h alone, the
# tampered self-tests) are not, since their verdicts do not depend on how
# segc was built.
set -u
SEGC=$1
B=$2
SAN=${3:-}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin gencode
top=$(pwd)
case $SEGC in /*) ;; *) SEGC=$top/$SEGC ;; esac
out=$top/$B/gen-test
rm -rf "$out"
mkdir -p "$out"
CHECK_FLAGS=$(pkg-config --cflags --libs check)
COMPILERS=""
for c in gcc clang; do have $c && COMPILERS="$COMPILERS $c"; done

# The forms each sample can express: banks and AGP rule out QUERYSEGMENT4,
# a partially preserved segment the legacy QUERYSEGMENT, and QUERYSEGMENT4's
# own fields both older forms.
forms_of() {
    case $1 in
    paravirtual) echo qs,qs3,qs4 ;;
    integrated) echo qs3,qs4 ;;
    wddm2) echo qs4 ;;
    *) echo qs,qs3 ;;
    esac
}

# elide_tables FILE: FILE with the entries of each lookup table (Levels,
# Starts, StartRegion) replaced by one line giving their count, and saying
# so when the count is not the size the declaration gives.
# golden WHAT DIR FILE: DIR/FILE, its lookup tables elided, is the
# reviewed tests/gen/golden/$name/FILE (SEGC_UPDATE=1 writes it).
golden() {
    g=tests/gen/golden/$name/$3
    elide_tables "$2/$3" >"$out/$name.elided"
    if updating; then
        mkdir -p "tests/gen/golden/$name"
        cp "$out/$name.elided" "$g"
    fi
    if cmp -s "$out/$name.elided" "$g"; then
        ok "$1: $3 matches $g"
    else
        bad "$1: $3 matches $g" "$(diff -u "$g" "$out/$name.elided" 2>&1 | head -n 20)"
    fi
}

# The samples whose self-test text is compared with a reviewed golden as
# well as compiled and run: a banked QUERYSEGMENT/QUERYSEGMENT3 board and
# a QUERYSEGMENT4 one, so a change of any of the self-test's words is seen.
SELFTEST_GOLDENS="discrete wddm2"

elide_tables() {
    awk '
    body && $0 == "};" {
        printf "    /* %d entries%s; tests/gen/lookup.sh checks them */\n", n, n == want ? "" : ", but declared " want
        print
        body = 0
        next
    }
    body { n += gsub(/,/, ","); next }
    /^static const [A-Z0-9]+ [A-Za-z0-9]+(Level[0-9]+|Starts|StartRegion)\[[0-9]+\] = \{$/ {
        print
        want = $0
        sub(/^[^[]*\[/, "", want)
        sub(/\].*$/, "", want)
        body = 1
        n = 0
        next
    }
    { print }' "$1"
}

# Byte-identical outputs (wddm2 --ddi qs4 writes what its default does) are
# compiled and run once: a check whose inputs were seen before passes only
# if the one it repeats passed, and its line names that one.
#   key FILE...      what the files hold, with their names, as one hash
#   recall KEY CHECK the earlier verdict of CHECK on KEY ("ok|bad NAME")
#   remember KEY CHECK ok|bad NAME
key() { for f in "$@"; do echo "${f##*/}"; cat "$f"; done 2>/dev/null | md5sum | cut -d' ' -f1; }
recall() { sed -n "s/^$1 $2 //p" "$out/verdicts" 2>/dev/null | tail -n 1; }
remember() { echo "$1 $2 $3 $4" >>"$out/verdicts"; }
# repeated KEY CHECK LABEL: true if KEY was checked before, and then the
# verdict of LABEL is that earlier one.
repeated() {
    prior=$(recall "$1" "$2")
    [ -n "$prior" ] || return 1
    case $prior in
    "ok "*) ok "$3: the same bytes as ${prior#ok }, which passed" ;;
    *) bad "$3" "the same bytes as ${prior#bad }, which failed" ;;
    esac
}

# harness NAME DIR BOARD EXPECT: the handler tests with both compilers.
harness() {
    hkey=$(key "$4" "$2"/*)
    for cc in $COMPILERS; do
        repeated "$hkey" "handler-$cc" "$1: handlers ($cc)" && continue
        remember "$hkey" "handler-$cc" bad "$1"
        # shellcheck disable=SC2086
        if $cc -std=c11 -O1 -g -Wall -Wextra -Werror $SAN -DSEGC_GENERIC_NAMES -DSEGC_HEADER="\"$3_segments.h\"" \
            -I"$2" tests/gen/check_handler.c "$2/$3_segments.c" $CHECK_FLAGS -o "$2.handler-$cc" 2>"$out/cc.err"; then
            if CK_FORK=no "$2.handler-$cc" "$4" >"$out/run.out" 2>&1; then
                ok "$1: handlers ($cc) answer as $4 says: $(tail -n 1 "$out/run.out")"
                remember "$hkey" "handler-$cc" ok "$1"
            else
                bad "$1: handlers ($cc)" "$(cat "$out/run.out")"
            fi
        else
            bad "$1: harness ($cc)" "$(head -n 10 "$out/cc.err")"
        fi
    done
}

# selftest NAME DIR BOARD: the generated self-test, built the way a driver
# team's CI would, passes with its one-line summary.  Its compile is also
# the -pedantic check of <board>_segments.c at both standards with both
# compilers (the normal pass; the sanitizer pass compiles C11 only).  Each
# file is compiled on its own (DIR.selftest-CC-STD.{selftest,segments}.o,
# which tamper reuses); -std=c99 objects byte-identical to -std=c11's make
# the same program, so it is not linked and run again: it passes only if
# the C11 one did.
selftest() {
    stds="c11 c99"
    sanitized && stds=c11
    skey=$(key "$2"/*)
    for cc in $COMPILERS; do
        for std in $stds; do
            repeated "$skey" "selftest-$cc-$std" "$1: self-test ($cc -std=$std)" && continue
            remember "$skey" "selftest-$cc-$std" bad "$1"
            flags="-std=$std -Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion"
            o=$2.selftest-$cc-$std
            c11=$2.selftest-$cc-c11
            # shellcheck disable=SC2086
            if ! { $cc $flags $SAN -I"$2" -c "$2/$3_selftest.c" -o "$o.selftest.o" &&
                $cc $flags $SAN -I"$2" -c "$2/$3_segments.c" -o "$o.segments.o"; } 2>"$out/cc.err"; then
                bad "$1: self-test compiles ($cc -std=$std)" "$(head -n 10 "$out/cc.err")"
                continue
            fi
            if [ "$std" != c11 ] && cmp -s "$o.selftest.o" "$c11.selftest.o" && cmp -s "$o.segments.o" "$c11.segments.o"; then
                case $(recall "$skey" "selftest-$cc-c11") in
                "ok "*)
                    ok "$1: $3_segments.c and the self-test compile ($cc $flags), to the objects -std=c11 gave, whose program passed"
                    remember "$skey" "selftest-$cc-$std" ok "$1"
                    ;;
                *) bad "$1: self-test ($cc -std=$std)" "the objects -std=c11 gave, whose program failed" ;;
                esac
                continue
            fi
            # shellcheck disable=SC2086
            if ! $cc $SAN "$o.selftest.o" "$o.segments.o" -o "$o" 2>"$out/cc.err"; then
                bad "$1: self-test compiles ($cc -std=$std)" "$(head -n 10 "$out/cc.err")"
                continue
            fi
            "$o" >"$out/st.out" 2>&1
            rc=$?
            if [ "$rc" -eq 0 ] && [ "$(wc -l <"$out/st.out")" -eq 1 ] &&
                grep -q "^$3_selftest.c: ok: [0-9]* checks passed" "$out/st.out"; then
                ok "$1: $3_segments.c and the self-test compile ($cc $flags) and pass: $(cat "$out/st.out")"
                remember "$skey" "selftest-$cc-$std" ok "$1"
            else
                bad "$1: self-test ($cc -std=$std)" "exit $rc: $(head -n 10 "$out/st.out")"
            fi
        done
    done
}

# tamper NAME DIR BOARD WHAT SED PATTERN: the self-test linked against a
# copy of the generated .c changed by SED exits 1, and a line of its report
# matches PATTERN (grep -E).  The self-test's object is the one selftest
# compiled; only the changed copy is compiled here.
tamper() {
    repeated "$tkey" "tamper-$4" "$1: self-test catches $4" && return
    remember "$tkey" "tamper-$4" bad "$1"
    t=$2.tampered
    rm -rf "$t"
    mkdir -p "$t"
    cp "$2/$3_segments.h" "$2/$3_selftest.c" "$2/segc_dxgk.h" "$t/"
    sed "$5" "$2/$3_segments.c" >"$t/$3_segments.c"
    if cmp -s "$2/$3_segments.c" "$t/$3_segments.c"; then
        bad "$1: self-test catches $4" "the sed script changed nothing"
        return
    fi
    cc=${COMPILERS# }
    cc=${cc%% *}
    # The self-test's own object, compiled from the same bytes by selftest
    # (-std=c11, stricter warnings), unless that compile failed.
    st=$2.selftest-$cc-c11.selftest.o
    [ -f "$st" ] || st=$t/$3_selftest.c
    # shellcheck disable=SC2086
    if ! { $cc -std=c11 -Wall -Wextra -Werror -pedantic $SAN -I"$t" -c "$t/$3_segments.c" -o "$t/segments.o" &&
        $cc -std=c11 -Wall -Wextra -Werror -pedantic $SAN -I"$t" "$st" "$t/segments.o" -o "$t/selftest"; } 2>"$out/cc.err"; then
        bad "$1: self-test catches $4" "$(head -n 10 "$out/cc.err")"
        return
    fi
    "$t/selftest" >"$out/st.out" 2>&1
    rc=$?
    if [ "$rc" -eq 1 ] && grep -Eq "$6" "$out/st.out" &&
        grep -q "^$3_selftest.c: FAILED: [0-9]* of [0-9]* checks differ from the spec$" "$out/st.out"; then
        ok "$1: self-test catches $4: $(grep -E "$6" "$out/st.out" | head -n 1)"
        remember "$tkey" "tamper-$4" ok "$1"
    else
        bad "$1: self-test catches $4" "exit $rc, no line matching '$6': $(head -n 10 "$out/st.out")"
    fi
}

# tampers NAME DIR BOARD: one descriptor field, one bank end, the AGP
# segment's SystemMemoryEndAddress (a board with one), output
# written on a refused request, one segment
# base (the table behind the lookups), each changed in the generated .c.
tampers() {
    src=$2/$3_segments.c
    tkey=$(key "$2"/*)
    # The first Flags written, with reserved bit 30 set after it.
    seg=$(sed -n "s/.*\/\* Segment \([0-9]*\) '\([a-z0-9_]*\)'.*/\1 '\2'/p" "$src" | head -n 1)
    flags=$(sed -n "s/.*\/\* ${seg%% *} [a-z0-9_]*: 0x\([0-9A-F]*\) \*\/\$/\1/p" "$src" | head -n 1)
    want=$(printf '0x%X' $((0x$flags)))
    got=$(printf '0x%X' $((0x$flags ^ 0x40000000)))
    tamper "$1" "$2" "$3" "a changed Flags" \
        '0,/\(pDesc\(\[[0-9]*\]\.\|->\)\)Flags = \([A-Za-z0-9]*\[[0-9]*\]\);/s//\1Flags = \3; \1Flags.Value ^= 0x40000000u;/' \
        "^QUERYSEGMENT[34]? via [A-Za-z0-9]+, second call.*: segment $seg Flags: got $got, expected $want\$"
    # The first bank end, 4 KiB further.
    end=$(sed -n 's/^    0x\([0-9A-F]*\)u, \/\* bank 1 .*/\1/p' "$src" | head -n 1)
    if [ -n "$end" ]; then
        want=$(printf '0x%X' $((0x$end)))
        got=$(printf '0x%X' $((0x$end + 0x1000)))
        tamper "$1" "$2" "$3" "a changed bank end" '0,/^\(    0x[0-9A-F]*u\), \/\* bank 1 /s//\1 + 0x1000u, \/* bank 1 /' \
            "^QUERYSEGMENT3? via [A-Za-z0-9]+, second call.*: segment [0-9]+ '[a-z0-9_]+' bank 1 end: got $got, expected $want\$"
    fi
    # The AGP segment's SystemMemoryEndAddress (0 in every answer), 4 KiB.
    if grep -q '^        pDesc\[[0-9]*\]\.SystemMemoryEndAddress = 0;$' "$src"; then
        tamper "$1" "$2" "$3" "a changed AGP SystemMemoryEndAddress" \
            's/^\(        pDesc\[[0-9]*\]\.SystemMemoryEndAddress = \)0;$/\10x1000u;/' \
            "^QUERYSEGMENT3 via [A-Za-z0-9]+, second call.*: segment [0-9]+ 'agp' SystemMemoryEndAddress: got 0x1000, expected 0x0\$"
    fi
    # A request refused for a short output block that writes into it first.
    tamper "$1" "$2" "$3" "output written on a refusal" \
        '0,/return STATUS_BUFFER_TOO_SMALL;/s//((unsigned char *)pQueryAdapterInfo->pOutputData)[0] ^= 1u; &/' \
        "^QUERYSEGMENT[34]? .*output block: got bytes written, expected none written\$"
    # Segment 1's first entry in the base table the lookups subtract (the
    # direct form's region bases, else the segment bases), 4 KiB higher.
    tamper "$1" "$2" "$3" "a changed segment base" '0,/^\( *\)\(0x[0-9A-F]*u\|0\), \/\* 1 /s//\1\2 + 0x1000u, \/* 1 /' \
        "^[A-Za-z0-9]+LookupGpuAddress\(0x[0-9A-F]+\) \[.*segment 1 .*\]: Offset: got 0x[0-9A-F]+, expected 0x[0-9A-F]+\$"
}

for spec in samples/*.yaml samples/chips/*.yaml; do
    name=$(basename "$spec" .yaml)
    exp=tests/gen/expect/$name.txt
    dir=$out/$name
    if ! "$SEGC" build "$spec" -o "$dir" 2>"$out/$name.err"; then
        bad "$name: build" "$(head -n 5 "$out/$name.err")"
        continue
    fi
    board=$(sed -n 's/^board //p' "$exp")
    src=$dir/${board}_segments.c
    if [ ! -f "$src" ]; then
        bad "$name: outputs" "no $src"
        continue
    fi
    ok "$name: build"

    harness "$name" "$dir" "$board" "$exp"

    # Every form the sample can express, against the reviewed goldens.
    forms=$(forms_of "$name")
    fdir=$out/$name.forms
    if "$SEGC" build -q --ddi "$forms" "$spec" -o "$fdir" -Wno-ddi-form-version; then
        harness "$name --ddi $forms" "$fdir" "$board" "$exp"
        for f in "${board}_segments.h" "${board}_segments.c"; do
            golden "$name --ddi $forms" "$fdir" "$f"
        done
    else
        bad "$name: build --ddi $forms"
    fi

    # --emit-selftest: only when asked; passes; catches changed tables.
    if ls "$dir"/*_selftest.c >/dev/null 2>&1; then
        bad "$name: no self-test without --emit-selftest" "$(ls "$dir")"
    else
        ok "$name: no self-test without --emit-selftest"
    fi
    for ddi in default "$forms"; do
        sdir=$out/$name.selftest-$ddi
        if [ "$ddi" = default ]; then
            "$SEGC" build -q --emit-selftest "$spec" -o "$sdir"
        else
            "$SEGC" build -q --emit-selftest --ddi "$ddi" -Wno-ddi-form-version "$spec" -o "$sdir"
        fi
        if [ ! -f "$sdir/${board}_selftest.c" ]; then
            bad "$name: build --emit-selftest ($ddi)" "no $sdir/${board}_selftest.c"
            continue
        fi
        # The same <board>_segments.c as without the option, so compiling
        # the self-test is the -pedantic check of what the build wrote.
        same=$dir
        [ "$ddi" = default ] || same=$fdir
        if cmp -s "$sdir/${board}_segments.c" "$same/${board}_segments.c" &&
            cmp -s "$sdir/${board}_segments.h" "$same/${board}_segments.h"; then
            ok "$name: --emit-selftest ($ddi) leaves ${board}_segments.[ch] as they were"
        else
            bad "$name: --emit-selftest ($ddi) leaves ${board}_segments.[ch] as they were"
        fi
        selftest "$name --emit-selftest ($ddi)" "$sdir" "$board"
        case " $SELFTEST_GOLDENS " in
        *" $name "*) [ "$ddi" = default ] || golden "$name --emit-selftest --ddi $forms" "$sdir" "${board}_selftest.c" ;;
        esac
        sanitized || tampers "$name --emit-selftest ($ddi)" "$sdir" "$board"
    done
    sanitized || sh tests/gen/portable.sh "$name --ddi $forms" "$spec" "$out/$name.selftest-$forms/${board}_segments.c" \
        "$out" >>"$out/portable.out"
    (cd "$tmp" && "$SEGC" build -q --emit-selftest "$top/$spec" -o "$out/$name.selftest-again") 2>/dev/null
    if cmp -s "$out/$name.selftest-default/${board}_selftest.c" "$out/$name.selftest-again/${board}_selftest.c"; then
        ok "$name: self-test byte-identical from another directory"
    else
        bad "$name: self-test byte-identical from another directory"
    fi

    # The same spec built from another directory gives the same bytes.
    abs=$top/$spec
    (cd "$tmp" && "$SEGC" build "$abs" -o "$out/$name.again") 2>/dev/null
    if diff -r "$dir" "$out/$name.again" >/dev/null; then
        ok "$name: byte-identical from another directory"
    else
        bad "$name: byte-identical from another directory" "$(diff -r "$dir" "$out/$name.again" | head -n 5)"
    fi

    # A rebuild with no change keeps every file's mtime.
    touch -d '2001-01-01 00:00:00' "$dir"/*
    before=$(ls -l --time-style=+%s "$dir" | awk '{print $6, $7}')
    "$SEGC" build "$spec" -o "$dir" 2>/dev/null
    after=$(ls -l --time-style=+%s "$dir" | awk '{print $6, $7}')
    if [ "$before" = "$after" ]; then ok "$name: unchanged rebuild keeps mtimes"; else bad "$name: unchanged rebuild keeps mtimes"; fi

    # An invalid spec leaves the previous outputs as they were.
    cp -p "$dir"/* "$out/" 2>/dev/null
    bad_spec=tests/cases/rules/size-nonzero.yaml
    sed "s/name: golden/name: $board/" "$bad_spec" >"$out/bad.yaml"
    if "$SEGC" build "$out/bad.yaml" -o "$dir" 2>/dev/null; then
        bad "$name: invalid spec refused"
    else
        after=$(ls -l --time-style=+%s "$dir" | awk '{print $6, $7}')
        if [ "$before" = "$after" ] && diff -r "$dir" "$out/$name.again" >/dev/null; then
            ok "$name: invalid spec leaves outputs untouched"
        else
            bad "$name: invalid spec leaves outputs untouched"
        fi
    fi

    # --annotate points every field written from the spec back at its YAML
    # line, in the file of the extends chain that wrote it (Reserved and the
    # AGP aperture's run-time values come from no line), and still compiles.
    "$SEGC" build --annotate --ddi "$forms" -Wno-ddi-form-version "$spec" -o "$out/$name.ann" 2>/dev/null
    ann=$out/$name.ann/${board}_segments.c
    unmarked=$(awk '/^    pDesc/ && /;/ && !/Reserved = 0;/ && !/^    pDesc = / &&
        !/\[[A-Za-z0-9_.-]+\.yaml:[0-9]+\]/' "$ann")
    if [ -f "$ann" ] && [ -z "$unmarked" ] && grep -Eq 'pDesc.*Size = .*\[[a-z0-9_]+\.yaml:[0-9]+\]' "$ann" &&
        gcc -std=c99 -Wall -Wextra -Werror -pedantic -I"$out/$name.ann" -c "$ann" -o /dev/null 2>/dev/null; then
        ok "$name: --annotate marks every field with its YAML line"
    else
        bad "$name: --annotate marks every field with its YAML line" "$(echo "$unmarked" | head -n 5)"
    fi
done

# Allocation classes on both pointer widths: tests/gen/classes-x86.yaml
# (every preference and bank slot filled, both directions) built with its
# self-test, which fills a 0xA5-filled DXGK_ALLOCATIONINFO for each class
# and finds the five placement members holding the spec's values and every
# other byte untouched; compiled and run for 32-bit x86 (gcc -m32: the
# 60-byte layout) and for this host (the 88-byte x64 layout).  Then the
# generated FillAllocationInfo changed to write Alignment too, and a
# placement row changed: the self-test fails, naming what it found.
if ! sanitized; then
    cls=$out/classes
    rm -rf "$cls"
    if "$SEGC" build -q --emit-selftest tests/gen/classes-x86.yaml -o "$cls" 2>"$out/cls.err"; then
        for m in -m32 ""; do
            width=${m:+x86}
            width=${width:-x64}
            # shellcheck disable=SC2086
            if gcc $m -std=c11 -Wall -Wextra -Werror -pedantic -I"$cls" "$cls"/contoso_c32_selftest.c \
                "$cls"/contoso_c32_segments.c -o "$cls/st$width" 2>"$out/cls.err" &&
                "$cls/st$width" >"$out/cls.out" && grep -q '^contoso_c32_selftest.c: ok: ' "$out/cls.out"; then
                size=$(printf '#include "segc_dxgk.h"\nint s = sizeof(DXGK_ALLOCATIONINFO);\n' |
                    gcc $m -I"$cls" -x c -S -o - - | sed -n 's/^[[:space:]]*\.long[[:space:]]*//p' | head -n 1)
                ok "allocation classes: the self-test's 0xA5 DXGK_ALLOCATIONINFO checks pass on $width ($size bytes)"
            else
                bad "allocation classes: self-test on $width" "$(head -n 5 "$out/cls.err" "$out/cls.out" 2>/dev/null)"
            fi
        done
        cp "$cls/contoso_c32_segments.c" "$cls/orig.c"
        catches() { # WHAT SED PATTERN
            sed "$2" "$cls/orig.c" >"$cls/contoso_c32_segments.c"
            if cmp -s "$cls/orig.c" "$cls/contoso_c32_segments.c"; then
                bad "allocation classes: the self-test catches $1" "the sed script changed nothing"
            elif gcc -std=c11 -I"$cls" "$cls"/contoso_c32_selftest.c "$cls"/contoso_c32_segments.c -o "$cls/stm" 2>"$out/cls.err" &&
                ! "$cls/stm" >"$out/cls.out" && grep -Eq "$3" "$out/cls.out"; then
                ok "allocation classes: the self-test catches $1: $(grep -E -m 1 "$3" "$out/cls.out")"
            else
                bad "allocation classes: the self-test catches $1" "$(head -n 5 "$out/cls.err" "$out/cls.out")"
            fi
        }
        catches "a write to Alignment" 's/^\(    pInfo->HintedBank.Value = placement\[4\];\)$/\1 pInfo->Alignment = 0u;/' \
            "^ContosoC32FillAllocationInfo\(class 0 'everything'\): a byte outside the five placement members: got 0x0, expected 0xA5\$"
        catches "a changed placement row" 's/^\(    { CONTOSO_C32_ALLOC_EVERYTHING_WRITE_SET\), /\1 ^ 4u, /' \
            "^ContosoC32FillAllocationInfo\(class 0 'everything'\): SupportedWriteSegmentSet: got 0x1B, expected 0x1F\$"
        catches "an unknown class accepted" 's/if (pInfo == NULL || (UINT)Class >= (UINT)CONTOSO_C32_ALLOCATION_CLASS_COUNT)/if (pInfo == NULL || (UINT)Class > (UINT)CONTOSO_C32_ALLOCATION_CLASS_COUNT)/' \
            "^ContosoC32FillAllocationInfo\(class 2, none of the spec's\): status: got STATUS_SUCCESS, expected STATUS_INVALID_PARAMETER\$"
        cp "$cls/orig.c" "$cls/contoso_c32_segments.c"
    else
        bad "allocation classes: build tests/gen/classes-x86.yaml" "$(head -n 5 "$out/cls.err")"
    fi
    # The same beside a QUERYSEGMENT4 handler: tests/gen/classes-wddm2.yaml
    # (WDDM 2.2, --ddi qs4) built with its self-test and run on x64, then
    # run against a placement row changed.
    w2=$out/classes-w2
    rm -rf "$w2"
    if "$SEGC" build -q --emit-selftest --ddi qs4 tests/gen/classes-wddm2.yaml -o "$w2" 2>"$out/cls.err" &&
        grep -q '^NTSTATUS ContosoCw2QuerySegment4(' "$w2/contoso_cw2_segments.c" &&
        grep -q '^NTSTATUS ContosoCw2FillAllocationInfo(' "$w2/contoso_cw2_segments.c" &&
        gcc -std=c11 -Wall -Wextra -Werror -pedantic -I"$w2" "$w2"/contoso_cw2_selftest.c \
            "$w2"/contoso_cw2_segments.c -o "$w2/st" 2>"$out/cls.err" &&
        "$w2/st" >"$out/cls.out" && grep -q '^contoso_cw2_selftest.c: ok: ' "$out/cls.out"; then
        ok "allocation classes beside QuerySegment4 (--ddi qs4): the self-test's checks pass"
        sed 's/^\(    { CONTOSO_CW2_ALLOC_RENDER_TARGET_WRITE_SET\), /\1 ^ 1u, /' \
            "$w2/contoso_cw2_segments.c" >"$w2/changed.c"
        if gcc -std=c11 -I"$w2" "$w2"/contoso_cw2_selftest.c "$w2/changed.c" -o "$w2/stm" 2>"$out/cls.err" &&
            ! "$w2/stm" >"$out/cls.out" &&
            grep -q "^ContosoCw2FillAllocationInfo(class 0 'render_target'): SupportedWriteSegmentSet: got 0x2, expected 0x3\$" "$out/cls.out"; then
            ok "allocation classes beside QuerySegment4: the self-test catches a changed placement row"
        else
            bad "allocation classes beside QuerySegment4: the self-test catches a changed placement row" \
                "$(head -n 5 "$out/cls.err" "$out/cls.out")"
        fi
    else
        bad "allocation classes beside QuerySegment4 (--ddi qs4)" "$(head -n 5 "$out/cls.err" "$out/cls.out" 2>/dev/null)"
    fi
fi

# The depfile names the spec and its whole extends chain.
"$SEGC" build samples/discrete_16g.yaml -o "$out/dep" -MD -MF "$out/dep/segments.d" 2>/dev/null
if grep -q '^.*contoso_r16_segments.c.*:' "$out/dep/segments.d" &&
    grep -q 'samples/discrete_16g.yaml' "$out/dep/segments.d" &&
    grep -q 'samples/chips/contoso_r.yaml' "$out/dep/segments.d"; then
    ok "depfile names the spec and its extends chain"
else
    bad "depfile names the spec and its extends chain" "$(cat "$out/dep/segments.d" 2>/dev/null)"
fi

# The self-test does not trust the emitter: a segc whose emit.c writes the
# paging segment's id minus one (in the header's macro, and so in every
# handler) builds a self-test that fails on it, because the self-test
# works its values out from the spec itself (compiler/selftest.c).  The
# mutant is this build's objects with emit.c compiled again, changed.
if ! sanitized; then
    mut=$out/mutant
    rm -rf "$mut"
    mkdir -p "$mut"
    sed 's/s->paging\.seg ? s->paging\.seg->id : 0/s->paging.seg ? s->paging.seg->id - 1 : 0/' compiler/emit.c >"$mut/emit.c"
    if cmp -s compiler/emit.c "$mut/emit.c"; then
        bad "a self-test catches the emitter's paging segment id minus one" "the sed script changed nothing in emit.c"
    elif ! { cc -std=c11 -D_XOPEN_SOURCE=700 -O1 -Icompiler -I"$B/gen" -c "$mut/emit.c" -o "$mut/emit.o" &&
        cc -pthread -o "$mut/segc" "$B/obj/main.o" "$B"/obj/lsp/*.o "$mut/emit.o" "$B/libsegc.a" \
            $(pkg-config --libs yaml-0.1 jansson) &&
        "$mut/segc" build -q --emit-selftest samples/discrete.yaml -o "$mut/out" &&
        cc -std=c11 -I"$mut/out" "$mut/out/contoso_d8_selftest.c" "$mut/out/contoso_d8_segments.c" -o "$mut/selftest"; } \
        2>"$mut/err"; then
        bad "a self-test catches the emitter's paging segment id minus one" "$(head -n 5 "$mut/err")"
    else
        "$mut/selftest" >"$mut/st.out"
        rc=$?
        if [ "$rc" -eq 1 ] && grep -q '^#define CONTOSO_D8_PAGING_SEGMENT_ID *2u$' "$mut/out/contoso_d8_segments.h" &&
            grep -q '^#define PAGING_SEGMENT_ID 3u$' "$mut/out/contoso_d8_selftest.c" &&
            grep -q "^QUERYSEGMENT3 via ContosoD8QuerySegment3, second call.*: PagingBufferSegmentId: got 2, expected 3\$" "$mut/st.out"; then
            ok "a self-test catches the emitter's paging segment id minus one: $(grep -m 1 PagingBufferSegmentId "$mut/st.out")"
        else
            bad "a self-test catches the emitter's paging segment id minus one" "exit $rc: $(head -n 5 "$mut/st.out")"
        fi
    fi
fi

# segc renders no whole template any more: a --templates directory that
# still holds one is refused, naming the file, and nothing is written.
mkdir -p "$out/tmpl"
printf 'an old override\n' >"$out/tmpl/segments.c.tmpl"
rm -rf "$out/ovr"
"$SEGC" build samples/discrete.yaml -o "$out/ovr" --templates "$out/tmpl" 2>"$out/ovr.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "tmpl/segments.c.tmpl: segc no longer renders whole templates" "$out/ovr.err" &&
    [ ! -e "$out/ovr/contoso_d8_segments.c" ]; then
    ok "--templates with an old whole-template override: refused, nothing written"
else
    bad "--templates with an old whole-template override" "exit $rc: $(cat "$out/ovr.err")"
fi

# The hook points: one small file each fills a banner, a precompiled
# header, a trace point and a symbol prefix; the output compiles, the
# self-test passes, and the trace point sees every dispatched query.
hk=$out/hooks
rm -rf "$hk" "$out/hooked"
mkdir -p "$hk"
printf '/* Contoso house banner for {{ board.name }} */\n' >"$hk/hook-banner.txt"
printf '#include "precomp.h"\n' >"$hk/hook-precomp.txt"
printf 'unsigned long XyzTraced;\n#define SEGC_TRACE_QUERY(Function, Type, Status) ((void)(Function), (void)(Type), (void)(Status), XyzTraced++)\n' \
    >"$hk/hook-trace.txt"
printf 'Xyz\n' >"$hk/hook-prefix.txt"
"$SEGC" build -q --emit-selftest --templates "$hk" samples/discrete.yaml -o "$out/hooked" -MD -MF "$out/hooked.d" \
    2>"$out/hooked.err"
printf '/* a project-wide precompiled header */\n' >"$out/hooked/precomp.h"
cat >"$out/hooked/main.c" <<'EOF2'
#include "contoso_d8_segments.h"
#include <string.h>
extern unsigned long XyzTraced;
int main(void)
{
    DXGKARG_QUERYADAPTERINFO arg = {0};
    XYZ_CONTOSO_D8_RUNTIME rt;
    memset(&rt, 0, sizeof rt);
    arg.Type = DXGKQAITYPE_DRIVERCAPS;
    return XyzContosoD8QueryAdapterInfoSegments(&arg, &rt) == STATUS_NOT_SUPPORTED && XyzTraced == 1 ? 0 : 1;
}
EOF2
f=$out/hooked/contoso_d8_segments
if [ "$(sed -n 2p "$f.c")" = "/* Contoso house banner for contoso_d8 */" ] &&
    [ "$(sed -n 2p "$f.h")" = "/* Contoso house banner for contoso_d8 */" ] &&
    [ "$(sed -n 2p "$out/hooked/contoso_d8_selftest.c")" = "/* Contoso house banner for contoso_d8 */" ] &&
    [ "$(grep -m 1 '^#include' "$f.c")" = '#include "precomp.h"' ] &&
    ! grep -Eq '(^|[^z])ContosoD8|(^|[^_])CONTOSO_D8_' "$f.c" "$f.h" &&
    gcc -std=c11 -Wall -Wextra -Werror -pedantic -I"$out/hooked" "$out/hooked/main.c" "$f.c" -o "$out/hooked/main" &&
    "$out/hooked/main" &&
    gcc -std=c11 -Wall -Wextra -Werror -pedantic -I"$out/hooked" "$out/hooked/contoso_d8_selftest.c" "$f.c" \
        -o "$out/hooked/selftest" && "$out/hooked/selftest" >/dev/null &&
    [ "$(grep -c "$hk/hook-" "$out/hooked.d")" -eq 4 ]; then
    ok "hook points: banner, precomp, trace and prefix from one file each; compiles, traces, self-test passes, depfile names them"
else
    bad "hook points: banner, precomp, trace and prefix" "$(head -n 5 "$out/hooked.err" "$f.c" 2>&1)"
fi
printf 'not an identifier\n' >"$hk/hook-prefix.txt"
rm -rf "$out/hooked2"
"$SEGC" build --templates "$hk" samples/discrete.yaml -o "$out/hooked2" 2>"$out/hooked2.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "hook-prefix.txt:1:1: .*must hold a C identifier" "$out/hooked2.err" &&
    [ ! -e "$out/hooked2/contoso_d8_segments.c" ]; then
    ok "a prefix hook that is not a C identifier: error at the hook file, nothing written"
else
    bad "a prefix hook that is not a C identifier" "exit $rc: $(cat "$out/hooked2.err")"
fi

# A hook file that names a value it cannot have is reported at its
# file:line:col and nothing is written.
mkdir -p "$out/badtmpl"
printf 'ok line\n/* {{ segments }} */\n' >"$out/badtmpl/hook-banner.txt"
rm -rf "$out/badout"
"$SEGC" build samples/discrete.yaml -o "$out/badout" --templates "$out/badtmpl" 2>"$out/badtmpl.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "badtmpl/hook-banner.txt:2:4: fatal: \[template\] a hook file substitutes only" "$out/badtmpl.err" &&
    [ ! -e "$out/badout/contoso_d8_segments.h" ]; then
    ok "hook file error at file:line:col, nothing written"
else
    bad "hook file error at file:line:col, nothing written" "exit $rc: $(cat "$out/badtmpl.err")"
fi

# The build's own fragment compiler (compiler/tools/frag.c) names the file
# and line of a bad fragment, and writes nothing.
mkdir -p "$out/badfrag"
printf '%s\n' '// before the first fragment' '@@ first' 'text' '@@ 9bad' 'more' >"$out/badfrag/bad.frag"
"$top/$B/frag" "$out/badfrag/out.h" "$out/badfrag/out.c" "$out/badfrag/bad.frag" 2>"$out/badfrag.err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(cat "$out/badfrag.err")" = "$out/badfrag/bad.frag:4: \`@@ NAME\` needs a C identifier" ] &&
    [ ! -e "$out/badfrag/out.c" ] && [ ! -e "$out/badfrag/out.h" ]; then
    ok "frag: a bad fragment's file and line, nothing written"
else
    bad "frag: a bad fragment's file and line, nothing written" "exit $rc: $(cat "$out/badfrag.err")"
fi

# examples/driver/fill_bar_base.c and SEGC_ASSERT (tests/gen/check_bars.c):
# every sample, and a board with three BARs, two of them 64-bit, whose
# self-test runs here too (the samples' ran above).
for spec in samples/*.yaml tests/gen/bars.yaml; do
    name=$(basename "$spec" .yaml)
    exp=tests/gen/expect/$name.txt
    want=1 # bars.yaml reads both of its segments through BARs
    if [ -f "$exp" ]; then
        board=$(sed -n 's/^board //p' "$exp")
        grep -q ' bar:' "$exp" || want=0
    else
        board=contoso_bars
    fi
    "$SEGC" build -q "$spec" -o "$out/bars-$name"
    # bars.yaml's own self-test: its BARs' register counts (one for the BAR
    # of exactly 4 GiB) are worked out from the spec, not read from the header.
    if [ ! -f "$exp" ]; then
        "$SEGC" build -q --emit-selftest "$spec" -o "$out/bars-$name.st"
        selftest "$name" "$out/bars-$name.st" "$board"
    fi
    for cc in $COMPILERS; do
        # shellcheck disable=SC2086
        if $cc -std=c11 -Wall -Wextra -Werror $SAN -DSEGC_GENERIC_NAMES -DSEGC_HEADER="\"${board}_segments.h\"" \
            -include tests/gen/assert_hook.h -I"$out/bars-$name" tests/gen/check_bars.c \
            "$out/bars-$name/${board}_segments.c" -o "$out/bars-$name/check-$cc" 2>"$out/cc.err" &&
            "$out/bars-$name/check-$cc" "$want" >"$out/bars.out" 2>&1; then
            ok "$name: BarBase filled from the resource list ($cc): $(cat "$out/bars.out")"
        else
            bad "$name: BarBase filled from the resource list ($cc)" "$(head -n 8 "$out/cc.err" "$out/bars.out" 2>/dev/null)"
        fi
    done
done

# Pointer width, cross compilers and lint (tests/gen/portable.sh).
if ! sanitized; then
    touch "$out/portable.out"
    while IFS= read -r line; do
        case $line in
        "ok "*) ok "${line#ok }" ;;
        "bad "*) bad "${line#bad }" ;;
        esac
    done <"$out/portable.out"
    # The lint can fail: a lower-case long suffix and a value written
    # twice, in a copy of a generated file, are both found.
    lint=$out/lint-bad
    rm -rf "$lint"
    cp -r "$out/discrete.selftest-qs,qs3" "$lint"
    sed -i '0,/\(    pDesc\[0\]\.Size = \)\(0x[0-9A-F]*u\);/s//\10x1l;\n\1\2;/' "$lint/contoso_d8_segments.c"
    sh tests/gen/portable.sh lint-bad samples/discrete.yaml "$lint/contoso_d8_segments.c" "$out" >"$out/lint-bad.out"
    for tool in cppcheck clang-tidy; do
        if grep -q "^bad lint-bad: $tool" "$out/lint-bad.out"; then
            ok "lint finds a planted defect ($tool)"
        else
            bad "lint finds a planted defect ($tool)" "$(cat "$out/lint-bad.out")"
        fi
    done
fi

# segc_dxgk.h on its own, across compilers, standards and widths.
if sanitized; then
    :
elif sh tests/gen/compile-dxgk.sh >"$out/dxgk.out" 2>&1; then
    ok "$(tail -n 1 "$out/dxgk.out")"
else
    bad "segc_dxgk.h" "$(grep FAIL "$out/dxgk.out" | head -n 5)"
fi

# The allocation structs of segc_dxgk.h against a layout worked out from
# an independent declaration (ReactOS's, MIT), on x64 and x86, with every
# compiler here (tests/gen/layout_independent.py says how).
if ! sanitized; then
    mkdir -p "$out/layout"
    part layout-independent /usr/bin/python3 tests/gen/layout_independent.py "$out/layout"
fi

suite_end

#!/bin/sh
# SPDX-License-Identifier: MIT
# Property test: no spec and no options make segc exit 0 with output that
# does not compile or whose self-test fails, and check and build agree.
#
#   sh tests/gen/run.sh build/segc build "" property     (PROPERTY_CASES, PROPERTY_SEED)
#
# tests/gen/property.py writes CASES specs (default 160, seed 20261124) near
# every limit, each with random -Wno-/-Wno-error=/-Werror= options and
# waivers.  For each: `segc check ARGS` and `segc build --emit-selftest ARGS`
# must exit alike (0 both, or the same refusal: only I/O may fail in build
# alone); on exit 0 every output is compiled with gcc -std=c11 -Wall -Wextra
# -Werror -pedantic and the self-test must pass.  Two fixed cases come
# first: the VirtualBox layout (every base 0) with segments-overlap waived,
# and with -Wno-segments-overlap.  Deterministic; about a minute on one core.
set -u
SEGC=$1
B=$2
CASES=${PROPERTY_CASES:-160}
SEED=${PROPERTY_SEED:-20261124}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin property
out=$B/property
rm -rf "$out"
mkdir -p "$out"
CC=${CC_PROPERTY:-gcc}

# one_case NAME SPEC ARGS [BUILD-ARGS]: check and build agree; exit 0
# builds good code.
one_case() {
    name=$1 spec=$2 args=$3 bargs=${4:-}
    dir=$out/$name
    # shellcheck disable=SC2086
    "$SEGC" check --color=never $args "$spec" >"$out/check.out" 2>&1
    rc_c=$?
    # shellcheck disable=SC2086
    "$SEGC" build --color=never --emit-selftest $args $bargs "$spec" -o "$dir" >"$out/build.out" 2>&1
    rc_b=$?
    if [ "$rc_c" -ne "$rc_b" ]; then
        bad "$name: check exits $rc_c, build $rc_b ($args)" "$(grep -m 3 -E 'error|fatal' "$out/build.out" "$out/check.out")"
        return 1
    fi
    if [ "$rc_c" -ne 0 ]; then
        ok "$name: refused alike ($rc_c)"
        return 0
    fi
    board=$(sed -n 's/^board: { name: \([a-z_0-9]*\).*/\1/p' "$spec")
    if ! $CC -std=c11 -O0 -Wall -Wextra -Werror -pedantic -I"$dir" "$dir/${board}_selftest.c" \
        "$dir/${board}_segments.c" -o "$dir/selftest" 2>"$out/cc.err"; then
        bad "$name: compile ($args)" "$(head -n 6 "$out/cc.err")"
        return 1
    fi
    if ! "$dir/selftest" >"$out/run.out" 2>&1; then
        bad "$name: self-test ($args)" "$(head -n 6 "$out/run.out")"
        return 1
    fi
    ok "$name: built, compiled, $(tail -n 1 "$out/run.out" | sed 's/.*: ok: //')"
    rm -rf "$dir"
}

# The VirtualBox layout: every segment at GPU address 0.
vbox=tests/gen/lookup/overlap.yaml
one_case vbox-waived "$vbox" ""
grep -v 'waive:' "$vbox" >"$out/vbox-off.yaml"
one_case vbox-wno "$out/vbox-off.yaml" "-Wno-segments-overlap"
if "$SEGC" check "$out/vbox-off.yaml" >/dev/null 2>&1; then
    bad "vbox without the waiver or -Wno- is refused"
else
    ok "vbox without the waiver or -Wno- is refused"
fi

/usr/bin/python3 tests/gen/property.py "$SEGC" "$SEED" "$CASES" "$out/cases" || { bad "tests/gen/property.py"; suite_end; }
for spec in "$out"/cases/*.yaml; do
    n=$(basename "$spec" .yaml)
    one_case "case-$n" "$spec" "$(sed -n 1p "${spec%.yaml}.args")" "$(sed -n 2p "${spec%.yaml}.args")"
done
suite_end

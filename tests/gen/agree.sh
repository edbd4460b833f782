#!/bin/sh
# SPDX-License-Identifier: MIT
# `segc check` exits 0 if and only if `segc build` does, and what build
# writes compiles: tests/gen/agree.py over every spec of the tree (every
# tracked *.yaml) and every spec tests/gen/property.py writes (the property
# suite's seed and count), with every option set it lists (the defaults,
# each --ddi list, --lookup-budget 64, -Werror, -Wno- of each advisory).
#
#   sh tests/gen/run.sh build/segc build "" agree     (PROPERTY_CASES, PROPERTY_SEED)
#
# First, that it can fail: a segc whose build exits 0 where check found
# errors, and one whose build writes C that does not compile, are caught.
set -u
SEGC=${1:?usage: agree.sh path/to/segc build-dir}
B=${2:?usage: agree.sh path/to/segc build-dir}
CASES=${PROPERTY_CASES:-160}
SEED=${PROPERTY_SEED:-20261124}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin agree
SEGC=$(abspath "$SEGC")
PY=${PYTHON:-/usr/bin/python3}
work=$B/agree
rm -rf "$work"
mkdir -p "$work"

# agree NAME SEGC SPEC...: agree.py's lines as this suite's checks.
agree() {
    name=$1
    shift
    "$PY" tests/gen/agree.py "$@" >"$tmp/agree.out" 2>&1
    echo $? >"$tmp/agree.rc"
}

# A build that ignores errors, and a build whose C does not compile.
for lie in exit compile; do
    cat >"$tmp/segc-$lie" <<'EOF'
#!/bin/sh
out= prev=
for a; do [ "$prev" = -o ] && out=$a; prev=$a; done
"$SEGC" "$@"
rc=$?
[ "$1" = build ] || exit $rc
[ "$LIE" = exit ] && exit 0
[ "$LIE" = compile ] && [ $rc -eq 0 ] && echo 'int broken = ;' >>"$(ls "$out"/*_segments.c)"
exit $rc
EOF
    chmod +x "$tmp/segc-$lie"
    LIE=$lie
    export SEGC LIE
    agree "$lie" "$tmp/segc-$lie" "$work/lie" samples/discrete.yaml tests/cases/rules/size-nonzero.yaml
    if [ "$(cat "$tmp/agree.rc")" -eq 1 ] && grep -q '^FAIL' "$tmp/agree.out"; then
        ok "a segc whose build lies ($lie) is caught"
    else
        bad "a segc whose build lies ($lie) is caught" "$(indent 6 <"$tmp/agree.out")"
    fi
done

# Every spec of the tree, then the property suite's.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files '*.yaml' >"$tmp/specs"
else
    find . -name '*.yaml' ! -path './build*' | sed 's|^\./||' | sort >"$tmp/specs"
fi
if ! "$PY" tests/gen/property.py "$SEGC" "$SEED" "$CASES" "$work/property" >/dev/null; then
    bad "tests/gen/property.py"
fi
ls "$work"/property/*.yaml >>"$tmp/specs" 2>/dev/null
# shellcheck disable=SC2046
agree all "$SEGC" "$work/out" $(cat "$tmp/specs")
while IFS= read -r line; do
    case $line in
    'ok   '*) ok "${line#ok   }" ;;
    'FAIL '*) bad "${line#FAIL }" ;;
    *) echo "$line" ;;
    esac
done <"$tmp/agree.out"
[ "$(cat "$tmp/agree.rc")" -le 1 ] || bad "agree.py" "exit $(cat "$tmp/agree.rc")"
suite_end

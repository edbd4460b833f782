#!/bin/sh
# SPDX-License-Identifier: MIT
# --diagnostics=msvc: every line MSBuild's canonical form with the same
# findings as the JSON document (msvc.py, over the rule and error cases,
# the hostile cases and the samples), and a fixed number for every code:
# the one of its row of compiler/rules.def, never changed and never reused
# (msvc-numbers.txt).
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin formats-msvc
# The number of every code, as `segc explain` says it (rules --markdown holds
# them all): unique, in its group, and the same as before for every code of
# msvc-numbers.txt; no code takes a retired one.
"$SEGC" rules --markdown | awk '/^## /{name=$2} /^msvc: +SEGC[0-9]+$/{print substr($2, 5), name}' >"$tmp/numbers"
n=$("$SEGC" rules --all | wc -l)
if [ "$(wc -l <"$tmp/numbers")" -eq "$n" ]; then ok "every code of segc rules --all has a number"; else
    bad "numbers" "$(wc -l <"$tmp/numbers") numbers for $n codes"; fi
dups=$(cut -d' ' -f1 "$tmp/numbers" | sort | uniq -d)
if [ -z "$dups" ]; then ok "no number is used twice"; else bad "numbers" "used twice: $dups"; fi
while read -r num code retired; do
    case $num in '#'* | '') continue ;; esac
    got=$(awk -v n="$num" '$1 == n { print $2 }' "$tmp/numbers")
    if [ -n "$retired" ]; then
        if [ -z "$got" ]; then ok "SEGC$num ($code) stays retired"; else bad "SEGC$num" "retired ($code), now $got"; fi
    elif [ "$got" = "$code" ]; then
        ok "SEGC$num is $code"
    else
        bad "SEGC$num" "was $code, now '${got:-nothing}'"
    fi
done <tests/cases/formats/msvc-numbers.txt
if /usr/bin/python3 tests/cases/formats/msvc.py "$SEGC" tests/cases/errors/*.yaml tests/cases/rules/*.yaml tests/cases/extends/*.yaml \
    tests/cases/hostile/*.yaml samples/*.yaml >"$tmp/check.log" 2>&1; then
    ok "$(sed 's/^ok *//' "$tmp/check.log")"
else
    bad "canonical lines" "$(cat "$tmp/check.log")"
fi
# A diagnostic with no position.
if "$SEGC" check --diagnostics=msvc tests/cases/formats/no-such-file.yaml 2>&1 |
    grep -qx 'tests/cases/formats/no-such-file.yaml: error SEGC9001: \[io\] cannot open: .*'; then
    ok "an unreadable file: the file as origin, no position"
else
    bad "an unreadable file"
fi
# A finding in a base that a variant's value caused: a note line at the
# variant's value, after the finding and its fix.
"$SEGC" check --diagnostics=msvc tests/cases/extends/variant-wddm.yaml >"$tmp/variant" 2>&1
if sed -n 3p "$tmp/variant" |
    grep -qx 'tests/cases/extends/variant-wddm.yaml(7,27-31): note: board.wddm is 1.3, set here by variant-wddm.yaml'; then
    ok "a variant's value behind a finding in its base: a note at it"
else
    bad "a variant's note" "$(cat "$tmp/variant")"
fi
# MSBuild itself (Mono's xbuild): a ToolTask reads its tool's output with
# MSBuild's canonical-error parser.  The AL task, its tool replaced by a
# script that runs segc check --diagnostics=msvc, must list every error
# segc printed, at the file, line and column of the JSON document: the
# "(line,col-endcol)" form is read, not dropped or taken for a file name.
if ! have xbuild; then
    skipped "xbuild" "xbuild (mono-xbuild) is not installed"
else
    x=$tmp/xbuild
    mkdir -p "$x"
    spec=$(pwd)/tests/cases/errors/many-errors.yaml
    printf '#!/bin/sh\nexec "%s" check --diagnostics=msvc "%s" 2>&1\n' "$(abspath "$SEGC")" "$spec" >"$x/segc-check.sh"
    chmod +x "$x/segc-check.sh"
    cat >"$x/check.proj" <<EOF
<Project xmlns="http://schemas.microsoft.com/developer/msbuild/2003" DefaultTargets="Check">
  <Target Name="Check">
    <AL ToolPath="$x" ToolExe="segc-check.sh" OutputAssembly="$x/none.dll" />
  </Target>
</Project>
EOF
    (cd "$x" && xbuild /nologo /v:normal check.proj) >"$x/log" 2>&1
    # The errors MSBuild logged (its summary), and those of the JSON document.
    sed -n '/^Errors:/,$p' "$x/log" | sed -n 's/^[[:space:]]*\(.*([0-9]*,[0-9]*): error SEGC[0-9]*: .*\)$/\1/p' >"$x/got"
    "$SEGC" check --diagnostics=json "$spec" |
        python3 -c 'import json, sys
for f in json.load(sys.stdin)["files"]:
    for d in f["diagnostics"]:
        print("%s(%d,%d): error %s" % (d["file"], d["line"], d["column"], d["rule"]))' >"$x/want"
    sed 's/\(([0-9]*,[0-9]*)\): error SEGC[0-9]*: \[\([a-z0-9-]*\)\].*/\1: error \2/' "$x/got" >"$x/got.short"
    if "$x/segc-check.sh" | grep -q '([0-9]*,[0-9]*-[0-9]*): error' && [ -s "$x/want" ] && cmp -s "$x/want" "$x/got.short"; then
        ok "xbuild reads segc's (line,col-endcol) errors: $(wc -l <"$x/want") at the JSON document's places"
    else
        bad "xbuild" "MSBuild logged $(cat "$x/got.short"), the JSON document has $(cat "$x/want")"
        indent <"$x/log"
    fi
fi

suite_end

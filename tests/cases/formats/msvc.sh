#!/bin/sh
# SPDX-License-Identifier: MIT
# --diagnostics=msvc: every line MSBuild's canonical form with the same
# findings as the JSON document (msvc.py, over the rule and error cases,
# the hostile cases and the samples), and a fixed number for every code
# (compiler/msvc.def).
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin formats-msvc
def=compiler/msvc.def
# Numbers are unique, and so are the codes.
dups=$(grep -o 'MSVC([0-9]*' "$def" | sort | uniq -d; grep -o '"[a-z0-9-]*"' "$def" | sort | uniq -d)
if [ -n "$dups" ]; then bad "msvc.def" "used twice: $dups"; else ok "msvc.def: numbers and codes unique"; fi
# Every rule and every other registered code (compiler/rules.def) has a number.
for rule in $("$SEGC" rules | awk '{print $1}') $(sed -n 's/^CODE("\([a-z0-9-]*\)".*/\1/p' compiler/rules.def); do
    if grep -q "\"$rule\"" "$def"; then ok "rule $rule has a number"; else bad "msvc.def" "no number for rule $rule"; fi
done
if /usr/bin/python3 tests/cases/formats/msvc.py "$SEGC" tests/cases/errors/*.yaml tests/cases/rules/*.yaml \
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

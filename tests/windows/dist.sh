#!/bin/sh
# SPDX-License-Identifier: MIT
# dist.sh - `make dist`: reproducible archives, and segc.exe runs from the zip.
#
#   sh tests/windows/run.sh build/segc build/windows/segc.exe build dist
#
#   1. `make dist` twice, the second under another umask and time zone:
#      the three archives are identical byte for byte.
#   2. The Windows zip holds segc.exe, the man pages as text, the JSON
#      Schemas, the CMake package, the MSBuild targets and LICENSE, every
#      entry dated SOURCE_DATE_EPOCH (the last commit).
#   3. segc.exe unpacked from the zip builds a sample under Wine into the
#      same bytes as the Linux segc; the Linux tarball's segc does too.
set -u
SEGC=${1:?usage: dist.sh SEGC SEGC_EXE BUILD_DIR}
B=${3:?usage: dist.sh SEGC SEGC_EXE BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin dist
V=$("$SEGC" --version | awk '{ print $2 }')
export WINEPREFIX=${WINEPREFIX:-$(pwd)/$B/windows/wine} WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=d"
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s B="$B" dist; }

if mk >"$tmp/dist1.log" 2>&1; then
    cp "$B/dist/SHA256SUMS" "$tmp/sums1"
    (umask 077 && TZ=Asia/Kolkata mk) >"$tmp/dist2.log" 2>&1
    if [ "$(wc -l <"$tmp/sums1")" -eq 3 ] && cmp -s "$tmp/sums1" "$B/dist/SHA256SUMS"; then
        ok "make dist twice: the same bytes ($(cut -c1-12 "$tmp/sums1" | tr '\n' ' '))"
    else
        bad "make dist is not reproducible" "$(diff "$tmp/sums1" "$B/dist/SHA256SUMS")"
    fi
else
    bad "make dist" "$(tail -n 5 "$tmp/dist1.log")"
fi

zip=$B/dist/segc-$V-windows-x86_64.zip
want="bin/segc.exe share/doc/segc/segc.1.txt share/doc/segc/segc.5.txt share/segc/segc.schema.json
share/segc/model.schema.json share/segc/diagnostics.schema.json share/segc/diff.schema.json lib/cmake/segc/segcConfig.cmake
lib/cmake/segc/segcConfigVersion.cmake share/segc/msbuild/segc.targets LICENSE"
epoch=$(git log -1 --format=%ct)
if python3 - "$zip" "$epoch" $want >"$tmp/zip.log" 2>&1 <<'PY'; then
import sys, time, zipfile
z = zipfile.ZipFile(sys.argv[1])
top = "segc-%s-windows-x86_64/" % sys.argv[1].split("segc-")[1].split("-windows")[0]
names = {i.filename: i for i in z.infolist()}
want = list(time.gmtime(int(sys.argv[2]))[:6])
want[5] -= want[5] % 2  # zip keeps time in 2-second steps
want = tuple(want)
for n in sys.argv[3:]:
    assert top + n in names, "missing " + n
for i in names.values():
    assert i.date_time == want, "%s dated %s, not %s" % (i.filename, i.date_time, want)
assert b"MIT" in z.read(top + "LICENSE")
PY
    ok "the zip holds segc.exe, man pages, schemas, CMake package, MSBuild targets, LICENSE; all dated the last commit"
else
    bad "zip contents" "$(tail -n 3 "$tmp/zip.log")"
fi

mkdir -p "$tmp/z" "$tmp/t" "$tmp/w" "$tmp/l"
python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" "$zip" "$tmp/z"
tar -C "$tmp/t" -xzf "$B/dist/segc-$V-linux-x86_64.tar.gz"
"$B/segc" build samples/discrete_16g.yaml -o "$tmp/l" >/dev/null 2>&1
chmod +x "$tmp/z/segc-$V-windows-x86_64/bin/segc.exe"
wine "$tmp/z/segc-$V-windows-x86_64/bin/segc.exe" build samples/discrete_16g.yaml -o "$tmp/w" </dev/null >"$tmp/wine.log" 2>&1
if diff -r "$tmp/l" "$tmp/w" >/dev/null 2>&1 && [ -s "$tmp/w/contoso_r16_segments.c" ]; then
    ok "segc.exe from the zip, under Wine, builds a sample into the Linux segc's bytes"
else
    bad "segc.exe from the zip" "$(head -n 3 "$tmp/wine.log"; ls "$tmp/w")"
fi
"$tmp/t/segc-$V-linux-x86_64/bin/segc" build samples/discrete_16g.yaml -o "$tmp/t/out" >/dev/null 2>&1
if diff -r "$tmp/l" "$tmp/t/out" >/dev/null 2>&1; then
    ok "segc from the Linux tarball builds the same bytes"
else
    bad "Linux tarball's segc" "output differs"
fi
suite_end

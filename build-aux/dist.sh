#!/bin/sh
# SPDX-License-Identifier: MIT
# dist.sh - the release archives, reproducible: the same commit gives the
# same bytes (times from SOURCE_DATE_EPOCH, by default the last commit's;
# names sorted; owner 0; no host name, user or umask in them).
#
#   sh build-aux/dist.sh OUTDIR VERSION SEGC SEGC_EXE CMAKE_VERSION_FILE
#
#   OUTDIR/segc-VERSION.tar.gz                   the sources (git archive of HEAD)
#   OUTDIR/segc-VERSION-linux-x86_64.tar.gz      bin/segc, man pages, JSON Schemas,
#                                                the CMake package, LICENSE
#   OUTDIR/segc-VERSION-windows-x86_64.zip       bin/segc.exe, the man pages as
#                                                text, JSON Schemas, the CMake
#                                                package, the MSBuild targets, LICENSE
set -eu
out=${1:?usage: dist.sh OUTDIR VERSION SEGC SEGC_EXE CMAKE_VERSION_FILE}
v=${2:?}
segc=${3:?}
exe=${4:?}
cmakever=${5:?}
cd "$(dirname "$0")/.."
: "${SOURCE_DATE_EPOCH:=$(git log -1 --format=%ct)}"
export SOURCE_DATE_EPOCH
mkdir -p "$out"
stage=$out/stage
rm -rf "$stage"

# Shared by the binary archives: the schemas, the CMake package, licenses.
common() { # DIR
    install -d "$1/share/segc" "$1/lib/cmake/segc"
    install -m 644 schema/*.schema.json "$1/share/segc/"
    install -m 644 cmake/segcConfig.cmake "$cmakever" "$1/lib/cmake/segc/"
    install -m 644 LICENSE README.md "$1/"
    install -m 644 templates/LICENSE "$1/share/segc/LICENSE-generated-code"
}

l=$stage/segc-$v-linux-x86_64
install -d "$l/bin" "$l/share/man/man1" "$l/share/man/man5"
install -m 755 "$segc" "$l/bin/segc"
strip --strip-all "$l/bin/segc"
install -m 644 doc/segc.1 "$l/share/man/man1/"
install -m 644 doc/segc.5 "$l/share/man/man5/"
install -d "$l/share/bash-completion/completions" "$l/share/zsh/site-functions"
install -m 644 completions/segc.bash "$l/share/bash-completion/completions/segc"
install -m 644 completions/_segc "$l/share/zsh/site-functions/_segc"
common "$l"

w=$stage/segc-$v-windows-x86_64
install -d "$w/bin" "$w/share/doc/segc" "$w/share/segc/msbuild"
install -m 755 "$exe" "$w/bin/segc.exe"
x86_64-w64-mingw32-strip --strip-all "$w/bin/segc.exe"
for m in segc.1 segc.5; do
    groff -t -man -Tutf8 -P -cbou "doc/$m" > "$w/share/doc/segc/$m.txt"
done
install -m 644 examples/msbuild/segc.targets examples/msbuild/README.md "$w/share/segc/msbuild/"
common "$w"

# Every file's time is the release's; modes are fixed.
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
tarball() { # DIR ARCHIVE
    tar -C "$(dirname "$1")" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 \
        --numeric-owner --mode='u+rwX,go+rX,go-w' --format=gnu -cf - "$(basename "$1")" | gzip -9n > "$2.tmp"
    mv "$2.tmp" "$2"
}
tarball "$l" "$out/segc-$v-linux-x86_64.tar.gz"
git archive --format=tar --prefix="segc-$v/" HEAD | gzip -9n > "$out/segc-$v.tar.gz.tmp"
mv "$out/segc-$v.tar.gz.tmp" "$out/segc-$v.tar.gz"

python3 - "$w" "$out/segc-$v-windows-x86_64.zip" <<'PY'
import os, sys, time, zipfile
src, dst = sys.argv[1], sys.argv[2]
when = time.gmtime(max(int(os.environ["SOURCE_DATE_EPOCH"]), 315532800))[:6]  # zip starts in 1980
base = os.path.dirname(src)
names = []
for d, dirs, files in os.walk(src):
    names += [os.path.join(d, f) for f in files]
with zipfile.ZipFile(dst + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for path in sorted(names):
        info = zipfile.ZipInfo(os.path.relpath(path, base).replace(os.sep, "/"), when)
        info.external_attr = (0o100755 if os.access(path, os.X_OK) else 0o100644) << 16
        info.create_system = 3
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(path, "rb") as f:
            z.writestr(info, f.read(), compresslevel=9)
os.replace(dst + ".tmp", dst)
PY
rm -rf "$stage"
(cd "$out" && sha256sum segc-$v.tar.gz segc-$v-linux-x86_64.tar.gz segc-$v-windows-x86_64.zip > SHA256SUMS)
cat "$out/SHA256SUMS"

#!/bin/sh
# SPDX-License-Identifier: MIT
# libyaml-mingw.sh - cross-builds libyaml for segc.exe from Debian's own
# libyaml source package, the one the installed libyaml binaries come from.
#
#   sh build-aux/libyaml-mingw.sh OUTDIR CC AR
#
# writes OUTDIR/include/yaml.h and OUTDIR/lib/libyaml.a.  The source package
# is fetched with apt-get through a private sources list, package lists and
# cache under OUTDIR/apt: the system's apt configuration and state are read
# (for the mirror) but never changed.
set -eu
out=${1:?usage: libyaml-mingw.sh OUTDIR CC AR}
cc=${2:?}
ar=${3:?}
mkdir -p "$out"
out=$(cd "$out" && pwd)
apt=$out/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"

# The Debian mirror and release the installed system uses.
mirror=$(sed -n 's/^URIs: *//p; s/^deb \(\[[^]]*\] \)\{0,1\}\(https\{0,1\}:[^ ]*\) .*/\2/p' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
    grep -v security | head -n 1)
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
echo "deb-src ${mirror:-http://deb.debian.org/debian} ${suite:-bookworm} main" > "$apt/sources.list"

# The version whose binaries are installed, when they are.
ver=$(dpkg-query -W -f='${source:Version}' libyaml-0-2 2>/dev/null || true)
set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
    -o Dir::State::Status=/var/lib/dpkg/status -o Debug::NoLocking=1 -qq
[ "$(id -u)" = 0 ] && set -- "$@" -o APT::Sandbox::User=root
apt-get "$@" update
(cd "$apt/src" && rm -rf libyaml-* && apt-get "$@" source "libyaml${ver:+=$ver}" >/dev/null)
src=$(find "$apt/src" -maxdepth 1 -type d -name 'libyaml-*' | head -n 1)
[ -f "$src/include/yaml.h" ] || { echo "libyaml-mingw.sh: no libyaml source unpacked" >&2; exit 1; }

# libyaml's own sources, compiled without its autotools (cross-building
# needs only the version macros its configure would define).
v=$(sed -n 's/^Version: *\([0-9.]*\).*/\1/p' "$src"/*.spec "$src/yaml-0.1.pc.in" 2>/dev/null | head -n 1)
v=${v:-$(echo "$ver" | sed 's/-.*//')}
major=${v%%.*}; rest=${v#*.}; minor=${rest%%.*}; patch=${rest#*.}
mkdir -p "$out/include" "$out/lib" "$out/obj"
for c in "$src"/src/*.c; do
    "$cc" -O2 -DYAML_DECLARE_STATIC -DYAML_VERSION_MAJOR="$major" -DYAML_VERSION_MINOR="$minor" \
        -DYAML_VERSION_PATCH="$patch" -DYAML_VERSION_STRING="\"$v\"" -I"$src/include" \
        -c -o "$out/obj/$(basename "$c" .c).o" "$c"
done
rm -f "$out/lib/libyaml.a"
"$ar" rcs "$out/lib/libyaml.a" "$out"/obj/*.o
cp "$src/include/yaml.h" "$out/include/yaml.h"
echo "libyaml $v for $cc: $out/lib/libyaml.a"

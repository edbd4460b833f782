#!/bin/sh
# SPDX-License-Identifier: MIT
# deb-src-mingw.sh - cross-builds a library segc.exe links statically from
# Debian's own source package, the one the installed binaries come from.
#
#   sh build-aux/deb-src-mingw.sh PACKAGE OUTDIR CC AR
#
#   libyaml   OUTDIR/include/yaml.h, OUTDIR/lib/libyaml.a
#   jansson   OUTDIR/include/jansson.h and jansson_config.h,
#             OUTDIR/lib/libjansson.a
#
# The source package is fetched with apt-get through a private sources
# list, package lists and cache under OUTDIR/apt: the system's apt
# configuration and state are read (for the mirror) but never changed.
# The library's own sources are compiled without its build system (cross-
# building needs only the few macros its configure would define: they are
# written out below, each with the reason for its value).
set -eu
usage="usage: deb-src-mingw.sh libyaml|jansson OUTDIR CC AR"
pkg=${1:?$usage}
out=${2:?$usage}
cc=${3:?$usage}
ar=${4:?$usage}
case $pkg in
libyaml) bin=libyaml-0-2 ;;   # the binary package whose version is matched
jansson) bin=libjansson4 ;;
*) echo "$usage" >&2; exit 2 ;;
esac
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
ver=$(dpkg-query -W -f='${source:Version}' "$bin" 2>/dev/null || true)
set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
    -o Dir::State::Status=/var/lib/dpkg/status -o Debug::NoLocking=1 -qq
[ "$(id -u)" = 0 ] && set -- "$@" -o APT::Sandbox::User=root
apt-get "$@" update
(cd "$apt/src" && rm -rf "$pkg"-* && apt-get "$@" source "$pkg${ver:+=$ver}" >/dev/null)
src=$(find "$apt/src" -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
[ -n "$src" ] || { echo "deb-src-mingw.sh: no $pkg source unpacked" >&2; exit 1; }
rm -rf "$out/include" "$out/lib" "$out/obj"
mkdir -p "$out/include" "$out/lib" "$out/obj"

build_libyaml() {
    [ -f "$src/include/yaml.h" ] || { echo "deb-src-mingw.sh: no include/yaml.h in $src" >&2; exit 1; }
    # The version macros its configure would define.
    v=$(sed -n 's/^Version: *\([0-9.]*\).*/\1/p' "$src"/*.spec "$src/yaml-0.1.pc.in" 2>/dev/null | head -n 1)
    v=${v:-$(echo "$ver" | sed 's/-.*//')}
    major=${v%%.*}; rest=${v#*.}; minor=${rest%%.*}; patch=${rest#*.}
    for c in "$src"/src/*.c; do
        "$cc" -O2 -DYAML_DECLARE_STATIC -DYAML_VERSION_MAJOR="$major" -DYAML_VERSION_MINOR="$minor" \
            -DYAML_VERSION_PATCH="$patch" -DYAML_VERSION_STRING="\"$v\"" -I"$src/include" \
            -c -o "$out/obj/$(basename "$c" .c).o" "$c"
    done
    cp "$src/include/yaml.h" "$out/include/yaml.h"
    lib=libyaml.a
}

# jansson: the two headers its configure.ac writes (the values it finds
# for x86_64-w64-mingw32-gcc), then src/*.c.
build_jansson() {
    [ -f "$src/src/jansson_config.h.in" ] || { echo "deb-src-mingw.sh: no src/jansson_config.h.in in $src" >&2; exit 1; }
    v=$(sed -n 's/^AC_INIT(\[jansson\], *\[\([0-9.]*\)\].*/\1/p' "$src/configure.ac" | head -n 1)
    v=${v:-$(echo "$ver" | sed 's/-.*//')}
    # The public jansson_config.h (AC_SUBST values):
    #   json_inline=inline              AC_C_INLINE: gcc has C99 inline
    #   json_have_long_long=1           long long and strtoll: json_int_t is
    #                                   64 bits (long is 32 bits on Windows)
    #   json_have_localeconv=1          locale.h and localeconv (msvcrt)
    #   json_have_atomic_builtins=1     gcc's __atomic_* (reference counts)
    #   json_have_sync_builtins=1       gcc's __sync_*
    sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' -e 's/@json_have_localeconv@/1/' \
        -e 's/@json_have_atomic_builtins@/1/' -e 's/@json_have_sync_builtins@/1/' \
        "$src/src/jansson_config.h.in" > "$out/include/jansson_config.h"
    if grep -q '@json_[a-z_]*@' "$out/include/jansson_config.h"; then
        echo "deb-src-mingw.sh: jansson_config.h.in has a placeholder this script does not fill:" >&2
        grep '@json_[a-z_]*@' "$out/include/jansson_config.h" >&2
        exit 1
    fi
    cp "$src/src/jansson.h" "$out/include/jansson.h"
    # The private jansson_private_config.h (AC_CONFIG_HEADERS, read with
    # HAVE_CONFIG_H): only what src/ tests, as configure finds it with
    # mingw-w64.  Not defined: HAVE_ENDIAN_H (no such header) and
    # HAVE_SCHED_YIELD (in winpthreads, which configure's link test does
    # not link), so json_object_seed takes its _WIN32 Interlocked* path;
    # USE_URANDOM (read only off _WIN32).
    cat > "$out/obj/jansson_private_config.h" <<'CONF'
/* jansson_private_config.h for x86_64-w64-mingw32 (build-aux/deb-src-mingw.sh) */
#define HAVE_FCNTL_H 1
#define HAVE_SCHED_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_CLOSE 1
#define HAVE_GETPID 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_OPEN 1
#define HAVE_READ 1
#define HAVE_SYNC_BUILTINS 1
#define HAVE_ATOMIC_BUILTINS 1
/* The hash seed from CryptGenRandom (configure's default). */
#define USE_WINDOWS_CRYPTOAPI 1
#define INITIAL_HASHTABLE_ORDER 3
CONF
    for c in "$src"/src/*.c; do
        "$cc" -O2 -DHAVE_CONFIG_H -I"$out/obj" -I"$out/include" -I"$src/src" \
            -c -o "$out/obj/$(basename "$c" .c).o" "$c"
    done
    lib=libjansson.a
}

"build_$pkg"
rm -f "$out/lib/$lib"
"$ar" rcs "$out/lib/$lib" "$out"/obj/*.o
echo "$pkg $v for $cc: $out/lib/$lib"

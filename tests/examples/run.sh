#!/bin/sh
# SPDX-License-Identifier: MIT
# The build-system examples (examples/), against an installed segc.
#
#   sh tests/examples/run.sh [BUILD_DIR]      (make examples)
#
#   1. `make install` into a temporary prefix (and into a DESTDIR, then
#      `make uninstall`): segc, both man pages, the CMake package.
#   2. Each example is copied to a temporary directory and built from
#      scratch with the installed segc: examples/make with GNU Make,
#      examples/cmake with CMake's Unix Makefiles and Ninja generators,
#      examples/ninja with Ninja.  Its program must print exactly what the
#      spec says (values worked out by hand below).
#   3. Incrementality: a second build does nothing; touching chip.yaml, the
#      base that board.yaml extends, runs segc again and then nothing is
#      left to do; changing a size in chip.yaml changes what the rebuilt
#      program prints.
#   4. find_package(segc VERSION) accepts 0.1 and refuses 0.2 and 1.0;
#      segc_generate without NAME is a configure error that says why;
#      examples/msbuild/segc.targets builds a small project with Mono's
#      xbuild: first build, no-op, base edits, a broken spec, Clean.
#
# Ninja steps are skipped (and counted) when ninja is not installed.
# Prints `ok   WHAT`, `FAIL WHAT: WHY` or `skip WHAT: WHY` per check, then
# `examples: N passed, M failed, K skipped`.
set -u
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin examples
top=$(pwd)
PY=${PYTHON:-/usr/bin/python3}
prefix=$tmp/prefix

# The examples are built as a user would, not as part of this Makefile's
# run: none of its variables (B=, SAN=, CFLAGS=) may leak into them.
clean_env() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES "$@"; }

# What each example's program prints.  board.yaml: vram 4GiB; chip.yaml:
# BAR fb 256MiB = 0x10000000 (segment 1 at 0, CpuVisible|DirectFlip =
# 0x404), local = 4GiB - 256MiB = 0xf0000000 after it, gart at 64GiB =
# 0x1000000000 of 1GiB = 0x40000000 (Aperture|CacheCoherent = 0x11),
# paging buffers in segment 3.  After the edit, gart is 2GiB = 0x80000000.
expect() { # NAME GART_SIZE [LOCAL_SIZE]
    printf '%s: 3 segments, paging buffers in segment 3\n' "$1"
    printf '  segment 1: base 0x0 size 0x10000000 flags 0x00000404\n'
    printf '  segment 2: base 0x10000000 size %s flags 0x00000000\n' "${3:-0xf0000000}"
    printf '  segment 3: base 0x1000000000 size %s flags 0x00000011\n' "$2"
}

# run_example WHAT PROGRAM NAME GART_SIZE [LOCAL_SIZE]: the program prints
# what it must.
run_example() {
    if [ ! -x "$2" ]; then
        bad "$1" "no program $2"
        return
    fi
    expect "$3" "$4" "${5:-}" >"$tmp/want"
    if "$2" >"$tmp/got" 2>&1 && cmp -s "$tmp/want" "$tmp/got"; then
        ok "$1"
    else
        bad "$1" "$(diff "$tmp/want" "$tmp/got" | head -n 8)"
    fi
}

# no_warnings WHAT LOG
no_warnings() {
    if grep -q 'warning:' "$2"; then
        bad "$1: compiles without warnings" "$(grep 'warning:' "$2" | head -n 3)"
    fi
}

mtime() { stat -c %Y.%y "$1" 2>/dev/null; }

# Makes chip.yaml in DIR newer than everything built, then changes gart's
# size from 1GiB to 2GiB.
touch_base() { sleep 1; touch "$1/chip.yaml"; }
edit_base() { sleep 1; sed -i 's/size: 1GiB/size: 2GiB/' "$1/chip.yaml"; }

# ---- 1. install ------------------------------------------------------------------

if make -s B="$B" install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then
    ok "make install PREFIX=..."
else
    bad "make install PREFIX=..." "$(tail -n 5 "$tmp/install.log")"
fi
for f in bin/segc share/man/man1/segc.1 share/man/man5/segc.5 \
    lib/cmake/segc/segcConfig.cmake lib/cmake/segc/segcConfigVersion.cmake \
    share/segc/segc.schema.json share/segc/model.schema.json share/segc/diagnostics.schema.json share/segc/diff.schema.json \
    share/bash-completion/completions/segc share/zsh/site-functions/_segc; do
    if [ -s "$prefix/$f" ]; then
        ok "installed \$PREFIX/$f"
    else
        bad "installed \$PREFIX/$f" "missing or empty"
    fi
done
version=$(sed -n 's/^#define SEGC_VERSION "\(.*\)"$/\1/p' compiler/segc.h)
if grep -q "set(PACKAGE_VERSION \"$version\")" "$prefix/lib/cmake/segc/segcConfigVersion.cmake" 2>/dev/null; then
    ok "segcConfigVersion.cmake says version $version"
else
    bad "segcConfigVersion.cmake" "no PACKAGE_VERSION \"$version\""
fi
if have man; then
    for sec in 1 5; do
        found=$(MANPATH="$prefix/share/man" man -w "$sec" segc 2>/dev/null)
        if [ "$found" = "$prefix/share/man/man$sec/segc.$sec" ]; then
            ok "man -w $sec segc finds the installed page"
        else
            bad "man -w $sec segc" "found '$found'"
        fi
    done
fi

stage=$tmp/stage
make -s B="$B" install DESTDIR="$stage" PREFIX=/opt/segc >"$tmp/destdir.log" 2>&1
missing=""
for f in bin/segc share/man/man1/segc.1 share/man/man5/segc.5 \
    lib/cmake/segc/segcConfig.cmake lib/cmake/segc/segcConfigVersion.cmake \
    share/segc/segc.schema.json share/segc/model.schema.json share/segc/diagnostics.schema.json share/segc/diff.schema.json \
    share/bash-completion/completions/segc share/zsh/site-functions/_segc; do
    [ -f "$stage/opt/segc/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ] && [ -x "$stage/opt/segc/bin/segc" ]; then
    ok "make install DESTDIR=... PREFIX=/opt/segc: every file under DESTDIR"
else
    bad "make install DESTDIR=..." "missing:$missing; found: $(find "$stage" -type f | head -n 8)"
fi
make -s B="$B" uninstall DESTDIR="$stage" PREFIX=/opt/segc >>"$tmp/destdir.log" 2>&1
left=$(find "$stage" -type f 2>/dev/null)
if [ -z "$left" ] && [ ! -d "$stage/opt/segc/lib/cmake/segc" ]; then
    ok "make uninstall removes every installed file"
else
    bad "make uninstall" "left: $left"
fi

SEGC_BIN=$prefix/bin
if [ ! -x "$SEGC_BIN/segc" ]; then
    bad "installed segc" "no $SEGC_BIN/segc"
    suite_end
fi

# ---- 2, 3. examples/make ---------------------------------------------------------

src=$tmp/src/make
out=$tmp/build/make
mkdir -p "$tmp/src" "$tmp/build"
cp -R examples/make "$src"
mk() { clean_env PATH="$SEGC_BIN:$PATH" make -C "$src" O="$out" "$@"; }
# Up to date: a build runs no command.  (make -q cannot tell: an output
# that segc left untouched is older than the stamp, and only a real run
# looks at its time again after the stamp's rule.)
mk_noop() { mk >"$tmp/noop.log" 2>&1 && ! grep -q "^segc \|^cc \|^touch " "$tmp/noop.log"; }
if mk >"$tmp/make.log" 2>&1; then
    ok "make: builds from scratch with the installed segc"
    no_warnings "make" "$tmp/make.log"
else
    bad "make: build" "$(tail -n 8 "$tmp/make.log")"
fi
if grep -q "^segc build .*board.yaml.* -MD -MF " "$tmp/make.log"; then
    ok "make: runs segc build -MD -MF"
else
    bad "make: runs segc build -MD -MF" "$(head -n 3 "$tmp/make.log")"
fi
run_example "make: example prints the segments of board.yaml" "$out/example" example_make 0x40000000
if mk_noop; then ok "make: a second build runs nothing"; else bad "make: second build" "$(head -n 3 "$tmp/noop.log")"; fi
before=$(mtime "$out/gen/example_make_segments.c")
touch_base "$src"
if mk -q >/dev/null 2>&1; then bad "make: chip.yaml touched" "make -q says up to date"; else ok "make: chip.yaml touched: make -q says out of date"; fi
mk >"$tmp/make.log" 2>&1
if grep -q "^segc build .* -MT .*example_make.stamp -MP" "$tmp/make.log" &&
    [ "$(mtime "$out/gen/example_make_segments.c")" = "$before" ] && ! grep -q "^cc " "$tmp/make.log"; then
    ok "make: chip.yaml touched: segc -MT -MP runs, the unchanged .c is not touched or recompiled"
else
    bad "make: chip.yaml touched" "segc not run, or .c touched or recompiled: $(head -n 4 "$tmp/make.log")"
fi
sleep 1
echo "# a comment changes no generated byte" >>"$src/board.yaml"
mk >"$tmp/make.log" 2>&1
if grep -q "^segc build" "$tmp/make.log" && ! grep -q "^cc " "$tmp/make.log" && mk_noop; then
    ok "make: a comment-only edit of the spec reruns segc and recompiles nothing"
else
    bad "make: comment-only edit" "$(head -n 4 "$tmp/make.log")"
fi
if mk_noop; then ok "make: then nothing to do again"; else bad "make: after the rebuild" "$(head -n 3 "$tmp/noop.log")"; fi
sleep 1
touch "$src/board.yaml"
if mk -q >/dev/null 2>&1; then bad "make: board.yaml touched" "make -q says up to date"; else ok "make: board.yaml touched: make -q says out of date"; fi
edit_base "$src"
mk >"$tmp/make.log" 2>&1
run_example "make: chip.yaml edited: the rebuilt example prints the new size" "$out/example" example_make 0x80000000
if mk_noop; then ok "make: nothing to do after the edit"; else bad "make: after the edit" "$(head -n 3 "$tmp/noop.log")"; fi
# A generated header deleted by hand while the stamp is newer: segc runs
# again and the build succeeds, never with a missing file.
rm "$out/gen/example_make_segments.h"
if mk >"$tmp/make.log" 2>&1 && grep -q "^segc build" "$tmp/make.log" && [ -f "$out/gen/example_make_segments.h" ]; then
    ok "make: a generated file deleted by hand is written again"
else
    bad "make: generated file deleted" "$(tail -n 3 "$tmp/make.log")"
fi
if mk_noop; then ok "make: nothing to do after restoring it"; else bad "make: after restoring" "$(head -n 3 "$tmp/noop.log")"; fi
# The base renamed (and edited), the spec pointed at the new name: the old
# name in the depfile must not stop make, and the code follows the new base.
sleep 1
sed 's/2GiB/4GiB/' "$src/chip.yaml" >"$src/chip_v2.yaml" && rm "$src/chip.yaml"
sed -i 's/chip\.yaml/chip_v2.yaml/' "$src/board.yaml"
if mk >"$tmp/make.log" 2>&1; then
    run_example "make: base renamed and edited: rebuilt from the new base" "$out/example" example_make 0x100000000
else
    bad "make: base renamed" "$(tail -n 3 "$tmp/make.log")"
fi
# A base deleted outright: segc reports it; make fails on segc, not on a rule.
sleep 1
rm "$src/chip_v2.yaml"
mk >"$tmp/make.log" 2>&1
if grep -q "error: \[extends\]" "$tmp/make.log" && ! grep -q "No rule to make target" "$tmp/make.log"; then
    ok "make: base deleted: segc's error, never 'No rule to make target'"
else
    bad "make: base deleted" "$(tail -n 3 "$tmp/make.log")"
fi

# ---- 2, 3. examples/cmake ----------------------------------------------------------

# CMake must find segc through the package, next to segcConfig.cmake: a
# segc on PATH that fails proves it is not the one used.
mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\necho "the segc on PATH was used" >&2\nexit 99\n' >"$tmp/fakebin/segc"
chmod +x "$tmp/fakebin/segc"
cm() { clean_env PATH="$tmp/fakebin:$PATH" "$@"; }

# cmake_noop GEN OUT WHAT: a build that has nothing to do runs no step.
cmake_noop() {
    if [ "$1" = Ninja ]; then
        cm ninja -C "$2" -n >"$tmp/noop.log" 2>&1
        if grep -q "no work to do" "$tmp/noop.log"; then ok "$3"; else bad "$3" "$(head -n 3 "$tmp/noop.log")"; fi
    else
        cm cmake --build "$2" >"$tmp/noop.log" 2>&1
        if grep -q "segc: generating\|Building C\|Linking C" "$tmp/noop.log"; then
            bad "$3" "$(grep 'segc: generating\|Building C\|Linking C' "$tmp/noop.log" | head -n 3)"
        else
            ok "$3"
        fi
    fi
}

# cmake_example GEN: examples/cmake with one generator, from scratch.
cmake_example() {
    gen=$1
    tag=$(echo "$gen" | tr 'A-Z ' 'a-z-')
    src=$tmp/src/cmake-$tag
    out=$tmp/build/cmake-$tag
    cp -R examples/cmake "$src"
    if cm cmake -G "$gen" -S "$src" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 &&
        cm cmake --build "$out" >>"$tmp/cmake.log" 2>&1; then
        ok "cmake ($gen): configures and builds from scratch"
        no_warnings "cmake ($gen)" "$tmp/cmake.log"
    else
        bad "cmake ($gen): build" "$(tail -n 10 "$tmp/cmake.log")"
    fi
    if grep -q "segc: generating example_cmake_segments.c" "$tmp/cmake.log"; then
        ok "cmake ($gen): segc_generate runs segc"
    else
        bad "cmake ($gen): segc_generate runs segc" "no generation step in the log"
    fi
    run_example "cmake ($gen): example prints the segments of board.yaml" "$out/example" example_cmake 0x40000000
    cmake_noop "$gen" "$out" "cmake ($gen): a second build does nothing"
    touch_base "$src"
    cm cmake --build "$out" >"$tmp/cmake.log" 2>&1
    if grep -q "segc: generating" "$tmp/cmake.log"; then
        ok "cmake ($gen): chip.yaml touched: segc runs again (depfile)"
    else
        bad "cmake ($gen): chip.yaml touched" "segc did not run: $(head -n 3 "$tmp/cmake.log")"
    fi
    cmake_noop "$gen" "$out" "cmake ($gen): then a build does nothing again"
    edit_base "$src"
    cm cmake --build "$out" >"$tmp/cmake.log" 2>&1
    run_example "cmake ($gen): chip.yaml edited: the rebuilt example prints the new size" "$out/example" example_cmake 0x80000000
    cmake_noop "$gen" "$out" "cmake ($gen): up to date after the edit"
}

if ! have cmake; then
    skipped "cmake" "cmake is not installed"
else
    cmake_example "Unix Makefiles"
    if have ninja; then cmake_example Ninja; else skipped "cmake -G Ninja" "ninja is not installed"; fi

    # segc_generate without NAME: refused at configure time, saying why.
    src=$tmp/src/cmake-noname
    cp -R examples/cmake "$src"
    sed -i 's/ NAME example_cmake)/)/' "$src/CMakeLists.txt"
    if ! cm cmake -S "$src" -B "$tmp/build/cmake-noname" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 &&
        grep -q "NAME <board.name of board.yaml> is required" "$tmp/cmake.log"; then
        ok "cmake: segc_generate without NAME is a configure error naming NAME"
    else
        bad "cmake: segc_generate without NAME" "$(tail -n 5 "$tmp/cmake.log")"
    fi

    # segc_generate with OPTIONS: chip.yaml moved to chips/, found through
    # a relative -I, and vram overridden: local = 8GiB - 256MiB = 0x1f0000000.
    src=$tmp/src/cmake-options
    out=$tmp/build/cmake-options
    cp -R examples/cmake "$src"
    mkdir "$src/chips"
    mv "$src/chip.yaml" "$src/chips/chip.yaml"
    sed -i 's/ NAME example_cmake)/ NAME example_cmake OPTIONS -I chips -D vram=8GiB)/' "$src/CMakeLists.txt"
    if ! grep -q 'OPTIONS -I chips' "$src/CMakeLists.txt"; then
        bad "cmake (OPTIONS)" "could not edit the copy of CMakeLists.txt"
    elif cm cmake -S "$src" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 &&
        cm cmake --build "$out" >>"$tmp/cmake.log" 2>&1; then
        run_example "cmake (OPTIONS -I -D): options applied" "$out/example" example_cmake 0x40000000 0x1f0000000
        touch_base "$src/chips"
        cm cmake --build "$out" >"$tmp/cmake.log" 2>&1
        if grep -q "segc: generating" "$tmp/cmake.log"; then
            ok "cmake (OPTIONS -I): chips/chip.yaml, found through -I, touched: segc runs again"
        else
            bad "cmake (OPTIONS -I): chips/chip.yaml touched" "segc did not run: $(head -n 3 "$tmp/cmake.log")"
        fi
    else
        bad "cmake (OPTIONS): build" "$(tail -n 10 "$tmp/cmake.log")"
    fi

    # The version file: 0.x releases are compatible within their minor.
    mkdir -p "$tmp/src/version"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(v NONE)\nfind_package(segc ${REQ} REQUIRED)\nmessage(STATUS "segc ${segc_VERSION} at ${SEGC_EXECUTABLE}")\n' \
        >"$tmp/src/version/CMakeLists.txt"
    for req in 0.1 0 0.2 1.0; do
        rm -rf "$tmp/build/version"
        cm cmake -S "$tmp/src/version" -B "$tmp/build/version" -DCMAKE_PREFIX_PATH="$prefix" -DREQ="$req" >"$tmp/v.log" 2>&1
        rc=$?
        case $req in 0.1 | 0) want=0 ;; *) want=1 ;; esac
        if [ "$want" -eq 0 ] && [ "$rc" -eq 0 ] && grep -q "segc $version at $prefix/bin/segc" "$tmp/v.log"; then
            ok "find_package(segc $req) finds $version in the prefix"
        elif [ "$want" -eq 1 ] && [ "$rc" -ne 0 ] && grep -q "with requested version \"$req\"" "$tmp/v.log"; then
            ok "find_package(segc $req) refuses $version"
        else
            bad "find_package(segc $req)" "exit $rc: $(grep -v '^--' "$tmp/v.log" | head -n 5)"
        fi
    done
fi

# ---- 2, 3. examples/ninja ------------------------------------------------------------

if ! have ninja; then
    skipped "examples/ninja" "ninja is not installed"
else
    src=$tmp/src/ninja
    cp -R examples/ninja "$src"
    nj() { clean_env PATH="$SEGC_BIN:$PATH" ninja -C "$src" "$@"; }
    if nj >"$tmp/ninja.log" 2>&1; then
        ok "ninja: builds from scratch with the installed segc"
        no_warnings "ninja" "$tmp/ninja.log"
    else
        bad "ninja: build" "$(tail -n 8 "$tmp/ninja.log")"
    fi
    run_example "ninja: example prints the segments of board.yaml" "$src/out/example" example_ninja 0x40000000
    if nj -t deps out/gen/example_ninja_segments.h 2>/dev/null | grep -q '^ *chip.yaml$'; then
        ok "ninja: the depfile put chip.yaml in the deps log"
    else
        bad "ninja: deps log" "$(nj -t deps out/gen/example_ninja_segments.h 2>&1 | head -n 5)"
    fi
    nj -n >"$tmp/noop.log" 2>&1
    if grep -q "no work to do" "$tmp/noop.log"; then ok "ninja: up to date after the build (ninja -n)"; else bad "ninja -n" "$(head -n 3 "$tmp/noop.log")"; fi
    touch_base "$src"
    nj >"$tmp/ninja.log" 2>&1
    if grep -q "SEGC board.yaml" "$tmp/ninja.log"; then
        ok "ninja: chip.yaml touched: segc runs again"
    else
        bad "ninja: chip.yaml touched" "segc did not run: $(head -n 3 "$tmp/ninja.log")"
    fi
    if grep -q "CC \|LINK " "$tmp/ninja.log"; then
        bad "ninja: chip.yaml touched, nothing changed" "recompiled: $(grep 'CC \|LINK ' "$tmp/ninja.log" | head -n 2)"
    else
        ok "ninja: chip.yaml touched, same output: nothing recompiled (restat)"
    fi
    nj -n >"$tmp/noop.log" 2>&1
    if grep -q "no work to do" "$tmp/noop.log"; then ok "ninja: then up to date again (ninja -n)"; else bad "ninja -n after the rebuild" "$(head -n 3 "$tmp/noop.log")"; fi
    edit_base "$src"
    nj >"$tmp/ninja.log" 2>&1
    run_example "ninja: chip.yaml edited: the rebuilt example prints the new size" "$src/out/example" example_ninja 0x80000000
    nj -n >"$tmp/noop.log" 2>&1
    if grep -q "no work to do" "$tmp/noop.log"; then ok "ninja: up to date after the edit"; else bad "ninja -n after the edit" "$(head -n 3 "$tmp/noop.log")"; fi
fi

# ---- 4. examples/msbuild, with Mono's xbuild ------------------------------------
# tests/examples/msbuild/example.proj imports segc.targets; its ClCompile
# target records what it would compile.  xbuild prints the lines of an Exec
# but, unlike Visual Studio's MSBuild, makes no Error List of them: the log
# lines are checked against the canonical-error pattern instead.

if ! have xbuild; then
    skipped "msbuild" "xbuild (mono-xbuild) is not installed"
else
    src=$tmp/src/msbuild
    mkdir -p "$src"
    cp tests/examples/msbuild/example.proj examples/make/chip.yaml "$src/"
    sed 's/example_make/example_msbuild/' examples/make/board.yaml >"$src/board.yaml"
    gen=$src/obj/segc
    xb() { (cd "$src" && clean_env xbuild /nologo /v:normal /p:SegcCommand="$SEGC_BIN/segc" \
        /p:SegcTargets="$top/examples/msbuild/segc.targets" "$@" example.proj) >"$tmp/xb.log" 2>&1; }
    if xb && [ -f "$gen/example_msbuild_segments.c" ] && grep -q "compiled: obj/segc/example_msbuild_segments.c" "$tmp/xb.log" &&
        grep -q "build --diagnostics=msvc .* --deps-list " "$tmp/xb.log"; then
        ok "msbuild (xbuild): first build runs segc --diagnostics=msvc --deps-list and compiles its .c"
    else
        bad "msbuild (xbuild): first build" "$(tail -n 8 "$tmp/xb.log")"
    fi
    if grep -qx "$src/chip.yaml" "$gen/example_msbuild.deps" 2>/dev/null; then
        ok "msbuild: the deps list names the base, one path per line"
    else
        bad "msbuild: deps list" "$(cat "$gen/example_msbuild.deps" 2>/dev/null)"
    fi
    before=$(mtime "$gen/example_msbuild_segments.c")
    sleep 1
    if xb && grep -q 'Skipping target "SegcGenerate"' "$tmp/xb.log" && grep -q 'Skipping target "ClCompile"' "$tmp/xb.log" &&
        [ "$(mtime "$gen/example_msbuild_segments.c")" = "$before" ]; then
        ok "msbuild: a second build skips SegcGenerate and ClCompile, outputs untouched"
    else
        bad "msbuild: no-op build" "$(grep -i 'skipping\|Executing\|compiled' "$tmp/xb.log" | head -n 4)"
    fi
    echo "# a comment" >>"$src/chip.yaml"
    if xb && grep -q "Executing: .*segc" "$tmp/xb.log" && grep -q 'Skipping target "ClCompile"' "$tmp/xb.log" &&
        [ "$(mtime "$gen/example_msbuild_segments.c")" = "$before" ]; then
        ok "msbuild: a comment in the base reruns segc, which touches and recompiles nothing"
    else
        bad "msbuild: comment in the base" "$(grep -i 'skipping\|Executing\|compiled' "$tmp/xb.log" | head -n 4)"
    fi
    sleep 1
    edit_base "$src"
    if xb && grep -q "compiled: obj/segc/example_msbuild_segments.c" "$tmp/xb.log" &&
        grep -q "0x80000000" "$gen/example_msbuild_segments.c"; then
        ok "msbuild: the base edited: segc reruns, the new .c is compiled"
    else
        bad "msbuild: base edit" "$(grep -i 'skipping\|Executing\|compiled' "$tmp/xb.log" | head -n 4)"
    fi
    sed -i 's/kind: memory/kind: memroy/' "$src/chip.yaml"
    if ! xb && grep -q "chip.yaml([0-9]*,[0-9]*-[0-9]*): error SEGC2015: \\[bad-value\\]" "$tmp/xb.log" &&
        "$PY" tests/cases/formats/msvc.py --lines "$tmp/xb.log" >"$tmp/canon.log" 2>&1; then
        ok "msbuild: a broken base fails the build with canonical error lines"
    else
        bad "msbuild: broken spec" "$(cat "$tmp/canon.log"; grep -n 'SEGC\|rror' "$tmp/xb.log" | head -n 4)"
    fi
    if xb /t:Clean && [ ! -e "$gen/example_msbuild_segments.c" ] && [ ! -e "$gen/segc_dxgk.h" ] && [ ! -e "$gen/example_msbuild.deps" ]; then
        ok "msbuild: Clean removes what segc wrote"
    else
        bad "msbuild: Clean" "left: $(ls "$gen" 2>&1)"
    fi
fi

suite_end

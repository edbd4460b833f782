#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh - the one list of what segc builds and tests with.
#
#   sh tests/deps.sh --check    list what is missing; exit 1 if anything is
#   sh tests/deps.sh --install  install what is missing (as root; without
#                               root, print the one command to run), then
#                               fetch the SARIF 2.1.0 schema, ajv and the
#                               VS Code extension's npm packages (its
#                               runtime modules and vsce) into the cache
#   sh tests/deps.sh --install demo   the packages only (./run demo)
#
# Each tool is looked for itself (a command on PATH, a pkg-config module,
# a header, a Python module, a file), so a machine that has everything
# passes whether or not it keeps a dpkg database; the Debian package names
# are only what the messages and apt-get are given.
#
# Why each package: gcc/make/libc6-dev build segc; pkg-config finds
# libyaml and Check; libyaml-dev is the YAML parser; re2c and lemon
# generate the lexers and grammars; check is the unit-test framework;
# clang and g++ compile the generated code and segc_dxgk.h other ways
# (clang also runs the fuzzers, with libclang-rt-14-dev's libFuzzer);
# python3-yaml and python3-jsonschema validate samples and outputs against
# the JSON Schemas (tests only); valgrind runs the memcheck and callgrind
# passes; man-db and groff-base render the man pages for their test
# (tests/man); cmake and ninja-build build the build-system examples
# (tests/examples); chromium renders the `segc map` pages headless so
# tests/map can measure them; npm fetches, once, the SARIF 2.1.0 schema
# tests/json validates with, the ajv validator tests/schema runs the
# schemas through in strict mode, as editors' tools do, and for
# tests/editors the VS Code extension's runtime modules
# (vscode-languageclient, which the .vsix ships) and vsce (which builds the
# .vsix), each from its checked-in lock (not needed once all are cached;
# nodejs comes with npm and runs ajv, vsce and the extension's test);
# gcc-mingw-w64-x86-64 cross-builds segc.exe (make windows) and, with
# gcc-mingw-w64-i686, compiles the generated code for both Windows targets
# (tests/gen: an x64 spec must refuse a 32-bit build); gcc-multilib
# links and runs 32-bit x86 programs (tests/gen runs the self-test of an
# x86 board there, so allocation classes are checked against the 60-byte
# x86 DXGK_ALLOCATIONINFO, not only compiled for it); dpkg-dev lets
# apt-get fetch and unpack libyaml's and jansson's source packages for it, wine64 runs
# segc.exe (tests/windows, make dist-test) and mono-xbuild builds the
# MSBuild example (tests/examples); zsh runs the zsh completion
# (tests/completion; bash is always there); cppcheck and clang-tidy lint
# the generated code (tests/gen: a kernel reviewer's tools find nothing in it);
# neovim is a real LSP client for `segc lsp` (tests/lsp/nvim: its built-in
# client, headless, opens a spec and reads the diagnostics as an editor would);
# emacs-nox with elpa-eglot (Emacs 28 has no Eglot of its own) and
# elpa-yaml-mode (the major mode Eglot attaches to) is a second one
# (tests/lsp/eglot: the README's Emacs set-up, driven through Eglot's own
# functions in emacs --batch); cmark-gfm renders `segc map -o FILE.md` as
# GitHub does (tables), so tests/map can read the tables back.
#
# The schema is another project's file, so it is not in this repository:
# it comes from the npm package that ships it, pinned by version and
# SHA-256 (tests/lib.sh), and is kept in $SEGC_TEST_CACHE (default
# ~/.cache/segc), outside the tree, where tests/json/run.sh reads it.
# Nothing is downloaded while the tests run.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

SARIF_SCHEMA=$(sarif_schema)

# PACKAGE PROBE...: every probe must succeed.  cmd:A|B  a command (either);
# pc:M a pkg-config module; h:H a C header; py:M a module of
# /usr/bin/python3; f:PATH a file; rt:NAME a clang runtime library; el:L an
# Emacs Lisp library Emacs finds once its packages are activated.
DEPS='
make        cmd:make
gcc         cmd:gcc
g++         cmd:g++
libc6-dev   h:stdio.h
pkg-config  cmd:pkg-config
libyaml-dev pc:yaml-0.1 h:yaml.h
libjansson-dev pc:jansson h:jansson.h
re2c        cmd:re2c
lemon       cmd:lemon f:/usr/share/lemon/lempar.c
check       pc:check h:check.h
clang       cmd:clang
libclang-rt-14-dev rt:libclang_rt.fuzzer
python3     f:/usr/bin/python3
python3-yaml       py:yaml
python3-jsonschema py:jsonschema
valgrind    cmd:valgrind
man-db      cmd:man
groff-base  cmd:groff
cmake       cmd:cmake
ninja-build cmd:ninja
chromium    cmd:chromium|chromium-browser
npm         cached-or-cmd:npm
gcc-mingw-w64-x86-64 cmd:x86_64-w64-mingw32-gcc
gcc-mingw-w64-i686 cmd:i686-w64-mingw32-gcc
gcc-multilib f:/usr/include/x86_64-linux-gnu/gnu/stubs-32.h
dpkg-dev    cmd:dpkg-source
wine64      cmd:wine
mono-xbuild cmd:xbuild
zsh         cmd:zsh
cppcheck    cmd:cppcheck
clang-tidy  cmd:clang-tidy
neovim      cmd:nvim
cmark-gfm   cmd:cmark-gfm
emacs-nox   cmd:emacs
elpa-eglot  el:eglot
elpa-yaml-mode el:yaml-mode
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

missing_packages() {
    echo "$DEPS" | while read -r pkg probes; do
        [ -n "$pkg" ] || continue
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

# ajv and what it needs, for tests/schema.
fetch_ajv() {
    ajv_cached || npm_ci "ajv for tests/schema" tests/schema/ajv "$(ajv_dir)"
}

# The VS Code extension's runtime modules and, apart, vsce, for tests/editors.
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

missing=$(missing_packages)
missing=${missing% }

case "${1:-}" in
--check)
    status=0
    if [ -n "$missing" ]; then
        echo "segc: missing Debian packages: $missing" >&2
        echo "segc: install them with: sudo apt-get install -y $missing" >&2
        status=1
    fi
    sarif_cached || uncached "the SARIF 2.1.0 schema" "$SARIF_SCHEMA"
    ajv_cached || uncached ajv "$(ajv_dir)"
    vscode_modules_cached || uncached "vscode-languageclient (for the VS Code extension)" "$(vscode_modules_dir)"
    vsce_cached || uncached vsce "$(vsce_dir)"
    exit $status
    ;;
--install)
    if [ -n "$missing" ]; then
        if [ "$(id -u)" != 0 ]; then
            echo "segc: these Debian packages are missing; run this once, then try again:" >&2
            echo "    sudo apt-get install -y $missing" >&2
            exit 1
        fi
        echo "segc: installing $missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086
        apt-get update -qq && apt-get install -y -qq $missing >/dev/null || {
            echo "segc: apt-get install failed" >&2
            exit 2
        }
        missing=$(missing_packages)
        if [ -n "$missing" ]; then
            echo "segc: still missing after apt-get install: $missing" >&2
            exit 2
        fi
    fi
    [ "${2:-}" = demo ] || { fetch_schema && fetch_ajv && fetch_vscode; } || exit 2
    ;;
*)
    echo "usage: sh tests/deps.sh --check|--install" >&2
    exit 2
    ;;
esac

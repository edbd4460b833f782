#!/bin/sh
# deps.sh - the one list of Debian packages segc builds and tests with.
#
#   sh tests/deps.sh --check    list what is missing; exit 1 if anything is
#   sh tests/deps.sh --install  install what is missing (as root), or print
#                               the one command to run (without root)
#
# Why each package: gcc/make/libc6-dev build segc; pkg-config finds
# libyaml and Check; libyaml-dev is the YAML parser; re2c and lemon
# generate the lexers and grammars; check is the unit-test framework;
# clang compiles the generated code a second way (and runs the fuzzers);
# python3-yaml and python3-jsonschema validate samples against the JSON
# Schema (tests only); valgrind runs the memcheck and callgrind passes;
# man-db and groff-base render the man pages for their test (tests/man);
# cmake and ninja-build build the build-system examples (tests/examples);
# chromium renders the `segc map` pages headless so tests/map can measure them.
# gcc-mingw-w64-x86-64 cross-builds segc.exe (make windows), dpkg-dev lets
# apt-get fetch and unpack libyaml's source package for it, wine64 runs
# segc.exe in the tests (tests/windows), mono-xbuild builds the MSBuild
# example (tests/examples), zip writes the Windows release archive (make dist).
PKGS="make gcc libc6-dev pkg-config libyaml-dev re2c lemon check clang libclang-rt-14-dev python3 python3-yaml python3-jsonschema valgrind man-db groff-base cmake ninja-build chromium gcc-mingw-w64-x86-64 dpkg-dev wine64 mono-xbuild zip"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed'; then
        missing="$missing $p"
    fi
done
missing=${missing# }

case "$1" in
--check)
    if [ -n "$missing" ]; then
        echo "segc: missing Debian packages: $missing" >&2
        echo "segc: install them with: sudo apt-get install -y $missing" >&2
        exit 1
    fi
    ;;
--install)
    [ -z "$missing" ] && exit 0
    if [ "$(id -u)" = 0 ]; then
        echo "segc: installing $missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq $missing >/dev/null || {
            echo "segc: apt-get install failed" >&2
            exit 2
        }
    else
        echo "segc: these Debian packages are missing; run this once, then try again:" >&2
        echo "    sudo apt-get install -y $missing" >&2
        exit 1
    fi
    ;;
*)
    echo "usage: sh tests/deps.sh --check|--install" >&2
    exit 2
    ;;
esac

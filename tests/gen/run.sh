#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/gen/run.sh - what segc writes, compiled, run and looked at by the
# programs that consume it.
#
#   sh tests/gen/run.sh build/segc build "SANFLAGS" [PART...]
#
# Each part is tests/gen/PART.sh (all of them when none is named), given
# the same three arguments; its counts are added (tests/lib.sh, part).
#   code      every sample built and its C compiled with gcc, clang and
#             mingw-w64, its handlers and --emit-selftest program run
#             against values worked out by hand (expect/), goldens (golden/)
#   lookup    the generated lookup tables against an independent reference
#             (lookup/check_lookup.c) on the samples and seeded random boards
#   property  seeded specs near every limit with random options: check and
#             build agree, what exits 0 compiles and passes its self-test
#   agree     check exits 0 if and only if build does, over every spec of
#             the tree and the property specs, with every option set that
#             can change the answer; every build that exits 0 compiles
#   map       segc map drawn to SVG and HTML and measured in headless
#             Chromium (map/check.py, map/expect/)
#   fields    segc built with one more row of fields.def (BUILD_DIR/
#             field-test/segc) reports the new field where a form lacks it
# `make test` runs each part as a suite of its own, at the same time.
set -u
SEGC=${1:?usage: run.sh path/to/segc BUILD_DIR "SANFLAGS" [PART...]}
B=${2:?usage: run.sh path/to/segc BUILD_DIR "SANFLAGS" [PART...]}
SAN=${3:-}
shift 3 2>/dev/null || shift $#
caller=$(pwd)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin gen
SEGC=$(caller_path "$SEGC")
[ $# -gt 0 ] || set -- code lookup property agree map fields
for p in "$@"; do
    part "$p" sh "tests/gen/$p.sh" "$SEGC" "$B" "$SAN"
done
suite_end

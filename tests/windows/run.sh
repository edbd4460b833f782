#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/windows/run.sh - segc.exe, cross-built with mingw-w64, under Wine.
#
#   sh tests/windows/run.sh build/segc build/windows/segc.exe build [PART...]
#
# Each part is tests/windows/PART.sh (both when none is named), given the
# same three arguments; its counts are added (tests/lib.sh, part).
#   exe   segc.exe gives the same bytes as the Linux segc, and what only
#         Windows has: drive letters, backslashes, UTF-8 names (cases.txt)
#   dist  `make dist` is reproducible, and segc.exe runs from its zip
set -u
SEGC=${1:?usage: run.sh SEGC SEGC_EXE BUILD_DIR [PART...]}
EXE=${2:?usage: run.sh SEGC SEGC_EXE BUILD_DIR [PART...]}
B=${3:?usage: run.sh SEGC SEGC_EXE BUILD_DIR [PART...]}
shift 3
caller=$(pwd)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin windows
[ $# -gt 0 ] || set -- exe dist
for p in "$@"; do
    part "$p" sh "tests/windows/$p.sh" "$(caller_path "$SEGC")" "$(caller_path "$EXE")" "$B"
done
suite_end

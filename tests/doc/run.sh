#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/doc/run.sh - what describes segc agrees with segc: the README and
# the pages of doc/ (what they show of a case or a file, their tables and
# links), the man pages, the shell completions and the JSON Schema of the
# input format.
#
#   sh tests/doc/run.sh build/segc [PART...]
#
# Each part is tests/doc/PART.sh (all of them when none is named), run
# with $SEGC in its environment; its counts are added (tests/lib.sh, part).
#   pages       README.md and doc/*.md (tests/doc/pages.py)
#   man         doc/segc.1 and doc/segc.5 (tests/doc/man.py)
#   completion  completions/segc.bash and completions/_segc
#   schema      schema/segc.schema.json (tests/doc/keys.py, flags.py, ajv)
# Nothing here depends on how segc was built, so the sanitizer pass does
# not repeat it.
set -u
SEGC=${1:?usage: run.sh path/to/segc [PART...]}
shift
caller=$(pwd)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin doc
SEGC=$(caller_path "$SEGC")
# The tables program the man-page part reads, built beside segc (make doc).
SEGC_TABLES=${SEGC_TABLES:-$(dirname "$SEGC")/tables}
export SEGC SEGC_TABLES
[ $# -gt 0 ] || set -- $(cd tests/doc && for f in *.sh; do [ "$f" = run.sh ] || echo "${f%.sh}"; done)
for p in "$@"; do
    part "$p" sh "tests/doc/$p.sh"
done
suite_end

#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints doc/rules.md: `segc explain` for every code of `segc rules --all`,
# one section per code, whose anchor is the code's name (SARIF helpUri).
#   sh tests/tools/rules-doc.sh build/segc > doc/rules.md
set -eu
SEGC=${1:?usage: rules-doc.sh path/to/segc}
cat <<'HEAD'
# Rules and codes

Every code segc prints, in `segc rules --all` order, with what
`segc explain CODE` says about it: the rule, its WDDM source, the fix, and
how (or whether) it can be switched off or waived.  Each section's anchor
is the code's name, `doc/rules.md#segments-overlap`: that is the `helpUri`
of the code in segc's SARIF output (see [diagnostics.md](diagnostics.md)).
tests/doc/run.sh checks that this file is what segc says.
HEAD
"$SEGC" rules --all | while read -r name _; do
    printf '\n## %s\n\n```text\n' "$name"
    "$SEGC" explain "$name"
    printf '```\n'
done

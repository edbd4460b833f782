#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/diff/run.sh - `segc diff` over pairs of specs.
#
# A pair NAME is tests/diff/NAME.new.yaml against tests/diff/NAME.old.yaml,
# or against tests/diff/base.yaml when NAME has no .old.yaml.  Its
# standard output must equal NAME.out byte for byte, its standard error
# NAME.err (empty when there is no NAME.err).  The .new.yaml's first lines
# may say what else the pair expects:
#   # expect-exit: 3          exit status (default 0)
#   # args: -D vram=8GiB      extra arguments (paths relative to the repo)
# The pairs in JSON_CASES are run again with --json; the output must be
# JSON (python3 parses it) and equal, as data, to NAME.json, segc's version
# written @SEGC_VERSION@ (tests/json
# validates it against schema/diff.schema.json).
#
#   sh tests/diff/run.sh build/segc
#   SEGC_UPDATE=1 sh tests/diff/run.sh build/segc
#                      rewrite .out/.err/.json, then review them (git diff)
#
# Also checked: samples/discrete.yaml against samples/discrete_16g.yaml,
# standard input as OLD, OLD from git (REV:PATH, --rev) in a temporary
# repository, usage errors, -q, --help, and that README.md's
# table lists every kind of `segc diff --kinds` with its class.
set -u
SEGC=${1:?usage: run.sh path/to/segc}
PY=${PYTHON:-/usr/bin/python3}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin diff
D=tests/diff
VER=$("$SEGC" --version | awk '{print $2}')
JSON_CASES="samples-discrete-16g no-change segment-removed bank-removed budget-flags cpu-window-moved cpu-visible-lost variant-delete classes-renumbered"

# Parses $1 as JSON, checks the documented shape, and compares it as data
# with the expected JSON in $2.
json_check() {
    "$PY" - "$1" "$2" "$SEGC" <<'EOF'
import json, subprocess, sys
got_path, want_path, segc = sys.argv[1:4]
with open(got_path, encoding="utf-8") as f:
    got = json.load(f)
kinds = {}
for line in subprocess.run([segc, "diff", "--kinds"], capture_output=True, text=True, check=True).stdout.splitlines():
    name, cls = line.split()[:2]
    kinds[name] = cls
problems = []
if list(got) != ["segc_diff", "tool", "old", "new", "changes", "breaking", "compatible"]:
    problems.append("top-level keys %r" % list(got))
if got.get("segc_diff") != 2:
    problems.append("segc_diff is %r, not 2" % got.get("segc_diff"))
keys = ["class", "kind", "file", "line", "column", "segment", "bank", "bank_id", "bar", "flag", "constant", "allocation_class", "message",
        "cause", "old", "new", "notes"]
for c in got.get("changes", []):
    if list(c) != keys:
        problems.append("change keys %r" % list(c))
    elif kinds.get(c["kind"]) != c["class"]:
        problems.append("%s is %s in the output, %s in --kinds" % (c["kind"], c["class"], kinds.get(c["kind"])))
    elif c["old"] is None and c["new"] is None:
        problems.append("%s has neither side" % c["kind"])
for cls in ("breaking", "compatible"):
    n = sum(1 for c in got.get("changes", []) if c.get("class") == cls)
    if got.get(cls) != n:
        problems.append("%s is %r but %d changes are %s" % (cls, got.get(cls), n, cls))
try:
    with open(want_path, encoding="utf-8") as f:
        want = json.load(f)
    if got != want:
        for i, (g, w) in enumerate(zip(got.get("changes", []), want.get("changes", []))):
            if g != w:
                problems.append("change %d is %s, expected %s" % (i, json.dumps(g), json.dumps(w)))
                break
        else:
            problems.append("differs from %s" % want_path)
except (OSError, ValueError) as e:
    problems.append("expected %s: %s" % (want_path, e))
for p in problems:
    print("    " + p)
sys.exit(1 if problems else 0)
EOF
}

# run_case NAME OLD NEW EXPECTED-EXIT ARGS...
run_case() {
    name=$1 old=$2 new=$3 want_rc=$4
    shift 4
    "$SEGC" diff --color=never "$@" "$old" "$new" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if updating; then
        cp "$tmp/out" "$D/$name.out"
        if [ -s "$tmp/err" ]; then cp "$tmp/err" "$D/$name.err"; else rm -f "$D/$name.err"; fi
    fi
    if [ -f "$D/$name.err" ]; then want_err=$D/$name.err; else want_err=/dev/null; fi
    if [ "$rc" -ne "$want_rc" ]; then
        bad "$name" "exit status $rc, expected $want_rc"
        sed 's/^/    | /' "$tmp/out" "$tmp/err" | head -n 20
    elif [ ! -f "$D/$name.out" ]; then
        bad "$name" "no $D/$name.out (run with SEGC_UPDATE=1 and review it)"
    elif ! cmp -s "$tmp/out" "$D/$name.out"; then
        bad "$name" "output differs from $D/$name.out"
        diff -u "$D/$name.out" "$tmp/out" | head -n 30 | sed 's/^/    /'
    elif ! cmp -s "$tmp/err" "$want_err"; then
        bad "$name" "standard error differs from $want_err"
        diff -u "$want_err" "$tmp/err" | head -n 30 | sed 's/^/    /'
    else
        ok "$name"
    fi
    case " $JSON_CASES " in
    *" $name "*)
        "$SEGC" diff --json "$@" "$old" "$new" >"$tmp/raw" 2>"$tmp/err"
        rc=$?
        sed "s/\"version\": \"$VER\"/\"version\": \"@SEGC_VERSION@\"/" "$tmp/raw" >"$tmp/json"
        updating && cp "$tmp/json" "$D/$name.json"
        if [ "$rc" -ne "$want_rc" ]; then
            bad "$name --json" "exit status $rc, expected $want_rc"
        elif json_check "$tmp/json" "$D/$name.json"; then
            ok "$name --json"
        else
            bad "$name --json" "see above"
        fi
        ;;
    esac
}

for new in "$D"/*.new.yaml; do
    name=${new#"$D"/}
    name=${name%.new.yaml}
    old=$D/$name.old.yaml
    [ -f "$old" ] || old=$D/base.yaml
    want_rc=$(sed -n 's/^# expect-exit: *\([0-9]*\).*/\1/p' "$new" | head -n 1)
    args=$(sed -n 's/^# args: *//p' "$new" | head -n 1)
    # shellcheck disable=SC2086
    run_case "$name" "$old" "$new" "${want_rc:-0}" $args
done

# The bundled board variant against the board it was derived from.
run_case samples-discrete-16g samples/discrete.yaml samples/discrete_16g.yaml 3

# OLD from standard input: the same changes (the text names NEW only).
"$SEGC" diff - "$D/size-grown.new.yaml" <"$D/base.yaml" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$tmp/out" "$D/size-grown.out"; then
    ok "OLD from standard input"
else
    bad "OLD from standard input" "exit $rc"
    sed 's/^/    | /' "$tmp/out"
fi

# OLD from git: REV:PATH and --rev read OLD and its whole extends chain as
# the commit has them, while the work tree holds other versions of both
# files.  Paths are relative to the current directory.
g=$tmp/git
mkdir -p "$g/chips"
cp "$D/base.yaml" "$g/chips/base.yaml"
printf 'segc: 1\nextends: chips/base.yaml\nboard: { name: variant }\n' >"$g/board.yaml"
case $SEGC in /*) segc=$SEGC ;; *) segc=$(pwd)/$SEGC ;; esac
if ! (cd "$g" && git init -q && git add -A && git -c user.name=segc -c user.email=segc@example.invalid commit -qm one); then
    bad "OLD from git" "cannot make a git repository in $g"
else
    sed -i 's/{ name: near, size: 1GiB }/{ name: near, size: 512MiB }/' "$g/chips/base.yaml"
    sed -i 's/name: variant/name: variant2/' "$g/board.yaml"
    cat >"$tmp/want" <<'EOF'
breaking: board.yaml:3:16: [board-renamed] board name variant -> variant2
breaking: chips/base.yaml:26:29: [bank-boundary-moved] segment 'local' bank 1 'near' end 0x40000000 (1 GiB) -> 0x20000000 (512 MiB), -512 MiB
breaking: chips/base.yaml:27:28: [bank-boundary-moved] segment 'local' bank 2 'mid' end 0x80000000 (2 GiB) -> 0x60000000 (1.50 GiB), -512 MiB, because bank 'near' shrank
3 changes: 3 breaking, 0 compatible
EOF
    for how in "HEAD:board.yaml board.yaml" "--rev HEAD board.yaml" "--rev=HEAD board.yaml"; do
        # shellcheck disable=SC2086
        (cd "$g" && "$segc" diff $how) >"$tmp/out" 2>&1
        rc=$?
        if [ "$rc" -eq 3 ] && cmp -s "$tmp/out" "$tmp/want"; then
            ok "OLD from git: diff $how"
        else
            bad "OLD from git: diff $how" "exit $rc"
            diff -u "$tmp/want" "$tmp/out" | indent 5
        fi
    done
    (cd "$g/chips" && "$segc" diff --json HEAD:../board.yaml ../board.yaml) >"$tmp/out" 2>&1
    if grep -q '"old": "HEAD:../board.yaml",' "$tmp/out" && grep -q '"file": "../chips/base.yaml",' "$tmp/out"; then
        ok "OLD from git: from a subdirectory, named REV:PATH in JSON"
    else
        bad "OLD from git: from a subdirectory, named REV:PATH in JSON" "see below"
        head -n 20 "$tmp/out" | indent 5
    fi
    # A name that is a file is a file, colon or not (here NEW's twin).
    cp "$g/board.yaml" "$g/v1:board.yaml"
    (cd "$g" && "$segc" diff v1:board.yaml board.yaml) >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "no change" ]; then
        ok "OLD from git: a file named v1:board.yaml is read as a file"
    else
        bad "OLD from git: a file named v1:board.yaml is read as a file" "exit $rc"
        indent 5 <"$tmp/out"
    fi
    (cd "$g" && "$segc" diff HEAD:nope.yaml board.yaml) >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF "HEAD:nope.yaml: fatal: [io] not found in git revision 'HEAD'" "$tmp/out"; then
        ok "OLD from git: a path the revision lacks is an I/O error"
    else
        bad "OLD from git: a path the revision lacks is an I/O error" "exit $rc"
        indent 5 <"$tmp/out"
    fi
    (cd "$g" && git mv chips/base.yaml chips/renamed.yaml && sed -i 's|chips/base.yaml|chips/renamed.yaml|' board.yaml &&
        "$segc" diff HEAD:board.yaml board.yaml) >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -eq 3 ] && grep -q '^breaking: chips/renamed.yaml:26:29: \[bank-boundary-moved\]' "$tmp/out"; then
        ok "OLD from git: its extends chain is the revision's, not the work tree's"
    else
        bad "OLD from git: its extends chain is the revision's, not the work tree's" "exit $rc"
        indent 5 <"$tmp/out"
    fi
fi

# -q: nothing printed, the exit status says it.
"$SEGC" diff -q "$D/base.yaml" "$D/base-moved.new.yaml" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -eq 3 ] && [ ! -s "$tmp/out" ]; then ok "-q"; else bad "-q" "exit $rc, output $(wc -c <"$tmp/out") bytes"; fi

# Usage and I/O errors: exit status 2 and a message naming the problem.
usage_case() {
    label=$1 want=$2
    shift 2
    "$SEGC" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$tmp/err"; then
        ok "$label"
    else
        bad "$label" "exit $rc, expected 2 and '$want' on standard error"
        sed 's/^/    | /' "$tmp/err" | head -n 5
    fi
}
usage_case "one file" "diff takes OLD and NEW (got 1 file)" diff "$D/base.yaml"
usage_case "three files" "diff takes OLD and NEW (got 3 files)" diff "$D/base.yaml" "$D/base.yaml" "$D/base.yaml"
usage_case "both standard input" "only one of OLD and NEW can be '-'" diff - -
usage_case "unknown option" "unknown option '--sarif'" diff --sarif "$D/base.yaml" "$D/base.yaml"
usage_case "build option" "unknown option '--annotate'" diff --annotate "$D/base.yaml" "$D/base.yaml"
usage_case "missing NEW" "$D/nope.yaml: fatal: [io] cannot open" diff "$D/base.yaml" "$D/nope.yaml"
usage_case "--kinds with files" "diff --kinds takes no files" diff --kinds "$D/base.yaml"
usage_case "--rev with two files" "diff --rev takes one SPEC (got 2)" diff --rev HEAD "$D/base.yaml" "$D/base.yaml"
usage_case "--rev with standard input" "not one read from git" diff --rev HEAD -

# --help documents the exit statuses; `segc help diff` is the same text.
"$SEGC" diff --help >"$tmp/help" 2>&1
rc=$?
"$SEGC" help diff >"$tmp/help2" 2>&1
if [ "$rc" -eq 0 ] && grep -q "3 at least one breaking" "$tmp/help" && cmp -s "$tmp/help" "$tmp/help2"; then
    ok "--help"
else
    bad "--help" "exit $rc, or no exit statuses, or differs from 'segc help diff'"
fi

# README.md's table has every kind, with the class segc gives it.
"$SEGC" diff --kinds >"$tmp/kinds"
n=0
missing=""
while read -r kind class _; do
    n=$((n + 1))
    grep -qF "| \`$kind\` | $class |" README.md || missing="$missing $kind"
done <"$tmp/kinds"
if [ "$n" -gt 0 ] && [ -z "$missing" ]; then
    ok "README lists all $n kinds"
else
    bad "README lists every kind" "missing or misclassified:$missing"
fi
rows=$(grep -c '^| `[a-z0-9-]*` | \(breaking\|compatible\) |' README.md)
if [ "$rows" -eq "$n" ]; then ok "README lists no other kind"; else bad "README lists no other kind" "$rows rows, $n kinds"; fi

suite_end

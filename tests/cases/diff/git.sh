#!/bin/sh
# SPDX-License-Identifier: MIT
# segc diff with OLD read from git (REV:PATH, --rev) in a repository made
# here: the revision's extends chain, paths relative to the current
# directory, a file whose name has a colon, a path the revision lacks.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin diff-git

# OLD from git: REV:PATH and --rev read OLD and its whole extends chain as
# the commit has them, while the work tree holds other versions of both
# files.  Paths are relative to the current directory.
g=$tmp/git
mkdir -p "$g/chips"
cp "tests/cases/diff/old/base.yaml" "$g/chips/base.yaml"
printf 'segc: 1\nextends: chips/base.yaml\nboard: { name: variant }\n' >"$g/board.yaml"
segc=$SEGC
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

suite_end

#!/bin/sh
# SPDX-License-Identifier: MIT
# segc lsp, the language server, driven as an editor drives it.
#
#   sh tests/lsp/run.sh path/to/segc
#
# Every tests/lsp/test_*.py is a separate process (python3, stdlib only;
# tests/lsp/lsplib.py is the client and the ok/FAIL counting), and so is
# every tests/lsp/nvim/test_*.lua (Neovim's client, headless), each with its
# own scratch directory below $tmp; each closes with "lsp-NAME: N passed, M
# failed", and this script adds those up into the suite's closing line.  A
# part that ends without its line, or exits non-zero with no failure
# counted, is one failure.
set -u
SEGC=${1:?usage: run.sh path/to/segc}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin lsp
SEGC=$(abspath "$SEGC")
PYTHON=${PYTHON:-/usr/bin/python3}
export SEGC

# Adds the counts of one part's closing line ("NAME: N passed, M failed[,
# K skipped]") from its output file $1, or counts a failure named $2.
add_counts() {
    counts=$(sed -n 's/^[a-z0-9-]*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed\(, \([0-9][0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p' "$1" | tail -n 1)
    if [ -z "$counts" ]; then
        bad "$2" "ended (exit $3) without its 'N passed, M failed' line"
        return
    fi
    set -- "$@" $counts
    pass=$((pass + $4))
    fail=$((fail + $5))
    skip=$((skip + ${6:-0}))
    if [ "$3" -ne 0 ] && [ "$5" -eq 0 ]; then
        bad "$2" "exit status $3 with no failure counted"
    fi
}

# One part: its output shown but for its closing line, its counts added.
part() {
    name=$1
    shift
    mkdir -p "$tmp/$name"
    tmp="$tmp/$name" "$@" >"$tmp/$name.out" 2>&1
    rc=$?
    grep -v '^lsp-[a-z0-9-]*: [0-9]* passed' "$tmp/$name.out"
    add_counts "$tmp/$name.out" "$name" "$rc"
}

for t in tests/lsp/test_*.py; do
    [ -e "$t" ] || continue
    part "$(basename "$t" .py)" "$PYTHON" "$t" "$SEGC"
done

# Neovim's own client (tests/lsp/nvim/test_*.lua, headless, no user
# configuration).  It adds nothing under the sanitizer: the server's C is
# the same as above.  A script that does not load quits with status 3 (and
# no closing line); a hung nvim is killed after 120 s.
if sanitized; then
    :
elif ! have nvim; then
    bad "nvim" "Neovim is not installed (sh tests/deps.sh --install)"
else
    for t in tests/lsp/nvim/test_*.lua; do
        [ -e "$t" ] || continue
        # Its cache, state and data (lsp.log) in the scratch directory.
        XDG_CACHE_HOME=$tmp/xdg/cache XDG_STATE_HOME=$tmp/xdg/state XDG_DATA_HOME=$tmp/xdg/data \
            XDG_CONFIG_HOME=$tmp/xdg/config part "nvim-$(basename "$t" .lua)" timeout -s KILL 120 \
            nvim --headless -u NONE -i NONE -n -c "luafile $t" -c "cquit 3"
    done
fi

# Emacs Eglot (tests/lsp/eglot/test_*.el, emacs --batch, no user init
# file; Debian's elpa-eglot and elpa-yaml-mode).  Its HOME is the scratch
# directory, its messages go to a file there (their last lines are shown
# when it fails); a hung emacs is killed after 120 s.
if sanitized; then
    :
elif ! have emacs; then
    bad "eglot" "Emacs is not installed (sh tests/deps.sh --install)"
else
    for t in tests/lsp/eglot/test_*.el; do
        [ -e "$t" ] || continue
        name=eglot-$(basename "$t" .el)
        mkdir -p "$tmp/$name-home"
        HOME=$tmp/$name-home part "$name" sh -c '
            timeout -s KILL 120 emacs --batch -l "$1" 2>"$tmp.stderr" || {
                rc=$?
                tail -n 20 "$tmp.stderr"
                exit $rc
            }' sh "$t"
    done
fi

suite_end

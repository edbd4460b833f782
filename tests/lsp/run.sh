#!/bin/sh
# SPDX-License-Identifier: MIT
# segc lsp, the language server, driven as editors drive it, and the
# editor extension that starts it.
#
#   sh tests/lsp/run.sh path/to/segc
#
# Parts, each a process of its own with its own scratch directory, whose
# counts are added (tests/lib.sh, part):
#   - every tests/lsp/test_*.py (python3, stdlib only; tests/lsp/lsplib.py
#     is the one client they share, and their ok/FAIL counting);
#   - every tests/lsp/nvim/test_*.lua: Neovim's own client, headless, no
#     user configuration;
#   - every tests/lsp/eglot/test_*.el: Emacs Eglot, in emacs --batch;
#   - tests/lsp/vscode.sh: the VS Code extension (editors/vscode) packaged
#     and activated outside VS Code.
# Neovim, Emacs and the extension add nothing under the sanitizer (the server's
# C is the same as above): the sanitizer pass runs the Python parts only.
set -u
SEGC=${1:?usage: run.sh path/to/segc}
caller=$(pwd)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin lsp
SEGC=$(caller_path "$SEGC")
PYTHON=${PYTHON:-/usr/bin/python3}
export SEGC

for t in tests/lsp/test_*.py; do
    [ -e "$t" ] || continue
    part "$(basename "$t" .py)" "$PYTHON" "$t" "$SEGC"
done

sanitized && suite_end

# A script that does not load quits with status 3 (and no closing line); a
# hung nvim is killed after 120 s.
if ! have nvim; then
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
if ! have emacs; then
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

part vscode sh tests/lsp/vscode.sh

suite_end

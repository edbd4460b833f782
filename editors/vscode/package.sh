#!/bin/sh
# SPDX-License-Identifier: MIT
# package.sh - the VS Code extension as a .vsix, offline.
#
#   sh editors/vscode/package.sh OUT.vsix [SRC]
#
# Copies SRC (default editors/vscode) to a scratch directory, puts beside
# it the runtime modules that tests/deps.sh --install keeps in the cache
# (npm ci from editors/vscode/package-lock.json), and runs the cached vsce
# (editors/vscode/tools/package-lock.json) there with npm offline: nothing
# is downloaded.  tests/lsp/vscode.sh (make lsp) builds the .vsix
# it checks with this script.
set -u
out=${1:?usage: package.sh OUT.vsix [SRC]}
src=${2:-editors/vscode}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

if ! vscode_modules_cached || ! vsce_cached; then
    echo "segc: the VS Code extension's npm packages are not in $(segc_cache) (or their locks changed): run sh tests/deps.sh --install" >&2
    exit 2
fi
if ! have node || ! have npm; then
    echo "segc: vsce needs node and npm (Debian's nodejs and npm)" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/segc-vsix.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$work/segc" &&
    cp -R "$src/." "$work/segc/" &&
    rm -rf "$work/segc/node_modules" &&
    cp -R "$(vscode_modules_dir)/node_modules" "$work/segc/node_modules" || exit 2

# vsce asks `npm list --production` which modules to ship; offline, npm
# answers from node_modules alone.  Standard input is empty, so a question
# vsce would ask a person fails the run instead of waiting.
(cd "$work/segc" &&
    npm_config_offline=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false \
        node "$(vsce_dir)/node_modules/@vscode/vsce/vsce" package --out "$work/segc.vsix" </dev/null) || {
    echo "segc: vsce package failed" >&2
    exit 1
}
mv "$work/segc.vsix" "$out"

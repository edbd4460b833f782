#!/bin/sh
# SPDX-License-Identifier: MIT
# Editor support: the VS Code extension (editors/vscode) packaged and run
# outside VS Code, and its section of doc/editors.md.
#
#   SEGC=build/segc sh tests/lsp/vscode.sh   (a part of tests/lsp/run.sh)
#
# 1. editors/vscode is copied to a scratch directory, with what a working
#    copy collects (an old .vsix, a log, test/, .vscode/), and packaged by
#    editors/vscode/package.sh: the runtime modules and vsce that
#    tests/deps.sh --install cached, npm offline and, where `unshare -rn`
#    works, no network at all.
# 2. tests/lsp/vscode/check.py: package.json (identity, exact pins matching
#    its lock, engines.vscode covering vscode-languageclient's), the
#    settings (every one documented in doc/editors.md's VS Code section and in
#    the extension's README, every `segc.*` they mention declared, every one
#    read by extension.js), and the .vsix (the extension's files, exactly
#    the locked modules, no tools/, lock, scratch or log).
# 3. tests/lsp/vscode/activate.js: extension.js required with a stub `vscode`
#    and the real vscode-languageclient/node, activated with a fake context;
#    the LanguageClient it makes runs segc.path lsp [segc.args...] [-I DIR]...
#    for the YAML documents, restarts on a change of the command line and
#    stops on deactivate().
# 4. The checks can fail: a setting renamed in package.json alone, an
#    extension.js that drops segc.includeDirs and a package made without
#    .vscodeignore must each be refused.
#
# Nothing is downloaded: without the cached packages the suite fails and
# says to run sh tests/deps.sh --install.  Needs node, npm and python3.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin vscode

PYTHON=/usr/bin/python3
TAB=$(printf '\t')

if ! have node || ! have npm; then
    bad "setup" "node and npm are needed (Debian's nodejs and npm): run sh tests/deps.sh --install"
    suite_end
fi
if ! vscode_modules_cached; then
    bad "setup" "the extension's modules are not in $(vscode_modules_dir) (or editors/vscode/package-lock.json changed): run sh tests/deps.sh --install"
    suite_end
fi
if ! vsce_cached; then
    bad "setup" "vsce is not in $(vsce_dir) (or editors/vscode/tools/package-lock.json changed): run sh tests/deps.sh --install"
    suite_end
fi
MODULES=$(vscode_modules_dir)/node_modules

# verdicts TOOL FILE RC: the tab-separated lines of check.py or
# activate.js, one check each; a crash (exit past 1) is a failure too.
verdicts() {
    while IFS="$TAB" read -r verdict what why; do
        case $verdict in
            ok) ok "$what" ;;
            FAIL) bad "$what" "$why" ;;
            *) bad "$1" "$verdict $what" ;;
        esac
    done <"$2"
    [ "$3" -le 1 ] || { bad "$1" "exit $3"; indent 5 <"$2"; }
}

# refused WHAT OUT RC PATTERN: a check run on a broken copy exited 1 with a
# FAIL line matching PATTERN (grep -E).
refused() {
    if [ "$3" -eq 1 ] && grep -Eq "^FAIL$TAB$4" "$2"; then
        ok "$1: $(grep -E "^FAIL$TAB$4" "$2" | head -n 1 | cut -f 2- | tr '\t' ' ')"
    else
        bad "$1" "exit $3, no FAIL line matching '$4'"
        indent 5 <"$2"
    fi
}

# copy NAME: a scratch copy of editors/vscode with the cached modules.
copy() {
    mkdir -p "$tmp/$1" && cp -R editors/vscode/. "$tmp/$1/" &&
        rm -rf "$tmp/$1/node_modules" && cp -R "$MODULES" "$tmp/$1/node_modules"
}

# package SRC OUT: package.sh, with no network where that can be had.
package() {
    if [ -n "$netless" ]; then
        unshare -rn sh editors/vscode/package.sh "$2" "$1"
    else
        sh editors/vscode/package.sh "$2" "$1"
    fi
}
netless=
unshare -rn true 2>/dev/null && netless=1

# 1. The package, from a copy holding junk.
copy ext || { bad "setup" "cannot copy editors/vscode"; suite_end; }
mkdir -p "$tmp/ext/test" "$tmp/ext/.vscode"
echo 'junk' >"$tmp/ext/segc-0.0.1.vsix"
echo 'junk' >"$tmp/ext/npm-debug.log"
echo 'junk' >"$tmp/ext/test/scratch.js"
echo '{}' >"$tmp/ext/.vscode/settings.json"
if package "$tmp/ext" "$tmp/segc.vsix" >"$tmp/vsce.out" 2>&1 && [ -f "$tmp/segc.vsix" ]; then
    ok "vsce package (npm offline)"
    if [ -n "$netless" ]; then
        ok "vsce package with no network (unshare -rn)"
    else
        skipped "vsce package with no network" "unshare -rn does not work here; packaged with npm offline only"
    fi
else
    bad "vsce package" "$(tail -n 3 "$tmp/vsce.out" | tr '\n' ' ')"
    indent 20 <"$tmp/vsce.out"
fi

# 2. The files against each other, doc/editors.md and the package.
vsix=
[ -f "$tmp/segc.vsix" ] && vsix=$tmp/segc.vsix
"$PYTHON" tests/lsp/vscode/check.py editors/vscode doc/editors.md "$MODULES" ${vsix:+"$vsix"} >"$tmp/check.out" 2>&1
verdicts check.py "$tmp/check.out" $?

# 3. extension.js activated outside VS Code.
node tests/lsp/vscode/activate.js "$tmp/ext" >"$tmp/activate.out" 2>&1
verdicts activate.js "$tmp/activate.out" $?

# 4. The checks fire.
copy renamed
"$PYTHON" -c 'import json, sys
p = json.load(open(sys.argv[1]))
props = p["contributes"]["configuration"]["properties"]
props["segc.includePaths"] = props.pop("segc.includeDirs")
json.dump(p, open(sys.argv[1], "w"), indent=2)' "$tmp/renamed/package.json"
"$PYTHON" tests/lsp/vscode/check.py "$tmp/renamed" doc/editors.md "$MODULES" >"$tmp/refuse.out" 2>&1
refused "a setting renamed in package.json alone is refused" "$tmp/refuse.out" $? \
    "doc/editors.md's VS Code section documents segc.includePaths"

copy dropped
sed "s/config.get('includeDirs', \[\])/[]/" editors/vscode/extension.js >"$tmp/dropped/extension.js"
if cmp -s editors/vscode/extension.js "$tmp/dropped/extension.js"; then
    bad "an extension.js that drops segc.includeDirs is refused" "the sed found nothing to change in extension.js"
else
    node tests/lsp/vscode/activate.js "$tmp/dropped" >"$tmp/refuse.out" 2>&1
    refused "an extension.js that drops segc.includeDirs is refused" "$tmp/refuse.out" $? \
        "the server is .* -I "
fi

copy unignored
rm -f "$tmp/unignored/.vscodeignore"
if package "$tmp/unignored" "$tmp/unignored.vsix" >"$tmp/vsce.out" 2>&1; then
    "$PYTHON" tests/lsp/vscode/check.py "$tmp/unignored" doc/editors.md "$MODULES" "$tmp/unignored.vsix" >"$tmp/refuse.out" 2>&1
    refused "a package made without .vscodeignore is refused" "$tmp/refuse.out" $? \
        "the .vsix holds no extension/tools/package-lock.json"
else
    bad "a package made without .vscodeignore is refused" "vsce package failed"
    indent 5 <"$tmp/vsce.out"
fi

suite_end

#!/bin/sh
# SPDX-License-Identifier: MIT
# Shell completion (completions/): what bash and zsh offer at each point of
# a segc command line, against the segc being tested.
#
#   SEGC=build/segc sh tests/doc/completion.sh   (a part of tests/doc/run.sh)
#
# 1. bash: completions/segc.bash is sourced and _segc called as bash calls
#    it (COMP_WORDS, COMP_CWORD); COMPREPLY must hold what is expected and
#    nothing it must not (-Wno- offers advisories, never an invariant).
# 2. Every option offered for a command is one segc accepts there, and
#    every option `segc COMMAND --help` lists is offered: the lists cannot
#    drift from the command line.
# 3. zsh: completions/_segc runs with zsh's completion builtins replaced by
#    stubs that print what they are given (skipped without zsh).
set -u
SEGC=${SEGC:?SEGC names the segc to test}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin completion
top=$(pwd)

# A directory of names to complete from.
mkdir -p "$tmp/w/specs" "$tmp/w/out"
: >"$tmp/w/board.yaml"
: >"$tmp/w/base.yml"
: >"$tmp/w/notes.txt"

# bashcomp WORD...: what bash offers for the last WORD of `segc WORD...`,
# one per line, sorted.  A WORD ^ is an empty word (the cursor after a space).
bashcomp() {
    (cd "$tmp/w" && bash --norc --noprofile -c '
        . "$1/completions/segc.bash"
        shift
        COMP_WORDS=()
        for w; do [[ $w == "^" ]] && w=""; COMP_WORDS+=("$w"); done
        COMP_CWORD=$(($# - 1))
        _segc
        printf "%s\n" "${COMPREPLY[@]}"' sh "$top" "$SEGC" "$@") | LC_ALL=C sort
}

# expect_bash WHAT 'WORD...' 'MUST...' ['MUST NOT...']
expect_bash() {
    # shellcheck disable=SC2086
    got=$(bashcomp $2)
    missing="" extra=""
    for w in $3; do printf '%s\n' "$got" | grep -qxF -- "$w" || missing="$missing $w"; done
    for w in ${4:-}; do printf '%s\n' "$got" | grep -qxF -- "$w" && extra="$extra $w"; done
    if [ -z "$missing$extra" ]; then
        ok "bash: $1"
    else
        bad "bash: $1" "missing:${missing:- none}; offered but must not be:${extra:- none}"
    fi
}

advisory=$("$SEGC" rules | awk '$2 == "advisory" { print $1; exit }')
invariant=$("$SEGC" rules | awk '$2 == "invariant" { print $1; exit }')
code=$("$SEGC" rules --all | awk '{ print $1 }' | grep -vxF -f /dev/null | tail -n 1)

expect_bash "commands" "^" "check build diff map rules explain dump help --version"
expect_bash "a command from its start" "ch" "check" "build"
expect_bash "build's options" "build --an" "--annotate" "--json"
expect_bash "check's options" "check -" "-j --files-from --diagnostics= -Wno- -D -I" "-o -MD --json"
expect_bash "-Wno- offers advisories only" "check -Wno-" "-Wno-$advisory -Wno-error=" "-Wno-$invariant"
expect_bash "-W RULE offers advisories only" "check -W ^" "$advisory" "$invariant"
expect_bash "-Werror= offers every rule" "build -Werror=" "-Werror=$advisory -Werror=$invariant"
expect_bash "explain offers every code" "explain ^" "$advisory $invariant $code"
expect_bash "--diagnostics= values" "check --diagnostics=" "text msvc json sarif"
expect_bash "--color= values" "map --color=a" "auto always" "never"
expect_bash "--ddi values" "build --ddi ^" "qs qs3 qs4" ""
expect_bash "specs: YAML files and directories" "check ^" "board.yaml base.yml specs out" "notes.txt"
expect_bash "build -o: directories" "build board.yaml -o ^" "specs out" "board.yaml notes.txt"
expect_bash "map -o: any file" "map board.yaml -o ^" "notes.txt board.yaml" ""
expect_bash "help COMMAND" "help ^" "check build dump" "--json"

# ---- 2. the option lists against segc --------------------------------------------
# value_for OPTION: an argument that makes OPTION complete.
value_for() {
    case $1 in
    -Wno-) echo "-Wno-$advisory" ;;
    -Werror= | -Wno-error=) echo "$1$advisory" ;;
    --color=) echo "--color=never" ;;
    --diagnostics=) echo "--diagnostics=text" ;;
    -W) echo "-W $advisory" ;;
    -D) echo "-D x=1" ;;
    -I | -o | --templates) echo "$1 $tmp/w/out" ;;
    -MF | -MT | --deps-list) echo "-MD $1 $tmp/w/out/x" ;;
    --files-from) echo "--files-from /dev/null" ;;
    --lookup-budget) echo "--lookup-budget 4096" ;;
    --ddi) echo "--ddi qs3" ;;
    -j) echo "-j 1" ;;
    *) echo "$1" ;;
    esac
}
for cmd in check build diff map dump rules explain; do
    offered=$(bashcomp "$cmd" -)
    refused=""
    for opt in $offered; do
        # shellcheck disable=SC2046
        "$SEGC" "$cmd" $(value_for "$opt") >"$tmp/opt.out" 2>&1 </dev/null
        grep -q "unknown option\|does not take\|not an option" "$tmp/opt.out" && refused="$refused $opt"
    done
    [ -z "$refused" ] && ok "every option offered for $cmd is one segc $cmd accepts" ||
        bad "options offered for $cmd" "segc refuses:$refused"
    # What --help lists: -X, --long, -Wno-RULE -> -Wno-, --color=auto|... and
    # --color -> --color=
    listed=$("$SEGC" "$cmd" --help | grep '^  -' | grep -oE -- '(^|[ ,])--?[A-Za-z][A-Za-z-]*=?' |
        sed -e 's/^[ ,]*//' -e 's/\([a-z]\)-[A-Z][A-Z]*$/\1-/' -e 's/^--color$/--color=/' | LC_ALL=C sort -u)
    unoffered=""
    for opt in $listed; do
        printf '%s\n' "$offered" | grep -qxF -- "$opt" || unoffered="$unoffered $opt"
    done
    [ -z "$unoffered" ] && ok "every option segc $cmd --help lists is offered" ||
        bad "options of segc $cmd --help" "not offered:$unoffered"
done

# ---- 3. zsh --------------------------------------------------------------------------
# zshcomp WORD...: what _segc hands zsh's builtins for the last WORD.
zshcomp() {
    (cd "$tmp/w" && zsh -f -c '
        top=$1; shift
        words=("${@/#^/}"); CURRENT=$#
        _describe() { local -a a; a=("${(@P)${@[-1]}}"); print -l -- ${a%%:*}; }
        compadd() {
            local p="" s
            while [[ $1 == -* && $1 != -- ]]; do
                case $1 in -P) p=$2; shift 2 ;; -S) shift 2 ;; *) shift ;; esac
            done
            [[ $1 == -- ]] && shift
            for s in "$@"; do print -- "$p$s"; done
        }
        _files() { print -- "FILES $*"; }
        . "$top/completions/_segc"' zsh "$top" "$SEGC" "$@") | LC_ALL=C sort
}
expect_zsh() { # WHAT 'WORD...' 'MUST...' ['MUST NOT...']
    # shellcheck disable=SC2086
    got=$(zshcomp $2)
    missing="" extra=""
    for w in $3; do printf '%s\n' "$got" | grep -qxF -- "$(echo "$w" | tr '_' ' ')" || missing="$missing $w"; done
    for w in ${4:-}; do printf '%s\n' "$got" | grep -qxF -- "$w" && extra="$extra $w"; done
    [ -z "$missing$extra" ] && ok "zsh: $1" || bad "zsh: $1" "missing:${missing:- none}; must not:${extra:- none}"
}
if have zsh; then
    expect_zsh "commands" "^" "check build diff map rules explain dump help --version"
    expect_zsh "build's options" "build --" "--annotate --lookup-budget --templates" "--json"
    expect_zsh "-Wno- offers advisories only" "check -Wno-" "-Wno-$advisory -Wno-error=" "-Wno-$invariant"
    expect_zsh "explain offers every code" "explain ^" "$advisory $invariant"
    expect_zsh "--diagnostics= values" "check --diagnostics=" "--diagnostics=msvc --diagnostics=sarif"
    expect_zsh "specs are YAML files" "check ^" "FILES_-g_*.(yaml|yml)(-.)"
    expect_zsh "build -o: directories" "build x.yaml -o ^" "FILES_-/" ""
else
    skipped "zsh completion" "zsh is not installed"
fi

suite_end

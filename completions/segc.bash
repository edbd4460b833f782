# SPDX-License-Identifier: MIT
# bash completion for segc: commands, each command's options, rule names
# after -W/-Wno-/-Werror=/-Wno-error= (only the rules that option can take)
# and for `explain`, the values of --color, --diagnostics and --ddi, and
# spec files.  Rule names come from the segc being completed (`segc rules`),
# so they are always that version's.  `make install` puts this file where
# bash-completion loads it on demand.

# _segc_rules [advisory]: every code `explain` knows, or only the rules
# that -Wno- can turn off.
_segc_rules()
{
    if [[ $1 == advisory ]]; then
        "${COMP_WORDS[0]}" rules 2>/dev/null | awk '$2 == "advisory" { print $1 }'
    else
        "${COMP_WORDS[0]}" rules --all 2>/dev/null | awk '{ print $1 }'
    fi
}

# _segc_options COMMAND: the options COMMAND takes.
_segc_options()
{
    local common="-D -I -W -Wno- -Werror -Werror= -Wno-error= -h --help"
    local text="--color= -q --quiet"
    local verbose="-v --verbose"
    case $1 in
    check) echo "$common $text $verbose --ddi --diagnostics= -j --files-from" ;;
    build) echo "$common $text $verbose --ddi --diagnostics= -o --templates -MD -MF -MT -MP --deps-list --annotate --emit-selftest --lookup-budget" ;;
    diff) echo "$common $text --diagnostics= --json --kinds --rev" ;;
    map) echo "$common $text $verbose --diagnostics= -o" ;;
    dump) echo "$common $text --json --yaml" ;;
    lsp) echo "$common --ddi --stdio --log" ;;
    rules) echo "--all --markdown -h --help" ;;
    explain | help) echo "-h --help" ;;
    esac
}

_segc()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands="check build diff map rules explain dump lsp help"
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$commands -h --help --version" -- "$cur"))
        return
    fi
    local cmd=${COMP_WORDS[1]}
    case $prev in
    -I | --templates)
        COMPREPLY=($(compgen -d -- "$cur")); return ;;
    -o)
        if [[ $cmd == map ]]; then COMPREPLY=($(compgen -f -- "$cur")); else COMPREPLY=($(compgen -d -- "$cur")); fi
        return ;;
    -MF | --deps-list | --files-from | --log)
        COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -D | -MT | --lookup-budget)
        return ;;
    -W)
        COMPREPLY=($(compgen -W "$(_segc_rules advisory)" -- "$cur")); return ;;
    --ddi)
        COMPREPLY=($(compgen -W "qs qs3 qs4 qs,qs3 qs3,qs4 qs,qs3,qs4" -- "$cur")); return ;;
    esac
    case $cur in
    -Wno-error=*)
        COMPREPLY=($(compgen -P -Wno-error= -W "$(_segc_rules)" -- "${cur#-Wno-error=}")); return ;;
    -Werror=*)
        COMPREPLY=($(compgen -P -Werror= -W "$(_segc_rules)" -- "${cur#-Werror=}")); return ;;
    -Wno-*)
        COMPREPLY=($(compgen -W "-Wno-error= $(_segc_rules advisory | sed 's/^/-Wno-/')" -- "$cur"))
        [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return ;;
    --color=*)
        COMPREPLY=($(compgen -W "auto always never" -- "${cur#--color=}")); return ;;
    --diagnostics=*)
        COMPREPLY=($(compgen -W "text msvc json sarif" -- "${cur#--diagnostics=}")); return ;;
    -*)
        COMPREPLY=($(compgen -W "$(_segc_options "$cmd")" -- "$cur"))
        # An option that takes its value after '=' keeps the cursor there.
        [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *[=-] ]] && compopt -o nospace 2>/dev/null
        return ;;
    esac
    case $cmd in
    explain) COMPREPLY=($(compgen -W "$(_segc_rules)" -- "$cur")) ;;
    help) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
    rules) ;;
    *)
        # Specs: YAML files, and directories to find them in.
        COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -f -X '!*.yml' -- "$cur") $(compgen -d -- "$cur"))
        compopt -o filenames 2>/dev/null ;;
    esac
}
complete -F _segc segc

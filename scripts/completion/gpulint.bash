# bash completion for gpulint. Installed by `meson install` into
# bash-completion's directory; or: source scripts/completion/gpulint.bash
#
# Subcommands, options and the values an option takes are read from
# gpulint's own --help (and `gpulint models --ids`), so they cannot drift
# from the program.

# The subcommand: gpulint takes it only as its first word ("" for the report).
_gpulint_command() {
    gpulint --help 2>/dev/null | awk '/^commands:/{c=1;next} c&&!NF{exit} c{print $1}' | grep -x -- "$1"
}

# What the option $2 of command $1 takes: "none", "file", "dir", "arch",
# "gpu", "text" or "words: a b c".
_gpulint_takes() {
    local help
    if [ -n "$1" ]; then help=$(gpulint "$1" --help 2>/dev/null); else help=$(gpulint x.cu --help 2>/dev/null); fi
    printf '%s\n' "$help" | awk -v opt="$2" '
        $0 ~ /^ +(-[A-Za-z], )?--[a-z]/ {
            line = $0; sub(/^ +(-[A-Za-z], )?/, "", line)
            split(line, f, " "); name = f[1]; meta = f[2]
            short = ""; if (match($0, /^ +-[A-Za-z],/)) short = substr($0, RSTART, RLENGTH)
            gsub(/[ ,]/, "", short)
            if (name != opt && short != opt) next
            if (meta == "" || meta ~ /^[a-z]/ && meta !~ /\|/) { print "none"; exit }
            if (meta == "ARCH") { print "arch"; exit }
            if (meta == "ID") { print "gpu"; exit }
            if (meta == "DIR") { print "dir"; exit }
            if (meta ~ /^(FILE|PATH|LOG)/ || meta ~ /FILE/) { print "file"; exit }
            if (meta ~ /^[a-z-]+(\|[a-z-]+)+$/) { gsub(/\|/, " ", meta); print "words: " meta; exit }
            if (meta == "LIST" && match(line, /: [a-z-]+(,[a-z-]+)+/)) {
                w = substr(line, RSTART + 2, RLENGTH - 2); gsub(/,/, " ", w); print "words: " w; exit
            }
            print "text"; exit
        }'
}

# Long options of command $1 ("" for the report).
_gpulint_options() {
    if [ -n "$1" ]; then gpulint "$1" --help 2>/dev/null; else gpulint x.cu --help 2>/dev/null; fi |
        grep -o -- '^ *\(-[A-Za-z], \)\?--[a-z][a-z0-9-]*' | sed 's/.*--/--/'
}

# Directories and the files with one of the extensions $2...
_gpulint_files() {
    local cur=$1 ext
    shift
    for ext in "$@"; do compgen -f -X "!*.$ext" -- "$cur"; done
    compgen -d -- "$cur"
}

_gpulint() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local cmd= i
    [ "$COMP_CWORD" -gt 1 ] && cmd=$(_gpulint_command "${COMP_WORDS[1]}")
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [ "${COMP_WORDS[i]}" = -- ]; then # nvcc's arguments
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
        fi
    done
    if [[ $prev == -* && $prev != -- ]]; then
        local takes
        takes=$(_gpulint_takes "$cmd" "$prev")
        case $takes in
        arch) mapfile -t COMPREPLY < <(compgen -W "$(gpulint models --ids arch 2>/dev/null)" -- "$cur"); return ;;
        gpu)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -W "$(gpulint models --ids gpu 2>/dev/null)" -- "$cur"; compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur")
            return
            ;;
        dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
        file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
        words:*) mapfile -t COMPREPLY < <(compgen -W "${takes#words: }" -- "$cur"); return ;;
        text) COMPREPLY=(); return ;;
        esac
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_gpulint_options "$cmd")" -- "$cur")
        return
    fi
    compopt -o filenames 2>/dev/null
    if [ -z "$cmd" ] && [ "$COMP_CWORD" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(gpulint --help 2>/dev/null |
            awk '/^commands:/{c=1;next} c&&!NF{exit} c{print $1}')" -- "$cur"
            _gpulint_files "$cur" cu cuh)
        return
    fi
    mapfile -t COMPREPLY < <(_gpulint_files "$cur" cu cuh log json sarif)
}
complete -F _gpulint gpulint

#!/bin/sh
# A GTP "engine" for go that misbehaves in one way, chosen by $1, on its first genmove
# (or on the first play it is told, for "refuse"). Used by tests/engines.rs to check that
# `toroid match` scores such engines as losers and leaves no process behind.
#   crash | hang | illegal | garbage | not-a-move | wrong-colour | refuse | resign | fork
# "fork" starts a background process (with $2 on its command line, for the test to find)
# and then hangs, as a script wrapping a real engine might.
mode=$1
if [ "$mode" = fork ]; then
    sh -c "sleep 300; : $2" &
fi
moves=0
while read -r line; do
    set -- $line
    case "$1" in
    list_commands) printf '= protocol_version\nname\nplay\ngenmove\nquit\n\n' ;;
    quit) printf '= \n\n'; exit 0 ;;
    genmove)
        moves=$((moves + 1))
        case "$mode" in
        crash) exit 3 ;;
        hang | fork) sleep 300 ;;
        illegal) printf '= A1\n\n' ;;
        garbage) printf 'I am not speaking GTP\n\n' ;;
        not-a-move) printf '= Z99\n\n' ;;
        wrong-colour)
            case "$2" in b | B | black) other=white ;; *) other=black ;; esac
            printf '= %s C3\n\n' "$other" ;;
        resign) printf '= resign\n\n' ;;
        *) printf '= pass\n\n' ;;
        esac ;;
    play)
        if [ "$mode" = refuse ]; then printf '? illegal move\n\n'; else printf '= \n\n'; fi ;;
    *) printf '= \n\n' ;;
    esac
done

#!/usr/bin/env bash
# The computer opponent's strength: for each scenario and each side, `hard` and
# `normal` against random play, and `hard` against `normal`, GAMES games each, from
# seed 1. Prints one line per duel. Usage:
#   bash scripts/duels.sh [GAMES] [SCENARIO...]
# Uses target/release/bataille (build it first: cargo build --release --no-default-features),
# or $BATAILLE.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-10}
shift || true
bin=${BATAILLE:-target/release/bataille}
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
    mapfile -t scenarios < <(ls scenarios/*/*.ron)
fi
sides_of() {
    # The duel's error for an unknown side lists the scenario's sides.
    "$bin" duel "$1" --side '?=easy' --games 0 2>&1 | sed -n 's/.*its sides: \(.*\))$/\1/p' | tr -d ','
}
for s in "${scenarios[@]}"; do
    read -r -a sides <<<"$(sides_of "$s")"
    for i in 0 1; do
        me=${sides[$i]}
        other=${sides[$((1 - i))]}
        for match in "$me=hard" "$me=normal" "$me=hard --side $other=normal"; do
            # shellcheck disable=SC2086
            result=$("$bin" duel "$s" --side $match --games "$games" --seed 1)
            line=$(echo "$result" | grep "^  $me (" | sed 's/^  //')
            echo "$(basename "$s" .ron) | $match | $line"
        done
    done
done

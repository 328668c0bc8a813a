#!/usr/bin/env bash
# The computer opponent's strength: for each scenario and each side, `hard` and
# `normal` against random play, GAMES games each, from seed 1; then `hard` against
# `normal` on both seatings (`--swap`) with hard's wins over both. Prints one line per
# duel. Usage:
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
        for match in "$me=hard" "$me=normal"; do
            result=$("$bin" duel "$s" --side "$match" --games "$games" --seed 1)
            line=$(echo "$result" | grep "^  $me (" | sed 's/^  //')
            echo "$(basename "$s" .ron) | $match | $line"
        done
    done
    result=$("$bin" duel "$s" --side "${sides[0]}=hard" --side "${sides[1]}=normal" \
        --games "$games" --seed 1 --swap)
    line=$(echo "$result" | sed -n '/^Over both seatings:/,$p' | grep "^  hard:" | sed 's/^  //')
    echo "$(basename "$s" .ron) | hard against normal, both seatings | $line"
done

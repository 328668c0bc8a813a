#!/usr/bin/env bash
# Re-makes every screenshot of the README under docs/screenshots/ from its input script
# in scripts/window/ (the scenario, seed and options of the script's `# Run:` line), in
# the window built by `cargo build`, under Xvfb at 1280x800 (the UI scale 2 picture at
# 1920x1080, as its Run line says). The opening positions are scripts/screenshots.sh's.
# Usage: bash scripts/remake_screenshots.sh [target/debug/bataille]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/bataille}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# picture <- script
pairs="
branch civitate_branch
civitate_map civitate_move_hover
combat_preview civitate_combat_preview
replay civitate_replay
threat_map civitate_threat_map
daras_ambush_setup daras_ambush_setup
falkirk_group_move falkirk_group_move
falkirk_kings_battle falkirk_kings_battle
falkirk_melee_preview falkirk_knights_against_schiltron
falkirk_opportunity falkirk_opportunity
falkirk_retreat_choice falkirk_retreat_choice
falkirk_secret_choice falkirk_secret_choice
grandson_opening grandson_opening
ctb_break_off grandson_break_off
line_of_sight grandson_line_of_sight
hand_over kalavryai_handover
maldon_opening maldon_opening
melee_preview melee_pair_melee_preview
quatre_bras_bombardment quatre_bras_bombardment
quatre_bras_command_radius quatre_bras_command_radius
quatre_bras_supports_preview quatre_bras_supports_preview
charge_preview skirmish_charge_preview
shot_preview shooting_shot_preview
soissons_advance_choice soissons_advance_choice
soissons_group_move soissons_group_move
soissons_setup soissons_setup
player_aids player_aids
player_aids_crt player_aids_crt
help help
ui_scale_2 ui_scale_2
"
echo "$pairs" | while read -r picture script; do
    [ -n "$picture" ] || continue
    file=scripts/window/$script.txt
    # The Run line's arguments after `bataille`, without its closing note in brackets.
    args=$(grep -m1 '# Run:' "$file" | sed -e 's/^# Run: bataille //' -e 's/ (.*$//')
    frames=$(grep -m1 '# Run:' "$file" | grep -o 'frames [0-9]*' | grep -o '[0-9]*' || echo 30)
    # shellcheck disable=SC2086
    BATAILLE_SAVE_DIR="$tmp" xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" $args \
        --screenshot "docs/screenshots/$picture.png" --frames "${frames:-30}" >/dev/null 2>&1
    echo "docs/screenshots/$picture.png"
done

#!/usr/bin/env bash
# Re-makes the README's screenshots of every scenario's opening position at 1280x800
# and 1920x1080 (docs/screenshots/openings/), from the window built by `cargo build`,
# under Xvfb, each from scripts/window/opening.txt and converted to JPEG (ImageMagick)
# to keep the repository small (CONVERT=/usr/bin/convert picks ImageMagick when another
# `convert` comes first on the PATH). Usage: bash scripts/screenshots.sh [target/debug/bataille]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/bataille}
out=docs/screenshots/openings
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for scenario in scenarios/*/*.ron; do
    name=$(basename "$scenario" .ron)
    for size in 1280x800 1920x1080; do
        BATAILLE_SAVE_DIR="$tmp" xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" "$scenario" \
            --seed 1 --input scripts/window/opening.txt --window-size "$size" \
            --screenshot "$tmp/$name-$size.png" --frames 20 >/dev/null
        "${CONVERT:-convert}" "$tmp/$name-$size.png" -quality 85 "$out/$name-$size.jpg"
        echo "$out/$name-$size.jpg"
    done
done

#!/usr/bin/env bash
# Regenerates docs/screenshots/<variant>.png: the report of each sample run (data/samples/),
# opened at ply 20 of its first game in shot mode (the game viewer only), taken
# by headless Chromium. Usage: docs/screenshots/make.sh [path/to/variantlab]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/variantlab}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for dir in data/samples/*/; do
  v=$(basename "$dir")
  "$bin" report "$dir" --out "$work/$v.html" >/dev/null
  id=$(awk -F, 'NR == 2 { print $1 }' "$dir/games.csv")
  rm -rf "$work/profile"
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --hide-scrollbars --window-size=1500,1100 \
    --virtual-time-budget=3000 --screenshot="docs/screenshots/$v.png" \
    "file://$work/$v.html#shot=0:$id:20" 2>/dev/null
  echo "docs/screenshots/$v.png"
done

#!/usr/bin/env bash
# The findings study (docs/findings.md): every seed variant and chess, the calibration, played by
# variantlab at each level of a strength ladder (FINDINGS_LEVELS nodes per move), and chess also
# by Debian's Stockfish and Fairy-Stockfish on the same openings; then the committed record in
# data/findings/ (each run's run.json, games.csv and compressed moves), the figures derived from
# it (scripts/findings_derive.sh) and the page (scripts/findings.py page).
#
# Usage: scripts/findings.sh BIN [OUT]     (make findings)
# Environment: FINDINGS_LEVELS (default "1000 4000 16000"), FINDINGS_SCALE (multiplies every
# variant's game count; default 1), FINDINGS_VARIANTS (default: all below), FINDINGS_SEED
# (default 1), FINDINGS_CALIBRATION_NODES (default 10000; "" leaves the calibration out).
#
# Resumable: a run folder that exists is resumed (or extended) instead of replayed, so an
# interrupted `make findings` picks up where it stopped. Node-limited, so variantlab's games are
# the same on any machine and thread count; the external engines' runs say in run.json that they
# are not reproducible.
set -euo pipefail
BIN=${1:?usage: findings.sh BIN [OUT]}
OUT=${2:-out/findings}
LEVELS=${FINDINGS_LEVELS:-1000 4000 16000}
SEED=${FINDINGS_SEED:-1}
SCALE=${FINDINGS_SCALE:-1}
CALIBRATION_NODES=${FINDINGS_CALIBRATION_NODES-10000}
# Balanced openings: random 6-ply lines redrawn until a short search scores them within ±1
# pawn (selfplay/src/run/openings.rs says why), the same lines at every level.
OPENINGS=balanced-plies:6
DATA=data/findings

# Games per variant and level, sized so that the whole study (three levels, the calibration and
# the piece values) takes about two hours on the 2-core machine; docs/findings.md
# gives each variant's cost.
declare -A GAMES=(
  [chess]=600
  [dream-chess-46]=160
  [dialectic]=90
  [dialectic-hegelian]=100
  [extreme-2d]=240
  [gateway]=20
  [dai-mitregi]=100
  [dai-mitregi-stepping]=60
)
ORDER="chess extreme-2d dream-chess-46 dai-mitregi dialectic dialectic-hegelian dai-mitregi-stepping gateway"
VARIANTS=${FINDINGS_VARIANTS:-$ORDER}

# play DIR GAMES VARIANT NODES [ENGINE]: a run played, or resumed where it exists; with ENGINE
# both sides are that UCI program, named again on resume (a resume never starts a program its
# command line does not name).
play() {
  local dir=$1 games=$2 variant=$3 nodes=$4 engines=()
  [[ -n "${5:-}" ]] && engines=(--white "engine:$5" --black "engine:$5")
  if [[ -f "$dir/run.json" ]]; then
    "$BIN" play --resume "$dir" --games "$games" --quiet "${engines[@]}"
  else
    "$BIN" play --variant "$variant" --nodes "$nodes" --games "$games" --seed "$SEED" \
      --openings "$OPENINGS" --record-moves --out "$dir" --quiet "${engines[@]}"
  fi
}

# record DIR NAME: the run's record in data/findings/NAME (moves compressed; rewritten only when
# the games changed, so the committed files stay byte-identical otherwise).
record() {
  local dir=$1 dest=$DATA/$2
  mkdir -p "$dest"
  if [[ ! "$dest/games.csv" -nt "$dir/games.csv" ]]; then
    cp "$dir/run.json" "$dir/games.csv" "$dest/"
    python3 scripts/findings.py compress "$dir/moves.csv" "$dest/moves.csv.xz"
  fi
}

mkdir -p "$OUT" "$DATA"
for v in $VARIANTS; do
  [[ -n "${GAMES[$v]:-}" ]] || { echo "findings: unknown variant '$v' (one of: $ORDER)" >&2; exit 2; }
  for n in $LEVELS; do
    start=$(date +%s)
    play "$OUT/$v/nodes-$n" $(( GAMES[$v] * SCALE )) "$v" "$n"
    record "$OUT/$v/nodes-$n" "$v/nodes-$n"
    echo "findings: $v at $n nodes done in $(( $(date +%s) - start )) s"
  done
done

# The calibration: the same chess openings played by stronger engines (Debian's packages).
if [[ -n "$CALIBRATION_NODES" && " $VARIANTS " == *" chess "* ]]; then
  for e in stockfish fairy-stockfish; do
    exe=$(command -v "$e" || ls "/usr/games/$e" 2>/dev/null || true)
    if [[ -z "$exe" ]]; then
      echo "findings: $e is not installed (apt-get install $e); its calibration is left out" >&2
      continue
    fi
    start=$(date +%s)
    name=$e-nodes-$CALIBRATION_NODES
    play "$OUT/chess/$name" $(( GAMES[chess] * SCALE )) chess "$CALIBRATION_NODES" "$exe"
    record "$OUT/chess/$name" "chess/$name"
    echo "findings: chess by $e at $CALIBRATION_NODES nodes done in $(( $(date +%s) - start )) s"
  done
fi

# The figures from the record alone (what `make findings-check` recomputes), then the page.
FINDINGS_VALUES_CACHE="$OUT/values" scripts/findings_derive.sh "$BIN" "$DATA" "$DATA"
python3 scripts/findings.py page "$DATA" > docs/findings.md.new
mv docs/findings.md.new docs/findings.md
python3 scripts/findings.py plots "$DATA" docs/findings
"$BIN" report "$OUT"/*/nodes-* --out "$OUT/report.html"
echo "findings: wrote $DATA/ and docs/findings.md; report in $OUT/report.html"

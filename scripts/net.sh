#!/usr/bin/env bash
# One round of a variant's network loop (docs/evaluation.md, "Network evaluation"): self-play
# data from the base engine configuration, a network trained on it, an SPRT of the network
# against the base at equal time (or equal nodes), and the network kept in
# data/eval/nets/VARIANT.vlnet only if the SPRT accepts it (H1).
#
# Usage: scripts/net.sh BIN VARIANT     (make net VARIANT=v)
# Environment (defaults in brackets):
#   BASE        the configuration that makes the data and that the network must beat [default]
#   ROUND       the round's name: its files go to OUT/VARIANT/ROUND [1]
#   OUT         [out/net]
#   GAMES, NODES           datagen's games and nodes per move [10000, 2000]
#   HIDDEN, EPOCHS         train-net's cells and most epochs [128, 40]
#   SCORE_WEIGHT           train-net's --score-weight [1]
#   ON_LINEAR   1: the network is trained on the linear evaluation's residual and added to it
#               (train-net --on-linear) [0: the network is the whole evaluation]
#   SPRT_TC     the SPRT's clock per game, BASE+INC seconds [5+0.05]; SPRT_NODES=N plays at N
#               nodes a move instead (equal nodes: the network's slower nodes not counted)
#   SPRT_GAMES  the SPRT's game cap [4000]
#   THREADS     worker threads [all cores]
# The next round generates its data with the kept network: BASE=out/net/VARIANT/1/net.json
# ROUND=2 (or, once the network is the variant's default, BASE=default again).
#
# Resumable: datagen resumes its file, and the SPRT its folder, when run again with the same
# settings.
set -euo pipefail
BIN=${1:?usage: net.sh BIN VARIANT}
VARIANT=${2:?usage: net.sh BIN VARIANT}
BASE=${BASE:-default}
ROUND=${ROUND:-1}
DIR=${OUT:-out/net}/$VARIANT/$ROUND
THREADS=(${THREADS:+--threads "$THREADS"})
mkdir -p "$DIR"

echo "== 1. datagen: ${GAMES:=10000} games at ${NODES:=2000} nodes by $BASE"
"$BIN" datagen --variant "$VARIANT" --engine "$BASE" --games "$GAMES" --nodes "$NODES" \
  "${THREADS[@]}" --out "$DIR/data.vldata"

echo "== 2. train-net"
ON=()
[[ "${ON_LINEAR:-0}" == 1 ]] && ON=(--on-linear)
"$BIN" train-net --data "$DIR/data.vldata" --hidden "${HIDDEN:-128}" --epochs "${EPOCHS:-40}" \
  --score-weight "${SCORE_WEIGHT:-1}" "${ON[@]}" --out "$DIR/candidate.vlnet"
printf '{"name": "net-%s", "eval": "net:%s"}\n' "$ROUND" "$DIR/candidate.vlnet" > "$DIR/net.json"

if [ -n "${SPRT_NODES:-}" ]; then LIMIT=(--nodes "$SPRT_NODES"); else LIMIT=(--tc "${SPRT_TC:-5+0.05}"); fi
echo "== 3. sprt: the network against $BASE (${LIMIT[*]})"
"$BIN" sprt --variant "$VARIANT" --base "$BASE" --test "$DIR/net.json" "${LIMIT[@]}" \
  --elo0 0 --elo1 10 --max-games "${SPRT_GAMES:-4000}" "${THREADS[@]}" --out "$DIR/sprt"

echo "== 4. keep or not"
if grep -q '"result": "H1"' "$DIR/sprt/sprt.json"; then
  mkdir -p data/eval/nets
  cp "$DIR/candidate.vlnet" "data/eval/nets/$VARIANT.vlnet"
  echo "kept: data/eval/nets/$VARIANT.vlnet (SPRT accepted H1; $DIR/sprt/sprt.json)"
  echo "to make it the default: list it in engine/src/nnue/builtin.rs (EMBEDDED), rebuild, update bench/signature.txt"
else
  echo "not kept: the SPRT did not accept H1 ($DIR/sprt/sprt.json)"
fi

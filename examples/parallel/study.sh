#!/usr/bin/env bash
# A study split into shards run by GNU parallel, then merged into one run folder.
#
#   examples/parallel/study.sh OUT SHARDS PLAY-OPTIONS...
#   examples/parallel/study.sh out/chess 16 --variant chess --games 20000 --record-moves
#
# Shard I of SHARDS is `variantlab play PLAY-OPTIONS --shard I/SHARDS` in OUT/shards/I (one
# thread each by default: GNU parallel keeps one shard per core busy); when all succeed,
# `variantlab merge` writes the study into OUT (run.json, games.csv, moves.csv, games.pgn),
# the same games a single `variantlab play PLAY-OPTIONS --out OUT` would have played.
#
# Safe to interrupt: running it again with the same arguments resumes every unfinished
# shard (`play --resume`) and skips the finished ones, then merges.
#
# Environment: VARIANTLAB (the command, default `variantlab`), THREADS (threads per shard,
# default 1), JOBS (shards at once, default: one per core), PARALLEL (more GNU parallel
# options, e.g. `--sshloginfile hosts.txt` for machines sharing OUT's filesystem and
# having the command on their PATH).
set -euo pipefail

if [ "${1:-}" = "--shard-job" ]; then
    # One shard (GNU parallel calls the script back with this): start it, or resume it.
    out=$2 shards=$3 i=$4
    shift 4
    dir="$out/shards/$i"
    if [ -f "$dir/run.json" ]; then
        exec "${VARIANTLAB:-variantlab}" play --resume "$dir" --threads "${THREADS:-1}" --quiet
    fi
    exec "${VARIANTLAB:-variantlab}" play "$@" --shard "$i/$shards" --out "$dir" \
        --threads "${THREADS:-1}" --quiet
fi

if [ $# -lt 3 ]; then
    sed -n '2,20p' "$0" >&2
    exit 2
fi
out=$1 shards=$2
shift 2
if ! parallel --version 2>/dev/null | grep "GNU parallel" >/dev/null; then
    echo "error: GNU parallel is not installed (apt-get install parallel)" >&2
    exit 1
fi
mkdir -p "$out/shards"
# -q keeps every argument as one word; the job log records each shard's exit status and time.
parallel --will-cite -q --jobs "${JOBS:-100%}" --joblog "$out/shards/parallel.log" \
    --line-buffer --tagstring "shard {}" \
    bash "$0" --shard-job "$out" "$shards" {} "$@" ::: $(seq 1 "$shards")
dirs=()
for i in $(seq 1 "$shards"); do dirs+=("$out/shards/$i"); done
"${VARIANTLAB:-variantlab}" merge "${dirs[@]}" --out "$out"

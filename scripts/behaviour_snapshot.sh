#!/usr/bin/env bash
# The outputs of a fixed set of commands with fixed seeds, timings and commit stripped, in one
# folder: run it before and after a change that must not change behaviour (a refactor) and
# compare with `diff -r`. About 3 minutes on 2 cores.
#   scripts/behaviour_snapshot.sh BIN OUT_DIR
set -euo pipefail
bin=${1:?usage: behaviour_snapshot.sh BIN OUT_DIR}
out=${2:?usage: behaviour_snapshot.sh BIN OUT_DIR}
rm -rf "$out" && mkdir -p "$out"
bin=$(realpath "$bin")
cd "$out"
variants=(chess dream-chess-46 dialectic dialectic-hegelian extreme-2d extreme-2d-simple gateway dai-mitregi dai-mitregi-stepping)

# Lines whose figures are timings, speeds, paths or the commit: dropped or blanked.
strip() {
  sed -E -e 's/(nodes [0-9]+) nps [0-9]+ time [0-9]+/\1 nps <n> time <t>/' \
    -e 's/[0-9.]+ M (nodes|leaves)\/s/<speed>/g' \
    -e 's/[0-9]+(\.[0-9]+)? ?(ms|s|µs|us)\b/<t>/g' \
    -e 's/[0-9.]+ ?[kMG]?(nps|n\/s|leaves\/s|nodes\/s)/<speed>/g' \
    -e 's/"(git_commit|started|finished|threads|engine_version|version)": [^,]*,?/"\1": <x>/' \
    -e 's/(wall_ms|time|elapsed)[=:] ?[0-9.]+/\1=<t>/g' \
    -e 's/"(nps|seconds|wall_ms|elapsed_s|elapsed)": ?[0-9.e+-]+/"\1": <t>/g'
}
# A CSV without its timing columns (wall_ms and any *_ms column).
csv() {
  python3 - "$1" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
if not rows:
    sys.exit()
keep = [i for i, h in enumerate(rows[0]) if not h.endswith("_ms") and h not in ("nps",)]
w = csv.writer(sys.stdout, lineterminator="\n")
for r in rows:
    w.writerow([r[i] for i in keep if i < len(r)])
EOF
}
run() { # name, command...
  local name=$1; shift
  { "$@" 2>&1 || echo "exit status $?"; } | strip > "$name.txt"
}
# Every file of a run folder, timings stripped.
folder() {
  local dir=$1
  find "$dir" -type f | sort | while read -r f; do
    case "$f" in
      *.csv) csv "$f" > "$f.snap" ;;
      *.html|*.lock|*.log) : ;;
      *) strip < "$f" > "$f.snap" ;;
    esac
    [ -f "$f.snap" ] && mv "$f.snap" "$f"
  done
  find "$dir" -name '*.html' -o -name '*.lock' -o -name '*.log' | xargs -r rm -f
}

run variants "$bin" variants
run signature "$bin" bench --no-perft
for v in "${variants[@]}"; do
  depth=3; case $v in dai-mitregi*|gateway) depth=2 ;; esac
  run "perft-$v" "$bin" perft --variant "$v" --depth $depth
  run "search-$v" "$bin" search --variant "$v" --depth 4 --json
  run "play-$v" "$bin" play --variant "$v" --games 4 --nodes 300 --seed 7 --record-moves --threads 2 --quiet --out "play-$v"
done
run stats "$bin" stats play-chess play-gateway
for v in chess dialectic; do
  run "values-$v" "$bin" values --variant "$v" --method tuned --games 6 --nodes 200 --seed 3 --threads 2 --quiet --out "values-$v"
done
run values-imbalance "$bin" values --variant chess --method imbalance --games 4 --nodes 200 --seed 3 --threads 2 --quiet --out values-imbalance
run sprt "$bin" sprt --variant chess --test default --nodes 200 --max-games 16 --seed 5 --threads 2 --quiet --out sprt
run study "$bin" study --games 2 --nodes 200 --threads 2 --quiet --out study
run tune "$bin" tune --games play-chess --epochs 20 --seed 1 --quiet --out tune-chess.json
run report "$bin" report play-chess --out report.html
run uci bash -c "(printf 'uci\nisready\nposition startpos moves e2e4\ngo nodes 2000\n'; sleep 1; printf 'quit\n') | '$bin' uci"
for d in play-* values-* sprt study tune-chess.json; do [ -e "$d" ] && { [ -d "$d" ] && folder "$d" || { strip < "$d" > "$d.s" && mv "$d.s" "$d"; }; }; done
rm -f report.html
echo "snapshot in $out: $(find . -type f | wc -l) files"

# variantlab: every target has a '## description'; `make help` lists them.
CARGO ?= cargo
BIN := target/release/variantlab

.PHONY: help run test build bench bench-save bench-compare bench-table perft perft-all study variant-example notebooks notebook-check uci-check pgn-check script-check piece-values findings findings-check findings-check-fast alternatives trade-values net fmt lint torture

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

build: ## Build the variantlab command (release)
	$(CARGO) build --release -p variantlab-selfplay

run: build ## The default job: a small self-play balance study of every variant (CSVs + summary in out/study)
	$(BIN) study --out out/study

perft-all: build ## Perft from the start of every variant, deepening while the next depth takes under 2 s
	$(BIN) perft-all

# Tests that cannot run here (no chromium, GNU parallel, stockfish ...) list themselves in
# this file, and `make test` ends by printing it: a skip does not pass for a success.
SKIPPED := $(CURDIR)/target/skipped-tests.txt
export VARIANTLAB_SKIPPED := $(SKIPPED)

test: ## Format check, clippy, the whole test suite (optimised), the notebooks, the python-chess checks, the script tests; lists any test skipped
	@mkdir -p target && rm -f $(SKIPPED)
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace --release
	$(MAKE) notebook-check
	$(MAKE) uci-check
	$(MAKE) pgn-check
	$(MAKE) script-check
	scripts/findings_check.sh $(BIN) --fast
	@if [ -s $(SKIPPED) ]; then echo "SKIPPED $$(wc -l < $(SKIPPED)) test(s), shown above as passed but not run:"; sed 's/^/  /' $(SKIPPED); else echo "every test ran (none skipped)"; fi

torture: ## The long fault-injection suite: hundreds of kills, damaged run files and bad inputs (a few minutes); the short one is part of make test
	VARIANTLAB_TORTURE=long $(CARGO) test --release -p variantlab-selfplay --test torture -- --nocapture

bench: ## Criterion benchmarks (perft, move generation, bitboards)
	$(CARGO) bench -p variantlab-bench

bench-save: ## Save the criterion baseline 'main'
	$(CARGO) bench -p variantlab-bench -- --save-baseline main

bench-compare: ## Criterion against the baseline 'main'; lists regressions over 3% noise
	$(CARGO) bench -p variantlab-bench -- --baseline main --noise-threshold 0.03
	python3 bench/compare.py 0.03

bench-table: build ## Regenerate the figures table in bench/README.md
	$(BIN) bench --table bench/README.md

perft: build ## Perft of one variant: make perft VARIANT=chess DEPTH=5
	$(BIN) perft --variant $(or $(VARIANT),chess) --depth $(or $(DEPTH),5)

VENV := .venv
$(VENV)/ok: notebooks/requirements.txt selfplay/tests/python/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r notebooks/requirements.txt -r selfplay/tests/python/requirements.txt
	touch $@

PV_GAMES ?= 2000
PV_NODES ?= 1000
PV_SEED ?= 1
PV_OPENINGS ?= balanced-plies:6
PV_VARIANTS ?= chess dream-chess-46 dialectic dialectic-hegelian extreme-2d gateway dai-mitregi dai-mitregi-stepping
# variant=piece: the unit where the cheapest kind is too small to divide by (the rest: the pawn)
PV_UNITS ?= extreme-2d=red dai-mitregi=rook dai-mitregi-stepping=rook
piece-values: build ## Piece values of every variant from the tuned evaluation (bootstrap intervals) and near material balance (PV_GAMES self-play games each at PV_NODES nodes a move, PV_OPENINGS, PV_SEED; out/piece-values/table.md)
	@n=$$(echo $(PV_VARIANTS) | wc -w); i=0; \
	for v in $(PV_VARIANTS); do i=$$((i + 1)); u=$$(for p in $(PV_UNITS); do [ "$${p%%=*}" = "$$v" ] && echo "--unit $${p#*=}"; done); \
	  echo "piece-values: $$v ($$i of $$n): $(PV_GAMES) games at $(PV_NODES) nodes a move ..."; start=$$(date +%s); \
	  $(BIN) values --variant $$v --method tuned --games $(PV_GAMES) --nodes $(PV_NODES) --seed $(PV_SEED) --openings $(PV_OPENINGS) $$u --out out/piece-values/$$v || exit 1; \
	  $(BIN) values --variant $$v --method balanced --from out/piece-values/$$v/selfplay $$u --out out/piece-values/$$v/balanced || exit 1; \
	  echo "piece-values: $$v done in $$(( $$(date +%s) - start )) s"; done
	python3 scripts/piece_values_table.py $(foreach v,$(PV_VARIANTS),out/piece-values/$(v)/piece_values.csv out/piece-values/$(v)/balanced/piece_values.csv) > out/piece-values/table.md
	@echo "wrote out/piece-values/table.md"

findings: build ## The findings study of docs/findings.md: every variant at 1k, 4k and 16k nodes a move and the Stockfish calibration (about two hours on 2 cores; resumable), data/findings/, the page and its plots
	scripts/findings.sh $(BIN) out/findings

findings-check: build ## Recompute every figure of docs/findings.md from data/findings/ (refitting the piece values of every run: about 20 minutes on 2 cores) and fail on any difference
	scripts/findings_check.sh $(BIN)

findings-check-fast: build ## findings-check without refitting the piece values (seconds; part of make test)
	scripts/findings_check.sh $(BIN) --fast

alternatives: build ## The seed variants' rule alternatives of docs/findings.md: Dialectic against Hegelian, Dai Mitregi Leaping against Stepping, Extreme 2D against its simple powers, three Dream Chess 46 arrays, 1000 games each at 4k nodes (about two hours on 2 cores, of which the Extreme 2D pair 45 minutes; resumable), data/findings/alternatives/ and the page
	scripts/alternatives.sh $(BIN) out/alternatives

trade-values: build ## Piece values priced by trades at 1k and 4k nodes a move, five independent seeds each (TRADES_VARIANTS, default chess and Dream Chess 46: about an hour on 2 cores; resumable), data/findings/trades/ and the page
	scripts/trade_values.sh $(BIN) out/trades

net: build ## One round of a variant's network loop, VARIANT=v: datagen, train-net, SPRT against the default at equal time, kept in data/eval/nets/ if accepted (scripts/net.sh lists the sizes; about 2 hours on 2 cores)
	@test -n "$(VARIANT)" || { echo "give VARIANT=name (make net VARIANT=chess)"; exit 2; }
	scripts/net.sh $(BIN) $(VARIANT)

variant-example: build ## The worked example of docs/variant-files.md: a changed Dream Chess 46 array against the original (about 20 s), data/variant-example/ and the page's figures
	scripts/variant_example.sh $(BIN) out/variant-example

notebooks: $(VENV)/ok ## Execute every notebook headless on data/samples (executed copies in notebooks/executed/)
	$(VENV)/bin/python notebooks/run_notebooks.py

notebook-check: $(VENV)/ok ## Execute every notebook on data/samples (part of make test)
	$(VENV)/bin/python notebooks/run_notebooks.py

pgn-check: build $(VENV)/ok ## Read games.pgn of two short chess runs with python-chess; replay each game against the CSVs (part of make test)
	$(VENV)/bin/python selfplay/tests/python/pgn_games.py $(BIN)

uci-check: build $(VENV)/ok ## Drive `variantlab uci` with python-chess; games against stockfish and fairy-stockfish when installed (part of make test)
	$(VENV)/bin/python selfplay/tests/python/uci_games.py $(BIN)

script-check: build ## Unit tests of the helper scripts in scripts/ (good and bad input; part of make test)
	python3 -m unittest discover -s scripts/tests -v

fmt: ## Format the code
	$(CARGO) fmt --all

lint: ## Clippy with warnings as errors
	$(CARGO) clippy --workspace --all-targets -- -D warnings

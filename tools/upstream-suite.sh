#!/usr/bin/env bash
# Runs Huawei's PyAsc test suites, unchanged, against the built pyasc:
#   - python/test/unit/language and python/test/unit/lib/host (--skip-filecheck:
#     FileCheck matches upstream's MLIR, which pyasc does not produce);
#   - python/test/kernels and python/test/generalization;
#   - each tutorial under python/tutorials, as `-r Model` and as `-r NPU`.
# Fetches nothing: give it a checkout of hicann/pyasc.
#   usage: tools/upstream-suite.sh PYASC_CHECKOUT [BUILD_DIR]   (BUILD_DIR: build/dev)
# Prints a line per test file, then a total; exits 1 if anything failed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
upstream="$(cd "${1:?usage: tools/upstream-suite.sh PYASC_CHECKOUT [BUILD_DIR]}" && pwd)/python"
build="$(cd "${2:-$root/build/dev}" && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
[ -d "$upstream/test/unit" ] || { echo "no python/test/unit under $1" >&2; exit 2; }
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
export PYTHONPATH="$build/stage"
jobs="${JOBS:-$(nproc)}"
# One torch thread per pytest worker: the workers are the parallelism, and
# torch 2.13's float32 maths on its second thread is sometimes off early in
# a process (tools/torch_thread_check.py shows it without pyasc), which
# fails test_vsqrt against its torch.sqrt reference.
torch_threads="OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}"

(cd "$upstream/test/unit" && env "$torch_threads" "$python" -m pytest language lib/host -q -p no:cacheprovider \
  --skip-filecheck -n "$jobs" -o junit_family=xunit1 --junitxml="$reports/unit.xml" >"$reports/unit.log" 2>&1)
# --import-mode=importlib: several files share a name (test_matmul.py in
# kernels/, kernels/insert_sync/ and generalization/adv/) and there are no
# __init__.py files, so the default mode cannot import them all.
(cd "$upstream/test" && env "$torch_threads" "$python" -m pytest kernels generalization -q -p no:cacheprovider \
  --import-mode=importlib -n "$jobs" -o junit_family=xunit1 --junitxml="$reports/kernels.xml" \
  >"$reports/kernels.log" 2>&1)
"$python" "$root/tools/upstream_counts.py" "$reports"/*.xml
status=$?

tutorials=0 failed=0
for script in "$upstream"/tutorials/*/*.py; do
  for backend in Model NPU; do
    tutorials=$((tutorials + 1))
    if ! (cd "$(dirname "$script")" && "$python" "$script" -r "$backend" >"$reports/t.log" 2>&1); then
      failed=$((failed + 1))
      echo "tutorial ${script#"$upstream"/} -r $backend: FAILED"
      tail -3 "$reports/t.log" | sed 's/^/    /'
    fi
  done
done
echo "tutorials: $((tutorials - failed)) passed, $failed failed"
[ "$failed" -eq 0 ] && exit "$status" || exit 1

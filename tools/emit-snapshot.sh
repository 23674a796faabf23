#!/usr/bin/env bash
# Writes the IR, the simulator C and the Ascend C of every kernel the
# examples build into OUT/<example>/ (through PYASC_DUMP_PATH), so that a
# refactoring of the front end or the emitters can prove its output
# unchanged: run it before and after, then `diff -r -x '*.log' BEFORE AFTER`.
# Each example's output goes to OUT/<example>.log (it holds timings).
#   usage: tools/emit-snapshot.sh OUT [BUILD_DIR]   (BUILD_DIR: build/dev)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
build="$(cd "${2:-$root/build/dev}" && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
mkdir -p "$out"
for example in "$root"/examples/*.py; do
  name="$(basename "$example" .py)"
  mkdir -p "$out/$name"
  # A fresh cache directory per example: each kernel is emitted and built
  # from its own source, never skipped as already cached.
  cache="$(mktemp -d)"
  status=0
  PYASC_DUMP_PATH="$out/$name" PYASC_CACHE_DIR="$cache" PYTHONPATH="$build/stage" \
    "$python" "$example" >"$out/$name.log" 2>&1 || status=$?
  rm -rf "$cache"
  echo "exit $status" >>"$out/$name.log"
  echo "$name: exit $status, $(find "$out/$name" -name '*.c' -o -name '*.cpp' | wc -l) sources"
done

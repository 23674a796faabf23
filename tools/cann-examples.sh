#!/usr/bin/env bash
# Builds and runs CANN's Ascend C examples, unchanged, on pyasc's simulator:
# for each example directory, what its README says (cmake with the ASC
# package, make, scripts/gen_data.py, ./demo, scripts/verify_result.py),
# with pyasc's CMake package (python -m pyasc --cmake-dir) standing in for
# CANN's. Prints one line per example: PASS, or FAIL and the step.
#
# Usage: tools/cann-examples.sh CHECKOUT [DIR...]
#   CHECKOUT: a clone of CANN's asc-devkit; every example (a directory with
#   a CMakeLists.txt and a .asc file) under the DIRs, relative to it
#   (default: examples/01_simd_cpp_api/00_introduction).
#   PYASC_PYTHON: the Python with pyasc (default python3); CANN_CMAKE_ARGS:
#   more cmake arguments (e.g. -DSCENARIO_NUM=1, which some ask for); logs go to
#   EXAMPLE/build-pyasc/pyasc-*.log.
set -uo pipefail
checkout=${1:?usage: tools/cann-examples.sh CHECKOUT [DIR...]}
shift
py=${PYASC_PYTHON:-python3}
export PYASC_PYTHON=$py
asc_dir=$("$py" -m pyasc --cmake-dir) || { echo "cannot run $py -m pyasc" >&2; exit 2; }
# an example: a directory with a CMakeLists.txt and a .asc file
[ $# -eq 0 ] && set -- examples/01_simd_cpp_api/00_introduction
mapfile -t examples < <(cd "$checkout" && for top in "$@"; do
  find "$top" -name '*.asc' -printf '%h\n'
done | sort -u | while read -r d; do [ -f "$d/CMakeLists.txt" ] && echo "$d"; done)
pass=0
fail=0
for ex in "${examples[@]}"; do
  dir="$checkout/$ex"
  build="$dir/build-pyasc"
  rm -rf "$build"
  mkdir -p "$build"
  step=""
  run() { # step name, then the command, run in the build directory
    local name=$1
    shift
    (cd "$build" && "$@") >"$build/pyasc-$name.log" 2>&1 || { step=$name; return 1; }
  }
  run cmake cmake .. -DCMAKE_ASC_ARCHITECTURES=dav-2201 -DCMAKE_ASC_RUN_MODE=sim \
    -DASC_DIR="$asc_dir" ${CANN_CMAKE_ARGS:-} &&
    run make make -j2 &&
    { [ ! -f "$dir/scripts/gen_data.py" ] || run gen_data "$py" ../scripts/gen_data.py; } &&
    { mkdir -p "$build/output"; run demo timeout 600 ./demo; } &&
    { [ ! -f "$dir/scripts/verify_result.py" ] ||
      run verify "$py" ../scripts/verify_result.py output/output.bin output/golden.bin; }
  if [ -z "$step" ]; then
    echo "PASS $ex"
    pass=$((pass + 1))
  else
    echo "FAIL $ex ($step: $(grep -m1 -iE 'error|fail' "$build/pyasc-$step.log" | cut -c1-160))"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

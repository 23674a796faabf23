#!/usr/bin/env bash
# Builds and runs CANN's Ascend C examples, unchanged, on pyasc's simulator:
# for each example directory, what its README says (cmake with the ASC
# package, make, scripts/gen_data.py, ./demo, scripts/verify_result.py),
# with pyasc's CMake package (python -m pyasc --cmake-dir) standing in for
# CANN's. Prints one line per example: PASS, FAIL and the step, or NOT-A2.
# Some examples check their own output and exit 0 either way: a demo that
# prints "test failed" or "result error" fails.
# gen_data.py and verify_result.py get the arguments the README's commands
# give them (with its SCENARIO_NUM).
#
# The simulator is a 910B (Atlas A2, dav-2201) AI core. An example is "not
# A2", and is counted apart and not run (unless CANN_ALL=1), when its README's
# table of supported products has no Atlas A2 row, or when its code uses the
# dav-3510 register APIs (__simd_vf__, __VEC_SCOPE__, MicroAPI::) with no
# __NPU_ARCH__ test to keep them off other architectures.
# An example whose CMakeLists takes SCENARIO_NUM gets the value its README's
# commands set first (unless CANN_CMAKE_ARGS sets it), as the README runs it.
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
# the arguments the README's own command line gives scripts/NAME.py (the first
# `python3 .../NAME.py ARGS` in it) or ./demo (its first `./demo ARGS`), its shell variables replaced: SCENARIO_NUM
# by the one the build uses, others by CANN_CMAKE_ARGS' -DVAR=value or else the
# README's first `VAR=value`; else the default
readme_args() { # name (demo: the ./demo line), default
  local line var value command="python3? +[^ ]*$1\.py"
  [ "$1" = demo ] && command='\./demo'
  line=$(grep -m1 -oE "$command[^#;&\`]*" "$dir/README.md" 2>/dev/null | sed -E "s|^$command||")
  [ -n "${line// /}" ] || line=$2
  for var in $(echo "$line" | grep -oE '\$\{?[A-Za-z_][A-Za-z0-9_]*' | tr -d '${' | sort -u); do
    if [ "$var" = SCENARIO_NUM ]; then
      value=$snum
    elif [[ " ${CANN_CMAKE_ARGS:-} " =~ [[:space:]]-D$var=([^[:space:]]+) ]]; then
      value=${BASH_REMATCH[1]} # the build's value, as the README's commands pass it to both
    else
      value=$(grep -m1 -oE "(^|[[:space:]])$var=[^[:space:];#\`]+" "$dir/README.md" | sed -E "s/^[[:space:]]*$var=//")
    fi
    line=${line//\$\{$var\}/$value}
    line=${line//\$$var/$value}
  done
  echo "$line"
}

# why an example is not an Atlas A2 program (nothing when it is one)
not_a2() {
  local dir=$1
  if ! grep -qE '^[[:space:]]*[|-][[:space:]]*Atlas A2' "$dir/README.md" 2>/dev/null; then
    echo "README lists no Atlas A2"
  elif grep -qE '__simd_vf__|__VEC_SCOPE__|MicroAPI::' "$dir"/*.asc &&
    ! grep -q '__NPU_ARCH__' "$dir"/*.asc; then
    echo "dav-3510 register APIs only"
  fi
}
pass=0
fail=0
other=0
for ex in "${examples[@]}"; do
  dir="$checkout/$ex"
  why=$(not_a2 "$dir")
  if [ -n "$why" ] && [ "${CANN_ALL:-0}" != 1 ]; then
    echo "NOT-A2 $ex ($why)"
    other=$((other + 1))
    continue
  fi
  scenario=""
  if grep -q 'SCENARIO_NUM' "$dir/CMakeLists.txt" &&
    [[ "${CANN_CMAKE_ARGS:-}" != *SCENARIO_NUM* ]]; then
    scenario=$(grep -m1 -oE 'SCENARIO_NUM=[0-9]+' "$dir/README.md")
    [ -n "$scenario" ] && scenario="-D$scenario"
  fi
  snum=$(echo "$scenario ${CANN_CMAKE_ARGS:-}" | grep -oE 'SCENARIO_NUM=[0-9]+' | tail -1 | cut -d= -f2)
  # other variables the README's cmake line passes on (-DSCENARIO=$SCENARIO): the value its
  # commands set first, unless CANN_CMAKE_ARGS sets it
  for var in $(grep -m1 -oE 'cmake [^#`]*' "$dir/README.md" 2>/dev/null |
    grep -oE -- '-D[A-Za-z_][A-Za-z0-9_]*=\$\{?[A-Za-z_]' | sed -E 's/^-D([^=]*)=.*/\1/' | sort -u); do
    [ "$var" = SCENARIO_NUM ] || [[ " ${CANN_CMAKE_ARGS:-}" == *" -D$var="* ]] && continue
    value=$(grep -m1 -oE "(^|[[:space:]])$var=[^[:space:];#\`]+" "$dir/README.md" | sed -E "s/^[[:space:]]*$var=//")
    [ -n "$value" ] && scenario="$scenario -D$var=$value"
  done
  build="$dir/build-pyasc"
  rm -rf "$build"
  mkdir -p "$build"
  step=""
  run() { # step name, then the command, run in the build directory
    local name=$1
    shift
    (cd "$build" && "$@") >"$build/pyasc-$name.log" 2>&1 || { step=$name; return 1; }
  }
  # sim, or npu for an example that refuses sim (both run on the simulator)
  mode=sim
  grep -q 'CMAKE_ASC_RUN_MODE STREQUAL "sim"' "$dir/CMakeLists.txt" && mode=npu
  run cmake cmake .. -DCMAKE_ASC_ARCHITECTURES=dav-2201 -DCMAKE_ASC_RUN_MODE=$mode \
    -DASC_DIR="$asc_dir" $scenario ${CANN_CMAKE_ARGS:-} &&
    run make make -j2 &&
    { [ ! -f "$dir/scripts/gen_data.py" ] ||
      run gen_data "$py" ../scripts/gen_data.py $(readme_args gen_data ""); } &&
    { mkdir -p "$build/output"; run demo timeout 600 ./demo $(readme_args demo ""); } &&
    { ! grep -qaiE 'test failed|result error|compareresult.*failed' "$build/pyasc-demo.log" ||
      step=demo; } && [ -z "$step" ] &&
    { [ ! -f "$dir/scripts/verify_result.py" ] ||
      run verify "$py" ../scripts/verify_result.py \
        $(readme_args verify_result "output/output.bin output/golden.bin"); }
  tag=""
  [ -n "$why" ] && tag=" [not A2: $why]"
  if [ -z "$step" ]; then
    echo "PASS $ex$tag"
    pass=$((pass + 1))
  else
    echo "FAIL $ex$tag ($step: $(grep -m1 -iE 'error|fail' "$build/pyasc-$step.log" | cut -c1-160))"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed, $other not A2 (not run)"
[ "$fail" -eq 0 ]

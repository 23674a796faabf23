#!/bin/bash
# Runs CANN's own data_copy best-practice kernel (asc-devkit checkout,
# examples/01_simd_cpp_api/05_best_practices/04_memory_access/data_copy),
# built unchanged with its CMakeLists against pyasc, under the timing model
# (PYASC_PROFILE_OUT), for each Atlas A2 scenario; prints the modelled Task
# Duration and mean MTE2 time (us), to set beside bench/perf_model_data_copy.py
# (our PyAsc port of the same kernel) and the published figures.
#
# usage: PYTHONPATH=build/dev/stage PYASC_PYTHON=.venv/bin/python \
#            tools/cann-data-copy-profile.sh ASC_DEVKIT [WORKDIR]
set -euo pipefail
checkout=$(cd "$1" && pwd)
ex="$checkout/examples/01_simd_cpp_api/05_best_practices/04_memory_access/data_copy"
work=${2:-$(mktemp -d)}
py=$(realpath "$(command -v "${PYASC_PYTHON:-python3}")")
# the builds run in other directories: make the package's path absolute
PYTHONPATH=$(echo "${PYTHONPATH:-}" | tr ':' '\n' | while read -r d; do
    [ -n "$d" ] && realpath "$d"; done | paste -sd:)
export PYTHONPATH
export PYASC_PYTHON="$py"
asc_dir=$("$py" -m pyasc --cmake-dir)
printf '%4s %2s  %14s  %10s\n' path sc "Task Duration" "MTE2"
for scenario in UB:1 UB:2 UB:3 UB:4 UB:5 UB:6 UB:7 UB:8 L1:1 L1:2 L1:3 L1:4 L1:5 L1:6 L1:7; do
    dst=${scenario%:*} n=${scenario#*:}
    build="$work/$dst-$n"
    rm -rf "$build" && mkdir -p "$build"
    (
        set -e
        cd "$build"
        cmake -S "$ex" -B . -DASC_DIR="$asc_dir" -DSCENARIO_NUM="$n" -DCOPY_DST="$dst" \
            -DCMAKE_ASC_ARCHITECTURES=dav-2201 > cmake.log 2>&1
        make -j2 > make.log 2>&1
        "$py" "$ex/scripts/gen_data.py" -scenarioNum "$n" -copyDst "$dst" -arch dav-2201 \
            > gen_data.log 2>&1
        PYASC_PROFILE_OUT="$build/profile.jsonl" ./demo > demo.log 2>&1
    ) || { echo "$dst $n: failed (logs in $build)"; continue; }
    "$py" - "$build/profile.jsonl" "$dst" "$n" <<'PY'
import sys
from pyasc.profiler import read_launches
rec = read_launches(sys.argv[1]).launches[0]
print(f"{sys.argv[2]:>4} {sys.argv[3]:>2}  {rec.task_duration_us:14.1f}  {rec.pipe_time_us['mte2']:10.1f}")
PY
done

#!/usr/bin/env bash
# Lays out an importable pyasc package for a meson build directory: symlinks
# to the Python sources plus the built extension, under BUILD/stage.
# Usage: tools/stage.sh BUILD_DIR   (then PYTHONPATH=BUILD_DIR/stage)
set -euo pipefail
build=${1:?usage: tools/stage.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
stage="$build/stage/pyasc"
rm -rf "$build/stage"
mkdir -p "$stage"
for f in "$root"/python/pyasc/*.py; do ln -s "$f" "$stage/"; done
ext=$(ls "$build"/_C.*.so)
ln -s "$(cd "$(dirname "$ext")" && pwd)/$(basename "$ext")" "$stage/"

#!/usr/bin/env bash
# Lays out importable pyasc and asc packages for a meson build directory: symlinks
# to the Python sources plus the built extension, under BUILD/stage.
# Usage: tools/stage.sh BUILD_DIR   (then PYTHONPATH=BUILD_DIR/stage)
set -euo pipefail
build=${1:?usage: tools/stage.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
stage="$build/stage"
rm -rf "$stage"
(cd "$root/python" && find pyasc asc -name '*.py') | while read -r f; do
  mkdir -p "$stage/$(dirname "$f")"
  ln -s "$root/python/$f" "$stage/$f"
done
ext=$(ls "$build"/_C.*.so)
ln -s "$(cd "$(dirname "$ext")" && pwd)/$(basename "$ext")" "$stage/pyasc/"
# torch's npu device, where the build made it (torch present)
for npu in "$build"/_npu_device.*.so; do
  if [ -e "$npu" ]; then
    ln -s "$(cd "$(dirname "$npu")" && pwd)/$(basename "$npu")" "$stage/pyasc/"
  fi
done
# what `python -m pyasc asc-compile` and the CMake package use, where a wheel has them
mkdir -p "$stage/pyasc/include" "$stage/pyasc/lib"
ln -s "$root/include/ascendc" "$root/include/acl" "$root/include/asc" "$stage/pyasc/include/"
ln -s "$root/python/pyasc/share" "$stage/pyasc/share"
if [ -e "$build/src/hostlib/libasc.so" ]; then
  ln -s "$(cd "$build/src/hostlib" && pwd)/libasc.so" "$stage/pyasc/lib/"
fi

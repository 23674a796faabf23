#!/usr/bin/env bash
# Installs the system packages the build and the tests need, from Debian's
# archive, when they are missing: cmocka (C unit tests), clang (second
# compiler), clang-format, valgrind, pkg-config, tcc (TinyCC: the first,
# fast tier of a new kernel's build). Needs root or sudo.
set -euo pipefail

missing=()
pkg-config --exists cmocka 2>/dev/null || missing+=(libcmocka-dev)
pkg-config --exists sleef 2>/dev/null || missing+=(libsleef-dev)
pkg-config --exists openblas 2>/dev/null || missing+=(libopenblas-dev)
pkg-config --exists libxxhash 2>/dev/null || missing+=(libxxhash-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v clang >/dev/null || missing+=(clang)
command -v clang-format >/dev/null || missing+=(clang-format)
command -v valgrind >/dev/null || missing+=(valgrind)
command -v cc >/dev/null || missing+=(gcc)
command -v tcc >/dev/null || missing+=(tcc)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing system packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "error: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

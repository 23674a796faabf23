#!/usr/bin/env bash
# Runs the Array API conformance suite (data-apis/array-api-tests), unchanged,
# against pyasc.array_api, at the pinned commits below.
#   usage: tools/array-api-tests.sh [CHECKOUT] [BUILD_DIR] [-- PYTEST_ARGS...]
# CHECKOUT is an array-api-tests checkout whose array-api/ holds the spec
# (git submodule update --init); without one, both are cloned from GitHub
# into build/array-api-tests at the pinned commits. BUILD_DIR: build/dev.
# Needs ndindex and pytest-json-report (requirements-dev.txt). Prints the
# suite's summary and the pass rate; MAX_EXAMPLES (default 10) and SEED
# (default 0) bound hypothesis.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TESTS_COMMIT=55fcc60179efa2680ddd6cd926ddf17b83530e2b
SPEC_COMMIT=5f847a3858875c682ae901aa22b0413bf24be9da
checkout="${1:-}"
build="${2:-$root/build/dev}"
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
if [ -z "$checkout" ]; then
  checkout="$root/build/array-api-tests"
  if [ ! -d "$checkout/.git" ]; then
    git clone -q https://github.com/data-apis/array-api-tests "$checkout"
    git -C "$checkout" checkout -q "$TESTS_COMMIT"
    git -C "$checkout" submodule update -q --init
  fi
fi
checkout="$(cd "$checkout" && pwd)"
[ -d "$checkout/array-api/spec/2024.12" ] ||
  { echo "no array-api/spec/2024.12 under $checkout (git submodule update --init)" >&2; exit 2; }
build="$(cd "$build" && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
cd "$checkout"
PYTHONPATH="$build/stage" ARRAY_API_TESTS_MODULE=pyasc.array_api ARRAY_API_TESTS_VERSION=2024.12 \
  "$python" -m pytest array_api_tests -q -p no:cacheprovider -W ignore \
  --max-examples="${MAX_EXAMPLES:-10}" --hypothesis-seed="${SEED:-0}" -n "${JOBS:-$(nproc)}" \
  --tb=line -rf --json-report --json-report-file="$report" "$@" || true
"$python" - "$report" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))["summary"]
passed, failed = summary.get("passed", 0), summary.get("failed", 0)
skipped = summary.get("skipped", 0)
run = passed + failed
print(f"array-api-tests: {passed} passed, {failed} failed, {skipped} skipped; "
      f"pass rate {100 * passed / max(run, 1):.1f}% of {run} run")
PY

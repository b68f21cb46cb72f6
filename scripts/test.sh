#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test:
#  1. Release build: unit, property, CLI and benchmark-scenario tests (ctest).
#  2. ASan + UBSan build: the same tests.
#  3. Each libFuzzer target briefly (FUZZ_SECONDS, default 10) under ASan/UBSan.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh"

echo "== Release build and tests"
"$here/scripts/build.sh" "$here/build"
(cd "$here/build" && ctest --output-on-failure -j"$(nproc)")

echo "== ASan + UBSan build and tests"
"$here/scripts/build.sh" "$here/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPATHLAB_SANITIZE=ON
(cd "$here/build-asan" && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$(nproc)")

echo "== Fuzz targets (${FUZZ_SECONDS:-10} s each)"
"$here/scripts/fuzz.sh" "${FUZZ_SECONDS:-10}"

#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test:
#  1. Release build: unit, property, CLI and benchmark-scenario tests (ctest).
#  2. ASan + UBSan build: the same tests.
#  3. ThreadSanitizer build of the tests that start threads (planner runs on a worker thread,
#     HAA* build cancel, the autosave writer), alone: pathlab_tsan_tests, no app.
#  4. Each libFuzzer target briefly (FUZZ_SECONDS, default 10) under ASan/UBSan.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh"

echo "== Release build and tests"
"$here/scripts/build.sh" "$here/build"
(cd "$here/build" && ctest --output-on-failure -j"$(nproc)")

echo "== ASan + UBSan build and tests"
"$here/scripts/build.sh" "$here/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPATHLAB_SANITIZE=ON
(cd "$here/build-asan" && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$(nproc)")

echo "== ThreadSanitizer build and the threaded tests"
tsan="$here/build-tsan"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
gen_args=()
[ -f "$tsan/CMakeCache.txt" ] || gen_args=("${gen[@]}")
# -O1 -g1: TSan's advice (optimised, with line tables for its reports), and the quickest build.
cmake -S "$here" -B "$tsan" "${gen_args[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DPATHLAB_TSAN=ON -DPATHLAB_BUILD_APP=OFF >/dev/null
cmake --build "$tsan" -j"$(nproc)" --target pathlab_tsan_tests
# setarch -R: GCC 12's TSan cannot map its shadow under the high mmap randomisation of newer
# kernels ("unexpected memory mapping"); without address randomisation it always can.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" setarch "$(uname -m)" -R \
  "$tsan/tests/pathlab_tsan_tests"

echo "== Fuzz targets (${FUZZ_SECONDS:-10} s each)"
"$here/scripts/fuzz.sh" "${FUZZ_SECONDS:-10}"

// The one main() of pathlab_bench: every tests/bench/*.cpp only registers benchmarks, so the
// files can be added or removed independently.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();

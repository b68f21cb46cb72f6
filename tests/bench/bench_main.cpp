// The one main() of pathlab_bench: every tests/bench/*.cpp only registers benchmarks, so the
// files can be added or removed independently. Benchmarks that need the planner registry
// register late (LateRegistration), from main(): the planners register themselves during static
// initialisation, in an order across files that nothing fixes, and asking the registry earlier
// would freeze it empty.
#include <benchmark/benchmark.h>

#include "bench/late_registration.hpp"

std::vector<void (*)()>& late_registrations() {
  static std::vector<void (*)()> list;
  return list;
}

int main(int argc, char** argv) {
  for (auto* f : late_registrations()) f();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

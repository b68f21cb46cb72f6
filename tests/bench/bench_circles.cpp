// The planner among circles (issue 5): one query on seeded random forests, eager (the whole
// graph, then A*) against lazy (neighbours on demand), detached, with the null observer and
// with the trace recorder. Counters: graph nodes built and surfing/hugging tests per query.
#include <benchmark/benchmark.h>

#include "planners/circles.hpp"
#include "viz/trace.hpp"

namespace {

using namespace pl;

enum Watch { kDetached, kNull, kRecorder };

void BM_Circles(benchmark::State& state, CircleGraphMode mode, bool overlap, Watch watch) {
  CircleForestSpec spec;
  spec.count = int(state.range(0));
  spec.overlap = overlap;
  // Several forests, so one lucky start-goal pair does not decide the figure.
  std::vector<CircleForest> forests;
  for (std::uint32_t seed = 1; seed <= 8; ++seed) {
    spec.seed = seed;
    forests.push_back(make_circle_forest(spec));
  }
  CirclePlanOptions opt;
  opt.mode = mode;
  std::size_t i = 0, nodes = 0, tests = 0, found = 0, runs = 0;
  for (auto _ : state) {
    const CircleForest& f = forests[i++ % forests.size()];
    NullObserver null;
    TraceRecorder rec;
    RunContext ctx;
    ctx.observer = watch == kNull       ? static_cast<SearchObserver*>(&null)
                   : watch == kRecorder ? &rec
                                        : nullptr;
    CircleGraphStats st;
    const PlanResult r = plan_among_circles(f.circles, f.query, opt, ctx, &st);
    benchmark::DoNotOptimize(r.length);
    nodes += st.nodes;
    tests += st.surfing_tests + st.hugging_tests;
    found += r.found;
    ++runs;
  }
  state.counters["nodes"] = double(nodes) / double(runs);
  state.counters["tests"] = double(tests) / double(runs);
  state.counters["found"] = double(found) / double(runs);
}

void args(benchmark::internal::Benchmark* b) {
  b->Arg(10)->Arg(50)->Arg(200)->Arg(1000)->Unit(benchmark::kMillisecond);
}

BENCHMARK_CAPTURE(BM_Circles, eager_overlap, CircleGraphMode::Eager, true, kDetached)->Apply(args);
BENCHMARK_CAPTURE(BM_Circles, lazy_overlap, CircleGraphMode::Lazy, true, kDetached)->Apply(args);
BENCHMARK_CAPTURE(BM_Circles, eager_apart, CircleGraphMode::Eager, false, kDetached)->Apply(args);
BENCHMARK_CAPTURE(BM_Circles, lazy_apart, CircleGraphMode::Lazy, false, kDetached)->Apply(args);
BENCHMARK_CAPTURE(BM_Circles, lazy_overlap_null, CircleGraphMode::Lazy, true, kNull)
    ->Arg(200)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Circles, lazy_overlap_recorder, CircleGraphMode::Lazy, true, kRecorder)
    ->Arg(200)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Circles, eager_overlap_recorder, CircleGraphMode::Eager, true, kRecorder)
    ->Arg(200)
    ->Unit(benchmark::kMillisecond);

}  // namespace

// The planner among circles at scale (issue 13): lazy queries on 1,000 to 5,000 circles with
// the shadow culling on and off (off is the planner before the culling: every built circle
// computes and tests its bitangents toward all others), and a drag: one circle among 1,000 moved
// a little before each query, as the app replans while the user drags it, with the graph cache
// the planner keeps (CircleGraphCache) and without it.
#include <benchmark/benchmark.h>

#include <cmath>

#include "planners/circles.hpp"

namespace {

using namespace pl;

void BM_CirclesScale(benchmark::State& state, bool overlap, bool cull) {
  CircleForestSpec spec;
  spec.count = int(state.range(0));
  spec.overlap = overlap;
  std::vector<CircleForest> forests;
  for (std::uint32_t seed = 1; seed <= 4; ++seed) {
    spec.seed = seed;
    forests.push_back(make_circle_forest(spec));
  }
  CirclePlanOptions opt;
  opt.cull = cull;
  std::size_t i = 0, tests = 0, found = 0, runs = 0, built = 0;
  for (auto _ : state) {
    const CircleForest& f = forests[i++ % forests.size()];
    CircleGraphStats st;
    const PlanResult r = plan_among_circles(f.circles, f.query, opt, {}, &st);
    benchmark::DoNotOptimize(r.length);
    tests += st.surfing_tests + st.hugging_tests;
    built += st.circles_built;
    found += r.found;
    ++runs;
  }
  state.counters["tests"] = double(tests) / double(runs);
  state.counters["built"] = double(built) / double(runs);
  state.counters["found"] = double(found) / double(runs);
}

// One circle near the middle of the straight start-goal line goes round a small loop, a step
// per query, so every query sees a scene that differs from the last by one circle.
void BM_CirclesDrag(benchmark::State& state, bool overlap, bool use_cache) {
  CircleForestSpec spec;
  spec.count = int(state.range(0));
  spec.overlap = overlap;
  const CircleForest f = make_circle_forest(spec);
  std::vector<Circle> circles = f.circles;
  const std::size_t dragged = circle_nearest_middle(f);
  const Vec2 home = circles[dragged].center();
  CircleGraphCache cache;
  std::size_t step = 0, found = 0, runs = 0, reused = 0, reset = 0;
  for (auto _ : state) {
    const double a = double(step++ % 64) * (kTwoPi / 64);
    circles[dragged].x = home.x + 3 * std::cos(a);
    circles[dragged].y = home.y + 3 * std::sin(a);
    CircleGraphStats st;
    const PlanResult r =
        plan_among_circles(circles, f.query, {}, {}, &st, use_cache ? &cache : nullptr);
    benchmark::DoNotOptimize(r.length);
    found += r.found;
    reused += st.circles_reused;
    reset += st.pairs_reset;
    ++runs;
  }
  state.counters["found"] = double(found) / double(runs);
  state.counters["reused"] = double(reused) / double(runs);
  state.counters["pairs_reset"] = double(reset) / double(runs);
}

BENCHMARK_CAPTURE(BM_CirclesScale, lazy_overlap_cull, true, true)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(5000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CirclesScale, lazy_overlap_nocull, true, false)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(5000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CirclesScale, lazy_apart_cull, false, true)
    ->Arg(1000)
    ->Arg(2000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CirclesScale, lazy_apart_nocull, false, false)
    ->Arg(1000)
    ->Arg(2000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CirclesDrag, overlap_cache, true, true)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CirclesDrag, overlap_nocache, true, false)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CirclesDrag, apart_cache, false, true)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CirclesDrag, apart_nocache, false, false)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);

}  // namespace

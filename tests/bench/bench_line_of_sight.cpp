// Exact line of sight between corners (core/line_of_sight.hpp): the cost of one test on a game
// map (den312d, 65 x 81) for random corner pairs of three reaches, and of whole Theta* /
// Lazy Theta* queries, which make hundreds of thousands of tests on large maps.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/io.hpp"
#include "core/line_of_sight.hpp"
#include "planners/anyangle.hpp"

namespace {

using namespace pl;

const GridMap& den312d() {
  static const GridMap m = load_map(std::string(PATHLAB_SHARED_DIR) + "/anyangle/den312d.map");
  return m;
}

struct Pair {
  int x0, y0, x1, y1;
};

// 4096 pairs of corners at most `reach` apart in x and y, from open cells' corners.
std::vector<Pair> pairs(const CornerGrid& g, int reach) {
  std::mt19937 rng{static_cast<unsigned>(reach)};
  std::vector<Pair> out;
  while (out.size() < 4096) {
    const int x0 = int(rng() % unsigned(g.width())), y0 = int(rng() % unsigned(g.height()));
    if (g.blocked(x0, y0)) continue;
    const int x1 = x0 + int(rng() % unsigned(2 * reach + 1)) - reach;
    const int y1 = y0 + int(rng() % unsigned(2 * reach + 1)) - reach;
    if (!g.in_corners(x1, y1)) continue;
    out.push_back({x0, y0, x1, y1});
  }
  return out;
}

void BM_LineOfSight(benchmark::State& state) {
  const CornerGrid g(den312d(), 0);
  const std::vector<Pair> ps = pairs(g, int(state.range(0)));
  std::size_t i = 0;
  long visible = 0;
  for (auto _ : state) {
    const Pair& p = ps[i++ & 4095];
    visible += g.visible(p.x0, p.y0, p.x1, p.y1);
  }
  benchmark::DoNotOptimize(visible);
  state.counters["visible %"] = 100.0 * double(visible) / double(state.iterations());
}
BENCHMARK(BM_LineOfSight)->Arg(4)->Arg(16)->Arg(64);

// The search class itself, not the registry: bench_trace_planners.cpp asks the registry for
// planners during static initialisation, which can freeze it before every planner registered.
void BM_AnyAngleQueries(benchmark::State& state, AnyAngleSearch::Mode mode) {
  const GridMap& map = den312d();
  const Scenario scen =
      load_scen(std::string(PATHLAB_SHARED_DIR) + "/anyangle/den312d.map.scen", /*corners=*/true);
  AnyAngleSearch search;
  double length = 0;
  for (auto _ : state) {
    for (const ScenProblem& sp : scen.problems) {
      Query q;
      q.start = {double(sp.start_x), double(sp.start_y), 0};
      q.goal = {double(sp.goal_x), double(sp.goal_y), 0};
      length += search.run(map, q, mode, {}).length;
    }
  }
  benchmark::DoNotOptimize(length);
  state.counters["queries"] = double(scen.problems.size());
}
BENCHMARK_CAPTURE(BM_AnyAngleQueries, corner_astar, AnyAngleSearch::Mode::CornerAStar)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AnyAngleQueries, theta, AnyAngleSearch::Mode::Theta)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AnyAngleQueries, lazy_theta, AnyAngleSearch::Mode::LazyTheta)
    ->Unit(benchmark::kMillisecond);

}  // namespace

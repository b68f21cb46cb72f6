// The exact any-angle planner (visibility graph) against Theta*, Lazy Theta* and Block A* on a
// large game map (brc202d, 530 x 481, Dragon Age: Origins), in the same run so the load of the
// machine falls on all alike. The queries: every 10th problem of brc202d's MovingAI scenario, as
// corner queries (the top-left corners of its start and goal cells). Preparation (the visibility
// graph, Block A*'s LDDB) is done before timing and measured apart (BM_AnyAnglePrepare).
//
//   build/tests/pathlab_bench --benchmark_filter='AnyAngle(Prepare|Exact)'
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "core/io.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"

namespace {

using namespace pl;

const Scene& brc202d() {
  static const Scene s = [] {
    Scene sc;
    sc.map = load_map(std::string(PATHLAB_SHARED_DIR) + "/data/dao/brc202d.map");
    return sc;
  }();
  return s;
}

const std::vector<Query>& queries() {
  static const std::vector<Query> qs = [] {
    const Scenario scen = load_scen(std::string(PATHLAB_SHARED_DIR) + "/data/dao/brc202d.map.scen");
    std::vector<Query> out;
    for (std::size_t i = 0; i < scen.problems.size(); i += 10) {
      const ScenProblem& p = scen.problems[i];
      Query q;
      q.start = {double(p.start_x), double(p.start_y), 0};
      q.goal = {double(p.goal_x), double(p.goal_y), 0};
      out.push_back(q);
    }
    return out;
  }();
  return qs;
}

std::unique_ptr<Planner> make(const std::string& name, bool smoothing) {
  std::map<std::string, std::string> sets;
  if (smoothing) sets["smoothing"] = "true";
  return Registry::builtin().create(name, sets);
}

// Time per query: CPU time / queries (the queries_per_s counter).
void BM_AnyAngleExact(benchmark::State& state, const char* name, bool smoothing) {
  auto planner = make(name, smoothing);
  const Scene& scene = brc202d();
  const auto& qs = queries();
  planner->plan(scene, qs.front());  // preparation outside the timing
  double length = 0, expanded = 0;
  for (auto _ : state) {
    for (const Query& q : qs) {
      const PlanResult r = planner->plan(scene, q);
      length += r.length;
      expanded += double(r.expanded);
    }
  }
  benchmark::DoNotOptimize(length);
  state.counters["queries"] = double(qs.size());
  // Queries per second of CPU time: 1e6 / queries_per_s is the mean time per query in us.
  state.counters["queries_per_s"] =
      benchmark::Counter(double(qs.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["expanded_per_query"] = expanded / double(qs.size()) / double(state.iterations());
}
BENCHMARK_CAPTURE(BM_AnyAngleExact, visibility, "visibility", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AnyAngleExact, theta, "theta", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AnyAngleExact, lazy_theta, "lazy-theta", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AnyAngleExact, block_astar, "block-astar", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AnyAngleExact, corner_astar_smoothing, "corner-astar", true)->Unit(benchmark::kMillisecond);

// Preparation paid once per map: the visibility graph, Block A*'s LDDB (a new planner each time,
// so the database is built from nothing).
void BM_AnyAnglePrepare(benchmark::State& state, const char* name) {
  const Scene& scene = brc202d();
  const Query q = queries().front();
  double prepare = 0;
  for (auto _ : state) {
    auto planner = make(name, false);
    prepare += planner->plan(scene, q).prepare_ms;
  }
  benchmark::DoNotOptimize(prepare);
}
BENCHMARK_CAPTURE(BM_AnyAnglePrepare, visibility, "visibility")->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_AnyAnglePrepare, block_astar, "block-astar")->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

// HAA* speed (issue 13): the HQ build of a 512x512 two-terrain map by 1, 2 and all hardware
// threads, and every query of the dao scenarios (all lengths) by HAA* and Annotated A*.
#include <benchmark/benchmark.h>

#include <map>
#include <random>
#include <string>

#include "core/io.hpp"
#include "haa_bench_maps.hpp"
#include "planners/haa.hpp"
#include "planners/planner.hpp"

namespace {

using namespace pl;

using pl::bench::two_terrain_512;

// Arg: threads (0 = one per hardware thread). CS10, sizes {1, 2}, HQ, the planner's placement.
void BM_HaaBuildThreads(benchmark::State& state) {
  const GridMap& map = two_terrain_512();
  HaaParams p;
  p.cluster_size = 10;
  p.quality = HaaQuality::High;
  p.placement = HaaPlacement::Middle;
  p.sizes = {1, 2};
  HaaAbstraction a;
  a.set_threads(int(state.range(0)));
  for (auto _ : state) a.build(map, p);
  state.counters["nodes"] = double(a.stats().nodes);
  state.counters["edges"] = double(a.stats().edges);
}
BENCHMARK(BM_HaaBuildThreads)->Arg(1)->Arg(2)->Arg(0)->Unit(benchmark::kMillisecond);

struct Problems {
  Scene scene;
  std::vector<Query> queries;
};

const Problems& problems(const std::string& name) {
  static std::map<std::string, Problems> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  Problems out;
  const std::string scen_path = std::string(PATHLAB_SHARED_DIR) + "/data/" + name + ".map.scen";
  const Scenario scen = load_scen(scen_path);
  out.scene.map = load_map(resolve_scen_map(scen_path, scen.problems[0]));
  for (const ScenProblem& p : scen.problems) {
    Query q;
    q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
    q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
    out.queries.push_back(q);
  }
  return cache.emplace(name, std::move(out)).first->second;
}

// One iteration = every problem of the scenario once (all lengths); the abstraction is built by
// a query outside the loop.
void BM_HaaAllLengths(benchmark::State& state, const std::string& scen,
                      const std::string& planner) {
  const Problems& d = problems(scen);
  auto pl = Registry::builtin().create(planner, {});
  pl->plan(d.scene, d.queries[0]);
  double expanded = 0;
  for (auto _ : state) {
    expanded = 0;
    for (const Query& q : d.queries) expanded += double(pl->plan(d.scene, q).expanded);
  }
  state.counters["queries"] = double(d.queries.size());
  state.counters["expanded_per_query"] = expanded / double(d.queries.size());
  state.counters["us_per_query"] =
      benchmark::Counter(double(d.queries.size()) * double(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_CAPTURE(BM_HaaAllLengths, brc202d_haa, std::string("dao/brc202d"), std::string("haa"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_HaaAllLengths, brc202d_annotated_astar, std::string("dao/brc202d"),
                  std::string("annotated-astar"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_HaaAllLengths, den312d_haa, std::string("dao/den312d"), std::string("haa"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_HaaAllLengths, den312d_annotated_astar, std::string("dao/den312d"),
                  std::string("annotated-astar"))
    ->Unit(benchmark::kMillisecond);

}  // namespace

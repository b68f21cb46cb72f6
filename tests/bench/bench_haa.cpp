// HAA* speed (issue 4): building an HQ abstraction of a 512x512 map with two terrains for sizes
// {1,2}, and queries on the dao map brc202d against Annotated A* (paths longer than 200 from its
// scenario file). Counters: expansions per query, abstraction size.
#include <benchmark/benchmark.h>

#include <random>

#include "core/io.hpp"
#include "haa_bench_maps.hpp"
#include "planners/grid_search.hpp"
#include "planners/haa.hpp"

namespace {

using namespace pl;

using pl::bench::two_terrain_512;

void BM_HaaBuild(benchmark::State& state, HaaQuality quality) {
  const GridMap& map = two_terrain_512();
  HaaParams p;
  p.cluster_size = int(state.range(0));
  p.quality = quality;
  p.sizes = {1, 2};
  HaaAbstraction a;
  for (auto _ : state) a.build(map, p);
  state.counters["nodes"] = double(a.stats().nodes);
  state.counters["edges"] = double(a.stats().edges);
  state.counters["node_pct"] = a.stats().node_percent();
  state.counters["edge_pct"] = a.stats().edge_percent();
}
// Wall time: the build shares its clusters among threads.
BENCHMARK_CAPTURE(BM_HaaBuild, hq, HaaQuality::High)
    ->Arg(10)
    ->Arg(16)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_HaaBuild, lq, HaaQuality::Low)
    ->Arg(10)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// One iteration = one cell edited (an obstacle placed, or the cell given back its terrain, at
// cells drawn at random) and the abstraction brought up to date (HaaAbstraction::update, which
// finds the changed cell by comparing the maps). Counters: clusters and border segments re-made
// per edit.
void BM_HaaEdit(benchmark::State& state, HaaQuality quality) {
  GridMap map = two_terrain_512();
  const std::vector<TerrainId> original = map.cells();
  HaaParams p;
  p.cluster_size = int(state.range(0));
  p.quality = quality;
  p.sizes = {1, 2};
  HaaAbstraction a;
  a.build(map, p);
  std::mt19937 rng(7);
  auto edit = [&] {
    const int x = int(rng() % 512), y = int(rng() % 512);
    const TerrainId was = original[std::size_t(y) * 512 + std::size_t(x)];
    const TerrainId obstacle = map.palette().default_obstacle();
    const TerrainId other = was == obstacle ? TerrainId(0) : obstacle;
    map.set(x, y, map.at(x, y) == was ? other : was);
    a.update(map);
  };
  edit();  // the update's buffers are made outside the loop
  double clusters = 0, borders = 0, edits = 0;
  for (auto _ : state) {
    edit();
    clusters += double(a.stats().rebuilt_clusters);
    borders += double(a.stats().rescanned_borders);
    edits += 1;
    if (!a.stats().incremental) state.SkipWithError("the edit was not an update");
  }
  state.counters["clusters_per_edit"] = clusters / std::max(1.0, edits);
  state.counters["borders_per_edit"] = borders / std::max(1.0, edits);
}
BENCHMARK_CAPTURE(BM_HaaEdit, hq, HaaQuality::High)
    ->Arg(10)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

struct DaoProblems {
  Scene scene;
  std::vector<Query> queries;
};

const DaoProblems& dao() {
  static const DaoProblems d = [] {
    DaoProblems out;
    const std::string scen_path = std::string(PATHLAB_SHARED_DIR) + "/data/dao/brc202d.map.scen";
    const Scenario scen = load_scen(scen_path);
    out.scene.map = load_map(resolve_scen_map(scen_path, scen.problems[0]));
    for (const ScenProblem& p : scen.problems) {
      if (p.optimal <= 200) continue;
      Query q;
      q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
      q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
      out.queries.push_back(q);
    }
    return out;
  }();
  return d;
}

// One iteration = every problem longer than 200 once.
void BM_DaoLong(benchmark::State& state, const std::string& planner,
                std::map<std::string, std::string> params) {
  const DaoProblems& d = dao();
  auto pl = Registry::builtin().create(planner, params);
  pl->plan(d.scene, d.queries[0]);  // builds caches (the abstraction, passability) outside the loop
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
BENCHMARK_CAPTURE(BM_DaoLong, annotated_astar, std::string("annotated-astar"), {})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DaoLong, haa_cs10, std::string("haa"), {{"cluster_size", "10"}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DaoLong, haa_cs16, std::string("haa"), {{"cluster_size", "16"}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DaoLong, haa_cs16_lq, std::string("haa"),
                  {{"cluster_size", "16"}, {"quality", "lq"}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

// Subgoal graphs (issue 12): building S_1 and S_N of the dao map brc202d (cells and corners
// forms), and queries of its scenario file for A* on S_N against astar-textbook and for Theta*
// on S_N against grid Theta*, in one binary so the ratios come from the same run. Counters:
// subgoals, edges, expansions per query.
#include <benchmark/benchmark.h>

#include "core/io.hpp"
#include "planners/planner.hpp"
#include "planners/subgoal_graph.hpp"

namespace {

using namespace pl;

struct Brc {
  Scene scene;
  std::vector<std::uint8_t> blocked;
  std::vector<Query> queries;
};

const Brc& brc() {
  static const Brc b = [] {
    Brc out;
    const std::string file = std::string(PATHLAB_SHARED_DIR) + "/data/dao/brc202d.map.scen";
    const Scenario scen = load_scen(file);
    out.scene.map = load_map(find_scen_map(scen, file));
    const GridMap& m = out.scene.map;
    const CapabilityMask cap = m.palette().movingai_default_capability();
    for (int y = 0; y < m.height(); ++y)
      for (int x = 0; x < m.width(); ++x) out.blocked.push_back(m.passable(x, y, cap) ? 0 : 1);
    // Every 10th problem: the whole range of path lengths.
    for (std::size_t i = 0; i < scen.problems.size(); i += 10) {
      const ScenProblem& p = scen.problems[i];
      Query q;
      q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
      q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
      out.queries.push_back(q);
    }
    return out;
  }();
  return b;
}

void BM_SubgoalBuild(benchmark::State& state, SubgoalGraph::Form form, int levels) {
  const Brc& b = brc();
  SubgoalGraph g;
  for (auto _ : state)
    g.build(form, b.scene.map.width(), b.scene.map.height(), b.blocked, levels);
  state.counters["subgoals"] = double(g.size());
  state.counters["edges"] = double(g.stats().base_edges);
  state.counters["added"] = double(g.stats().added_edges);
  state.counters["levels"] = double(g.stats().levels);
  state.counters["bytes"] = double(g.memory_bytes());
}
BENCHMARK_CAPTURE(BM_SubgoalBuild, cells_s1, SubgoalGraph::Form::Cells, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SubgoalBuild, cells_sn, SubgoalGraph::Form::Cells, 0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SubgoalBuild, corners_sn, SubgoalGraph::Form::Corners, 0)->Unit(benchmark::kMillisecond);

// One iteration = every query once (the graph is built before timing, on the first plan()).
void BM_Queries(benchmark::State& state, const char* planner, std::map<std::string, std::string> sets) {
  const Brc& b = brc();
  auto p = Registry::builtin().create(planner, sets);
  p->plan(b.scene, b.queries.front());
  double expanded = 0;
  for (auto _ : state) {
    expanded = 0;
    for (const Query& q : b.queries) {
      const PlanResult r = p->plan(b.scene, q);
      benchmark::DoNotOptimize(r.length);
      expanded += double(r.expanded);
    }
  }
  state.counters["queries"] = double(b.queries.size());
  state.counters["expanded_per_query"] = expanded / double(b.queries.size());
}
BENCHMARK_CAPTURE(BM_Queries, astar_textbook, "astar-textbook", {})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Queries, subgoal_sn, "subgoal", {{"levels", "n"}})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Queries, subgoal_s1, "subgoal", {{"levels", "1"}})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Queries, theta, "theta", {})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Queries, subgoal_sn_theta, "subgoal", {{"levels", "n"}, {"search", "theta"}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

// Hybrid A* speed (issue 11 item 6): queries on the dao game map brc202d (530x481) with 72
// headings, a disc of radius 0.4 and turning radius 2, start and goal headings drawn from a fixed
// seed. Reported: the median wall time per query (ms_median) and the median thread CPU time
// (cpu_ms_median, the figure to read on a loaded machine) with the two-heuristic maximum and with
// each heuristic alone, and grid A* on the same cells as the yardstick of the same run.
// One iteration = every query once.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/io.hpp"
#include "planners/planner.hpp"

namespace {

using namespace pl;

struct DaoSet {
  Scene scene;
  std::vector<Query> queries;
};

// Every `stride`-th problem of the scenario up to scen length `max_len`, so short and long
// queries are both sampled.
DaoSet load(const std::string& name, int stride, double max_len) {
  DaoSet out;
  const std::string scen_path = std::string(PATHLAB_SHARED_DIR) + "/data/dao/" + name + ".map.scen";
  const Scenario scen = load_scen(scen_path);
  out.scene.map = load_map(resolve_scen_map(scen_path, scen.problems[0]));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> ua(0, 2 * 3.141592653589793);
  for (std::size_t i = 0; i < scen.problems.size(); i += std::size_t(stride)) {
    const ScenProblem& p = scen.problems[i];
    if (p.optimal > max_len) continue;
    Query q;
    q.start = {p.start_x + 0.5, p.start_y + 0.5, ua(rng)};
    q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, ua(rng)};
    q.radius = 0.4;
    q.turning_radius = 2.0;
    q.capability = out.scene.map.palette().movingai_default_capability();
    out.queries.push_back(q);
  }
  return out;
}

// CPU time of this thread in ms: on a machine shared with other sessions the wall clock counts
// the time other processes ran, the thread's CPU time does not.
double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

const DaoSet& dao(const std::string& name) {
  static std::map<std::string, DaoSet> sets;
  auto it = sets.find(name);
  if (it == sets.end()) it = sets.emplace(name, load(name, 20, 300)).first;
  return it->second;
}

void BM_HybridAStarDao(benchmark::State& state, const std::string& map, const std::string& planner,
                       std::map<std::string, std::string> params) {
  const DaoSet& d = dao(map);
  auto pl = Registry::builtin().create(planner, params);
  pl->plan(d.scene, d.queries[0]);  // per-map preparation outside the loop
  std::vector<double> ms(d.queries.size()), cpu(d.queries.size());
  double expanded = 0, found = 0, budget_spent = 0;
  for (auto _ : state) {
    expanded = found = budget_spent = 0;
    for (std::size_t i = 0; i < d.queries.size(); ++i) {
      const double c0 = thread_cpu_ms();
      const PlanResult r = pl->plan(d.scene, d.queries[i]);
      cpu[i] = thread_cpu_ms() - c0;
      ms[i] = r.time_ms;
      expanded += double(r.expanded);
      found += r.found;
      budget_spent += r.message.find("max_expansions") != std::string::npos;
    }
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  state.counters["queries"] = double(d.queries.size());
  state.counters["found"] = found;
  state.counters["budget_spent"] = budget_spent;  // no path because max_expansions ran out
  state.counters["expanded_per_query"] = expanded / double(d.queries.size());
  state.counters["ms_median"] = sorted[sorted.size() / 2];
  state.counters["ms_p90"] = sorted[sorted.size() * 9 / 10];
  state.counters["cpu_ms_median"] = median(cpu);
}

#define HYBRID_BENCH(MAP)                                                                       \
  BENCHMARK_CAPTURE(BM_HybridAStarDao, MAP##_astar_yardstick, std::string(#MAP),               \
                    std::string("astar"), {})                                                   \
      ->Unit(benchmark::kMillisecond)                                                           \
      ->Iterations(1);                                                                          \
  BENCHMARK_CAPTURE(BM_HybridAStarDao, MAP##_hybrid_max, std::string(#MAP),                    \
                    std::string("hybrid-astar"), {{"heuristic", "max"}})                        \
      ->Unit(benchmark::kMillisecond)                                                           \
      ->Iterations(1);                                                                          \
  BENCHMARK_CAPTURE(BM_HybridAStarDao, MAP##_hybrid_max_reverse, std::string(#MAP),            \
                    std::string("hybrid-astar"), {{"reverse", "true"}})                         \
      ->Unit(benchmark::kMillisecond)                                                           \
      ->Iterations(1);                                                                          \
  BENCHMARK_CAPTURE(BM_HybridAStarDao, MAP##_hybrid_grid_only, std::string(#MAP),              \
                    std::string("hybrid-astar"), {{"heuristic", "grid"}})                       \
      ->Unit(benchmark::kMillisecond)                                                           \
      ->Iterations(1);                                                                          \
  BENCHMARK_CAPTURE(BM_HybridAStarDao, MAP##_hybrid_curve_only, std::string(#MAP),             \
                    std::string("hybrid-astar"),                                   \
                    {{"heuristic", "curve"}, {"max_expansions", "20000"}})                      \
      ->Unit(benchmark::kMillisecond)                                                           \
      ->Iterations(1)

HYBRID_BENCH(brc202d);

}  // namespace

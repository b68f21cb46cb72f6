// What watching costs a real search (DESIGN.md section 9): each grid planner on one large
// random map, run detached (no observer), with the null observer (the hook's own cost) and with
// the trace recorder (what the UI pays), plus the size of the trace it records.
#include <benchmark/benchmark.h>

#include <random>

#include "bench/late_registration.hpp"
#include "core/grid.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"
#include "viz/trace.hpp"

namespace {

using namespace pl;

struct Problem {
  Scene scene;
  Query query;
};

// 1024 x 1024, 30% hard obstacles, corner to corner: a long search over most of the map.
const Problem& problem() {
  static const Problem p = [] {
    Problem out;
    const int side = 1024;
    std::mt19937 rng(42);
    std::vector<TerrainId> cells(std::size_t(side) * side, 0);
    for (auto& c : cells) c = rng() % 10 < 3 ? TerrainId(4) : TerrainId(0);
    cells[0] = cells.back() = 0;
    out.scene.map = GridMap(side, side);
    out.scene.map.assign(cells);
    out.query.start = Pose{0.5, 0.5, 0};
    out.query.goal = Pose{side - 0.5, side - 0.5, 0};
    return out;
  }();
  return p;
}

enum Mode { kDetached, kNull, kRecorder };

void BM_Watch(benchmark::State& state, const std::string& planner, Mode mode) {
  const Problem& p = problem();
  auto pl = Registry::builtin().create(planner);
  PlanResult r;
  std::size_t events = 0, bytes = 0;
  for (auto _ : state) {
    NullObserver null;
    TraceRecorder rec;
    RunContext ctx;
    if (mode == kNull) ctx.observer = &null;
    if (mode == kRecorder) ctx.observer = &rec;
    r = pl->plan(p.scene, p.query, ctx);
    if (mode == kRecorder) {
      const Trace t = rec.take();
      events = t.event_count();
      bytes = t.memory_bytes();
    }
  }
  state.counters["found"] = r.found;
  state.counters["expanded"] = double(r.expanded);
  if (mode == kRecorder) {
    state.counters["events"] = double(events);
    state.counters["trace_MB"] = double(bytes) / 1e6;
    state.counters["B/event"] = events ? double(bytes) / double(events) : 0.0;
  }
}

void register_all() {
  for (const char* name : {"astar", "dijkstra", "astar-textbook"}) {
    if (!Registry::builtin().find(name)) continue;
    const std::string n = name;
    benchmark::RegisterBenchmark(("BM_Watch/" + n + "/detached").c_str(), BM_Watch, n, kDetached)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Watch/" + n + "/null").c_str(), BM_Watch, n, kNull)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Watch/" + n + "/recorder").c_str(), BM_Watch, n, kRecorder)
        ->Unit(benchmark::kMillisecond);
  }
}

const LateRegistration registered(register_all);

}  // namespace

// What the headless half of a frame costs (issue 3's 16 ms budget on a 1024 x 1024 map with a
// finished search of over 100,000 expansions): building the search-state overlay for the whole
// map and for a zoomed-in window, the g heat image, the terrain image, the clearance heat image,
// and the difference of two finished searches. The GL upload and drawing are the app's to
// measure.
#include <benchmark/benchmark.h>

#include <random>

#include "core/clearance.hpp"
#include "core/grid.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"
#include "viz/draw.hpp"
#include "viz/image.hpp"
#include "viz/overlays.hpp"
#include "viz/trace.hpp"

namespace {

using namespace pl;

constexpr int kSide = 1024;

struct Fixture {
  Scene scene;
  Trace astar, dijkstra;
  std::uint64_t expanded = 0;
};

Trace run(const Scene& scene, const char* planner, std::uint64_t* expanded = nullptr) {
  Query q;
  q.start = Pose{0.5, 0.5, 0};
  q.goal = Pose{kSide - 0.5, kSide - 0.5, 0};
  TraceRecorder rec;
  // The grid planners declare this themselves (planners/grid_search); declared here too, the
  // overlays are measured drawing cells whatever the planners do.
  rec.space(NodeSpace::cells(scene.map.width(), scene.map.height()));
  RunContext ctx;
  ctx.observer = &rec;
  const PlanResult r = Registry::builtin().create(planner)->plan(scene, q, ctx);
  if (expanded) *expanded = r.expanded;
  return rec.take();
}

// 1024 x 1024, 30% hard obstacles, corner to corner (the same map as bench_trace_planners).
const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture out;
    std::mt19937 rng(42);
    std::vector<TerrainId> cells(std::size_t(kSide) * kSide, 0);
    for (auto& c : cells) c = rng() % 10 < 3 ? TerrainId(4) : TerrainId(0);
    cells[0] = cells.back() = 0;
    out.scene.map = GridMap(kSide, kSide);
    out.scene.map.assign(cells);
    out.astar = run(out.scene, "astar", &out.expanded);
    out.dijkstra = run(out.scene, "dijkstra");
    return out;
  }();
  return f;
}

void BM_SearchOverlay(benchmark::State& state) {
  const Fixture& f = fixture();
  TraceCursor cur(f.astar);
  cur.seek(cur.last_frame());
  SearchDrawOptions o;
  o.grid_width = o.grid_height = kSide;
  if (state.range(0)) o.visible = MapRect{400, 400, 480, 450};  // a zoomed-in window
  DrawList list;                                                // reused, as a renderer would
  for (auto _ : state) {
    list.clear();
    draw_search_state(list, cur.state(), Style::standard(), o);
    benchmark::DoNotOptimize(list.primitive_count());
  }
  state.counters["expanded"] = double(f.expanded);
  state.counters["primitives"] = double(list.primitive_count());
}
BENCHMARK(BM_SearchOverlay)->Arg(0)->Arg(1)->ArgNames({"culled"})->Unit(benchmark::kMillisecond);

void BM_GImage(benchmark::State& state) {
  const Fixture& f = fixture();
  TraceCursor cur(f.astar);
  cur.seek(cur.last_frame());
  for (auto _ : state) benchmark::DoNotOptimize(g_image(cur.state(), kSide, kSide).pixels.data());
}
BENCHMARK(BM_GImage)->Unit(benchmark::kMillisecond);

void BM_TerrainImage(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(terrain_image(f.scene.map).pixels.data());
}
BENCHMARK(BM_TerrainImage)->Unit(benchmark::kMillisecond);

void BM_ClearanceImage(benchmark::State& state) {
  const Fixture& f = fixture();
  const ClearanceGrid c =
      true_clearance(f.scene.map, f.scene.map.palette().movingai_default_capability());
  for (auto _ : state) benchmark::DoNotOptimize(clearance_image(c, kSide, kSide).pixels.data());
}
BENCHMARK(BM_ClearanceImage)->Unit(benchmark::kMillisecond);

void BM_ClosedDifference(benchmark::State& state) {
  const Fixture& f = fixture();
  TraceCursor a(f.astar), b(f.dijkstra);
  a.seek(a.last_frame());
  b.seek(b.last_frame());
  std::size_t cells = 0;
  for (auto _ : state) {
    const ClosedDifference d = closed_difference(a.state(), b.state(), kSide, kSide);
    cells = d.only_a.size() + d.only_b.size();
    benchmark::DoNotOptimize(cells);
  }
  state.counters["cells"] = double(cells);
}
BENCHMARK(BM_ClosedDifference)->Unit(benchmark::kMillisecond);

}  // namespace

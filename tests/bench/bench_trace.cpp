// Trace recording and replay at the scale the UI must stay interactive at: a 1,000,000-event
// trace of a grid search, recorded, then scrubbed (random seeks), stepped and listed.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <type_traits>
#include <random>

#include "viz/trace.hpp"

namespace {

using namespace pl;

constexpr std::size_t kEvents = 1'000'000;
constexpr int kSide = 1000;

// Dijkstra's wavefront on an empty 8-connected kSide x kSide grid, reported the way the grid
// planners report (open on generate, relax on a better g, close + frame per expansion), until
// `events` events have been reported. Returns the number of reports made. `Reporter` is the
// observer itself (one virtual call per event) or a StepReporter (one batch() call per step,
// as the planners do).
template <class Reporter>
std::size_t grid_search(SearchObserver& obs, Reporter& rep, std::size_t events) {
  std::vector<double> g(std::size_t(kSide) * kSide, INFINITY);
  std::vector<char> closed(g.size(), 0);
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  const std::uint32_t start = std::uint32_t(kSide / 2 * kSide + kSide / 2);
  // A planner's batched path reports grid nodes by id (the Cells space places them); the
  // observer's own open() takes a description.
  auto open_node = [&rep](std::uint32_t c, std::uint32_t parent, double gc) {
    if constexpr (std::is_same_v<Reporter, StepReporter>)
      rep.open(c, parent, gc, 0);
    else
      rep.open(NodeDesc{c, float(c % kSide) + 0.5f, float(c / kSide) + 0.5f}, parent, gc, 0);
  };
  std::size_t n = 0;
  obs.phase("search");
  obs.space(NodeSpace::cells(kSide, kSide));  // as the grid planners declare it
  g[start] = 0;
  open_node(start, kNoNode, 0);
  open.push({0, start});
  n += 2;
  const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  while (!open.empty() && n < events) {
    auto [d, c] = open.top();
    open.pop();
    if (closed[c] || d > g[c]) continue;
    closed[c] = 1;
    rep.close(c);
    ++n;
    const int x = int(c % kSide), y = int(c / kSide);
    for (int k = 0; k < 8; ++k) {
      const int nx = x + dx[k], ny = y + dy[k];
      if (nx < 0 || ny < 0 || nx >= kSide || ny >= kSide) continue;
      const auto nb = std::uint32_t(ny * kSide + nx);
      if (closed[nb]) continue;
      const double ng = d + (k < 4 ? 1.0 : std::sqrt(2.0));
      if (ng < g[nb]) {
        if (std::isinf(g[nb]))
          open_node(nb, c, ng);
        else
          rep.relax(nb, c, ng);
        ++n;
        g[nb] = ng;
        open.push({ng, nb});
      }
    }
    rep.frame();
  }
  return n;
}

std::size_t grid_search(SearchObserver& obs, std::size_t events) {
  return grid_search(obs, obs, events);
}

std::size_t grid_search_batched(SearchObserver& obs, std::size_t events) {
  StepReporter rep(&obs);
  const std::size_t n = grid_search(obs, rep, events);
  rep.flush();
  return n;
}

const Trace& big_trace() {
  static const Trace trace = [] {
    TraceRecorder rec;
    grid_search(rec, kEvents);
    return rec.take();
  }();
  return trace;
}

// The whole wavefront (every cell closed: about 1M nodes and 2.5M events), as the app's
// frame benchmark scene records it; its late keyframes hold every node.
const Trace& whole_trace() {
  static const Trace trace = [] {
    TraceRecorder rec;
    StepReporter rep(&rec);
    grid_search(rec, rep, std::size_t(-1));
    rep.flush();
    return rec.take();
  }();
  return trace;
}

void report_trace(benchmark::State& state, const Trace& t) {
  state.counters["events"] = double(t.event_count());
  state.counters["frames"] = double(t.frame_count());
  state.counters["nodes"] = double(t.node_count());
  state.counters["keyframes"] = double(t.keyframe_count());
  state.counters["max_replay"] = double(t.max_replay_events());
  state.counters["MB"] = double(t.memory_bytes()) / 1e6;
  state.counters["B/event"] = double(t.memory_bytes()) / double(t.event_count());
  state.counters["stream_B/event"] = double(t.event_bytes()) / double(t.event_count());
}

// What attaching the recorder costs the search (compare with BM_SearchNullObserver).
void BM_RecordSearch(benchmark::State& state) {
  for (auto _ : state) {
    TraceRecorder rec;
    benchmark::DoNotOptimize(grid_search(rec, kEvents));
    Trace t = rec.take();
    benchmark::DoNotOptimize(t.event_count());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * kEvents));
}
BENCHMARK(BM_RecordSearch)->Unit(benchmark::kMillisecond);

// The same through the planners' batched hot path.
void BM_RecordSearchBatched(benchmark::State& state) {
  for (auto _ : state) {
    TraceRecorder rec;
    benchmark::DoNotOptimize(grid_search_batched(rec, kEvents));
    Trace t = rec.take();
    benchmark::DoNotOptimize(t.event_count());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * kEvents));
}
BENCHMARK(BM_RecordSearchBatched)->Unit(benchmark::kMillisecond);

// 1,000,000 segment tests (a line-of-sight planner's workload: short segments between cell
// corners, every third one rejected), one frame per 8 tests. Arg 0: each test a virtual call to
// the recorder; arg 1: through the planners' batched StepReporter.
void BM_RecordSegmentTests(benchmark::State& state) {
  constexpr std::size_t kTests = 1'000'000;
  const bool batched = state.range(0) != 0;
  for (auto _ : state) {
    TraceRecorder rec;
    StepReporter rep(&rec);
    for (std::size_t i = 0; i < kTests; ++i) {
      const double x = double(i % 997), y = double(i % 991);
      const Shape seg = Shape::segment({x, y}, {x + double(i % 7), y + double(i % 5)});
      if (batched)
        rep.test(seg, i % 3 != 0);
      else
        rec.test(seg, i % 3 != 0);
      if (i % 8 == 7) {
        if (batched)
          rep.frame();
        else
          rec.frame();
      }
    }
    if (batched) rep.flush();
    Trace t = rec.take();
    benchmark::DoNotOptimize(t.event_count());
    state.counters["MB"] = double(t.memory_bytes()) / 1e6;
    state.counters["bytes/test"] = double(t.memory_bytes()) / double(kTests);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * kTests));
}
BENCHMARK(BM_RecordSegmentTests)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_SearchNullObserver(benchmark::State& state) {
  for (auto _ : state) {
    NullObserver obs;
    benchmark::DoNotOptimize(grid_search(obs, kEvents));
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * kEvents));
}
BENCHMARK(BM_SearchNullObserver)->Unit(benchmark::kMillisecond);

// Scrubbing: one cursor, uniformly random targets.
void BM_SeekRandom(benchmark::State& state) {
  const Trace& t = state.range(0) ? whole_trace() : big_trace();
  TraceCursor c(t);
  std::mt19937 rng(1);
  double restored = 0, replayed = 0;
  for (auto _ : state) {
    c.seek(rng() % t.frame_count());
    restored += double(c.last_restored());
    replayed += double(c.last_replayed());
    benchmark::DoNotOptimize(c.state().counters().expanded);
  }
  report_trace(state, t);
  // Per seek: node records a keyframe restore wrote, events replayed.
  state.counters["restored"] = restored / double(state.iterations());
  state.counters["replayed"] = replayed / double(state.iterations());
}
BENCHMARK(BM_SeekRandom)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The worst case: alternate between the frames that lie furthest past their keyframes, so every
// seek restores a large snapshot and replays the most events the policy allows.
void BM_SeekWorst(benchmark::State& state) {
  const Trace& t = big_trace();
  // The frame before each keyframe, and the last frame, are the furthest from their keyframe.
  std::vector<std::pair<std::size_t, std::size_t>> far;  // (events replayed, frame)
  for (std::size_t i = 1; i <= t.keyframe_count(); ++i) {
    const std::size_t k = i < t.keyframe_count() ? t.keyframe_frame(i) - 1 : t.frame_count() - 1;
    TraceCursor fresh(t);
    fresh.seek(k);
    far.push_back({fresh.last_replayed(), k});
  }
  std::sort(far.rbegin(), far.rend());
  const std::size_t a = far[0].second, b = far.size() > 1 ? far[1].second : 0;
  TraceCursor c(t);
  bool flip = false;
  std::size_t replayed = 0;
  for (auto _ : state) {
    c.seek(flip ? a : b);
    flip = !flip;
    replayed = std::max(replayed, c.last_replayed());
    benchmark::DoNotOptimize(c.state().counters().expanded);
  }
  report_trace(state, t);
  state.counters["replayed"] = double(replayed);
}
BENCHMARK(BM_SeekWorst)->Unit(benchmark::kMillisecond);

void BM_StepForward(benchmark::State& state) {
  const Trace& t = big_trace();
  TraceCursor c(t);
  for (auto _ : state) {
    if (!c.step_forward()) c.seek(0);
    benchmark::DoNotOptimize(c.state().counters().expanded);
  }
}
BENCHMARK(BM_StepForward);

void BM_StepBack(benchmark::State& state) {
  const Trace& t = big_trace();
  TraceCursor c(t);
  c.seek(t.frame_count() - 1);
  for (auto _ : state) {
    if (!c.step_back()) c.seek(t.frame_count() - 1);
    benchmark::DoNotOptimize(c.state().counters().expanded);
  }
}
BENCHMARK(BM_StepBack);

// The UI's clipped open list at the last frame (the largest open list).
void BM_OpenList50(benchmark::State& state) {
  const Trace& t = big_trace();
  TraceCursor c(t);
  c.seek(t.frame_count() - 1);
  for (auto _ : state) benchmark::DoNotOptimize(c.state().open_list(50).size());
  state.counters["open"] = double(c.state().counters().open);
}
BENCHMARK(BM_OpenList50)->Unit(benchmark::kMicrosecond);

}  // namespace

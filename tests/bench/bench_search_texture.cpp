// Scrubbing a big search: the search texture of a 1024 x 1024 map brought to a random frame of
// a finished Dijkstra (about 1M nodes), incrementally (SearchTexture: only the events between
// the two frames) against rebuilt from the frame state (search_image), as the app did before.
// The cursor's seek is timed apart (BM_SearchTextureSeekOnly) so the texture's share shows.
#include <benchmark/benchmark.h>

#include <cmath>
#include <queue>
#include <random>

#include "viz/image.hpp"
#include "viz/search_texture.hpp"

namespace {

using namespace pl;

constexpr int kSide = 1024;

const Trace& dijkstra_trace() {
  static const Trace trace = [] {
    TraceRecorder rec;
    StepReporter rep(&rec);
    rec.space(NodeSpace::cells(kSide, kSide));
    std::vector<double> g(std::size_t(kSide) * kSide, INFINITY);
    std::vector<char> closed(g.size(), 0);
    using Item = std::pair<double, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    g[0] = 0;
    rep.open(0, kNoNode, 0, 0);
    open.push({0, 0});
    const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
    while (!open.empty()) {
      auto [d, c] = open.top();
      open.pop();
      if (closed[c] || d > g[c]) continue;
      closed[c] = 1;
      rep.close(c);
      const int x = int(c % kSide), y = int(c / kSide);
      for (int k = 0; k < 8; ++k) {
        const int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || ny < 0 || nx >= kSide || ny >= kSide) continue;
        const auto nb = std::uint32_t(ny * kSide + nx);
        if (closed[nb]) continue;
        const double ng = d + (k < 4 ? 1.0 : std::sqrt(2.0));
        if (ng < g[nb]) {
          if (std::isinf(g[nb]))
            rep.open(nb, c, ng, 0);
          else
            rep.relax(nb, c, ng);
          g[nb] = ng;
          open.push({ng, nb});
        }
      }
      rep.frame();
    }
    rep.flush();
    return rec.take();
  }();
  return trace;
}

void counters(benchmark::State& state, const Trace& t) {
  state.counters["events"] = double(t.event_count());
  state.counters["nodes"] = double(t.node_count());
  state.counters["trace_MB"] = double(t.memory_bytes()) / 1e6;
}

void BM_SearchTextureSeekOnly(benchmark::State& state) {
  const Trace& t = dijkstra_trace();
  TraceCursor c(t);
  std::mt19937 rng(3);
  for (auto _ : state) {
    c.seek(rng() % t.frame_count());
    benchmark::DoNotOptimize(c.state().counters().expanded);
  }
  counters(state, t);
}
BENCHMARK(BM_SearchTextureSeekOnly)->Unit(benchmark::kMillisecond);

// Arg 0: rebuilt from the state every seek (the app before); 1: SearchTexture.
void BM_SearchTextureScrub(benchmark::State& state) {
  const Trace& t = dijkstra_trace();
  const bool incremental = state.range(0) != 0;
  TraceCursor c(t);
  SearchTexture tex;
  std::mt19937 rng(3);
  std::size_t cells = 0;
  if (incremental) {  // the status-change log is built on the first move, once per trace
    tex.update(c.state(), 1, kSide, kSide, Style::standard(), true, true);
    c.seek(1);
    tex.update(c.state(), 1, kSide, kSide, Style::standard(), true, true);
  }
  for (auto _ : state) {
    c.seek(rng() % t.frame_count());
    if (incremental) {
      const SearchTexture::Dirty d =
          tex.update(c.state(), 1, kSide, kSide, Style::standard(), true, true);
      cells += std::size_t(std::max(0, d.x1 - d.x0)) * std::size_t(std::max(0, d.y1 - d.y0));
      benchmark::DoNotOptimize(tex.image().data());
    } else {
      const Image img = search_image(c.state(), kSide, kSide, Style::standard(), true, true);
      cells += std::size_t(kSide) * kSide;
      benchmark::DoNotOptimize(img.data());
    }
  }
  counters(state, t);
  state.counters["upload_cells"] = double(cells) / double(state.iterations());
}
BENCHMARK(BM_SearchTextureScrub)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Playing or stepping: one frame forward at a time from the middle, texture rebuilt (arg 0) or
// kept (arg 1).
void BM_SearchTextureStep(benchmark::State& state) {
  const Trace& t = dijkstra_trace();
  const bool incremental = state.range(0) != 0;
  TraceCursor c(t);
  SearchTexture tex;
  c.seek(t.frame_count() / 2);
  tex.update(c.state(), 1, kSide, kSide, Style::standard(), true, true);
  for (auto _ : state) {
    if (!c.step_forward()) c.seek(t.frame_count() / 2);
    if (incremental) {
      tex.update(c.state(), 1, kSide, kSide, Style::standard(), true, true);
      benchmark::DoNotOptimize(tex.image().data());
    } else {
      const Image img = search_image(c.state(), kSide, kSide, Style::standard(), true, true);
      benchmark::DoNotOptimize(img.data());
    }
  }
}
BENCHMARK(BM_SearchTextureStep)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

// Curves (issue 11, part 1): one shortest-path query per iteration on 4096 seeded random pose
// pairs (half near, where the CCC and Reeds-Shepp families compete, half far). Targets: at most
// 250 ns for the six-word Dubins query, 600 ns for Reeds-Shepp. The yardstick, in the same run,
// is one atan2 plus one sqrt per iteration, to tell a loaded machine from a slow query.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/curves.hpp"

namespace {

using namespace pl;

struct Pair {
  Pose a, b;
  double r;
};

const std::vector<Pair>& pairs() {
  static const std::vector<Pair> v = [] {
    std::mt19937_64 rng(2001);
    std::uniform_real_distribution<double> u01(0, 1);
    std::vector<Pair> out(4096);
    for (size_t i = 0; i < out.size(); ++i) {
      const double r = 0.5 + 2 * u01(rng), span = i % 2 ? 3 * r : 30.0;
      out[i].r = r;
      out[i].a = {u01(rng) * 100, u01(rng) * 100, u01(rng) * kTwoPi};
      out[i].b = {out[i].a.x + (u01(rng) - 0.5) * 2 * span,
                  out[i].a.y + (u01(rng) - 0.5) * 2 * span, u01(rng) * kTwoPi};
    }
    return out;
  }();
  return v;
}

template <class F>
void run(benchmark::State& state, F f) {
  const std::vector<Pair>& v = pairs();
  size_t i = 0;
  for (auto _ : state) {
    const Pair& p = v[i++ & (v.size() - 1)];
    benchmark::DoNotOptimize(f(p));
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_CurveYardstickAtan2Sqrt(benchmark::State& state) {
  run(state,
      [](const Pair& p) { return std::atan2(p.b.y - p.a.y, p.b.x - p.a.x) + std::sqrt(p.r); });
}
void BM_PoseToPoint(benchmark::State& state) {
  run(state, [](const Pair& p) { return pose_to_point(p.a, p.b.position(), p.r).length; });
}
void BM_DubinsSixWords(benchmark::State& state) {
  run(state, [](const Pair& p) { return dubins(p.a, p.b, p.r).length; });
}
void BM_DubinsCsc(benchmark::State& state) {
  run(state, [](const Pair& p) { return dubins(p.a, p.b, p.r, DubinsWords::Csc).length; });
}
void BM_ReedsShepp(benchmark::State& state) {
  run(state, [](const Pair& p) { return reeds_shepp(p.a, p.b, p.r).length; });
}
// With the pieces built (an allocation) and the end pose sampled: what an overlay pays.
void BM_DubinsWithPieces(benchmark::State& state) {
  run(state, [](const Pair& p) {
    const Curve c = dubins(p.a, p.b, p.r);
    const std::vector<PathPiece> pieces = c.pieces();
    return pose_along(pieces, c.length).x;
  });
}

BENCHMARK(BM_CurveYardstickAtan2Sqrt);
BENCHMARK(BM_PoseToPoint);
BENCHMARK(BM_DubinsSixWords);
BENCHMARK(BM_DubinsCsc);
BENCHMARK(BM_ReedsShepp);
BENCHMARK(BM_DubinsWithPieces);

}  // namespace

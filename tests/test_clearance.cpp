#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/clearance.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

// The HAA* definition, literally: grow the square from t down and right until it would hold a
// terrain outside the capability or leave the map.
int brute_true(const GridMap& m, CapabilityMask cap, int x, int y) {
  int s = 0;
  for (;;) {
    const int n = s + 1;
    if (x + n > m.width() || y + n > m.height()) return s;
    for (int yy = y; yy < y + n; ++yy)
      for (int xx = x; xx < x + n; ++xx)
        if (!m.passable(xx, yy, cap)) return s;
    s = n;
  }
}

// Brushfire: Chebyshev distance to the nearest blocked cell or outside-the-map cell.
int brute_brushfire(const GridMap& m, CapabilityMask cap, int x, int y) {
  if (!m.passable(x, y, cap)) return 0;
  int best = std::numeric_limits<int>::max();
  for (int yy = -1; yy <= m.height(); ++yy)
    for (int xx = -1; xx <= m.width(); ++xx)
      if (!m.passable(xx, yy, cap)) best = std::min(best, std::max(std::abs(xx - x), std::abs(yy - y)));
  return best;
}

TEST(Clearance, MatchesBruteForceOnRandomMultiTerrainMaps) {
  std::mt19937 rng(12345);
  const std::vector<TerrainId> all = {0, 1, 2, 3, 4};  // ground swamp trees water hard
  int maps = 0;
  for (int iter = 0; iter < 1200; ++iter) {
    // 2 to 4 terrains per map.
    std::vector<TerrainId> ts = all;
    std::shuffle(ts.begin(), ts.end(), rng);
    ts.resize(size_t(2 + iter % 3));
    std::vector<double> weights;
    for (size_t i = 0; i < ts.size(); ++i) weights.push_back(1.0 + double(rng() % 6));
    const int w = 1 + int(rng() % 20), h = 1 + int(rng() % 20);
    const bool check_brushfire = iter % 4 == 0;  // its brute force is quadratic
    GridMap m = test::random_map(rng, w, h, ts, weights);
    // Every capability over the map's terrains (obstacles never included).
    CapabilityMask present = 0;
    for (TerrainId t : ts)
      if (!m.palette()[t].obstacle) present |= 1u << t;
    for (CapabilityMask cap = 1; cap < 32; ++cap) {
      if ((cap & ~present) != 0) continue;
      const ClearanceGrid cl = true_clearance(m, cap);
      const ClearanceGrid bf = brushfire_clearance(m, cap);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          ASSERT_EQ(cl[size_t(y) * w + x], brute_true(m, cap, x, y))
              << "map " << iter << " cap " << cap << " cell " << x << "," << y;
          if (check_brushfire) {
            ASSERT_EQ(bf[size_t(y) * w + x], brute_brushfire(m, cap, x, y))
                << "map " << iter << " cap " << cap << " cell " << x << "," << y;
          }
        }
    }
    ++maps;
  }
  EXPECT_GE(maps, 1000);
}

TEST(Clearance, BrushfireUnderestimatesInBottlenecks) {
  // Harabor's figure 5: a 2-wide corridor. True clearance lets a size-2 agent through,
  // Brushfire gives the corridor cells 1.
  GridMap m(6, 4, 4);
  for (int x = 0; x < 6; ++x) {
    m.set(x, 1, 0);
    m.set(x, 2, 0);
  }
  const CapabilityMask ground = 1;
  auto tc = true_clearance(m, ground);
  auto bf = brushfire_clearance(m, ground);
  EXPECT_EQ(tc[size_t(1) * 6 + 2], 2);
  EXPECT_EQ(bf[size_t(1) * 6 + 2], 1);
}

TEST(Clearance, CacheFollowsEdits) {
  GridMap m(5, 5, 0);
  ClearanceCache cache;
  EXPECT_EQ(cache.get(m, 1)[0], 5);
  m.set(2, 2, 4);
  EXPECT_EQ(cache.get(m, 1)[0], 2);
  GridMap other(5, 5, 0);  // same version number, different map
  EXPECT_EQ(cache.get(other, 1)[0], 5);
}

}  // namespace
}  // namespace pl

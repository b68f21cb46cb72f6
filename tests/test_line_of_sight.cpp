// Exact line of sight between corners (core/line_of_sight.hpp) against an independent
// brute-force check in rational arithmetic: the segment A + t (B - A), t in [0, 1], is tested
// against every blocked cell's open square, every unit edge with blocked cells on both sides and
// every corner where two blocked cells touch diagonally, with fractions compared by
// cross-multiplication in 64-bit integers. Nothing is shared with the implementation but the
// rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/line_of_sight.hpp"

namespace pl {
namespace {

// A positive-denominator fraction.
struct Frac {
  std::int64_t n, d;
};
Frac frac(std::int64_t n, std::int64_t d) { return d < 0 ? Frac{-n, -d} : Frac{n, d}; }
bool lt(Frac a, Frac b) { return a.n * b.d < b.n * a.d; }

struct World {
  int w, h;
  std::vector<std::uint8_t> cells;  // row-major, 1 = blocked
  bool blocked(int x, int y) const {
    return x < 0 || y < 0 || x >= w || y >= h || cells[std::size_t(y) * std::size_t(w) + std::size_t(x)];
  }
};

// The open t-interval where lo < c + t * d < hi (c, d integers, lo < hi), intersected with
// (lo_t, hi_t). Returns false when empty or when d = 0 and c is outside (lo, hi).
bool clip(std::int64_t c, std::int64_t d, std::int64_t lo, std::int64_t hi, Frac& a, Frac& b) {
  if (d == 0) return lo < c && c < hi;
  Frac t1 = frac(lo - c, d), t2 = frac(hi - c, d);
  if (d < 0) std::swap(t1, t2);
  if (lt(a, t1)) a = t1;
  if (lt(t2, b)) b = t2;
  return lt(a, b);
}

// The brute-force rule check (README of ../shared/anyangle, DESIGN.md section 9).
bool brute_visible(const World& m, int x0, int y0, int x1, int y1) {
  if (x0 < 0 || y0 < 0 || x1 < 0 || y1 < 0 || x0 > m.w || x1 > m.w || y0 > m.h || y1 > m.h)
    return false;
  if (x0 == x1 && y0 == y1) return true;
  const std::int64_t dx = x1 - x0, dy = y1 - y0;
  // 1. no blocked cell's open square meets the segment (cells around the map included)
  for (int cy = -1; cy <= m.h; ++cy)
    for (int cx = -1; cx <= m.w; ++cx) {
      if (!m.blocked(cx, cy)) continue;
      Frac a{0, 1}, b{1, 1};
      if (clip(x0, dx, cx, cx + 1, a, b) && clip(y0, dy, cy, cy + 1, a, b)) return false;
    }
  // 2. no positive-length overlap with an edge between two blocked cells
  if (dy == 0) {
    const int lo = std::min(x0, x1), hi = std::max(x0, x1);
    for (int ex = lo; ex < hi; ++ex)
      if (m.blocked(ex, y0 - 1) && m.blocked(ex, y0)) return false;
  }
  if (dx == 0) {
    const int lo = std::min(y0, y1), hi = std::max(y0, y1);
    for (int ey = lo; ey < hi; ++ey)
      if (m.blocked(x0 - 1, ey) && m.blocked(x0, ey)) return false;
  }
  // 3. no corner strictly inside the segment where two blocked cells touch diagonally
  for (int py = 0; py <= m.h; ++py)
    for (int px = 0; px <= m.w; ++px) {
      const std::int64_t ex = px - x0, ey = py - y0;
      if (ex * dy - ey * dx != 0) continue;  // not on the line
      const std::int64_t t = dx != 0 ? ex * (dx < 0 ? -1 : 1) : ey * (dy < 0 ? -1 : 1);
      const std::int64_t len = dx != 0 ? (dx < 0 ? -dx : dx) : (dy < 0 ? -dy : dy);
      if (t <= 0 || t >= len) continue;  // an endpoint or outside
      const bool nw = m.blocked(px - 1, py - 1), ne = m.blocked(px, py - 1),
                 sw = m.blocked(px - 1, py), se = m.blocked(px, py);
      if ((nw && se) || (ne && sw)) return false;
    }
  return true;
}

World random_world(std::mt19937& rng, int w, int h, int percent) {
  World m{w, h, std::vector<std::uint8_t>(std::size_t(w) * std::size_t(h))};
  for (auto& c : m.cells) c = int(rng() % 100) < percent ? 1 : 0;
  return m;
}

TEST(LineOfSight, HandPickedCases) {
  // . # .
  // # . .
  // . . .
  World m{3, 3, {0, 1, 0, 1, 0, 0, 0, 0, 0}};
  CornerGrid g(m.w, m.h, m.cells);
  EXPECT_TRUE(g.visible(1, 1, 1, 1));   // start = goal: the empty path
  EXPECT_FALSE(g.visible(0, 2, 2, 0));  // through corner (1,1) between the two blocked cells
  EXPECT_FALSE(g.visible(0, 0, 2, 2));  // through the interior of cell (0,0)
  EXPECT_TRUE(g.visible(1, 1, 3, 3));   // leaves the pinch corner into open cells
  EXPECT_TRUE(g.pinch(1, 1));
  EXPECT_FALSE(g.pinch(2, 2));
  EXPECT_TRUE(g.visible(1, 2, 3, 2));   // along an edge between open cells
  EXPECT_TRUE(g.visible(0, 3, 3, 3));   // along the bottom border: open cells above it
  EXPECT_FALSE(g.visible(1, 0, 2, 0));  // along the top border, over the blocked cell (1,0)
  EXPECT_TRUE(g.visible(2, 0, 3, 0));   // ... over an open cell
  EXPECT_FALSE(g.visible(0, 0, 2, 0));  // ... over both
  EXPECT_FALSE(g.visible(0, 4, 1, 4));  // outside the corners
  // Along the edge between two blocked cells.
  World e{2, 2, {1, 1, 0, 0}};
  CornerGrid ge(e.w, e.h, e.cells);
  EXPECT_FALSE(ge.visible(1, 0, 1, 1));
  EXPECT_TRUE(ge.visible(0, 1, 2, 1));  // along blocked-over-open
  // A Bresenham walk that treats the error term loosely clips the corner of cell (1,0) here:
  // (0,0) -> (4,2) passes exactly through corner (2,1), between cells (1,0) and (2,1).
  World c{4, 2, {0, 0, 0, 0, 0, 1, 0, 0}};
  CornerGrid gc(c.w, c.h, c.cells);
  EXPECT_TRUE(gc.visible(0, 0, 4, 2));  // at (2,1) only the untouched cell SW, (1,1), is blocked
  World c2{4, 2, {0, 0, 1, 0, 0, 1, 0, 0}};  // cells (2,0) and (1,1) touch at corner (2,1)
  CornerGrid gc2(c2.w, c2.h, c2.cells);
  EXPECT_FALSE(gc2.visible(0, 0, 4, 2));
  EXPECT_FALSE(gc2.visible(4, 2, 0, 0));
}

TEST(LineOfSight, MatchesRationalBruteForceOnRandomMaps) {
  std::mt19937 rng(1234);
  long checked = 0, visible = 0, axis = 0, lattice = 0, border = 0, pinches = 0;
  for (int map = 0; map < 3000; ++map) {
    const int w = 1 + int(rng() % 9), h = 1 + int(rng() % 9);
    const World m = random_world(rng, w, h, int(rng() % 60));
    const CornerGrid g(w, h, m.cells);
    // Every pinch corner agrees with the rule.
    for (int y = 0; y <= h; ++y)
      for (int x = 0; x <= w; ++x) {
        const bool p = (m.blocked(x - 1, y - 1) && m.blocked(x, y)) ||
                       (m.blocked(x, y - 1) && m.blocked(x - 1, y));
        ASSERT_EQ(g.pinch(x, y), p) << "corner " << x << "," << y;
        pinches += p;
      }
    for (int k = 0; k < 60; ++k) {
      int x0 = int(rng() % unsigned(w + 1)), y0 = int(rng() % unsigned(h + 1));
      int x1 = int(rng() % unsigned(w + 1)), y1 = int(rng() % unsigned(h + 1));
      switch (k % 6) {  // deliberately degenerate segments
        case 0: y1 = y0; break;                        // along a row line
        case 1: x1 = x0; break;                        // along a column line
        case 2: {                                      // a diagonal through lattice points
          const int d = std::min({w - x0, h - y0});
          x1 = x0 + d;
          y1 = y0 + d;
          break;
        }
        case 3:                                        // along or onto the border
          if (rng() % 2) y0 = y1 = (rng() % 2) ? 0 : h;
          else x0 = x1 = (rng() % 2) ? 0 : w;
          break;
        case 4: {                                      // slope 1:2 or 2:1 through lattice points
          const int dx = 2 * int(rng() % 3) + 2, dy = dx / 2;
          x1 = std::min(w, x0 + ((rng() % 2) ? dx : dy));
          y1 = y0 - ((rng() % 2) ? dy : dx);
          if (y1 < 0) y1 = y0 + (y0 - y1 <= h - y0 ? y0 - y1 : 0);
          break;
        }
        default: break;                                // anything
      }
      const bool want = brute_visible(m, x0, y0, x1, y1);
      ASSERT_EQ(g.visible(x0, y0, x1, y1), want)
          << "map " << map << " " << w << "x" << h << " (" << x0 << "," << y0 << ") -> (" << x1
          << "," << y1 << ")";
      ASSERT_EQ(g.visible(x1, y1, x0, y0), want) << "reversed";
      ++checked;
      visible += want;
      axis += x0 == x1 || y0 == y1;
      border += (y0 == y1 && (y0 == 0 || y0 == h)) || (x0 == x1 && (x0 == 0 || x0 == w));
      const int gx = std::abs(x1 - x0), gy = std::abs(y1 - y0);
      lattice += std::gcd(gx, gy) > 1;
    }
  }
  // The sample covers what it claims to cover, both ways.
  EXPECT_GT(visible, checked / 5);
  EXPECT_GT(checked - visible, checked / 5);
  EXPECT_GT(axis, checked / 4);
  EXPECT_GT(border, checked / 20);
  EXPECT_GT(lattice, checked / 10);
  EXPECT_GT(pinches, 1000);
}

TEST(LineOfSight, EveryPairOnSmallMapsMatches) {
  std::mt19937 rng(99);
  for (int map = 0; map < 300; ++map) {
    const int w = 1 + int(rng() % 6), h = 1 + int(rng() % 6);
    const World m = random_world(rng, w, h, 15 + int(rng() % 40));
    const CornerGrid g(w, h, m.cells);
    for (int y0 = 0; y0 <= h; ++y0)
      for (int x0 = 0; x0 <= w; ++x0)
        for (int y1 = 0; y1 <= h; ++y1)
          for (int x1 = 0; x1 <= w; ++x1)
            ASSERT_EQ(g.visible(x0, y0, x1, y1), brute_visible(m, x0, y0, x1, y1))
                << "map " << map << " (" << x0 << "," << y0 << ") -> (" << x1 << "," << y1 << ")";
  }
}

// The open segment (x0, y0) - (x1, y1) meets the open square of cell (x, y) (rational).
bool meets_cell(int x0, int y0, int x1, int y1, int x, int y) {
  Frac a{0, 1}, b{1, 1};
  return clip(x0, x1 - x0, x, x + 1, a, b) && clip(y0, y1 - y0, y, y + 1, a, b);
}

// A point on or next to the segment, within [0, mx] x [0, my].
void near_segment(std::mt19937& rng, int x0, int y0, int x1, int y1, int mx, int my, int& x, int& y) {
  const int t = int(rng() % 5);
  x = std::clamp(x0 + (x1 - x0) * t / 4 + int(rng() % 3) - 1, 0, mx);
  y = std::clamp(y0 + (y1 - y0) * t / 4 + int(rng() % 3) - 1, 0, my);
}

// Calls f(m, g, map, k, x0, y0, x1, y1) for 60 random segments between corners of each of
// `maps` random maps (sides 1..size, up to density % blocked); stops at a fatal failure.
template <class F>
void random_segments(std::mt19937& rng, int maps, int size, int density, F f) {
  for (int map = 0; map < maps; ++map) {
    const int w = 1 + int(rng() % unsigned(size)), h = 1 + int(rng() % unsigned(size));
    const World m = random_world(rng, w, h, int(rng() % unsigned(density)));
    const CornerGrid g(w, h, m.cells);
    for (int k = 0; k < 60; ++k) {
      const int x0 = int(rng() % unsigned(w + 1)), y0 = int(rng() % unsigned(h + 1));
      const int x1 = int(rng() % unsigned(w + 1)), y1 = int(rng() % unsigned(h + 1));
      f(m, g, map, k, x0, y0, x1, y1);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// The constant-time test at a corner: exactly "the segment meets the open square of a blocked
// cell around that corner" (brute force, rational), and so never true for a visible segment.
TEST(LineOfSight, CrossesBlockedAtMatchesTheCellsAroundTheCorner) {
  std::mt19937 rng(4321);
  long crossing = 0, checked = 0;
  random_segments(rng, 1500, 9, 60, [&](const World& m, const CornerGrid& g, int map, int k, int x0,
                                        int y0, int x1, int y1) {
    const int w = g.width(), h = g.height();
    // Mostly a corner on or next to the segment (where the test is meant to be used).
    int cx = int(rng() % unsigned(w + 1)), cy = int(rng() % unsigned(h + 1));
    if (k % 2 == 0) near_segment(rng, x0, y0, x1, y1, w, h, cx, cy);
    bool want = false;
    for (int c = 0; c < 4; ++c) {
      const int x = cx - 1 + (c & 1), y = cy - 1 + (c >> 1);
      if (m.blocked(x, y) && meets_cell(x0, y0, x1, y1, x, y)) want = true;
    }
    const bool got = g.crosses_blocked_at(x0, y0, x1, y1, cx, cy);
    ASSERT_EQ(got, want) << "map " << map << " (" << x0 << "," << y0 << ") -> (" << x1 << ","
                         << y1 << ") at " << cx << "," << cy;
    ASSERT_EQ(g.crosses_blocked_at(x1, y1, x0, y0, cx, cy), want) << "reversed";
    if (got) {
      ASSERT_FALSE(brute_visible(m, x0, y0, x1, y1));
    }
    crossing += got;
    ++checked;
  });
  EXPECT_GT(crossing, checked / 10);
  EXPECT_GT(checked - crossing, checked / 5);
}

// visible_or_blocker(): visible()'s answer, and when it reports a cell, a blocked cell the
// open segment meets (brute force, rational), so that crosses_cell() with that cell settles
// other segments; crosses_cell() itself matches the brute force for any cell.
TEST(LineOfSight, VisibleOrBlockerReportsACellTheSegmentCrosses) {
  std::mt19937 rng(2468);
  long reported = 0, blocked_segments = 0, crossing = 0, checked = 0;
  random_segments(rng, 1500, 12, 50, [&](const World& m, const CornerGrid& g, int map, int k,
                                         int x0, int y0, int x1, int y1) {
    const int w = g.width(), h = g.height();
    int cx = -2, cy = -2;
    const bool got = g.visible_or_blocker(x0, y0, x1, y1, &cx, &cy);
    const std::string at = "map " + std::to_string(map) + " (" + std::to_string(x0) + "," +
                           std::to_string(y0) + ") -> (" + std::to_string(x1) + "," +
                           std::to_string(y1) + ")";
    ASSERT_EQ(got, brute_visible(m, x0, y0, x1, y1)) << at;
    if (!got) ++blocked_segments;
    if (cx != -2) {
      ASSERT_FALSE(got) << at;
      ASSERT_TRUE(m.blocked(cx, cy)) << at << " reported " << cx << "," << cy;
      ASSERT_TRUE(meets_cell(x0, y0, x1, y1, cx, cy)) << at << " reported " << cx << "," << cy;
      ASSERT_TRUE(CornerGrid::crosses_cell(x0, y0, x1, y1, cx, cy)) << at;
      ASSERT_TRUE(CornerGrid::crosses_cell(x1, y1, x0, y0, cx, cy)) << at << " reversed";
      ++reported;
    }
    // Any cell, blocked or not, mostly near the segment.
    int x = int(rng() % unsigned(w)), y = int(rng() % unsigned(h));
    if (k % 2 == 0) near_segment(rng, x0, y0, x1, y1, w - 1, h - 1, x, y);
    const bool want = meets_cell(x0, y0, x1, y1, x, y);
    ASSERT_EQ(CornerGrid::crosses_cell(x0, y0, x1, y1, x, y), want) << at << " cell " << x << "," << y;
    crossing += want;
    ++checked;
  });
  // Most blocked segments run into a cell (the rest: pinches and grid lines).
  EXPECT_GT(reported, blocked_segments / 2);
  EXPECT_GT(crossing, checked / 10);
  EXPECT_GT(checked - crossing, checked / 5);
}

TEST(LineOfSight, UnitStepsAreVisibleSegments) {
  std::mt19937 rng(7);
  for (int map = 0; map < 500; ++map) {
    const int w = 1 + int(rng() % 7), h = 1 + int(rng() % 7);
    const World m = random_world(rng, w, h, int(rng() % 70));
    const CornerGrid g(w, h, m.cells);
    for (int y = 0; y <= h; ++y)
      for (int x = 0; x <= w; ++x)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || !g.in_corners(x + dx, y + dy)) continue;
            ASSERT_EQ(g.step_ok(x, y, dx, dy), brute_visible(m, x, y, x + dx, y + dy));
          }
  }
}

TEST(LineOfSight, PathValidity) {
  World m{3, 3, {0, 1, 0, 1, 0, 0, 0, 0, 0}};
  CornerGrid g(m.w, m.h, m.cells);
  std::string why;
  const std::vector<Vec2> ok{{1, 1}, {3, 2}, {3, 0}};  // leaves a pinch, then along the border
  EXPECT_TRUE(g.path_valid(ok, &why)) << why;
  // The map's own corners are pinches (the outside touches itself there): no turning at them.
  EXPECT_TRUE(g.pinch(3, 3));
  const std::vector<Vec2> outer{{1, 1}, {3, 3}, {3, 0}};
  EXPECT_FALSE(g.path_valid(outer, &why));
  const std::vector<Vec2> squeeze{{0, 2}, {1, 1}, {2, 0}};  // turns at the pinch corner (1,1)
  EXPECT_FALSE(g.path_valid(squeeze, &why));
  EXPECT_NE(why.find("(1,1)"), std::string::npos) << why;
  const std::vector<Vec2> off{{0.5, 0.5}, {2, 2}};
  EXPECT_FALSE(g.path_valid(off, &why));
  const std::vector<Vec2> cut{{0, 0}, {2, 2}};
  EXPECT_FALSE(g.path_valid(cut, &why));
  EXPECT_NE(why.find("line of sight"), std::string::npos) << why;
}

}  // namespace
}  // namespace pl

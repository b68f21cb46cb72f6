// Walkable(A, B) for a square or disc footprint swept along a segment, against a brute force
// that tests every blocked cell on its own: for the square, the segment against the cell grown
// by half the side (open box, slab test); for the disc, the distance from the segment to the
// cell (golden section on the segment's parameter, the distance being convex) below the radius.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/footprint.hpp"
#include "core/grid.hpp"

namespace pl {
namespace {

bool brute_square_hits(Vec2 a, Vec2 b, double h, int x, int y) {
  double lo = 0, hi = 1;
  const double p0[2] = {a.x, a.y}, d[2] = {b.x - a.x, b.y - a.y};
  const double mn[2] = {x - h, y - h}, mx[2] = {x + 1 + h, y + 1 + h};
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0) {
      if (!(p0[k] > mn[k] && p0[k] < mx[k])) return false;
      continue;
    }
    double t0 = (mn[k] - p0[k]) / d[k], t1 = (mx[k] - p0[k]) / d[k];
    if (t0 > t1) std::swap(t0, t1);
    lo = std::max(lo, t0);
    hi = std::min(hi, t1);
  }
  return lo < hi;
}

double box_distance(Vec2 p, int x, int y) {
  const double dx = std::max({x - p.x, 0.0, p.x - (x + 1)});
  const double dy = std::max({y - p.y, 0.0, p.y - (y + 1)});
  return std::hypot(dx, dy);
}

bool brute_disc_hits(Vec2 a, Vec2 b, double R, int x, int y) {
  auto f = [&](double t) { return box_distance(a + (b - a) * t, x, y); };
  double lo = 0, hi = 1;
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  double c = hi - g * (hi - lo), d = lo + g * (hi - lo), fc = f(c), fd = f(d);
  for (int k = 0; k < 200; ++k) {
    if (fc < fd) {
      hi = d;
      d = c;
      fd = fc;
      c = hi - g * (hi - lo);
      fc = f(c);
    } else {
      lo = c;
      c = d;
      fc = fd;
      d = lo + g * (hi - lo);
      fd = f(d);
    }
  }
  const double m = std::min({f(0), f(1), f(0.5 * (lo + hi))});
  return m < R;
}

bool brute_walkable(int w, int h, const std::vector<char>& blocked, Vec2 a, Vec2 b,
                    const Footprint& f) {
  const double ext = f.shape == Footprint::Shape::Square ? f.size / 2 : f.size;
  if (std::min(a.x, b.x) - ext < 0 || std::min(a.y, b.y) - ext < 0 ||
      std::max(a.x, b.x) + ext > w || std::max(a.y, b.y) + ext > h)
    return false;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (!blocked[size_t(y * w + x)]) continue;
      const bool hit = f.shape == Footprint::Shape::Square ? brute_square_hits(a, b, ext, x, y)
                                                           : brute_disc_hits(a, b, ext, x, y);
      if (hit) return false;
    }
  return true;
}

TEST(Walkable, AgreesWithBruteForceOnRandomMaps) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u01(0, 1);
  int yes = 0, no = 0;
  for (int i = 0; i < 20000; ++i) {
    const int w = 4 + int(u01(rng) * 12), h = 4 + int(u01(rng) * 12);
    std::vector<char> blocked(size_t(w * h));
    const double density = 0.05 + 0.3 * u01(rng);
    for (auto& c : blocked) c = u01(rng) < density;
    const Vec2 a{u01(rng) * w, u01(rng) * h};
    // Short and long moves, some axis-aligned (the dy = 0 and dx = 0 branches).
    Vec2 b{u01(rng) * w, u01(rng) * h};
    if (i % 5 == 0) b.y = a.y;
    if (i % 5 == 1) b.x = a.x;
    if (i % 7 == 0) b = a;
    const Footprint f =
        i % 2 ? Footprint::disc(0.05 + 1.5 * u01(rng)) : Footprint::square(0.1 + 3 * u01(rng));
    const auto is_blocked = [&](int x, int y) { return blocked[size_t(y * w + x)] != 0; };
    const bool got = walkable(w, h, is_blocked, a, b, f);
    const bool want = brute_walkable(w, h, blocked, a, b, f);
    ASSERT_EQ(got, want) << "i=" << i << " a=(" << a.x << "," << a.y << ") b=(" << b.x << "," << b.y
                         << ") " << (i % 2 ? "disc " : "square ") << f.size;
    (got ? yes : no)++;
  }
  EXPECT_GT(yes, 1000);
  EXPECT_GT(no, 1000);
}

TEST(Walkable, GrazingEdgesIsAllowedOverlapIsNot) {
  // A corridor: row 1 free between blocked rows 0 and 2.
  const int w = 8, h = 3;
  auto corridor = [](int, int y) { return y != 1; };
  EXPECT_TRUE(walkable(w, h, corridor, {0.5, 1.5}, {7.5, 1.5}, Footprint::disc(0.5)));
  EXPECT_FALSE(walkable(w, h, corridor, {0.5, 1.5}, {7.5, 1.5}, Footprint::disc(0.5 + 1e-9)));
  EXPECT_TRUE(walkable(w, h, corridor, {0.5, 1.5}, {7.5, 1.5}, Footprint::square(1.0)));
  EXPECT_FALSE(walkable(w, h, corridor, {0.5, 1.5}, {7.5, 1.5}, Footprint::square(1.0 + 1e-9)));
  // The map border counts as blocked: touching it is fine, crossing it is not.
  auto open = [](int, int) { return false; };
  EXPECT_TRUE(walkable(w, h, open, {0.5, 0.5}, {7.5, 2.5}, Footprint::square(1.0)));
  EXPECT_FALSE(walkable(w, h, open, {0.4, 0.5}, {7.5, 2.5}, Footprint::square(1.0)));
}

TEST(Walkable, NoSqueezeThroughADiagonalCorner) {
  // Blocked (0,0) and (1,1) touch at the corner (1,1); the move from (0.2, 1.8) to (1.8, 0.2)
  // runs through that corner between the free cells (0,1) and (1,0). Any footprint overlaps
  // both blocked cells there, however small.
  auto diag = [](int x, int y) { return (x == 0 && y == 0) || (x == 1 && y == 1); };
  EXPECT_FALSE(walkable(2, 2, diag, {0.2, 1.8}, {1.8, 0.2}, Footprint::square(1e-6)));
  EXPECT_FALSE(walkable(2, 2, diag, {0.2, 1.8}, {1.8, 0.2}, Footprint::disc(1e-6)));
  // Beside the corner, a small one passes through the free cell.
  EXPECT_TRUE(walkable(2, 2, diag, {0.2, 1.8}, {0.8, 1.2}, Footprint::disc(0.1)));
}

TEST(Walkable, OnAMapWithACapability) {
  GridMap map(6, 3);
  const TerrainId water = *map.palette().find_symbol('W');
  map.set(3, 1, water);
  const CapabilityMask ground = map.palette().movingai_default_capability();
  EXPECT_FALSE(walkable(map, ground, {0.5, 1.5}, {5.5, 1.5}, Footprint::disc(0.4)));
  EXPECT_TRUE(walkable(map, ground, {0.5, 0.5}, {5.5, 0.5}, Footprint::disc(0.4)));
  EXPECT_FALSE(walkable(map, ground, {0.5, 1.5}, {1.5, 1.5}, Footprint::disc(NAN)));
  EXPECT_FALSE(walkable(map, ground, {0.5, 1.5}, {1.5, 1.5}, Footprint::square(0)));
}

}  // namespace
}  // namespace pl

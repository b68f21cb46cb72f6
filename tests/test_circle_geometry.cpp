// Circle geometry (core/circle_geometry.hpp) and rasterisation (core/circle_raster.hpp) against
// hand-computed values and brute force.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/circle_geometry.hpp"
#include "core/circle_raster.hpp"

namespace pl {
namespace {

constexpr double kTol = 1e-12;

void expect_near(Vec2 a, Vec2 b, double tol = kTol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
}

// The direction of travel around circle c at p of a path moving along v: +1 = increasing angle.
int travel_dir(const Circle& c, Vec2 p, Vec2 v) {
  return cross(p - c.center(), v) > 0 ? 1 : -1;
}

// Every existing bitangent touches both circles perpendicularly and its dirs match the travel.
void expect_valid_bitangents(const Circle& a, const Circle& b, const Bitangents& bt) {
  for (int i = 0; i < 4; ++i) {
    if (!bt.ok[size_t(i)]) continue;
    SCOPED_TRACE("slot " + std::to_string(i));
    const Bitangent& t = bt.t[size_t(i)];
    EXPECT_NEAR(distance(t.a, a.center()), a.r, 1e-9);
    EXPECT_NEAR(distance(t.b, b.center()), b.r, 1e-9);
    const Vec2 v = t.b - t.a;
    EXPECT_NEAR(dot(t.a - a.center(), v), 0, 1e-9 * std::max(1.0, norm(v)));
    EXPECT_NEAR(dot(t.b - b.center(), v), 0, 1e-9 * std::max(1.0, norm(v)));
    expect_near(a.center() + unit(t.angle_a) * a.r, t.a, 1e-9);
    expect_near(b.center() + unit(t.angle_b) * b.r, t.b, 1e-9);
    EXPECT_EQ(t.dir_a, travel_dir(a, t.a, v));
    EXPECT_EQ(t.dir_b, travel_dir(b, t.b, v));
    EXPECT_EQ(t.dir_a == t.dir_b, i < 2);
  }
}

TEST(CircleGeometry, BitangentsOfTwoEqualCirclesApart) {
  // A at the origin, B at (10, 0), both r = 3. External: the lines y = +-3 touch at x = 0, 10.
  // Internal: cos(theta) = 6/10, so A is touched at (1.8, +-2.4) and B at (8.2, -+2.4).
  const Circle a{0, 0, 3}, b{10, 0, 3};
  const Bitangents bt = bitangents(a, b);
  ASSERT_TRUE(bt.ok[0] && bt.ok[1] && bt.ok[2] && bt.ok[3]);
  expect_near(bt.t[0].a, {0, 3});
  expect_near(bt.t[0].b, {10, 3});
  expect_near(bt.t[1].a, {0, -3});
  expect_near(bt.t[1].b, {10, -3});
  expect_near(bt.t[2].a, {1.8, 2.4});
  expect_near(bt.t[2].b, {8.2, -2.4});
  expect_near(bt.t[3].a, {1.8, -2.4});
  expect_near(bt.t[3].b, {8.2, 2.4});
  EXPECT_NEAR(bt.t[2].length(), 8.0, kTol);  // sqrt(10^2 - 6^2)
  EXPECT_NEAR(bt.t[0].length(), 10.0, kTol);
  // Slot 0 along y = +3 (below on screen) moving +x turns with decreasing angle around both.
  EXPECT_EQ(bt.t[0].dir_a, -1);
  EXPECT_EQ(bt.t[1].dir_a, 1);
  expect_valid_bitangents(a, b, bt);
}

TEST(CircleGeometry, BitangentsOfUnequalCircles) {
  const Circle a{0, 0, 4}, b{8, 0, 1};
  const Bitangents bt = bitangents(a, b);
  ASSERT_TRUE(bt.ok[0] && bt.ok[1] && bt.ok[2] && bt.ok[3]);
  // External: cos(theta) = 3/8. Internal: cos(theta') = 5/8.
  const double te = std::acos(3.0 / 8), ti = std::acos(5.0 / 8);
  expect_near(bt.t[0].a, Vec2{std::cos(te), std::sin(te)} * 4);
  expect_near(bt.t[0].b, Vec2{8 + std::cos(te), std::sin(te)});
  EXPECT_NEAR(bt.t[0].length(), std::sqrt(64.0 - 9), kTol);
  EXPECT_NEAR(bt.t[2].length(), std::sqrt(64.0 - 25), kTol);
  expect_near(bt.t[2].a, Vec2{std::cos(ti), std::sin(ti)} * 4);
  expect_near(bt.t[2].b, Vec2{8 - std::cos(ti), -std::sin(ti)});
  expect_valid_bitangents(a, b, bt);
  // Swapping the circles gives the same four segments, reversed.
  const Bitangents rev = bitangents(b, a);
  for (int i = 0; i < 4; ++i) {
    bool found = false;
    for (int j = 0; j < 4; ++j)
      found |= distance(rev.t[size_t(j)].a, bt.t[size_t(i)].b) < 1e-9 &&
               distance(rev.t[size_t(j)].b, bt.t[size_t(i)].a) < 1e-9;
    EXPECT_TRUE(found) << "slot " << i;
  }
}

TEST(CircleGeometry, TouchingOverlappingAndContainedCircles) {
  // Touching: no internal bitangents (a closed wall), external ones still exist.
  Bitangents bt = bitangents({0, 0, 2}, {4, 0, 2});
  EXPECT_TRUE(bt.ok[0] && bt.ok[1]);
  EXPECT_FALSE(bt.ok[2] || bt.ok[3]);
  expect_valid_bitangents({0, 0, 2}, {4, 0, 2}, bt);
  // Within the tolerance of touching counts as touching: (rA + rB) / d a hair above 1.
  bt = bitangents({0, 0, 2}, {4 + 1e-12, 0, 2});
  EXPECT_FALSE(bt.ok[2] || bt.ok[3]);
  // Overlapping.
  bt = bitangents({0, 0, 3}, {4, 0, 2});
  EXPECT_TRUE(bt.ok[0] && bt.ok[1]);
  EXPECT_FALSE(bt.ok[2] || bt.ok[3]);
  expect_valid_bitangents({0, 0, 3}, {4, 0, 2}, bt);
  // Contained, internally tangent, coincident: nothing.
  for (const Circle& inner : {Circle{1, 0, 1}, Circle{2, 0, 1}, Circle{0, 0, 3}}) {
    bt = bitangents({0, 0, 3}, inner);
    EXPECT_FALSE(bt.ok[0] || bt.ok[1] || bt.ok[2] || bt.ok[3]);
    bt = bitangents(inner, {0, 0, 3});
    EXPECT_FALSE(bt.ok[0] || bt.ok[1] || bt.ok[2] || bt.ok[3]);
  }
}

TEST(CircleGeometry, RandomBitangentsAreTangent) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(-20, 20), rad(0, 6);
  for (int i = 0; i < 2000; ++i) {
    const Circle a{pos(rng), pos(rng), rad(rng)}, b{pos(rng), pos(rng), rad(rng)};
    const Bitangents bt = bitangents(a, b);
    const double d = distance(a.center(), b.center());
    EXPECT_EQ(bt.ok[0], d > std::abs(a.r - b.r) + kCircleEps);
    EXPECT_EQ(bt.ok[2], d > a.r + b.r + kCircleEps);
    expect_valid_bitangents(a, b, bt);
  }
}

// The planner asks only for the slots its shadow leaves: each one must be what the full call
// gives, bit for bit (eager and lazy mode must build the same graph), and the others absent.
TEST(CircleGeometry, BitangentSlotsAskedForAreTheFullCallsBitForBit) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pos(-20, 20), rad(0, 6);
  int compared = 0;
  for (int i = 0; i < 2000; ++i) {
    const Circle a{pos(rng), pos(rng), rad(rng)}, b{pos(rng), pos(rng), rad(rng)};
    const Bitangents all = bitangents(a, b);
    for (unsigned slots = 1; slots < 16; ++slots) {
      const Bitangents some = bitangents(a, b, slots);
      for (int s = 0; s < 4; ++s) {
        const bool asked = slots >> s & 1u;
        ASSERT_EQ(some.ok[size_t(s)], asked && all.ok[size_t(s)]);
        if (!some.ok[size_t(s)]) continue;
        const Bitangent &x = some.t[size_t(s)], &y = all.t[size_t(s)];
        ASSERT_EQ(std::memcmp(&x, &y, sizeof(Bitangent)), 0) << "pair " << i << " slot " << s;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 2000 * 8);  // most pairs have bitangents, each slot asked for 8 times
}

TEST(CircleGeometry, TangentsFromAPoint) {
  // From (5, 0) to the circle r = 3 at the origin: touching at (9/5, +-12/5), length 4.
  std::array<PointTangent, 2> t;
  ASSERT_EQ(point_tangents({5, 0}, {0, 0, 3}, t), 2);
  expect_near(t[0].point, {1.8, 2.4});
  expect_near(t[1].point, {1.8, -2.4});
  EXPECT_EQ(t[0].dir, 1);
  EXPECT_EQ(t[1].dir, -1);
  for (const PointTangent& pt : t) {
    EXPECT_NEAR(distance({5, 0}, pt.point), 4.0, kTol);
    EXPECT_EQ(pt.dir, travel_dir({0, 0, 3}, pt.point, pt.point - Vec2{5, 0}));
    expect_near(unit(pt.angle) * 3, pt.point);
  }
  // Inside: none. On the circle: the point itself, both directions.
  EXPECT_EQ(point_tangents({1, 1}, {0, 0, 3}, t), 0);
  ASSERT_EQ(point_tangents({0, 3}, {0, 0, 3}, t), 2);
  expect_near(t[0].point, {0, 3});
  expect_near(t[1].point, {0, 3});
  EXPECT_NE(t[0].dir, t[1].dir);
}

TEST(CircleGeometry, SegmentDistanceClampsU) {
  // Perpendicular foot inside the segment.
  SegmentDistance sd = segment_point_distance({0, 0}, {10, 0}, {4, 3});
  EXPECT_NEAR(sd.distance, 3, kTol);
  EXPECT_NEAR(sd.u, 0.4, kTol);
  // Off the end: u clamps to 1 and the distance is to the endpoint (a circle covering an
  // endpoint blocks the edge).
  sd = segment_point_distance({0, 0}, {10, 0}, {13, 4});
  EXPECT_EQ(sd.u, 1.0);
  EXPECT_NEAR(sd.distance, 5, kTol);
  sd = segment_point_distance({0, 0}, {10, 0}, {-3, -4});
  EXPECT_EQ(sd.u, 0.0);
  EXPECT_NEAR(sd.distance, 5, kTol);
  // A zero-length segment is a point.
  sd = segment_point_distance({1, 1}, {1, 1}, {4, 5});
  EXPECT_NEAR(sd.distance, 5, kTol);
  EXPECT_TRUE(segment_enters_circle({0, 0}, {10, 0}, {11, 1, 1.5}));
  EXPECT_FALSE(segment_enters_circle({0, 0}, {10, 0}, {5, 2, 2}));  // grazing is not entering
  EXPECT_TRUE(segment_enters_circle({0, 0}, {10, 0}, {5, 2, 2.001}));
}

TEST(CircleGeometry, CircleIntersections) {
  std::array<Vec2, 2> p;
  // r = 5 at the origin and r = 5 at (8, 0) meet at (4, +-3).
  ASSERT_EQ(circle_intersections({0, 0, 5}, {8, 0, 5}, p), 2);
  expect_near(p[0], {4, 3});
  expect_near(p[1], {4, -3});
  // Unequal: r = 5 at origin, r = 3 at (4, 0): a = (25 - 9 + 16) / 8 = 4, points (4, +-3).
  ASSERT_EQ(circle_intersections({0, 0, 5}, {4, 0, 3}, p), 2);
  expect_near(p[0], {4, 3});
  // Touching outside and inside: one point.
  ASSERT_EQ(circle_intersections({0, 0, 2}, {5, 0, 3}, p), 1);
  expect_near(p[0], {2, 0});
  ASSERT_EQ(circle_intersections({0, 0, 5}, {3, 0, 2}, p), 1);
  expect_near(p[0], {5, 0});
  // Apart, contained, coincident: none.
  EXPECT_EQ(circle_intersections({0, 0, 2}, {5, 0, 2}, p), 0);
  EXPECT_EQ(circle_intersections({0, 0, 5}, {1, 0, 2}, p), 0);
  EXPECT_EQ(circle_intersections({0, 0, 5}, {0, 0, 5}, p), 0);
}

TEST(CircleGeometry, SweepsAndArcs) {
  EXPECT_NEAR(sweep_between(0, kPi / 2, 1), kPi / 2, kTol);
  EXPECT_NEAR(sweep_between(0, kPi / 2, -1), -1.5 * kPi, kTol);
  EXPECT_NEAR(sweep_between(kPi / 2, 0, -1), -kPi / 2, kTol);
  EXPECT_NEAR(sweep_between(6.0, 0.5, 1), 0.5 + kTwoPi - 6.0, kTol);
  // Equal angles (or a hair apart the wrong way) sweep nothing, never a full turn.
  EXPECT_EQ(sweep_between(1.0, 1.0, 1), 0.0);
  EXPECT_EQ(sweep_between(1.0, 1.0 - 1e-14, 1), 0.0);
  EXPECT_EQ(sweep_between(1.0, 1.0 + 1e-14, -1), 0.0);

  const Arc quarter = arc_between({0, 0, 2}, 0, kPi / 2, 1);  // (2,0) -> (0,2) through (1.4,1.4)
  EXPECT_NEAR(quarter.length(), kPi, kTol);  // an arc is measured as an arc, not a chord
  EXPECT_TRUE(quarter.contains_angle(kPi / 4));
  EXPECT_FALSE(quarter.contains_angle(kPi));
  const Arc other_way = arc_between({0, 0, 2}, 0, kPi / 2, -1);
  EXPECT_NEAR(other_way.length(), 3 * kPi, kTol);
  EXPECT_TRUE(other_way.contains_angle(kPi));
  EXPECT_FALSE(other_way.contains_angle(kPi / 4));

  // Nearest point: interior when the direction of the point is on the arc.
  ArcDistance ad = arc_point_distance(quarter, {3, 3});
  EXPECT_TRUE(ad.interior);
  EXPECT_NEAR(ad.distance, 3 * std::sqrt(2.0) - 2, kTol);
  ad = arc_point_distance(quarter, {0, -5});
  EXPECT_FALSE(ad.interior);
  EXPECT_NEAR(ad.distance, std::hypot(2.0, 5.0), kTol);  // the start (2, 0)

  const std::vector<Vec2> pts = sample_arc(quarter, 0.1);
  ASSERT_GE(pts.size(), 32u);  // pi / 0.1 steps
  expect_near(pts.front(), {2, 0});
  expect_near(pts.back(), {0, 2});
  for (size_t i = 1; i < pts.size(); ++i) EXPECT_LE(distance(pts[i - 1], pts[i]), 0.1 + 1e-12);
}

TEST(CircleGeometry, NormalizeAngleIsFmodBitForBit) {
  // normalize_angle skips fmod within two turns; bitangent angles and arcs rely on it giving
  // exactly the fmod result (the sign of zero included).
  auto by_fmod = [](double a) {
    a = std::fmod(a, kTwoPi);
    return a < 0 ? a + kTwoPi : a;
  };
  std::vector<double> xs = {0.0, -0.0, kTwoPi, -kTwoPi, 2 * kTwoPi, -2 * kTwoPi,
                            kPi, -kPi, 1e-300, -1e-300, 1e300,      -1e300};
  for (double x : {kTwoPi, -kTwoPi, 2 * kTwoPi}) xs.push_back(std::nextafter(x, 0.0));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> turns(-5 * kTwoPi, 5 * kTwoPi);
  for (int i = 0; i < 100000; ++i) xs.push_back(turns(rng));
  for (double x : xs) {
    const double got = normalize_angle(x), want = by_fmod(x);
    EXPECT_EQ(got, want) << x;
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << x;
  }
  EXPECT_TRUE(std::isnan(normalize_angle(std::nan(""))));
}

TEST(CircleGeometry, ArcBlockedByACircle) {
  const Arc top = arc_between({0, 0, 5}, kPi, 2 * kPi - 1e-9, 1);  // upper half on screen: y < 0
  EXPECT_TRUE(arc_blocked_by(top, {0, -6, 2}));                    // cuts the middle
  EXPECT_FALSE(arc_blocked_by(top, {0, 6, 2}));                    // cuts the other half
  EXPECT_FALSE(arc_blocked_by(top, {0, -8, 2}));                   // apart
  // Touching the arc at an inner point blocks (a contact point has no width); touching an end
  // does not (the path only reaches it).
  EXPECT_TRUE(arc_blocked_by(top, {0, -7, 2}));
  EXPECT_FALSE(arc_blocked_by(top, {-7, 0, 2}));
  // Covering an end blocks.
  EXPECT_TRUE(arc_blocked_by(top, {-5, 0, 0.5}));
}

TEST(CircleRaster, CentreAndTouchRules) {
  // r = 1 at (2, 2) on a 5 x 5 map: the centres closer than 1 are (1.5, 1.5), (2.5, 1.5),
  // (1.5, 2.5), (2.5, 2.5) (distance 0.707). The open disc lies inside [1, 3] x [1, 3] and only
  // touches the neighbouring cells' edges, so Touch blocks the same four.
  const Circle c{2, 2, 1};
  const std::vector<CellXY> centre = circle_cells(5, 5, c, {CircleRasterRule::Centre, 0});
  const std::vector<CellXY> four = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  EXPECT_EQ(centre, four);
  EXPECT_EQ(circle_cells(5, 5, c, {CircleRasterRule::Touch, 0}), four);
  // Inflated by 0.2: centres at distance < 1.2: (1.5, 2.5) etc. still 0.707, (0.5, 2.5) is
  // 1.58 -> out; Touch: the disc reaches x = 0.8, so column 0 joins for rows 1..2, likewise
  // row 0, column 3 and row 3 (corner cells (0,0) are 1.414 away: out).
  EXPECT_EQ(circle_cells(5, 5, c, {CircleRasterRule::Centre, 0.2}), four);
  const std::vector<CellXY> touch = circle_cells(5, 5, c, {CircleRasterRule::Touch, 0.2});
  const std::vector<CellXY> expect = {{1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1},
                                      {0, 2}, {1, 2}, {2, 2}, {3, 2}, {1, 3}, {2, 3}};
  EXPECT_EQ(touch, expect);
  // Leaving the map: only the cells inside; far away: nothing.
  EXPECT_EQ(circle_cells(5, 5, {0, 0, 1}, {CircleRasterRule::Touch, 0}),
            (std::vector<CellXY>{{0, 0}}));
  EXPECT_TRUE(circle_cells(5, 5, {-100, 1e300, 3}, {CircleRasterRule::Touch, 0}).empty());
}

TEST(CircleRaster, MatchesBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> pos(-3, 23), rad(0, 5);
  const int w = 20, h = 17;
  for (int i = 0; i < 400; ++i) {
    const Circle c{pos(rng), pos(rng), rad(rng)};
    for (CircleRasterRule rule : {CircleRasterRule::Centre, CircleRasterRule::Touch}) {
      const auto mask = circle_cell_mask(w, h, std::span<const Circle>(&c, 1), {rule, 0});
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          double d = 0;
          if (rule == CircleRasterRule::Centre) {
            d = distance({x + 0.5, y + 0.5}, c.center());
          } else {
            const Vec2 q{std::clamp(c.x, double(x), x + 1.0), std::clamp(c.y, double(y), y + 1.0)};
            d = distance(q, c.center());
          }
          if (std::abs(d - c.r) < 1e-9) continue;  // on the boundary: rounding decides
          EXPECT_EQ(mask[size_t(y) * w + x], d < c.r ? 1 : 0)
              << circle_raster_rule_name(rule) << " circle " << c.x << "," << c.y << " r " << c.r
              << " cell " << x << "," << y;
        }
    }
  }
}

TEST(CircleRaster, GridWithCirclesBlocksCells) {
  GridMap map(6, 4);
  // Four centres around (1, 1) are 0.707 away; the second circle leaves the map and covers the
  // centres of (4, 2), (5, 2), (4, 3), (5, 3).
  const std::vector<Circle> circles = {{1, 1, 0.8}, {5, 3, 0.75}};
  const GridMap g = grid_with_circles(map, circles, {CircleRasterRule::Centre, 0});
  const TerrainId obstacle = map.palette().default_obstacle();
  int blocked = 0;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x) blocked += g.at(x, y) == obstacle;
  EXPECT_EQ(blocked, 8);
  EXPECT_EQ(g.at(4, 2), obstacle);
  EXPECT_EQ(g.at(0, 0), obstacle);
  EXPECT_NE(g.at(2, 2), obstacle);
  EXPECT_EQ(map.at(0, 0), 0);  // the original is untouched
  // A small circle on a cell corner covers no centre but touches four cells.
  Scene scene;
  scene.map = map;
  scene.circles = {{3, 2, 0.6}};
  EXPECT_NE(scene_grid_with_circles(scene, {CircleRasterRule::Centre, 0}).at(2, 1), obstacle);
  const GridMap touch = scene_grid_with_circles(scene, {CircleRasterRule::Touch, 0});
  for (auto [x, y] : {std::pair{2, 1}, {3, 1}, {2, 2}, {3, 2}}) EXPECT_EQ(touch.at(x, y), obstacle);
  EXPECT_NE(touch.at(1, 1), obstacle);
}

TEST(CircleRaster, CacheRebuildsOnlyOnChange) {
  GridMap map(8, 8);
  std::vector<Circle> circles = {{3, 3, 1}};
  CircleRasterCache cache;
  const GridMap& a = cache.get(map, circles, {});
  const std::uint64_t uid = a.uid();
  EXPECT_EQ(a.at(2, 2), map.palette().default_obstacle());
  EXPECT_EQ(&cache.get(map, circles, {}), &a);
  EXPECT_EQ(cache.get(map, circles, {}).uid(), uid);
  EXPECT_EQ(cache.rebuilds(), 1u);
  circles[0].x = 5;  // a circle moved
  EXPECT_EQ(cache.get(map, circles, {}).at(2, 2), 0);
  EXPECT_EQ(cache.rebuilds(), 2u);
  map.set(7, 7, map.palette().default_obstacle());  // the map was edited
  EXPECT_EQ(cache.get(map, circles, {}).at(7, 7), map.palette().default_obstacle());
  EXPECT_EQ(cache.rebuilds(), 3u);
  cache.get(map, circles, {CircleRasterRule::Touch, 0});  // other options
  EXPECT_EQ(cache.rebuilds(), 4u);
}

}  // namespace
}  // namespace pl

// The agent's speed profile (core/drive.hpp): kinematics on lines, the lateral limit on arcs,
// stops at gear changes and corners, monotone distance, never NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/curves.hpp"
#include "core/drive.hpp"

namespace pl {
namespace {

PathPiece line(Vec2 a, Vec2 b, bool reverse = false) {
  PathPiece p;
  p.kind = PathPiece::Kind::Line;
  p.line = {a, b};
  p.reverse = reverse;
  return p;
}

TEST(Drive, LongLineTimeIsExactKinematics) {
  // 100 units, vmax 4, accel 2: 2 s up (4 units), 2 s down (4 units), 92 units at 4 = 23 s.
  const std::vector<PathPiece> path = {line({0, 0}, {100, 0})};
  DriveProfile d(path, {4, 2, 1});
  ASSERT_TRUE(d.valid());
  EXPECT_NEAR(d.travel_time(), 27.0, 1e-12);
  EXPECT_NEAR(d.distance_at(2.0), 4.0, 1e-12);
  EXPECT_NEAR(d.speed_at(10.0), 4.0, 1e-12);
  EXPECT_NEAR(d.distance_at(27.0), 100.0, 1e-12);
  EXPECT_EQ(d.stops(), 0);
}

TEST(Drive, ShortLineIsTriangular) {
  // 2 units, accel 2, vmax 100: peak sqrt(a L) = 2, time 2 * 2 / 2 = 2 s.
  const std::vector<PathPiece> path = {line({0, 0}, {2, 0})};
  DriveProfile d(path, {100, 2, 1});
  EXPECT_NEAR(d.travel_time(), 2.0, 1e-12);
  EXPECT_NEAR(d.speed_at(1.0), 2.0, 1e-12);
  EXPECT_NEAR(d.distance_at(1.0), 1.0, 1e-12);
}

TEST(Drive, SplitLineDrivesLikeOneLine) {
  const std::vector<PathPiece> one = {line({0, 0}, {30, 0})};
  const std::vector<PathPiece> three = {line({0, 0}, {10, 0}), line({10, 0}, {17, 0}),
                                        line({17, 0}, {30, 0})};
  EXPECT_NEAR(DriveProfile(one, {5, 1.5, 1}).travel_time(),
              DriveProfile(three, {5, 1.5, 1}).travel_time(), 1e-9);
}

TEST(Drive, ArcRespectsLateralLimit) {
  // Straight, a right quarter circle of radius 4, straight (a Dubins path).
  const Curve c = dubins({0, 0, 0}, {40, 20, kPi / 2}, 4.0);
  ASSERT_TRUE(c.ok());
  const std::vector<PathPiece> path = c.pieces();
  const DriveLimits lim{10, 3, 1};
  DriveProfile d(path, lim);
  ASSERT_TRUE(d.valid());
  const double vmax_arc = std::sqrt(1.0 * 4.0);
  EXPECT_EQ(d.stops(), 0);
  // Sample the whole drive: on an arc the speed never exceeds sqrt(a_lat r).
  double s_start = 0;
  std::vector<std::pair<double, double>> arcs;  // [s0, s1] of arcs
  for (const PathPiece& p : path) {
    if (p.kind == PathPiece::Kind::Arc) arcs.push_back({s_start, s_start + p.length()});
    s_start += p.length();
  }
  ASSERT_FALSE(arcs.empty());
  bool saw_arc = false, saw_fast = false;
  for (int i = 0; i <= 20000; ++i) {
    const double t = d.travel_time() * i / 20000.0;
    const double s = d.distance_at(t), v = d.speed_at(t);
    for (auto [a0, a1] : arcs)
      if (s > a0 + 1e-9 && s < a1 - 1e-9) {
        saw_arc = true;
        EXPECT_LE(v, vmax_arc + 1e-9) << "t=" << t;
      }
    if (v > vmax_arc + 0.5) saw_fast = true;
  }
  EXPECT_TRUE(saw_arc);
  EXPECT_TRUE(saw_fast);  // it does speed up on the straights
  // Slower than ignoring the lateral limit.
  EXPECT_GT(d.travel_time(), DriveProfile(path, {10, 3, 1e9}).travel_time() + 0.1);
}

TEST(Drive, ReversingPieceDrivesBackwardHeadingUnchanged) {
  // Forward east 10, then backward west 10 facing east: a gear change, one stop.
  const std::vector<PathPiece> path = {line({0, 0}, {10, 0}), line({10, 0}, {0, 0}, true)};
  DriveProfile d(path, {4, 2, 1});
  ASSERT_TRUE(d.valid());
  EXPECT_EQ(d.stops(), 1);
  EXPECT_NEAR(d.junction_speeds()[1], 0.0, 0.0);
  const double half = d.travel_time() / 2;
  EXPECT_NEAR(d.speed_at(half), 0.0, 1e-9);
  const Pose back = d.pose_at(half + 1.0);
  EXPECT_LT(back.x, 10.0);
  EXPECT_NEAR(std::cos(back.heading), 1.0, 1e-9);  // still facing east
  // Each half is a 10-unit stop-to-stop run.
  const std::vector<PathPiece> one = {line({0, 0}, {10, 0})};
  EXPECT_NEAR(d.travel_time(), 2 * DriveProfile(one, {4, 2, 1}).travel_time(), 1e-9);
}

TEST(Drive, CornerStops) {
  const std::vector<PathPiece> path = {line({0, 0}, {10, 0}), line({10, 0}, {10, 10})};
  DriveProfile d(path, {4, 2, 1});
  EXPECT_EQ(d.stops(), 1);
  EXPECT_EQ(d.junction_speeds()[1], 0.0);
}

TEST(Drive, InvalidInputIsEmptyNotNaN) {
  const std::vector<PathPiece> path = {line({0, 0}, {10, 0})};
  EXPECT_FALSE(DriveProfile(path, {0, 1, 1}).valid());
  EXPECT_FALSE(DriveProfile(path, {NAN, 1, 1}).valid());
  EXPECT_FALSE(DriveProfile(path, {1, INFINITY, 1}).valid());
  EXPECT_FALSE(DriveProfile({}, {1, 1, 1}).valid());
  const std::vector<PathPiece> zero = {line({3, 3}, {3, 3})};
  DriveProfile z(zero, {1, 1, 1});
  EXPECT_FALSE(z.valid());
  EXPECT_EQ(z.travel_time(), 0.0);
  EXPECT_EQ(z.distance_at(NAN), 0.0);
}

TEST(Drive, RandomReedsSheppMonotoneNeverNaN) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> pos(-20, 20), ang(0, kTwoPi), lim(0.2, 8);
  for (int k = 0; k < 300; ++k) {
    const Curve c = reeds_shepp({pos(rng), pos(rng), ang(rng)}, {pos(rng), pos(rng), ang(rng)},
                                lim(rng));
    ASSERT_TRUE(c.ok());
    const std::vector<PathPiece> path = c.pieces();
    DriveProfile d(path, {lim(rng), lim(rng), lim(rng)});
    if (!d.valid()) continue;
    ASSERT_TRUE(std::isfinite(d.travel_time()));
    EXPECT_NEAR(d.length(), c.length, 1e-9 * (1 + c.length));
    double prev = -1;
    for (int i = 0; i <= 400; ++i) {
      const double t = d.travel_time() * i / 400.0;
      const double s = d.distance_at(t);
      const Pose p = d.pose_at(t);
      ASSERT_TRUE(std::isfinite(s) && std::isfinite(p.x) && std::isfinite(p.y) &&
                  std::isfinite(p.heading));
      ASSERT_GE(s, prev - 1e-12);
      prev = s;
    }
    EXPECT_NEAR(d.distance_at(d.travel_time()), d.length(), 1e-9 * (1 + d.length()));
    const Pose end = d.pose_at(d.travel_time());
    EXPECT_NEAR(end.x, c.end().x, 1e-6);
    EXPECT_NEAR(end.y, c.end().y, 1e-6);
  }
}

}  // namespace
}  // namespace pl

// Start and goal for a map that came without an agent (core/placement.hpp): on open cells of
// the largest region, far apart; on real MovingAI maps the pair is checked against a
// brute-force breadth-first search.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "core/io.hpp"
#include "core/placement.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

using pl::test::from_rows;

// 4-connected breadth-first distances from (x, y); -1 = not reached.
std::vector<long> distances(const GridMap& m, CapabilityMask cap, CellXY from) {
  std::vector<long> d(std::size_t(m.cell_count()), -1);
  std::deque<CellXY> q{from};
  d[std::size_t(m.index(from.x, from.y))] = 0;
  while (!q.empty()) {
    const CellXY c = q.front();
    q.pop_front();
    for (const CellXY n : {CellXY{c.x + 1, c.y}, CellXY{c.x - 1, c.y}, CellXY{c.x, c.y + 1}, CellXY{c.x, c.y - 1}}) {
      if (!m.passable(n.x, n.y, cap) || d[std::size_t(m.index(n.x, n.y))] >= 0) continue;
      d[std::size_t(m.index(n.x, n.y))] = d[std::size_t(m.index(c.x, c.y))] + 1;
      q.push_back(n);
    }
  }
  return d;
}

const CapabilityMask kCap = Palette::movingai().movingai_default_capability();

TEST(Placement, EmptyMapGivesOppositeCorners) {
  const GridMap m(7, 5);
  const auto p = place_far_apart(m, kCap);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->region_cells, 35);
  EXPECT_EQ(p->steps, 6 + 4);
  const bool corners = (p->start == CellXY{6, 4} && p->goal == CellXY{0, 0}) ||
                       (p->start == CellXY{0, 0} && p->goal == CellXY{6, 4});
  EXPECT_TRUE(corners) << p->start.x << "," << p->start.y << " -> " << p->goal.x << "," << p->goal.y;
}

TEST(Placement, LargestRegionNotTheOneAtTheOrigin) {
  // A small pocket holds (0,0); the big region is right of the wall; a diagonal gap does not
  // connect them (no corner cutting).
  const GridMap m = from_rows({
      "..@.......",
      "..@.......",
      "@@@.......",
      "@@@@@@@@..",
      "..........",
  });
  const auto p = place_far_apart(m, kCap);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->region_cells, 7 * 3 + 2 + 10);
  for (CellXY c : {p->start, p->goal}) {
    EXPECT_TRUE(m.passable(c.x, c.y, kCap));
    EXPECT_GE(c.x + 10 * c.y, 3) << "in the pocket at the origin";
  }
  // The two ends: the bottom-left corner and the top-right part.
  const auto d = distances(m, kCap, p->start);
  EXPECT_EQ(d[std::size_t(m.index(p->goal.x, p->goal.y))], p->steps);
  EXPECT_EQ(p->steps, *std::max_element(d.begin(), d.end())) << "goal is the farthest from start";
  EXPECT_GE(p->steps, 13);
}

TEST(Placement, NoOpenCell) {
  GridMap m(3, 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) m.set(x, y, m.palette().default_obstacle());
  EXPECT_FALSE(place_far_apart(m, kCap));
}

TEST(Placement, BenchmarkMapsStartOffTheWallFarApart) {
  for (const char* name : {"/bg/AR0011SR.map", "/dao/den312d.map", "/maze/maze512-4-0.map"}) {
    const GridMap m = load_map(std::string(PATHLAB_SHARED_DIR) + "/data" + name);
    ASSERT_FALSE(m.passable(0, 0, kCap)) << name << ": the old placement was already fine";
    const auto p = place_far_apart(m, kCap);
    ASSERT_TRUE(p) << name;
    EXPECT_TRUE(m.passable(p->start.x, p->start.y, kCap)) << name;
    EXPECT_TRUE(m.passable(p->goal.x, p->goal.y, kCap)) << name;
    // Both in the largest region: no open cell lies outside start's region that belongs to a
    // bigger one, i.e. start's region has region_cells cells.
    const auto d = distances(m, kCap, p->start);
    const long reached = long(std::count_if(d.begin(), d.end(), [](long v) { return v >= 0; }));
    EXPECT_EQ(reached, p->region_cells) << name;
    EXPECT_EQ(d[std::size_t(m.index(p->goal.x, p->goal.y))], p->steps) << name;
    // Far apart: goal is start's farthest cell, at least half the region's diameter.
    const long ecc = *std::max_element(d.begin(), d.end());
    EXPECT_EQ(p->steps, ecc) << name;
    long open = 0;
    for (int y = 0; y < m.height(); ++y)
      for (int x = 0; x < m.width(); ++x) open += m.passable(x, y, kCap);
    EXPECT_GE(2 * p->region_cells, open) << name << ": not the largest region";
  }
}

}  // namespace
}  // namespace pl

// Whether an agent can drive a path (core/path_check.hpp): the footprint sweep, corner
// cutting, and the case of issue 10 item 8: plain A*'s path for a size-3 agent beats the
// optimum only because the agent cannot drive it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/path_check.hpp"
#include "planners/planner.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

using pl::test::from_rows;

const CapabilityMask kCap = Palette::movingai().movingai_default_capability();

TEST(PathCheck, StraightAndDiagonalSteps) {
  const GridMap m = from_rows({
      "....",
      ".@..",
      "....",
  });
  // Along the top row: fine for size 1, not for size 2 (its footprint covers row 1).
  EXPECT_EQ(path_problem(m, kCap, 1, std::vector<Vec2>{{0.5, 0.5}, {3.5, 0.5}}), "");
  const std::string p = path_problem(m, kCap, 2, std::vector<Vec2>{{0.5, 0.5}, {2.5, 0.5}});
  EXPECT_NE(p.find("cell (1,1)"), std::string::npos) << p;
  // A diagonal step past the blocked cell's corner cuts it.
  EXPECT_NE(path_problem(m, kCap, 1, std::vector<Vec2>{{0.5, 0.5}, {1.5, 1.5}}), "");
  EXPECT_NE(path_problem(m, kCap, 1, std::vector<Vec2>{{2.5, 0.5}, {1.5, 1.5}}), "");
  // A diagonal step whose side cells are open is fine.
  EXPECT_EQ(path_problem(m, kCap, 1, std::vector<Vec2>{{2.5, 0.5}, {3.5, 1.5}}), "");
  // Off the map for a large agent at the edge.
  const std::string edge = path_problem(m, kCap, 2, std::vector<Vec2>{{3.5, 2.5}});
  EXPECT_NE(edge.find("outside the map"), std::string::npos) << edge;
}

TEST(PathCheck, ArcsAreFollowed) {
  const GridMap m = from_rows({
      "..@...",
      "......",
      "......",
      "......",
  });
  // A half circle about (2.5, 2.5) of radius 2 from (0.5, 2.5) over the top (2.5, 0.5) to
  // (4.5, 2.5): its top crosses the blocked cell (2, 0); its chord along row 2 does not.
  PathPiece arc;
  arc.kind = PathPiece::Kind::Arc;
  arc.arc = {{2.5, 2.5}, 2.0, kPi, kPi};
  const std::string p = path_problem(m, kCap, 1, std::vector<PathPiece>{arc});
  EXPECT_NE(p.find("cell (2,0)"), std::string::npos) << p;
  EXPECT_EQ(path_problem(m, kCap, 1, std::vector<Vec2>{arc.arc.start(), arc.arc.end()}), "");
}

TEST(PathCheck, PlainAstarIsInvalidForALargeAgentAnnotatedIsNot) {
  // A wall with a one-cell gap: plain A* (size ignored) goes through it; Annotated A* around.
  Scene s;
  s.map = from_rows({
      "..........",
      "..........",
      "..........",
      "@@@@.@@@..",
      "..........",
      "..........",
      "..........",
  });
  Agent a;
  a.size = 2;
  a.start = {3.5, 0.5, 0};
  a.goal = {3.5, 5.5, 0};
  s.agents.push_back(a);
  const Query q = Query::from_agent(s, a);
  const PlanResult plain = Registry::builtin().create("astar")->plan(s, q);
  const PlanResult annotated = Registry::builtin().create("annotated-astar")->plan(s, q);
  ASSERT_TRUE(plain.found);
  ASSERT_TRUE(annotated.found);
  EXPECT_LT(plain.length, annotated.length);
  auto points = [](const PlanResult& r) {
    std::vector<Vec2> v;
    for (const Pose& p : r.points) v.push_back(p.position());
    return v;
  };
  EXPECT_NE(path_problem(s.map, q.capability, q.size, points(plain)), "");
  EXPECT_EQ(path_problem(s.map, q.capability, q.size, points(annotated)), "");
}

}  // namespace
}  // namespace pl

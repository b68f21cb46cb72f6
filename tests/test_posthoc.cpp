// The Posthoc export: valid JSON in the 1.4.0 layout, one Posthoc event per recorded event, with
// the ids, parents, positions and costs a Posthoc view needs.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "viz/posthoc.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

TEST(Posthoc, ExportsEveryEvent) {
  TraceRecorder rec;
  rec.phase("search \"quoted\"");
  rec.open(NodeDesc{7, 1.5f, 2.5f}, kNoNode, 0, 3);
  rec.frame();
  rec.close(7);
  NodeDesc with_heading{8, 2.5f, 2.5f};
  with_heading.heading = 1.5f;
  with_heading.level = 2;
  rec.open(with_heading, 7, 1, 2);
  rec.relax(8, 7, 0.5);
  rec.test(Shape::segment({0, 0}, {3, 4}), false);
  rec.mark(Shape::circle({5, 5}, 2), Role::Transition);
  rec.role_name(Role::Transition, "turning circle");
  rec.counter("los tests", 3);
  const PathPiece pieces[] = {
      {PathPiece::Kind::Line, {{1.5, 2.5}, {2.5, 2.5}}, {}},
      {PathPiece::Kind::Arc, {}, Arc{{2.5, 3.5}, 1.0, -kPi / 2, kPi / 2}},
  };
  rec.path(pieces);
  rec.close(99);  // never opened: no position, g unknown
  rec.frame();
  const Trace t = rec.take();

  const auto j = nlohmann::json::parse(to_posthoc(t));
  EXPECT_EQ(j["version"], "1.4.0");
  ASSERT_TRUE(j["views"]["main"].is_array());
  const auto& ev = j["events"];
  ASSERT_EQ(ev.size(), t.event_count());

  EXPECT_EQ(ev[0]["type"], "phase");
  EXPECT_EQ(ev[0]["name"], "search \"quoted\"");

  EXPECT_EQ(ev[1]["type"], "generating");
  EXPECT_EQ(ev[1]["id"], 7);
  EXPECT_TRUE(ev[1]["pId"].is_null());
  EXPECT_EQ(ev[1]["x"], 1.5);
  EXPECT_EQ(ev[1]["y"], 2.5);
  EXPECT_EQ(ev[1]["f"], 3.0);
  EXPECT_FALSE(ev[1].contains("heading"));

  EXPECT_EQ(ev[2]["type"], "expanding");
  EXPECT_EQ(ev[2]["id"], 7);
  EXPECT_EQ(ev[2]["g"], 0.0);

  EXPECT_EQ(ev[3]["type"], "generating");
  EXPECT_EQ(ev[3]["pId"], 7);
  EXPECT_EQ(ev[3]["heading"], 1.5);
  EXPECT_EQ(ev[3]["level"], 2);

  EXPECT_EQ(ev[4]["type"], "updating");
  EXPECT_EQ(ev[4]["id"], 8);
  EXPECT_EQ(ev[4]["x"], 2.5);  // relax carries no position: the last known one is written
  EXPECT_EQ(ev[4]["g"], 0.5);
  EXPECT_EQ(ev[4]["f"], 2.5);

  EXPECT_EQ(ev[5]["type"], "test");
  EXPECT_EQ(ev[5]["ok"], false);
  EXPECT_EQ(ev[5]["shape"], "segment");
  ASSERT_EQ(ev[5]["points"].size(), 2u);
  EXPECT_EQ(ev[5]["points"][1]["y"], 4.0);

  EXPECT_EQ(ev[6]["type"], "mark");
  EXPECT_EQ(ev[6]["role"], role_name(Role::Transition));
  EXPECT_EQ(ev[6]["meaning"], "turning circle");  // the planner's name for the role
  EXPECT_FALSE(ev[5].contains("meaning"));        // tests have none
  EXPECT_EQ(ev[6]["radius"], 2.0);
  EXPECT_GT(ev[6]["points"].size(), 16u);

  EXPECT_EQ(ev[7]["type"], "counter");
  EXPECT_EQ(ev[7]["name"], "los tests");
  EXPECT_EQ(ev[7]["value"], 3.0);

  EXPECT_EQ(ev[8]["type"], "path");
  EXPECT_NEAR(ev[8]["length"].get<double>(), 1.0 + kPi / 2, 1e-12);
  const auto& pts = ev[8]["points"];
  EXPECT_EQ(pts[0]["x"], 1.5);
  // The arc starts where the line ends, so that point is written once; it ends at (3.5, 3.5).
  EXPECT_EQ(pts[1]["x"], 2.5);
  EXPECT_NE(pts[2]["x"], 2.5);
  EXPECT_NEAR(pts.back()["x"].get<double>(), 3.5, 1e-12);
  EXPECT_NEAR(pts.back()["y"].get<double>(), 3.5, 1e-12);

  EXPECT_EQ(ev[9]["type"], "expanding");
  EXPECT_EQ(ev[9]["id"], 99);
  EXPECT_TRUE(ev[9]["g"].is_null());
  EXPECT_FALSE(ev[9].contains("x"));
}

TEST(Posthoc, EmptyTrace) {
  TraceRecorder rec;
  const auto j = nlohmann::json::parse(to_posthoc(rec.take()));
  EXPECT_TRUE(j["events"].empty());
}

}  // namespace
}  // namespace pl

// pathlab-cli and the circles planner: `path --planner circles` on a scene file (points sampled
// along the arcs, exact length in the JSON) and `circles-bench`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/geometry.hpp"
#include "cli_util.hpp"

namespace pl {
namespace {

using pl::test::CliRun;
using pl::test::run_cli;

std::string scene_file() {
  const auto path = std::filesystem::temp_directory_path() /
                    ("pathlab_circle_scene_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << R"({"pathlab_scene": 1, "map": {"width": 20, "height": 20},
    "circles": [{"x": 10, "y": 10, "r": 2}, {"x": 30, "y": 30, "r": 1}]})";
  return path.string();
}

TEST(CircleCli, PathAroundACircleWithAnAgentRadius) {
  const std::string scene = scene_file();
  // Grown by the radius 1, the circle is r = 3 at distance 10 from both ends.
  const CliRun r =
      run_cli("path '" + scene + "' --planner circles --start 0,10 --goal 20,10 --radius 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["found"].get<bool>());
  const double expect = 2 * std::sqrt(91.0) + 3 * (kPi - 2 * std::acos(0.3));
  EXPECT_NEAR(j["length"].get<double>(), expect, 1e-9);  // exact: the arc as an arc
  // The points follow the arc: every one but the ends lies on the grown circle, and the
  // polyline through them is a little shorter than the exact length (chords), not longer.
  const auto& pts = j["path"];
  ASSERT_GT(pts.size(), 8u);
  double polyline = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    const Vec2 p{pts[i][0].get<double>(), pts[i][1].get<double>()};
    if (i > 0 && i + 1 < pts.size()) {
      EXPECT_NEAR(distance(p, {10, 10}), 3, 1e-9);
    }
    if (i > 0) polyline += distance(p, {pts[i - 1][0].get<double>(), pts[i - 1][1].get<double>()});
  }
  EXPECT_LT(polyline, expect);
  EXPECT_GT(polyline, expect - 0.01);
  EXPECT_EQ(j["planner"], "circles");
  // The exact pieces: line, arc on the grown circle, line, adding up to the length.
  const auto& pieces = j["pieces"];
  ASSERT_EQ(pieces.size(), 3u);
  ASSERT_TRUE(pieces[1].contains("arc"));
  EXPECT_NEAR(pieces[1]["arc"]["radius"].get<double>(), 3, 1e-12);
  double sum = 0;
  for (const auto& p : pieces) {
    if (p.contains("line")) {
      const auto& l = p["line"];
      sum += std::hypot(l[2].get<double>() - l[0].get<double>(), l[3].get<double>() - l[1].get<double>());
    } else {
      sum += std::abs(p["arc"]["sweep"].get<double>()) * p["arc"]["radius"].get<double>();
    }
  }
  EXPECT_NEAR(sum, expect, 1e-9);

  // Eager gives the same length.
  const CliRun e =
      run_cli("path '" + scene +
              "' --planner circles --set mode=eager --start 0,10 --goal 20,10 --radius 1 --json");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(nlohmann::json::parse(e.out)["length"].get<double>(), j["length"].get<double>());

  // Start inside a grown circle: no path (exit 1) and the message says which circle.
  const CliRun in = run_cli("path '" + scene +
                            "' --planner circles --start 31.5,30 --goal 0,0 --radius 1 --json");
  EXPECT_EQ(in.code, 1);
  const auto ji = nlohmann::json::parse(in.out);
  EXPECT_FALSE(ji["found"].get<bool>());
  EXPECT_EQ(ji["message"], "start is inside obstacle 1");
  // A bad parameter value is bad input.
  EXPECT_EQ(
      run_cli("path '" + scene + "' --planner circles --set mode=fast --start 0,0 --goal 1,1").code,
      2);
  std::filesystem::remove(scene);
}

TEST(CircleCli, CirclesBench) {
  const CliRun r = run_cli("circles-bench --counts 10,40 --forests 2 --repeat 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mismatches"].get<int>(), 0);
  ASSERT_EQ(j["rows"].size(), 4u);  // two counts x overlapping or not
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["forests"].get<int>(), 2);
    // Lazy builds part of what eager builds.
    EXPECT_LE(row["lazy"]["nodes"].get<double>(), row["eager"]["nodes"].get<double>());
    EXPECT_LE(row["lazy"]["surfing_tests"].get<double>(),
              row["eager"]["surfing_tests"].get<double>());
    EXPECT_EQ(row["lazy"]["expanded"].get<double>(), row["eager"]["expanded"].get<double>());
  }
  const CliRun text = run_cli("circles-bench --counts 10 --forests 1 --overlap no --tsv -");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("count\tcircles\toverlap"), std::string::npos);
  EXPECT_NE(text.out.find("speedup"), std::string::npos);
  EXPECT_EQ(run_cli("circles-bench --overlap maybe").code, 2);
  EXPECT_EQ(run_cli("circles-bench --counts 10,100000").code, 2);
}

}  // namespace
}  // namespace pl

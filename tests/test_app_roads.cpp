// Roads and fixed-angle art in the app (issue 11, item 7): the roads-cones preset on the sample
// road scene shows plain cornering beside the coned path, with the road drawn in its palette
// colour and the cones marked in the coned view only; the fixed-angle-art preset drives the
// continuous path and its 8- and 16-heading versions.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <stb/stb_image.h>  // the implementation is in libstb

#include "app_run.hpp"
#include "core/io.hpp"
#include "core/roads.hpp"
#include "editor/camera.hpp"
#include "planners/planner.hpp"

#ifdef PATHLAB_APP

namespace {

constexpr int kW = 1280, kH = 800;
const std::string kRoads = PATHLAB_SOURCE_DIR "/assets/roads.json";

using Shot = pl::test::AppShot;

Shot take(const std::string& args, const std::string& name) {
  return pl::test::take_app_shot(PATHLAB_APP, args, name, kW, kH, "pathlab_roads_cfg");
}

// Screen pixel of a map point in view v of the layout.
std::array<int, 2> pixel(const nlohmann::json& v, pl::Vec2 p) {
  pl::editor::Camera cam(v.at("viewport")[2].get<int>(), v.at("viewport")[3].get<int>());
  cam.set_view(v.at("zoom"), {v.at("offset")[0], v.at("offset")[1]});
  const pl::Vec2 s = cam.map_to_screen(p);
  return {v.at("viewport")[0].get<int>() + int(s.x), v.at("viewport")[1].get<int>() + int(s.y)};
}

class Cones : public pl::SearchObserver {
 public:
  std::vector<pl::CellXY> cells;
  void mark(const pl::Shape& s, pl::Role role) override {
    if (role == pl::Role::Obstacle) cells.push_back({int(s.a.x), int(s.a.y)});
  }
};

}  // namespace

TEST(AppRoads, ConesPresetShowsTheRoadAndTheConesBesidePlainCornering) {
  if (!pl::test::have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const Shot s = take("--scene '" + kRoads + "' --preset roads-cones", "roads_cones");
  ASSERT_EQ(s.run.status, 0) << s.run.cmd << "\n" << s.run.err;
  ASSERT_FALSE(s.px.empty());
  const auto& views = s.run.layout.at("views");
  ASSERT_EQ(views.size(), 2u);
  for (const auto& v : views) {
    EXPECT_EQ(v.at("planner"), "astar-turns");
    ASSERT_TRUE(v.at("found").get<bool>()) << v.at("message");
    EXPECT_TRUE(std::isfinite(v.at("travel_time").get<double>()));
  }
  // Keeping to the road through the turns is longer than cutting across them.
  EXPECT_GE(views[1].at("length").get<double>(), views[0].at("length").get<double>() - 1e-9);
  // A road cell away from both paths shows the road's palette colour (168, 104, 64).
  const pl::Scene scene = pl::load_scene(kRoads);
  const auto [rx, ry] = pixel(views[0], {33.5, 8.2});
  ASSERT_EQ(scene.map.at(33, 8), *pl::road_terrain(scene.map.palette()));
  const auto c = s.at(rx, ry);
  EXPECT_NEAR(c[0], 168, 40);
  EXPECT_NEAR(c[1], 104, 40);
  EXPECT_NEAR(c[2], 64, 40);
  // The cones the planner places are drawn in the coned view: its pixels there differ from the
  // plain view's at most of them.
  const auto planner = pl::Registry::builtin().create(
      "astar-turns", {{"smoothing", "presmooth48"}, {"road", "cones"}});
  Cones cones;
  pl::RunContext ctx;
  ctx.observer = &cones;
  pl::Query q = pl::Query::from_agent(scene, scene.agents[0]);
  ASSERT_TRUE(planner->plan(scene, q, ctx).found);
  ASSERT_FALSE(cones.cells.empty());
  int differ = 0;
  for (const pl::CellXY cell : cones.cells) {
    const auto [ax, ay] = pixel(views[0], {cell.x + 0.5, cell.y + 0.5});
    const auto [bx, by] = pixel(views[1], {cell.x + 0.5, cell.y + 0.5});
    const auto pa = s.at(ax, ay), pb = s.at(bx, by);
    differ += std::abs(pa[0] - pb[0]) + std::abs(pa[1] - pb[1]) + std::abs(pa[2] - pb[2]) > 30;
  }
  EXPECT_GT(2 * differ, int(cones.cells.size())) << differ << " of " << cones.cells.size();
}

TEST(AppRoads, FixedAngleArtPresetDrivesAllThreePaths) {
  if (!pl::test::have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const Shot s =
      take("--scene '" + kRoads + "' --preset fixed-angle-art --drive-time 5", "roads_art");
  ASSERT_EQ(s.run.status, 0) << s.run.cmd << "\n" << s.run.err;
  const auto& views = s.run.layout.at("views");
  ASSERT_EQ(views.size(), 3u);
  for (const auto& v : views) {
    ASSERT_TRUE(v.at("found").get<bool>()) << v.at("message");
    ASSERT_GT(v.at("travel_time").get<double>(), 5.0);
  }
  // The sprite versions follow the continuous path from just outside: a little longer.
  const double cont = views[0].at("length");
  for (int i = 1; i < 3; ++i) {
    EXPECT_GE(views[std::size_t(i)].at("length").get<double>(), cont * 0.98);
    EXPECT_LE(views[std::size_t(i)].at("length").get<double>(), cont * 1.25);
  }
}

#endif  // PATHLAB_APP

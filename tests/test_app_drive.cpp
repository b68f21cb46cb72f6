// The agent drives its path in the app (issue 11, items 9 and 10): Pinter's Figure 1 preset
// with travel times in the layout, and agents mid-drive (--drive-time) drawn where their speed
// profile puts them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <stb/stb_image.h>  // the implementation is in libstb

#include "app_run.hpp"
#include "core/curves.hpp"
#include "core/footprint.hpp"
#include "editor/camera.hpp"

#ifdef PATHLAB_APP

namespace {

constexpr int kW = 1280, kH = 800;

// A 40x24 field with a block in the middle and a wall stub: the agent goes round it (after
// Pinter's Figure 1). The agent has no turning radius: the presets give it one.
std::string write_scene() {
  const auto file = std::filesystem::temp_directory_path() / "pathlab_drive_scene.json";
  std::FILE* f = std::fopen(file.string().c_str(), "w");
  if (!f) return {};
  std::fputs("{\"pathlab_scene\": 1, \"map\": {\"width\": 40, \"height\": 24, \"rows\": [\n", f);
  for (int y = 0; y < 24; ++y) {
    std::string row(40, '.');
    for (int x = 0; x < 40; ++x) {
      const bool border = x == 0 || y == 0 || x == 39 || y == 23;
      const bool block = x >= 15 && x <= 24 && y >= 7 && y <= 16;
      const bool stub = x == 30 && y >= 12;
      if (border || block || stub) row[std::size_t(x)] = '@';
    }
    std::fprintf(f, "  \"%s\"%s\n", row.c_str(), y < 23 ? "," : "");
  }
  std::fputs("]}, \"agents\": [{\"name\": \"car\", \"radius\": 0.6, \"start\": [3.5, 20.5, 0], "
             "\"goal\": [35.5, 3.5, 4.71238898038469]}]}\n", f);
  std::fclose(f);
  return file.string();
}

using Shot = pl::test::AppShot;

Shot take(const std::string& args, const std::string& name) {
  return pl::test::take_app_shot(PATHLAB_APP, args, name, kW, kH, "pathlab_drive_cfg");
}

}  // namespace

TEST(AppDrive, PinterFigure1PresetGivesTravelTimes) {
  if (!pl::test::have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const std::string scene = write_scene();
  ASSERT_FALSE(scene.empty());
  const Shot s = take("--scene '" + scene + "' --preset pinter-figure1", "drive_figure1");
  ASSERT_EQ(s.run.status, 0) << s.run.cmd << "\n" << s.run.err;
  ASSERT_FALSE(s.px.empty());
  const auto& views = s.run.layout.at("views");
  ASSERT_EQ(views.size(), 4u);
  const char* planners[] = {"astar", "astar-turns", "astar-turns", "directional"};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& v = views[i];
    EXPECT_EQ(v.at("planner"), planners[i]);
    ASSERT_TRUE(v.at("found").get<bool>()) << i << ": " << v.at("message");
    const double len = v.at("length"), tt = v.at("travel_time");
    // Never faster than the default top speed (4 cells/s) the whole way, and finite.
    EXPECT_TRUE(std::isfinite(tt)) << i;
    EXPECT_GE(tt, len / 4.0) << i;
    EXPECT_LT(tt, 200.0) << i;
  }
}

TEST(AppDrive, AgentsMidDriveAreDrawnAtTheirPose) {
  if (!pl::test::have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const std::string scene = write_scene();
  ASSERT_FALSE(scene.empty());
  const double t = 6.0;
  // The Figure 1 preset: all four planners find a path on this scene (Pinter's hybrid planner may
  // or may not, depending on how A*'s ties fall: it reports failure rather than a bad path).
  const Shot s = take("--scene '" + scene + "' --preset pinter-figure1 --drive-time 6", "drive_mid");
  ASSERT_EQ(s.run.status, 0) << s.run.cmd << "\n" << s.run.err;
  ASSERT_FALSE(s.px.empty());
  const auto& views = s.run.layout.at("views");
  ASSERT_EQ(views.size(), 4u);
  for (const auto& v : views) {
    ASSERT_TRUE(v.at("found").get<bool>()) << v.at("message");
    const double tt = v.at("travel_time");
    ASSERT_GT(tt, t) << "the agent is still driving at t";
    const pl::Vec2 p{v.at("drive_pose")[0].get<double>(), v.at("drive_pose")[1].get<double>()};
    // Under way: neither at the start nor at the goal.
    EXPECT_GT(pl::distance(p, {3.5, 20.5}), 2.0);
    EXPECT_GT(pl::distance(p, {35.5, 3.5}), 2.0);
    // The sprite's body (blue) covers the pose's pixel.
    pl::editor::Camera cam(v.at("viewport")[2].get<int>(), v.at("viewport")[3].get<int>());
    cam.set_view(v.at("zoom"), {v.at("offset")[0], v.at("offset")[1]});
    const pl::Vec2 px = cam.map_to_screen(p);
    const int x = v.at("viewport")[0].get<int>() + int(px.x), y = v.at("viewport")[1].get<int>() + int(px.y);
    ASSERT_TRUE(x >= 0 && y >= 0 && x < s.w && y < s.h);
    const auto c = s.at(x, y);
    EXPECT_GT(c[2], c[0] + 60) << "pixel (" << x << ", " << y << ") is not the sprite's body";
    EXPECT_GT(c[2], c[1] + 30) << "pixel (" << x << ", " << y << ") is not the sprite's body";
  }
}

// Issue 11 item 8: the hit-check mask of one (start heading, end heading, offset) on request,
// through the planner's own parameters (the app knows no planner): at the mask's frame the
// cells the table marks for that curve are drawn over the map at the start cell, and cells
// outside the mask are not. The mask's cells are computed here from the curve, not the table.
TEST(AppDrive, HitCheckMaskOnRequest) {
  if (!pl::test::have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const auto file = std::filesystem::temp_directory_path() / "pathlab_mask_scene.json";
  {
    std::FILE* f = std::fopen(file.string().c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("{\"pathlab_scene\": 1, \"map\": {\"width\": 14, \"height\": 10, \"rows\": [\n", f);
    for (int y = 0; y < 10; ++y) {
      std::string row(14, '.');
      for (int x = 0; x < 14; ++x)
        if ((x == 7 && y >= 2 && y <= 3) || (y == 7 && x >= 9 && x <= 11)) row[std::size_t(x)] = '@';
      std::fprintf(f, "  \"%s\"%s\n", row.c_str(), y < 9 ? "," : "");
    }
    std::fputs("]}, \"agents\": [{\"name\": \"car\", \"radius\": 0.6, \"turning_radius\": 2, "
               "\"start\": [4.5, 2.5, 0], \"goal\": [11.5, 5.5, 1.5707963267948966]}]}\n", f);
    std::fclose(f);
  }
  // Heading 0 (east) to heading 2 (south), two cells across and two down: a quarter circle of
  // the turning radius, 2.
  const Shot s = take("--scene '" + file.string() + "' --planner directional --set show_mask=true " +
                          "--set mask_from=0 --set mask_to=2 --set mask_dx=2 --set mask_dy=2 --frame 1",
                      "hit_check_mask");
  ASSERT_EQ(s.run.status, 0) << s.run.cmd << "\n" << s.run.err;
  ASSERT_FALSE(s.px.empty());
  const auto& views = s.run.layout.at("views");
  ASSERT_EQ(views.size(), 1u);
  const auto& v = views[0];
  EXPECT_EQ(v.at("frame"), 1);
  const std::string phase = v.at("phase");
  EXPECT_EQ(phase.rfind("hit-check mask: heading 0 -> 2, offset (2, 2)", 0), 0u) << phase;
  const pl::Curve c = pl::dubins({4.5, 2.5, 0}, {6.5, 4.5, pl::kPi / 2}, 2);
  ASSERT_NEAR(c.length, pl::kPi, 1e-9);
  const std::vector<pl::CellXY> cells = pl::swept_cells(c.pieces(), pl::Footprint::disc(0.6));
  pl::editor::Camera cam(v.at("viewport")[2].get<int>(), v.at("viewport")[3].get<int>());
  cam.set_view(v.at("zoom"), {v.at("offset")[0], v.at("offset")[1]});
  // A point near a cell's corner: away from the curve, the poses and the outline.
  auto yellow_at = [&](int x, int y) {
    const pl::Vec2 p = cam.map_to_screen({x + 0.2, y + 0.8});
    const auto px = s.at(v.at("viewport")[0].get<int>() + int(p.x), v.at("viewport")[1].get<int>() + int(p.y));
    return px[0] > 200 && px[1] > 170 && px[2] < 170;
  };
  int in = 0, in_ok = 0, out = 0, out_ok = 0;
  auto masked = [&](int x, int y) {
    return std::find(cells.begin(), cells.end(), pl::CellXY{x, y}) != cells.end();
  };
  const auto blocked = [](int x, int y) { return (x == 7 && y >= 2 && y <= 3) || (y == 7 && x >= 9 && x <= 11); };
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 14; ++x) {
      if (blocked(x, y) || (x == 4 && y == 2) || (x == 11 && y == 5)) continue;  // start, goal
      if (masked(x, y)) {
        ++in;
        in_ok += yellow_at(x, y);
      } else {
        ++out;
        out_ok += !yellow_at(x, y);
      }
    }
  ASSERT_GE(in, 8);
  EXPECT_EQ(in_ok, in);
  EXPECT_EQ(out_ok, out);
}

#endif  // PATHLAB_APP

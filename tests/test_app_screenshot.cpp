// Screenshot tests of the desktop app (issue 3, "Done means"): run the built `pathlab` under
// xvfb-run with --screenshot --exit and check the picture, not only that a file appeared:
// terrain colours at cell centres, open/closed cells of a search mid-way where the trace says
// they are, and the path's colour along a finished path.
//
// Where each view and its camera were comes from the app itself (--layout writes them next to
// the screenshot), so the tests map cells to pixels with the app's own numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <filesystem>
#include <sstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#define STBI_ONLY_PNG
#include <stb/stb_image.h>  // the implementation is in libstb

#include <fstream>
#include <nlohmann/json.hpp>

#include "app_run.hpp"
#include "core/clearance.hpp"
#include "core/placement.hpp"
#include "core/io.hpp"
#include "editor/camera.hpp"
#include "planners/planner.hpp"
#include "viz/draw.hpp"
#include "viz/image.hpp"
#include "viz/overlays.hpp"
#include "viz/style.hpp"
#include "viz/timeline.hpp"
#include "viz/trace.hpp"

#ifdef PATHLAB_APP
#include "fake_planners.hpp"

namespace {

constexpr int kWidth = 1280, kHeight = 800;
constexpr int kSide = 330;

// One map view in a screenshot: its rectangle (pixels, y down) and its camera.
struct ViewShot {
  int x = 0, y = 0, w = 0, h = 0;
  pl::editor::Camera cam;
  std::string planner;
  std::size_t frame = 0;
  // The map layer (MapRenderer::layer_stats): frames drawn through it, of those the ones that
  // drew only the changed pixels, frames drawn past it, and whether the last came through it.
  long layer_draws = 0, layer_partial = 0, layer_direct = 0;
  bool layer_last = false;
};

struct Shot {
  int w = 0, h = 0;
  std::vector<unsigned char> px;
  std::vector<ViewShot> views;
  long panel_frame = -1;  // the frame the side panel named
  pl::Rgba at(int x, int y) const {
    const unsigned char* p = &px[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
    return {p[0], p[1], p[2], p[3]};
  }
};

using pl::test::have_xvfb;

// Runs `app` (the shipped pathlab by default; pathlab_test_app has test planners too).
Shot take(const std::string& args, const std::string& name, const char* app = PATHLAB_APP) {
  const auto out = std::filesystem::temp_directory_path() / ("pathlab_shot_" + name + ".png");
  std::filesystem::remove(out);
  // Under ASan the GL driver and X libraries leak a few bytes at exit that are not ours; leak
  // checking of the app is switched off there (memory errors are still caught).
#ifdef PATHLAB_SANITIZED
  const std::string env = "ASAN_OPTIONS=detect_leaks=0 ";
#else
  const std::string env;
#endif
  const std::string cmd = env + "xvfb-run -a -s '-screen 0 1280x800x24' '" + app + "' " + args +
                          " --size 1280x800 --screenshot '" + out.string() + "' --layout '" +
                          out.string() + ".json' --exit";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  Shot s;
  int comp = 0;
  unsigned char* data = stbi_load(out.string().c_str(), &s.w, &s.h, &comp, 4);
  EXPECT_NE(data, nullptr) << "no PNG from " << cmd;
  if (data) {
    s.px.assign(data, data + std::size_t(s.w) * std::size_t(s.h) * 4);
    stbi_image_free(data);
  }
  std::ifstream layout(out.string() + ".json");
  EXPECT_TRUE(layout.good()) << "no layout from " << cmd;
  if (layout.good()) {
    const nlohmann::json j = nlohmann::json::parse(layout);
    s.panel_frame = j.value("panel_frame", -1L);
    for (const auto& v : j.at("views")) {
      ViewShot vs;
      vs.x = v.at("viewport")[0];
      vs.y = v.at("viewport")[1];
      vs.w = v.at("viewport")[2];
      vs.h = v.at("viewport")[3];
      vs.cam = pl::editor::Camera(vs.w, vs.h);
      vs.cam.set_view(v.at("zoom"), {v.at("offset")[0], v.at("offset")[1]});
      vs.planner = v.at("planner");
      vs.frame = v.at("frame");
      const nlohmann::json& l = v.at("layer");
      vs.layer_draws = l.at("draws"), vs.layer_partial = l.at("partial");
      vs.layer_direct = l.at("direct"), vs.layer_last = l.at("last");
      s.views.push_back(vs);
    }
  }
  return s;
}

// The screen pixel of map point p in view v.
std::pair<int, int> pixel(const ViewShot& v, pl::Vec2 p) {
  const pl::Vec2 s = v.cam.map_to_screen(p);
  return {v.x + int(s.x), v.y + int(s.y)};
}

// The screen pixel at the centre of cell (x, y).
std::pair<int, int> centre(const ViewShot& v, int x, int y) { return pixel(v, {x + 0.5, y + 0.5}); }

bool near(pl::Rgba a, pl::Rgba b, int tol = 6) {
  return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol;
}

pl::Rgba over(pl::Rgba src, pl::Rgba dst) {
  const double a = src.a / 255.0;
  auto mix = [&](int s, int d) { return std::uint8_t(s * a + d * (1 - a) + 0.5); };
  return {mix(src.r, dst.r), mix(src.g, dst.g), mix(src.b, dst.b), 255};
}

pl::Rgba terrain(const pl::GridMap& map, int x, int y) {
  return pl::Rgba::from(map.palette()[map.at(x, y)].colour);
}

const std::string kSample = PATHLAB_SOURCE_DIR "/assets/sample.json";

// Whether `planner` declares a Cells node space for the map it searches: the app draws a node
// as a cell only through a declared space.
bool declares_cells(const std::string& planner) {
  pl::Scene s;
  s.map = pl::GridMap(4, 4);
  pl::Query q;
  q.start = {0.5, 0.5, 0};
  q.goal = {3.5, 3.5, 0};
  pl::TraceRecorder rec;
  pl::RunContext ctx;
  ctx.observer = &rec;
  pl::Registry::builtin().create(planner)->plan(s, q, ctx);
  const pl::Trace t = rec.take();
  for (const pl::NodeSpace& sp : t.spaces())
    if (sp.kind == pl::NodeSpace::Kind::Cells) return true;
  return false;
}

// A scene file of an all-ground w x h map and one agent from `start` to `goal` (JSON poses).
std::filesystem::path scene_file(const std::string& name, int w, int h, const std::string& start,
                                 const std::string& goal) {
  const auto file = std::filesystem::temp_directory_path() / ("pathlab_shot_" + name + ".json");
  std::ofstream(file) << "{\"pathlab_scene\": 1, \"map\": {\"width\": " << w
                      << ", \"height\": " << h << "}, \"agents\": [{\"start\": " << start
                      << ", \"goal\": " << goal << "}]}\n";
  return file;
}

}  // namespace

// The cell checks below rely on the planner declaring its nodes as grid cells.
#define REQUIRE_CELLS_SPACE(planner) \
  ASSERT_TRUE(declares_cells(planner)) << (planner) << " declares no Cells node space"

TEST(AppScreenshot, SampleSceneShowsTheTerrain) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const pl::Scene scene = pl::load_scene(kSample);
  const Shot shot = take("--scene '" + kSample + "'", "sample");
  ASSERT_EQ(shot.w, kWidth);
  ASSERT_EQ(shot.h, kHeight);
  ASSERT_GE(shot.views.size(), 1u);
  const ViewShot& cam = shot.views[0];
  // Circles and agents cover a few cells; the rest show their terrain's colour at the centre.
  std::size_t match = 0, total = 0, obstacle_match = 0;
  for (int y = 0; y < scene.map.height(); ++y)
    for (int x = 0; x < scene.map.width(); ++x) {
      const auto [sx, sy] = centre(cam, x, y);
      ++total;
      if (near(shot.at(sx, sy), terrain(scene.map, x, y))) {
        ++match;
        obstacle_match += scene.map.palette()[scene.map.at(x, y)].obstacle;
      }
    }
  EXPECT_GT(match, total * 85 / 100) << match << " of " << total;
  EXPECT_GT(obstacle_match, 20u);
  // The side panel is ImGui's dark theme, not the map.
  const pl::Rgba panel = shot.at(kSide / 2, kHeight / 2);
  EXPECT_LT(panel.r + panel.g + panel.b, 3 * 80);
  // The renderer clears the panels' backgrounds for ImGui (begin_opaque_panel): the status
  // line's empty right end shows the dark theme's window colour (0.06, opaque) and the menu
  // bar's its bar colour (0.14), not the frame's clear colour (26, 26, 28) under them.
  auto exactly = [](pl::Rgba c, int v) {
    return std::abs(c.r - v) <= 1 && std::abs(c.g - v) <= 1 && std::abs(c.b - v) <= 1;
  };
  const pl::Rgba status = shot.at(kWidth - 4, kHeight - 4), menu = shot.at(kWidth - 4, 4);
  EXPECT_TRUE(exactly(status, 15)) << int(status.r) << " " << int(status.g) << " " << int(status.b);
  EXPECT_TRUE(exactly(menu, 36)) << int(menu.r) << " " << int(menu.g) << " " << int(menu.b);
}

// Open and closed cells of `planner`'s search at `frame`, replayed here, against the view in
// the screenshot: each seen cell's centre shows the status colour over the terrain.
void expect_search_cells(const Shot& shot, const pl::Scene& scene, const std::string& planner_name,
                         std::size_t frame) {
  const pl::ViewSetup view = scene.views.empty() ? pl::ViewSetup{} : scene.views[0];
  auto planner = pl::Registry::builtin().create(planner_name, view.params);
  pl::TraceRecorder rec;
  pl::RunContext ctx;
  ctx.observer = &rec;
  planner->plan(scene, pl::Query::from_agent(scene, scene.agents.at(std::size_t(view.agent))), ctx);
  const pl::Trace trace = rec.take();
  pl::TraceCursor cursor(trace);
  cursor.seek(frame);
  ASSERT_EQ(cursor.frame(), frame);

  ASSERT_GE(shot.views.size(), 1u);
  const ViewShot& cam = shot.views[0];
  const pl::Style& style = pl::Style::standard();
  std::size_t open = 0, open_ok = 0, closed = 0, closed_ok = 0;
  for (const pl::NodeState& n : cursor.state().nodes()) {
    if (n.status == pl::NodeStatus::Unseen) continue;
    const auto cell = trace.cell_of(n.desc);
    ASSERT_TRUE(cell);
    const int x = cell->x, y = cell->y;
    const auto [sx, sy] = centre(cam, x, y);
    const pl::Rgba want = over(style.colour(pl::Style::role_of(n.status)), terrain(scene.map, x, y));
    const bool ok = near(shot.at(sx, sy), want, 8);
    if (n.status == pl::NodeStatus::Open) ++open, open_ok += ok;
    else ++closed, closed_ok += ok;
  }
  ASSERT_GT(open, 10u);
  ASSERT_GT(closed, 10u);
  // The current node, agents and labels cover a few of them.
  EXPECT_GT(open_ok, open * 80 / 100) << open_ok << " of " << open;
  EXPECT_GT(closed_ok, closed * 80 / 100) << closed_ok << " of " << closed;
}

TEST(AppScreenshot, SearchMidwayShowsOpenAndClosedCells) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  REQUIRE_CELLS_SPACE("astar");
  const pl::Scene scene = pl::load_scene(kSample);
  const Shot shot = take("--scene '" + kSample + "' --planner astar --frame 60", "midway");
  ASSERT_EQ(shot.w, kWidth);
  expect_search_cells(shot, scene, "astar", 60);
}

TEST(AppScreenshot, LargeMapSearchInOnePass) {
  // No circles and no grid lines at this zoom: terrain and search cells are blended in one
  // texture pass (shaders/map.frag); the picture must be the same as layered passes.
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  REQUIRE_CELLS_SPACE("dijkstra");
  const auto file = scene_file("large", 300, 200, "[2.5, 2.5, 0]", "[290.5, 190.5, 0]");
  const pl::Scene scene = pl::load_scene(file.string());
  const Shot shot = take("--scene '" + file.string() + "' --planner dijkstra --frame 3000", "large");
  ASSERT_EQ(shot.w, kWidth);
  ASSERT_LT(shot.views.at(0).cam.zoom(), 8.0);  // no grid lines
  expect_search_cells(shot, scene, "dijkstra", 3000);
}

TEST(AppScreenshot, GridLinesTakeTheirColourOnceWhereTheyCross) {
  // Zoomed in, the terrain's pass draws the grid lines per pixel over the terrain and under the
  // closed cells; where two lines cross, the translucent colour is there once, as on the edges.
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const auto file = scene_file("grid", 20, 20, "[0.5, 0.5, 0]", "[19.5, 19.5, 0]");
  const Shot shot = take("--scene '" + file.string() + "' --planner dijkstra --frame end", "grid");
  ASSERT_EQ(shot.w, kWidth);
  const ViewShot& v = shot.views.at(0);
  ASSERT_GE(v.cam.zoom(), 8.0);                                             // grid lines shown
  ASSERT_LT(pl::Style::standard().colour(pl::StyleItem::GridLine).a, 255);  // translucent
  auto dist = [](pl::Rgba a, pl::Rgba b) {
    return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
  };
  // Cells (11..12, 4..5): closed, off the diagonal path, one colour.
  const pl::Rgba cell = shot.at(centre(v, 12, 5).first, centre(v, 12, 5).second);
  for (auto [x, y] : {std::pair{11, 4}, {12, 4}, {11, 5}})
    EXPECT_LE(dist(shot.at(centre(v, x, y).first, centre(v, x, y).second), cell), 2);
  // The pixel within one of map point p that differs most from the cells' colour.
  auto line_at = [&](pl::Vec2 p) {
    const auto [px, py] = pixel(v, p);
    pl::Rgba best = cell;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (dist(shot.at(px + dx, py + dy), cell) > dist(best, cell))
          best = shot.at(px + dx, py + dy);
    return best;
  };
  const pl::Rgba vertical = line_at({12.0, 5.5}), horizontal = line_at({12.5, 5.0});
  EXPECT_GE(dist(vertical, cell), 6) << "no line on the edge x = 12";
  EXPECT_LE(dist(vertical, horizontal), 3);
  EXPECT_LE(dist(line_at({12.0, 5.0}), vertical), 3) << "the crossing is not one line's colour";
}

TEST(AppScreenshot, NumbersInEveryCellOfAZoomedView) {
  // Zoomed in far enough for g, h and f, every cell in view prints its numbers: thousands of
  // characters, which go through the renderer's label layer (one texture) instead of ImGui's
  // glyph quads. Each whole cell in view must show ink of the text colour.
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const auto file = scene_file("numbers", 20, 20, "[0.5, 0.5, 0]", "[19.5, 19.5, 0]");
  const Shot shot =
      take("--scene '" + file.string() + "' --planner dijkstra --frame end --zoom 2", "numbers");
  ASSERT_EQ(shot.w, kWidth);
  const ViewShot& v = shot.views.at(0);
  ASSERT_GE(v.cam.zoom(), 40.0);  // numbers shown
  int cells = 0;
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) {
      const auto [px0, py0] = pixel(v, {double(x), double(y)});
      const auto [px1, py1] = pixel(v, {x + 1.0, y + 1.0});
      if (px0 < v.x || py0 < v.y + 20 || px1 > v.x + v.w || py1 > v.y + v.h - 30) continue;
      ++cells;
      // Text pixels: far darker than the cell's own colour at its corner.
      const pl::Rgba base = shot.at(px0 + 3, py0 + 3);
      int ink = 0;
      for (int py = py0 + 2; py < py1 - 2; ++py)
        for (int px = px0 + 2; px < px1 - 2; ++px) {
          const pl::Rgba c = shot.at(px, py);
          if (base.r + base.g + base.b - (c.r + c.g + c.b) > 150) ++ink;
        }
      EXPECT_GE(ink, 20) << "cell (" << x << ", " << y << ") shows no numbers";
    }
  EXPECT_GE(cells, 30);
}

namespace {
// View 0 of `a` and of `b`: the same rectangle, the same pixels, and enough colours in it for
// that to mean something.
// ties: pixels whose centre lies on a cell's edge (within 1/1000 of a cell) may differ. Either
// cell is a right picture of such a pixel, and the rasteriser rounds the interpolated map point
// to one side or the other depending on the framebuffer it draws into (a window, or the map
// layer's texture); they are few (a pixel column or row now and then).
void expect_same_view(const Shot& a, const Shot& b, bool ties = false) {
  const ViewShot& v = a.views.at(0);
  const ViewShot& w = b.views.at(0);
  ASSERT_EQ(v.x, w.x);
  ASSERT_EQ(v.y, w.y);
  ASSERT_EQ(v.w, w.w);
  ASSERT_EQ(v.h, w.h);
  auto on_edge = [&](int px, double offset) {
    const double m = (px + 0.5 - offset) / v.cam.zoom();
    return std::abs(m - std::round(m)) < 1e-3;
  };
  long differing = 0, on_edges = 0;
  std::set<std::uint32_t> colours;
  for (int y = v.y; y < v.y + v.h; ++y)
    for (int x = v.x; x < v.x + v.w; ++x) {
      const pl::Rgba p = a.at(x, y), q = b.at(x, y);
      if (p.r != q.r || p.g != q.g || p.b != q.b) {
        if (ties && (on_edge(x - v.x, v.cam.offset().x) || on_edge(y - v.y, v.cam.offset().y)))
          ++on_edges;
        else
          ++differing;
      }
      colours.insert(p.packed() & 0xffffffu);
    }
  EXPECT_EQ(differing, 0);
  EXPECT_LE(on_edges, long(v.w + v.h)) << "more than a column and a row of edge pixels differ";
  EXPECT_GE(colours.size(), 20u) << "the view shows too little to compare";
}
}  // namespace

TEST(AppScreenshot, KeptPictureEqualsTheDrawnOne) {
  // A view drawn from the same inputs as the frame before keeps a copy of its picture, and the
  // frames after that copy it back instead of drawing (MapRenderer::draw). On frame 6 of a
  // still view (the copy shown since frame 3 or 4) zoomed in on numbers, grid lines, the
  // clearance heat map and the path, the copy must equal the picture drawn anew
  // (--redraw-views) pixel for pixel.
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const auto file = scene_file("kept", 20, 20, "[0.5, 0.5, 0]", "[19.5, 19.5, 0]");
  const std::string args =
      "--scene '" + file.string() + "' --planner dijkstra --frame end --clearance --zoom 2 "
      "--shot-frame 6";
  const Shot kept = take(args, "kept");
  const Shot drawn = take(args + " --redraw-views", "drawn");
  ASSERT_EQ(kept.w, kWidth);
  ASSERT_EQ(drawn.w, kWidth);
  ASSERT_GE(kept.views.at(0).cam.zoom(), 40.0);  // numbers shown
  expect_same_view(kept, drawn);
}

TEST(AppScreenshot, FirstUsesPaidInTheFirstFrameLeaveNoMark) {
  // The first frame a view draws also runs the pass of prepared stamps over one pixel and
  // bakes the clearance heat map into the terrain at once, after the renderer ran both copies
  // of a kept picture over one pixel of the back buffer (MapRenderer): that frame must equal a
  // later frame of the same still view drawn anew (--redraw-views).
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const auto file = scene_file("first", 20, 20, "[0.5, 0.5, 0]", "[19.5, 19.5, 0]");
  const std::string args =
      "--scene '" + file.string() + "' --planner dijkstra --frame end --clearance --zoom 2";
  const Shot first = take(args + " --shot-frame 1", "first");
  const Shot later = take(args + " --shot-frame 6 --redraw-views", "later");
  ASSERT_EQ(first.w, kWidth);
  ASSERT_EQ(later.w, kWidth);
  expect_same_view(first, later);
}

namespace {
// A scrub shows a large search from its stamps: 16-bit texels, buckets of 2^shift frames
// (about 160k frames here: buckets of 4) whose undecided cells each move decides and uploads
// (SearchTexture::texels). The frame a scrub ends on must look exactly as that frame opened
// still, which is drawn from a painted image. The last frame of a bucket has no undecided
// cell, so a scrub is repeated (a few frames shorter) until it ends on another one.
// The scrub draws the map into the view's map layer, only the pixels whose cells changed
// since the layer's frame (MapRenderer), or past it when most changed: the frame compared
// must come through the layer, after moves that drew part of it. view: the options both
// runs are given (the camera, the heat map).
void expect_scrub_equals_still(const std::string& view, const std::string& name) {
  const auto file = scene_file(name, 400, 400, "[0.5, 0.5, 0]", "[399.5, 399.5, 0]");
  const std::string scene = "--scene '" + file.string() + "' --planner dijkstra " + view + " ";
  bool compared = false;
  for (int frames = 30; frames > 9 && !compared; frames -= 3) {
    const std::string n = std::to_string(frames);
    const Shot scrubbed = take(
        scene + "--frame end --bench-frames " + n + " --bench-scrub --shot-frame " + n, name);
    ASSERT_EQ(scrubbed.w, kWidth);
    const ViewShot& v = scrubbed.views.at(0);
    const std::size_t frame = v.frame;
    ASSERT_GT(frame, 0u);
    // The side panel names the frame the view draws (the scrub moves before the panels).
    EXPECT_EQ(scrubbed.panel_frame, long(frame));
    EXPECT_GT(v.layer_draws, 0) << "the scrub never drew through the map layer";
    if (frame % 4 == 3) continue;  // the last of its bucket (of 4 frames, or of more)
    if (!v.layer_last || v.layer_partial == 0) continue;
    const Shot still = take(scene + "--frame " + std::to_string(frame) +
                                " --shot-frame 6 --redraw-views",
                            name + "_still");
    ASSERT_EQ(still.w, kWidth);
    ASSERT_EQ(still.views.at(0).frame, frame);
    SCOPED_TRACE("frame " + std::to_string(frame));
    expect_same_view(scrubbed, still, true);
    compared = true;
  }
  EXPECT_TRUE(compared) << "every scrub ended on the last frame of a bucket";
}
}  // namespace

TEST(AppScreenshot, ScrubbedFrameEqualsTheSameFrameOpenedStill) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  expect_scrub_equals_still("", "scrubbed");  // fitted: 29/16 pixels a cell, cell edges on pixels
}

TEST(AppScreenshot, ZoomedScrubbedFrameEqualsTheSameFrameOpenedStill) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  // Zoomed in past the map's edges (grid lines in the pass, ~11 pixels a cell), with the
  // clearance heat map under the cells; and at 87/32 pixels a cell, where pixel centres fall on
  // cell edges every 32 cells.
  for (const char* view : {"--clearance --zoom 6 --center 150,250",
                           "--clearance --zoom 1.5 --center 220,180"}) {
    SCOPED_TRACE(view);
    expect_scrub_equals_still(view, "scrubbed_zoomed");
  }
}

TEST(AppScreenshot, BenchLogSaysWhichFramesShowedAJump) {
  // --bench-log writes one line per frame: its wall, main-thread and process CPU times and
  // whether it showed a landed background jump (a scrub). The column must add up to the jumps
  // the benchmark reports, on a search large enough for scrub jumps to run in the background
  // (490k nodes: a jump back, or one forward from a frame shown before, is cheap enough for the
  // frame loop; one far forward of both goes to the worker, 3-5 times in 60 frames under ASan
  // with a core busy elsewhere, 12-14 times in a Release build).
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const auto file = scene_file("benchlog", 700, 700, "[0.5, 0.5, 0]", "[699.5, 699.5, 0]");
  const auto dir = std::filesystem::temp_directory_path();
  const auto log = dir / "pathlab_bench_log.txt", out = dir / "pathlab_bench_out.txt";
  std::filesystem::remove(log);
  constexpr int kFrames = 60;
#ifdef PATHLAB_SANITIZED
  const std::string env = "ASAN_OPTIONS=detect_leaks=0 ";  // as take() says
#else
  const std::string env;
#endif
  const std::string cmd = env + "xvfb-run -a -s '-screen 0 1280x800x24' '" PATHLAB_APP "' --scene '" +
                          file.string() + "' --planner dijkstra --frame end --bench-frames " +
                          std::to_string(kFrames) + " --bench-scrub --bench-log '" +
                          log.string() + "' > '" + out.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream report(out);
  const std::string printed((std::istreambuf_iterator<char>(report)), {});
  const std::size_t at = printed.find("background_seeks ");
  ASSERT_NE(at, std::string::npos) << printed;
  const long reported = std::stol(printed.substr(at + 17));
  std::ifstream in(log);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "frame wall_ms cpu_ms process_cpu_ms jump_shown");
  int lines = 0;
  long shown = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    int frame = -1, jump = -1;
    double wall = -1, cpu = -1, process = -1;
    fields >> frame >> wall >> cpu >> process >> jump;
    ASSERT_FALSE(fields.fail()) << line;
    EXPECT_EQ(frame, lines);
    EXPECT_GT(wall, 0.0);
    EXPECT_GE(process, 0.0);
    EXPECT_GE(jump, 0);
    shown += jump;
    ++lines;
  }
  EXPECT_EQ(lines, kFrames);
  EXPECT_EQ(shown, reported);
  EXPECT_GT(reported, 0) << "no jump ran in the background: the column was not exercised";
}

TEST(AppScreenshot, FinishedSearchShowsThePath) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const pl::Scene scene = pl::load_scene(kSample);
  const pl::ViewSetup view = scene.views.empty() ? pl::ViewSetup{} : scene.views[0];
  const Shot shot = take("--scene '" + kSample + "' --planner astar --frame end", "path");
  ASSERT_EQ(shot.w, kWidth);
  auto planner = pl::Registry::builtin().create("astar", view.params);
  const pl::PlanResult r =
      planner->plan(scene, pl::Query::from_agent(scene, scene.agents.at(std::size_t(view.agent))));
  ASSERT_TRUE(r.found);
  ASSERT_GE(shot.views.size(), 1u);
  const ViewShot& cam = shot.views[0];
  const pl::Rgba path = pl::Style::standard().colour(pl::Role::Path);
  std::size_t ok = 0;
  for (const pl::Pose& p : r.points) {
    const auto [sx, sy] = pixel(cam, {p.x, p.y});
    ok += near(shot.at(sx, sy), path, 30);
  }
  EXPECT_GT(ok, r.points.size() * 70 / 100) << ok << " of " << r.points.size();
}

TEST(AppScreenshot, ClearanceHeatMapOverTheTerrain) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const pl::Scene scene = pl::load_scene(kSample);
  const pl::ViewSetup view = scene.views.empty() ? pl::ViewSetup{} : scene.views[0];
  const Shot shot = take("--scene '" + kSample + "' --clearance", "clearance");
  ASSERT_EQ(shot.w, kWidth);
  // The app shows true clearance for the current agent's capability, at 60% opacity.
  const pl::GridMap& map = scene.map;
  const pl::CapabilityMask cap = scene.capability_of(scene.agents.at(std::size_t(view.agent)));
  const pl::ClearanceGrid grid = pl::true_clearance(map, cap);
  const pl::Image heat = pl::clearance_image(grid, map.width(), map.height());
  ASSERT_GE(shot.views.size(), 1u);
  const ViewShot& cam = shot.views[0];
  std::size_t open = 0, open_ok = 0, open_changed = 0, blocked = 0, blocked_ok = 0;
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const auto [sx, sy] = centre(cam, x, y);
      const pl::Rgba got = shot.at(sx, sy), ground = terrain(map, x, y);
      if (grid[std::size_t(y) * std::size_t(map.width()) + std::size_t(x)] > 0) {
        pl::Rgba h = heat.at(x, y);
        h.a = std::uint8_t(h.a * 0.6 + 0.5);
        const pl::Rgba want = over(h, ground);
        ++open;
        open_ok += near(got, want, 8);
        open_changed += !near(want, ground, 8);  // the blend is visible, not the terrain alone
      } else {
        ++blocked;
        blocked_ok += near(got, ground);
      }
    }
  ASSERT_GT(open, 100u);
  ASSERT_GT(blocked, 20u);
  // Circles and agents cover a few cells.
  EXPECT_GT(open_ok, open * 80 / 100) << open_ok << " of " << open;
  EXPECT_GT(open_changed, open * 80 / 100) << open_changed << " of " << open;
  EXPECT_GT(blocked_ok, blocked * 80 / 100) << blocked_ok << " of " << blocked;
}

namespace {

// The replayed state of `planner` on the sample's first view set-up at `frame`.
struct Replay {
  pl::Trace trace;
  std::unique_ptr<pl::TraceCursor> cursor;
};
std::unique_ptr<Replay> replay(const pl::Scene& scene, const std::string& planner, std::size_t frame) {
  const pl::ViewSetup view = scene.views.empty() ? pl::ViewSetup{} : scene.views[0];
  auto p = pl::Registry::builtin().create(planner);
  pl::TraceRecorder rec;
  pl::RunContext ctx;
  ctx.observer = &rec;
  p->plan(scene, pl::Query::from_agent(scene, scene.agents.at(std::size_t(view.agent))), ctx);
  auto r = std::make_unique<Replay>();
  r->trace = rec.take();
  r->cursor = std::make_unique<pl::TraceCursor>(r->trace);
  r->cursor->seek(frame);
  return r;
}

}  // namespace

TEST(AppScreenshot, TwoViewsComparedWithTheDifferenceOverlay) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  REQUIRE_CELLS_SPACE("astar");
  REQUIRE_CELLS_SPACE("dijkstra");
  const pl::Scene scene = pl::load_scene(kSample);
  const Shot shot = take("--scene '" + kSample + "' --planner astar --compare dijkstra --frame 40", "compare");
  ASSERT_EQ(shot.w, kWidth);
  ASSERT_EQ(shot.views.size(), 2u);
  const ViewShot& a = shot.views[0];
  const ViewShot& b = shot.views[1];
  EXPECT_EQ(a.planner, "astar");
  EXPECT_EQ(b.planner, "dijkstra");
  EXPECT_EQ(a.frame, 40u);
  EXPECT_EQ(b.frame, 40u);  // timelines locked
  // Side by side, same size, cameras locked (same zoom and offset).
  EXPECT_GT(b.x, a.x + a.w - 1);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.cam.zoom(), b.cam.zoom());
  EXPECT_EQ(a.cam.offset().x, b.cam.offset().x);

  const auto ra = replay(scene, "astar", 40), rb = replay(scene, "dijkstra", 40);
  const pl::GridMap& map = scene.map;
  const pl::ClosedDifference diff =
      pl::closed_difference(ra->cursor->state(), rb->cursor->state(), map.width(), map.height());
  ASSERT_GT(diff.only_a.size() + diff.only_b.size(), 10u);
  const pl::Style& style = pl::Style::standard();
  const pl::Rgba closed = style.colour(pl::Role::Closed);
  // A cell one view expanded and the other did not keeps the closed colour, the same in both
  // views, and carries that view's hatch: a diagonal through its centre ("/" for A, "\\" for
  // B), with the closed colour beside it.
  auto check = [&](const ViewShot& v, const std::vector<std::uint32_t>& cells, pl::StyleItem item, bool rising) {
    std::size_t hatch_ok = 0, fill_ok = 0;
    for (std::uint32_t i : cells) {
      const int x = int(i % std::uint32_t(map.width())), y = int(i / std::uint32_t(map.width()));
      const pl::Rgba closed_here = over(closed, terrain(map, x, y));
      const auto [cx, cy] = centre(v, x, y);
      hatch_ok += near(shot.at(cx, cy), over(style.colour(item), closed_here), 40);
      // Off the diagonal (a quarter cell from two sides): the plain closed colour.
      const auto [qx, qy] = pixel(v, {x + (rising ? 0.25 : 0.75), y + 0.25});
      fill_ok += near(shot.at(qx, qy), closed_here, 10);
    }
    return std::tuple{hatch_ok, fill_ok, cells.size()};
  };
  const auto [a_hatch, a_fill, a_n] = check(a, diff.only_a, pl::StyleItem::OnlyA, true);
  const auto [b_hatch, b_fill, b_n] = check(b, diff.only_b, pl::StyleItem::OnlyB, false);
  EXPECT_GE(a_hatch * 100, a_n * 75) << a_hatch << " of " << a_n;
  EXPECT_GE(b_hatch * 100, b_n * 75) << b_hatch << " of " << b_n;
  EXPECT_GE(a_fill * 100, a_n * 75) << a_fill << " of " << a_n;
  EXPECT_GE(b_fill * 100, b_n * 75) << b_fill << " of " << b_n;
  // The stats table under the views is ImGui's dark theme, not the map.
  const pl::Rgba table = shot.at(a.x + a.w / 2, a.y + a.h + 20);
  EXPECT_LT(table.r + table.g + table.b, 3 * 90);
}

TEST(AppScreenshot, CirclesPathWithArcsAndTheSearchedEdges) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const std::string file = PATHLAB_SOURCE_DIR "/assets/circles.json";
  const pl::Scene scene = pl::load_scene(file);
  // Only what the search touched (the tested graph hidden), as the README shows it.
  const Shot shot = take("--scene '" + file + "' --planner circles --hide accepted,rejected --frame end",
                         "circles");
  ASSERT_EQ(shot.views.size(), 1u);
  const ViewShot& v = shot.views[0];
  auto planner = pl::Registry::builtin().create("circles");
  const pl::PlanResult r = planner->plan(scene, pl::Query::from_agent(scene, scene.agents.at(0)));
  ASSERT_TRUE(r.found);
  const pl::Style& style = pl::Style::standard();
  // The path, arcs included: points sampled along every piece carry the path colour.
  std::size_t ok = 0, n = 0, arcs = 0;
  for (const pl::PathPiece& piece : r.pieces) {
    const bool arc = piece.kind == pl::PathPiece::Kind::Arc;
    arcs += arc;
    for (int k = 1; k < 8; ++k) {
      const double t = k / 8.0;
      const pl::Vec2 p = arc ? piece.arc.point_at(piece.arc.start_angle + piece.arc.sweep * t)
                             : piece.line.a + (piece.line.b - piece.line.a) * t;
      const auto [sx, sy] = pixel(v, p);
      ok += near(shot.at(sx, sy), style.colour(pl::Role::Path), 30);
      ++n;
    }
  }
  ASSERT_GT(arcs, 0u);
  EXPECT_GT(ok, n * 70 / 100) << ok << " of " << n;
  // Edges the search touched are drawn (candidate colour); rejected tests are hidden.
  std::size_t candidate = 0, rejected = 0;
  const pl::Rgba ground = pl::Rgba::from(scene.map.palette()[scene.map.palette().default_ground()].colour);
  const pl::Rgba rejected_on_ground = over(style.colour(pl::Role::Rejected), ground);
  for (int y = v.y; y < v.y + v.h; ++y)
    for (int x = v.x; x < v.x + v.w; ++x) {
      candidate += near(shot.at(x, y), style.colour(pl::Role::Candidate), 40);
      // Tight: the grey-blue of failed tests is near the grid lines over the terrain.
      rejected += near(shot.at(x, y), rejected_on_ground, 12);
    }
  EXPECT_GT(candidate, 400u) << rejected;
  EXPECT_LT(rejected, candidate / 20);
}

TEST(AppScreenshot, HeadingWedgesFromACellsTimesHeadingsSearch) {
  // A search over cells x 8 headings (a test planner: pathlab_test_app adds it to the app's
  // registry): every open or closed node is a wedge inside its cell pointing along its heading,
  // over a faint fill of the cell; the circle's cells, reported blocked, are shaded.
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const auto file = std::filesystem::temp_directory_path() / "pathlab_shot_headings.json";
  {
    std::FILE* f = std::fopen(file.string().c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("{\"pathlab_scene\": 1, \"map\": {\"width\": 30, \"height\": 20}, "
               "\"circles\": [{\"x\": 15, \"y\": 9, \"r\": 4}], "
               "\"agents\": [{\"name\": \"rover\", \"start\": [3.5, 16.5, 0], "
               "\"goal\": [26.5, 3.5, 0]}]}\n", f);
    std::fclose(f);
  }
  const pl::Scene scene = pl::load_scene(file.string());
  pl::TraceRecorder rec;
  pl::RunContext ctx;
  ctx.observer = &rec;
  ASSERT_TRUE(pl::test::HeadingsPlanner(8).plan(scene, pl::Query::from_agent(scene, scene.agents.at(0)), ctx).found);
  const pl::Trace trace = rec.take();
  pl::TraceCursor cursor(trace);
  const std::size_t frame = cursor.last_frame() / 2;
  cursor.seek(frame);
  const Shot shot = take("--scene '" + file.string() + "' --planner test-headings --frame " +
                             std::to_string(frame),
                         "headings", PATHLAB_TEST_APP);
  ASSERT_EQ(shot.views.size(), 1u);
  const ViewShot& v = shot.views[0];
  EXPECT_EQ(v.planner, "test-headings");
  EXPECT_EQ(v.frame, frame);
  ASSERT_GE(v.cam.zoom(), 10.0) << "wedges are drawn once a cell is 10 pixels wide";
  ASSERT_LT(v.cam.zoom(), 40.0) << "no g, h, f printed over the wedges";

  const pl::Style& style = pl::Style::standard();
  const pl::FrameState& s = cursor.state();
  const pl::NodeState* current = s.current();
  std::size_t wedges = 0, wedges_ok = 0, empty = 0, empty_ok = 0;
  for (int y = 0; y < scene.map.height(); ++y)
    for (int x = 0; x < scene.map.width(); ++x) {
      const auto nodes = s.nodes_at(x, y);
      if (nodes.empty()) continue;
      bool closed = false;
      for (const pl::NodeState* n : nodes) closed |= n->status == pl::NodeStatus::Closed;
      const pl::Rgba status = style.colour(closed ? pl::Role::Closed : pl::Role::Open);
      const pl::Rgba under = over(pl::heading_cell_tint(status), terrain(scene.map, x, y));
      bool drawn[8] = {};
      for (const pl::NodeState* n : nodes) {
        const int i = trace.heading_index_of(n->desc);
        drawn[i] = true;
        if (n == current) continue;
        const double a = trace.heading_of(n->desc);
        const auto [sx, sy] = pixel(v, {x + 0.5 + 0.3 * std::cos(a), y + 0.5 + 0.3 * std::sin(a)});
        const pl::Rgba want = over(pl::heading_wedge_colour(style.colour(pl::Style::role_of(n->status))), under);
        ++wedges;
        wedges_ok += near(shot.at(sx, sy), want, 10);
      }
      if (current && trace.cell_of(current->desc) == pl::CellXY{x, y}) continue;
      // Where no heading of the cell is, only the cell's fill.
      for (int i = 0; i < 8; ++i) {
        if (drawn[i]) continue;
        const double a = i * pl::kPi / 4;
        const auto [sx, sy] = pixel(v, {x + 0.5 + 0.3 * std::cos(a), y + 0.5 + 0.3 * std::sin(a)});
        ++empty;
        empty_ok += near(shot.at(sx, sy), under, 10);
      }
    }
  ASSERT_GT(wedges, 100u);
  ASSERT_GT(empty, 100u);
  EXPECT_GT(wedges_ok, wedges * 90 / 100) << wedges_ok << " of " << wedges;
  EXPECT_GT(empty_ok, empty * 90 / 100) << empty_ok << " of " << empty;

  // The cells the planner reported blocked by the circle are shaded over the terrain.
  const std::vector<std::uint8_t> mask =
      pl::circle_cell_mask(scene.map.width(), scene.map.height(), scene.circles);
  std::size_t blocked = 0, blocked_ok = 0;
  for (int y = 0; y < scene.map.height(); ++y)
    for (int x = 0; x < scene.map.width(); ++x) {
      if (!mask[std::size_t(y * scene.map.width() + x)]) continue;
      // Sample near a corner of the cell, away from the circle's outline where possible.
      const auto [sx, sy] = centre(v, x, y);
      const pl::Rgba disc = style.colour(pl::Role::Obstacle);
      const pl::Rgba want = over(disc, over(pl::blocked_cell_colour(style), terrain(scene.map, x, y)));
      ++blocked;
      blocked_ok += near(shot.at(sx, sy), want, 12);
    }
  ASSERT_GT(blocked, 20u);
  EXPECT_GT(blocked_ok, blocked * 80 / 100) << blocked_ok << " of " << blocked;
}

// ---- What the app does on opening files and from the command line (issue 10), read from the
// layout file it writes (title, status, agents, each view's result), not from pixels.
namespace {

using pl::test::AppRun;

// Runs pathlab at 1280x800 with `args` (and --screenshot/--layout/--exit when `shot`).
AppRun run_app(const std::string& args, const std::string& name, bool shot = true) {
  return pl::test::run_app_at(PATHLAB_APP, args, "run_" + name, 1280, 800, shot, "pathlab_run_cfg");
}

pl::CellXY cell_at(double x, double y) { return {int(std::floor(x)), int(std::floor(y))}; }

}  // namespace

TEST(AppOpen, BareMapPutsTheAgentFarApartInTheLargestRegion) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const std::string map_path = PATHLAB_SHARED_DIR "/data/bg/AR0011SR.map";
  const AppRun r = run_app("--scene '" + map_path + "' --planner astar --frame end", "bare_map");
  ASSERT_EQ(r.status, 0) << r.err;
  const pl::GridMap map = pl::load_map(map_path);
  const pl::CapabilityMask cap = map.palette().movingai_default_capability();
  const auto want = pl::place_far_apart(map, cap);
  ASSERT_TRUE(want);
  ASSERT_EQ(r.layout.at("agents").size(), 1u);
  const auto& a = r.layout.at("agents")[0];
  EXPECT_EQ(cell_at(a[0], a[1]), want->start);
  EXPECT_EQ(cell_at(a[2], a[3]), want->goal);
  // The first search is a real one, not "start (0,0) is not traversable".
  EXPECT_TRUE(r.layout.at("views")[0].at("found").get<bool>()) << r.layout.at("views")[0].at("message");
  EXPECT_GT(r.layout.at("views")[0].at("length").get<double>(), 100.0);
  EXPECT_EQ(r.layout.at("title"), "AR0011SR.map - pathlab");
}

TEST(AppOpen, MapBesideItsScenarioOpensTheProblemList) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const std::string map_path = PATHLAB_SHARED_DIR "/data/dao/den312d.map";
  const AppRun r = run_app("--scene '" + map_path + "'", "map_scen");
  ASSERT_EQ(r.status, 0) << r.err;
  const pl::Scenario scen = pl::load_scen(map_path + ".scen");
  ASSERT_FALSE(scen.problems.empty());
  EXPECT_EQ(r.layout.at("scenario"), map_path + ".scen");
  const auto& a = r.layout.at("agents")[0];
  const pl::ScenProblem& p = scen.problems[0];
  EXPECT_EQ(cell_at(a[0], a[1]), (pl::CellXY{p.start_x, p.start_y}));
  EXPECT_EQ(cell_at(a[2], a[3]), (pl::CellXY{p.goal_x, p.goal_y}));
}

// File > Open reads the file on a worker thread (the window keeps drawing and offers Cancel):
// once read, the document is the new file; cancelled, it stays what it was; a bad file leaves
// it too and says why.
TEST(AppOpen, OpeningReadsInTheBackgroundAndCanBeCancelled) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const std::string map_path = PATHLAB_SHARED_DIR "/data/dao/brc202d.map";
  const AppRun opened = run_app("--open '" + map_path + "'", "open_bg");
  ASSERT_EQ(opened.status, 0) << opened.err;
  EXPECT_EQ(opened.layout.at("map"), (nlohmann::json{530, 481}));
  EXPECT_EQ(opened.layout.at("status").get<std::string>().rfind("opened " + map_path, 0), 0u)
      << opened.layout.at("status");

  const AppRun cancelled = run_app("--open '" + map_path + "' --cancel-open", "open_cancel");
  ASSERT_EQ(cancelled.status, 0) << cancelled.err;
  EXPECT_EQ(cancelled.layout.at("map"), (nlohmann::json{64, 40})) << "the sample stays open";
  EXPECT_NE(cancelled.layout.at("status").get<std::string>().find("cancelled"), std::string::npos)
      << cancelled.layout.at("status");

  const AppRun bad = run_app("--open /nonexistent/missing.map", "open_bad");
  ASSERT_EQ(bad.status, 0) << bad.err;
  EXPECT_EQ(bad.layout.at("map"), (nlohmann::json{64, 40}));
}

TEST(AppCommandLine, MissingSceneIsBadInput) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  // Interactive (no --exit) as a user types it, and automated: exit 2 naming the file, never
  // an empty 0 x 0 scene.
  for (const bool shot : {false, true}) {
    const AppRun r = run_app("--scene /nonexistent/missing.json", shot ? "missing_shot" : "missing", shot);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("/nonexistent/missing.json"), std::string::npos) << r.err;
  }
}

TEST(AppCompare, PathShorterThanTheOptimumForItsAgentIsInvalid) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  // A size-2 agent and a wall with a one-cell gap: plain A* ignores the size and goes through,
  // Annotated A* goes round. A's path is flagged with the cell the agent cannot enter.
  const auto file = std::filesystem::temp_directory_path() / "pathlab_run_gap.json";
  {
    std::ofstream f(file);
    f << R"({"pathlab_scene": 1, "map": {"width": 10, "height": 7, "rows": [
      "..........", "..........", "..........", "@@@@.@@@..", "..........", "..........", ".........."]},
      "agents": [{"size": 2, "start": [3.5, 0.5, 0], "goal": [3.5, 5.5, 0]}]})";
  }
  const AppRun r = run_app("--scene '" + file.string() + "' --planner astar --compare annotated-astar --frame end", "gap");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto& views = r.layout.at("views");
  ASSERT_EQ(views.size(), 2u);
  ASSERT_TRUE(views[0].at("found").get<bool>());
  ASSERT_TRUE(views[1].at("found").get<bool>());
  EXPECT_LT(views[0].at("length").get<double>(), views[1].at("length").get<double>());
  const std::string problem = views[0].at("path_problem");
  EXPECT_NE(problem.find("cell ("), std::string::npos) << problem;
  EXPECT_NE(problem.find("size 2"), std::string::npos) << problem;
  EXPECT_EQ(views[1].at("path_problem"), "");
}

TEST(AppTimeline, BreakpointSaysWhereItStoppedAndHighlightsTheCell) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  REQUIRE_CELLS_SPACE("astar");
  const pl::Scene scene = pl::load_scene(kSample);
  const AppRun r = run_app("--scene '" + kSample + "' --planner astar --break 38,18", "break");
  ASSERT_EQ(r.status, 0) << r.err;
  // The frame the trace says the cell is expanded at.
  const auto rep = replay(scene, "astar", 0);
  const pl::CellBreak b{38, 18, -1, false};
  const auto k = pl::find_break(rep->trace, 0, rep->trace.frame_count() - 1, std::span(&b, 1));
  ASSERT_TRUE(k);
  EXPECT_EQ(r.layout.at("views")[0].at("frame").get<std::size_t>(), *k);
  EXPECT_EQ(r.layout.at("stopped"), "stopped: (38, 18) expanded at frame " + std::to_string(*k));
  // The cell is highlighted: the highlight colour blended over it at its centre.
  int w = 0, h = 0, comp = 0;
  const std::string png = (std::filesystem::temp_directory_path() / "pathlab_run_break.png").string();
  unsigned char* data = stbi_load(png.c_str(), &w, &h, &comp, 4);
  ASSERT_NE(data, nullptr);
  const auto& v = r.layout.at("views")[0];
  pl::editor::Camera cam(v.at("viewport")[2], v.at("viewport")[3]);
  cam.set_view(v.at("zoom"), {v.at("offset")[0], v.at("offset")[1]});
  // A point of the outline half a cell out from the cell's edge (left of it).
  const pl::Vec2 s = cam.map_to_screen({38 - 0.5, 18.5});
  const int px = int(v.at("viewport")[0]) + int(s.x), py = int(v.at("viewport")[1]) + int(s.y);
  const unsigned char* p = &data[(std::size_t(py) * std::size_t(w) + std::size_t(px)) * 4];
  const pl::Rgba got{p[0], p[1], p[2], 255};
  stbi_image_free(data);
  EXPECT_TRUE(near(got, pl::Style::standard().colour(pl::Role::Highlight), 40))
      << int(got.r) << "," << int(got.g) << "," << int(got.b);
}

#endif  // PATHLAB_APP

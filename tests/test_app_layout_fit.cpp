// Space, text and names in the desktop app (issue 10 items 9, 11, 12), measured on the layout
// file the app writes (--layout): what ImGui had to clip in every window and table column
// (app/clip_report.hpp), the views' names and rectangles, the agent settings the views' planners
// read. Each case runs the real window under xvfb-run at 1280x800 and at 1024x640.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "app_run.hpp"
#include "planners/planner.hpp"

#ifdef PATHLAB_APP

namespace {

using pl::test::AppRun;
using pl::test::have_xvfb;

// Runs the app at w x h with `args` and reads its layout file.
AppRun run_app(const std::string& args, const std::string& name, int w, int h, const char* app = PATHLAB_APP) {
  return pl::test::run_app_at(app, args, "fit_" + name + "_" + std::to_string(w) + "x" + std::to_string(h), w, h,
                              true, "pathlab_fit_cfg");
}

// Nothing ImGui drew was clipped: every window's items within what it shows (or a scrollbar to
// reach them), every table column as wide as its cells and header need.
void expect_nothing_clipped(const AppRun& r) {
  ASSERT_TRUE(r.layout.contains("clip")) << r.cmd;
  const auto& clip = r.layout.at("clip");
  EXPECT_FALSE(clip.at("windows").empty());
  for (const auto& w : clip.at("windows"))
    EXPECT_FALSE(w.at("clipped").get<bool>()) << "window " << w.at("name") << " reaches " << w.at("reach")
                                               << " past " << w.at("clip") << "\n" << r.cmd;
  for (const auto& t : clip.at("tables"))
    for (const auto& c : t.at("columns"))
      EXPECT_FALSE(c.at("clipped").get<bool>()) << "column " << c.at("name") << " of a table in " << t.at("window")
                                                << " needs " << c.at("needed") << " px, has " << c.at("width")
                                                << "\n" << r.cmd;
  // Titles and legends drawn over the views stay inside their view.
  for (const auto& t : r.layout.at("view_texts"))
    EXPECT_TRUE(t.at("inside").get<bool>()) << t.at("what") << " at " << t.at("rect") << "\n" << r.cmd;
}

const std::string kSample = PATHLAB_SOURCE_DIR "/assets/sample.json";
const std::string kCircles = PATHLAB_SOURCE_DIR "/assets/circles.json";
const std::string kMaze = PATHLAB_SHARED_DIR "/data/maze/maze512-4-0.map";
constexpr int kSizes[][2] = {{1280, 800}, {1024, 640}};

}  // namespace

TEST(AppLayoutFit, ComparedViewsWithFiguresClipNothing) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  for (const auto& s : kSizes) {
    const AppRun r = run_app("--scene '" + kSample + "' --planner annotated-astar --compare haa:quality=lq "
                          "--compare astar --figures --frame 40 --break 38,18",
                          "compare3", s[0], s[1]);
    ASSERT_EQ(r.status, 0) << r.cmd;
    expect_nothing_clipped(r);
  }
}

TEST(AppLayoutFit, OpenListAndBreakpointsClipNothing) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  // The side column scrolled to its end: the counters, the node being expanded, the breakpoints
  // and the open list (a table that is not laid out while scrolled out of sight).
  // HAA*'s nodes are named by their planner; A* stops at a breakpoint and lists them.
  // Frame 150 of HAA* is inside a searched insertion; the default (cached) insertion runs no
  // search there, so its trace is shorter and this run asks for the searched one.
  // Frame 40 of the default HAA* is in its abstract search, whose nodes' names ("abstract graph
  // 105") are wider than the column at 1024 pixels: they are cut at the front, not clipped.
  const std::pair<const char*, const char*> runs[] = {
      {"haa --set insertion=auto", "--frame 150"},
      {"haa", "--frame 40"},
      {"astar", "--break 38,18 --break 50,20,opened"}};
  int n = 0;
  for (const auto& [planner, where] : runs)
    for (const auto& s : kSizes) {
      const AppRun r = run_app("--scene '" + kSample + "' --planner " + planner + " " + where + " --side-scroll end",
                               "open_" + std::to_string(n++), s[0], s[1]);
      ASSERT_EQ(r.status, 0) << r.cmd;
      expect_nothing_clipped(r);
      bool open_list = false;
      for (const auto& t : r.layout.at("clip").at("tables"))
        for (const auto& c : t.at("columns"))
          if (c.at("name") == "node") open_list = true;
      EXPECT_TRUE(open_list) << "the open list was not laid out: " << r.cmd;
    }
}

TEST(AppLayoutFit, CirclesEagerAgainstLazyClipNothing) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  for (const auto& s : kSizes) {
    const AppRun r = run_app("--scene '" + kCircles + "' --planner circles --set mode=eager --compare circles --frame 20",
                          "circles", s[0], s[1]);
    ASSERT_EQ(r.status, 0) << r.cmd;
    expect_nothing_clipped(r);
  }
}

TEST(AppLayoutFit, EditAndDisplayTabsClipNothing) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  for (const char* tab : {"edit", "display"})
    for (const auto& s : kSizes) {
      const AppRun r = run_app("--scene '" + kSample + "' --planner haa --tab " + tab, std::string("tab_") + tab, s[0], s[1]);
      ASSERT_EQ(r.status, 0) << r.cmd;
      expect_nothing_clipped(r);
    }
}

TEST(AppLayoutFit, ScenarioListIsInTheSideColumnAndHidesNoView) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  for (const auto& s : kSizes) {
    const AppRun r = run_app("--scene '" + kMaze + "' --planner astar --compare dijkstra", "maze", s[0], s[1]);
    ASSERT_EQ(r.status, 0) << r.cmd;
    EXPECT_EQ(r.layout.at("scenario"), kMaze + ".scen");
    expect_nothing_clipped(r);
    // No window but the side column, the status bar, the compare table and the menu bar; none
    // of them over a view.
    const double scale = 1.0;  // xvfb: framebuffer pixels are ImGui units
    for (const auto& w : r.layout.at("clip").at("windows")) {
      const std::string name = w.at("name");
      EXPECT_TRUE(name == "Side" || name == "##status" || name == "##compare" || name == "##MainMenuBar" ||
                  name.rfind("Side/", 0) == 0 || name.rfind("##compare/", 0) == 0)
          << "window " << name;
      if (name.find('/') != std::string::npos) continue;  // a child (a scrolling table) inside its parent
      const double wx = w.at("rect")[0].get<double>() * scale, wy = w.at("rect")[1].get<double>() * scale;
      const double ww = w.at("rect")[2].get<double>() * scale, wh = w.at("rect")[3].get<double>() * scale;
      for (const auto& v : r.layout.at("views")) {
        const double vx = v.at("viewport")[0], vy = v.at("viewport")[1];
        const double vw = v.at("viewport")[2], vh = v.at("viewport")[3];
        const bool overlap = wx + 0.5 < vx + vw && vx + 0.5 < wx + ww && wy + 0.5 < vy + vh && vy + 0.5 < wy + wh;
        EXPECT_FALSE(overlap) << "window " << name << " covers a view at " << s[0] << "x" << s[1];
      }
    }
  }
}

TEST(AppLayoutFit, ViewsFitTheirRectangleWithTheFiguresTableOpen) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  for (const auto& s : kSizes) {
    const AppRun r = run_app("--scene '" + kSample + "' --planner astar --compare haa --compare dijkstra --figures "
                          "--frame end",
                          "refit", s[0], s[1]);
    ASSERT_EQ(r.status, 0) << r.cmd;
    const double mw = r.layout.at("map")[0], mh = r.layout.at("map")[1];
    ASSERT_EQ(r.layout.at("views").size(), 3u);
    for (const auto& v : r.layout.at("views")) {
      const double vx = 0, vy = 0, vw = v.at("viewport")[2], vh = v.at("viewport")[3];
      const double z = v.at("zoom"), ox = v.at("offset")[0], oy = v.at("offset")[1];
      // The whole map inside the view (what a fit does) ...
      EXPECT_GE(ox, vx - 0.5);
      EXPECT_GE(oy, vy - 0.5);
      EXPECT_LE(ox + mw * z, vx + vw + 0.5) << s[0] << "x" << s[1];
      EXPECT_LE(oy + mh * z, vy + vh + 0.5) << s[0] << "x" << s[1];
      // ... and filling it along one side but for the fit's margin.
      EXPECT_TRUE(mw * z >= vw - 40 || mh * z >= vh - 40)
          << "map " << mw * z << "x" << mh * z << " in a view of " << vw << "x" << vh;
    }
  }
}

TEST(AppNames, ViewsAreNamedByWhatDiffers) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const AppRun r = run_app("--scene '" + kSample + "' --planner haa --compare haa:quality=lq --compare astar",
                        "names", 1280, 800);
  ASSERT_EQ(r.status, 0) << r.cmd;
  const auto& views = r.layout.at("views");
  ASSERT_EQ(views.size(), 3u);
  // Two HAA* views differ in quality: each says its own, the default one too.
  EXPECT_EQ(views[0].at("name"), "haa quality=hq");
  EXPECT_EQ(views[1].at("name"), "haa quality=lq");
  EXPECT_EQ(views[2].at("name"), "astar");
  // HAA* and A* read the agent's size and terrains, no planner here its radius or turns.
  const auto& read = r.layout.at("agent_inputs_read");
  auto has = [&](const char* k) { return std::find(read.begin(), read.end(), k) != read.end(); };
  EXPECT_TRUE(has("size"));
  EXPECT_TRUE(has("capability"));
  EXPECT_FALSE(has("radius"));
  EXPECT_FALSE(has("turning radius"));
  EXPECT_FALSE(has("headings"));
  EXPECT_FALSE(has("reverse"));
}

#endif  // PATHLAB_APP

// The registry declares what of the agent each planner reads, in each planner's registration.
TEST(PlannerRegistry, PlannersDeclareWhatOfTheAgentTheyRead) {
  const pl::Registry& reg = pl::Registry::builtin();
  auto reads = [&](const char* planner, pl::AgentInput in) {
    const pl::PlannerInfo* info = reg.find(planner);
    EXPECT_NE(info, nullptr) << planner;
    return info && pl::reads(info->agent_inputs, in);
  };
  EXPECT_TRUE(reads("annotated-astar", pl::AgentInput::Size));
  EXPECT_TRUE(reads("haa", pl::AgentInput::Size));
  EXPECT_FALSE(reads("astar", pl::AgentInput::Size));
  EXPECT_TRUE(reads("astar", pl::AgentInput::Capability));
  EXPECT_TRUE(reads("circles", pl::AgentInput::Radius));
  EXPECT_FALSE(reads("circles", pl::AgentInput::Capability));
  const std::vector<std::string> size_readers = reg.readers_of(pl::AgentInput::Size);
  EXPECT_EQ(size_readers, (std::vector<std::string>{"annotated-astar", "haa", "directional", "astar-turns", "hybrid"}));
  // Every planner reads something of the agent (a grid planner at least its capability): one
  // that declared nothing would grey out every agent control.
  for (const pl::PlannerInfo& p : reg.all()) EXPECT_NE(p.agent_inputs, 0u) << p.name;
  EXPECT_TRUE(reads("jps", pl::AgentInput::Capability));
  EXPECT_TRUE(reads("theta", pl::AgentInput::Capability));
  // Every parameter has words to show: its label, or its name with spaces.
  for (const pl::PlannerInfo& p : reg.all())
    for (const pl::ParamDesc& d : p.params) {
      EXPECT_FALSE(d.words().empty());
      EXPECT_EQ(d.words().find('_'), std::string::npos) << p.name << " " << d.name;
    }
}

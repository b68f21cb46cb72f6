// pathlab's command line: what it asks for (Options), and setting an App up from it.
//
//   pathlab [--scene FILE] [--planner P] [--compare P2]... [--frame N|end]
//           [--break X,Y[,opened]]... [--screenshot OUT.png] [--exit] [--size WxH] [--clearance]
//           [--bench-frames N]
//
// --compare P2 adds a view with planner P2 beside the first (repeatable); every view runs.
//
// --bench-frames N renders N frames without vsync, each timed from the start of the frame to
// after glFinish (CPU and GPU work), prints "frames N mean_ms X p95_ms Y" and exits.
// --zoom Z (or --bench-zoom Z) zooms the views by Z from the fitted view (about the centre);
// --bench-scrub jumps to a different, pseudo-random frame of the timeline every frame (the
// worst case for the search texture, rebuilt on every frame change). --bench-log FILE writes
// each frame's times (wall, main thread CPU, process CPU, in ms) and the jumps it showed (a
// scrub's landed background seeks), one frame a line, to find the frames behind a p95.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/geometry.hpp"
#include "viz/timeline.hpp"

namespace pl::app {

struct App;

struct Options {
  std::string scene = PATHLAB_SOURCE_DIR "/assets/sample.json";
  bool scene_given = false;  // --scene was on the command line: a file that fails to open is exit 2
  // --open FILE: once started, open FILE as File > Open does (read on a worker thread);
  // --cancel-open: and cancel that at once (tests of both paths).
  std::string open;
  bool cancel_open = false;
  std::string planner;
  std::vector<std::string> compare;
  std::vector<std::string> sets;  // NAME=VALUE for view A's planner
  std::string preset;
  bool figures = false;  // --figures: the compare table lists every planner figure
  bool side_scroll_end = false;  // --side-scroll end: the side column scrolled to its end
  int tab = -1;          // --tab: the side column's tab to show (0 Plan, 1 Edit, 2 Display)
  std::string hide;  // planner shape roles to hide, comma separated ("accepted,rejected")
  std::string frame;  // "", a number or "end"
  double drive_time = -1;  // --drive-time T: every view's agent shown T seconds into its drive
  // --break X,Y[,opened]: a breakpoint on the cell (expanded unless "opened"); with the runs in,
  // the timeline runs from the start to the first one that fires (as "run to breakpoint").
  std::vector<CellBreak> breaks;
  std::string screenshot;
  std::string layout;  // with --screenshot: where each view and its camera were (for tests)
  int shot_frame = 3;  // --shot-frame N: the screenshot is taken on frame N (or once runs end)
  bool exit_after = false;
  bool clearance = false;
  int bench_frames = 0;
  double bench_zoom = 0;
  bool bench_scrub = false;
  double bench_pan = 0;  // --bench-pan PIXELS: each benchmarked frame pans view 0 this far
  std::string bench_log;
  bool redraw_views = false;  // --redraw-views: no view reuses its last picture (UiSettings)
  bool g_heat = false;
  std::optional<Vec2> center;  // map point to centre the views on
  int width = 1280, height = 800;

  bool bench() const { return bench_frames > 0; }
  // Benchmarks run like automated screenshots: no saved layout, no pointer, the run awaited.
  bool headless() const { return (!screenshot.empty() && exit_after) || bench(); }
};

// Exits with status 2 and the usage text on a bad command line.
Options parse_command_line(int argc, char** argv);
[[noreturn]] void usage(const char* problem);

// The file in the user's config dir (settings, ImGui's layout).
std::string config_file(const char* name);

// Sets a fresh App up as the options ask (saved settings unless headless, display options, the
// scene, the views' set-ups, a preset; runs, awaited when headless) once the GL context exists.
// 0 to go on; else the program stops with this status (the message is printed): 2 for a
// --scene that cannot be opened (bad input, as pathlab-cli), 1 when GL fails.
int setup_app(App& app, const Options& opt);
// Seeks to --frame N once the runs are in.
void seek_requested_frame(App& app, const Options& opt);

}  // namespace pl::app

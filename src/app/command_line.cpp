#include "app/command_line.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <utility>

#include "app/app.hpp"
#include "editor/config_dir.hpp"

namespace pl::app {

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "pathlab: %s\nusage: pathlab [--scene FILE] [--open FILE [--cancel-open]] [--planner P] [--set K=V]... [--compare P2[:K=V,...]]... "
               "[--preset ID] [--hide ROLE,...] [--frame N|end] [--drive-time T] [--break X,Y[,opened]]... "
               "[--tab plan|edit|display] [--side-scroll end] [--screenshot OUT.png [--shot-frame N]] [--layout OUT.json] [--exit] [--size WxH] [--clearance] "
               "[--zoom Z] [--center X,Y] [--g-heat] [--bench-frames N [--bench-scrub | --bench-pan PIXELS] [--bench-log FILE]] [--redraw-views]\n",
               problem);
  std::exit(2);
}

Options parse_command_line(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--scene") o.scene = value(), o.scene_given = true;
    else if (a == "--open") o.open = value();
    else if (a == "--cancel-open") o.cancel_open = true;
    else if (a == "--planner") o.planner = value();
    else if (a == "--compare") o.compare.push_back(value());
    else if (a == "--set") o.sets.push_back(value());
    else if (a == "--preset") o.preset = value();
    else if (a == "--figures") o.figures = true;
    else if (a == "--side-scroll") {
      if (value() != "end") usage("--side-scroll wants end");
      o.side_scroll_end = true;
    }
    else if (a == "--tab") {
      const std::string v = value();
      o.tab = v == "plan" ? 0 : v == "edit" ? 1 : v == "display" ? 2 : -2;
      if (o.tab == -2) usage("--tab wants plan, edit or display");
    }
    else if (a == "--hide") o.hide = value();
    else if (a == "--frame") o.frame = value();
    else if (a == "--drive-time") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%lf", &o.drive_time) != 1 || !(o.drive_time >= 0) || !std::isfinite(o.drive_time))
        usage("--drive-time wants seconds >= 0");
    }
    else if (a == "--screenshot") o.screenshot = value();
    else if (a == "--layout") o.layout = value();
    else if (a == "--exit") o.exit_after = true;
    else if (a == "--clearance") o.clearance = true;
    else if (a == "--bench-scrub") o.bench_scrub = true;
    else if (a == "--bench-pan") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%lf", &o.bench_pan) != 1 || !(o.bench_pan > 0) || !(o.bench_pan < 1e4))
        usage("--bench-pan wants pixels a frame, above 0 and below 10000");
    }
    else if (a == "--bench-log") o.bench_log = value();
    else if (a == "--redraw-views") o.redraw_views = true;
    else if (a == "--shot-frame") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%d", &o.shot_frame) != 1 || o.shot_frame < 1)
        usage("--shot-frame wants a positive number");
    }
    else if (a == "--g-heat") o.g_heat = true;
    else if (a == "--break") {
      const std::string v = value();
      CellBreak b;
      char what[16] = "";
      const int n = std::sscanf(v.c_str(), "%d,%d,%15s", &b.x, &b.y, what);
      if (n < 2 || b.x < 0 || b.y < 0 || (n == 3 && std::string(what) != "opened"))
        usage("--break wants X,Y or X,Y,opened (a cell)");
      b.on_open = n == 3;
      o.breaks.push_back(b);
    }
    else if (a == "--center") {
      const std::string v = value();
      double cx = 0, cy = 0;
      if (std::sscanf(v.c_str(), "%lf,%lf", &cx, &cy) != 2) usage("--center wants X,Y in map units");
      o.center = Vec2{cx, cy};
    }
    else if (a == "--zoom" || a == "--bench-zoom") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%lf", &o.bench_zoom) != 1 || !(o.bench_zoom > 0))
        usage("--zoom wants a positive factor");
    }
    else if (a == "--bench-frames") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%d", &o.bench_frames) != 1 || o.bench_frames < 1)
        usage("--bench-frames wants a positive number");
    }
    else if (a == "--size") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width < 64 ||
          o.height < 64)
        usage("--size wants WxH, at least 64x64");
    } else if (a == "--help" || a == "-h") usage("help");
    else usage(("unknown argument " + a).c_str());
  }
  if (!o.frame.empty() && o.frame != "end" &&
      o.frame.find_first_not_of("0123456789") != std::string::npos)
    usage("--frame wants a number or 'end'");
  return o;
}

std::string config_file(const char* name) {
  return (std::filesystem::path(editor::config_dir()) / name).string();
}

void seek_requested_frame(App& app, const Options& opt) {
  if (!opt.frame.empty() && opt.frame != "end") app.seek_all(std::size_t(std::stoull(opt.frame)));
  if (opt.drive_time >= 0) {
    app.views.drive.show = true;
    app.views.drive.time = opt.drive_time;
  }
  if (!opt.breaks.empty() && app.view().cursor) {
    app.seek_all(0);
    if (const auto hit = app.next_break(app.view())) app.stop_at(app.view(), *hit);
  }
}

namespace {

// --hide ROLE,...: planner shapes of these roles are hidden.
void hide_roles(App& app, const std::string& list) {
  for (std::size_t pos = 0; pos < list.size();) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    const std::string name = list.substr(pos, end - pos);
    bool known = false;
    for (std::size_t r = 0; r < std::size_t(Role::Count); ++r)
      if (name == role_name(Role(r))) app.ui.hidden_roles.set(r), known = true;
    if (!known) usage(("--hide: unknown role " + name).c_str());
    pos = end + 1;
  }
}

// "NAME[:K=V,K=V]" -> planner and parameters.
std::pair<std::string, std::map<std::string, std::string>> split_setup(const std::string& text) {
  std::pair<std::string, std::map<std::string, std::string>> out;
  const std::size_t colon = text.find(':');
  out.first = text.substr(0, colon);
  if (colon != std::string::npos) {
    std::string rest = text.substr(colon + 1);
    std::size_t pos = 0;
    while (pos <= rest.size()) {
      std::size_t end = rest.find(',', pos);
      if (end == std::string::npos) end = rest.size();
      const std::string kv = rest.substr(pos, end - pos);
      const std::size_t eq = kv.find('=');
      if (eq == std::string::npos) usage(("--compare: '" + kv + "' is not K=V").c_str());
      out.second[kv.substr(0, eq)] = kv.substr(eq + 1);
      pos = end + 1;
    }
  }
  return out;
}

// Checks a set-up against the registry's descriptions (the same messages as pathlab-cli).
void check_setup(const std::string& name, const std::map<std::string, std::string>& params) {
  try {
    registry().create(name, params);
  } catch (const std::exception& e) {
    usage(e.what());
  }
}

// --planner, --set, --compare: replace the scene's saved views.
void apply_setups(App& app, const Options& opt) {
  std::map<std::string, std::string> a_params;
  for (const std::string& kv : opt.sets) {
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos) usage(("--set: '" + kv + "' is not K=V").c_str());
    a_params[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const std::string& c : opt.compare) {
    const auto [name, params] = split_setup(c);
    check_setup(name, params);
  }
  if (!opt.planner.empty() && !registry().find(opt.planner))
    usage(("unknown planner " + opt.planner).c_str());
  // A set-up on the command line replaces the scene's saved views: view A runs --planner (or
  // the scene's first set-up), one more view per --compare, all for the first view's agent.
  if (!opt.planner.empty() || !opt.compare.empty() || !opt.sets.empty()) {
    while (app.views.size() > 1) app.views.list.pop_back();
    app.views.active = 0;
    if (!opt.planner.empty()) app.view().select_planner(opt.planner);
    for (const auto& [k, val] : a_params) app.view().params[k] = val;
    check_setup(app.view().planner, app.view().params);
    for (const std::string& c : opt.compare) {
      const auto [name, params] = split_setup(c);
      View& v = app.add_view(name);
      for (const auto& [k, val] : params) v.params[k] = val;
    }
  }
  app.views.active = 0;
  if (!opt.preset.empty() && !apply_preset(app, opt.preset)) {
    std::string known;
    for (const std::string& id : preset_ids()) known += " " + id;
    usage(("unknown preset " + opt.preset + " (known:" + known + ")").c_str());
  }
}

}  // namespace

int setup_app(App& app, const Options& opt) {
  const bool headless = opt.headless();
  app.ui.ignore_input = headless;
  // Saved settings first, so the command line wins over them.
  if (!headless) load_settings(app, config_file("settings.json"));
  app.ui.redraw_views = opt.redraw_views;
  if (opt.clearance || opt.g_heat) {
    app.ui.show_clearance = opt.clearance && !opt.g_heat;
    app.ui.show_g_heat = opt.g_heat;
  }
  app.ui.compare_figures = opt.figures;
  if (opt.tab >= 0) app.ui.side_tab_request = opt.tab;
  app.ui.side_scroll_end = opt.side_scroll_end;
  hide_roles(app, opt.hide);
  app.views.run_on_open = !headless;
  try {
    app.views[0]->renderer = std::make_unique<MapRenderer>();  // fails early if GL does
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pathlab: %s\n", e.what());
    return 1;
  }
  if (!app.load(opt.scene)) {
    std::fprintf(stderr, "pathlab: %s\n", app.document.load_error.c_str());
    // A file the user named is bad input; the bundled sample missing is not: an empty scene.
    if (opt.scene_given || headless) return 2;
    app.new_scene();
  }
  apply_setups(app, opt);
  app.views.breakpoints = opt.breaks;  // after the load, which clears them
  // Interactive starts show the scene's views already run; automated ones run only when asked.
  if (!opt.planner.empty() || !opt.frame.empty() || !opt.compare.empty() || !opt.preset.empty() ||
      !opt.sets.empty() || !opt.breaks.empty() || !headless) {
    app.start_all_runs();
    if (headless) {
      for (auto& v : app.views) v->run->join();
      app.poll_runs();
      seek_requested_frame(app, opt);
    }
  }
  if (!opt.open.empty()) {
    app.request_open(opt.open);
    if (opt.cancel_open) app.cancel_background_load();
  }
  return 0;
}

}  // namespace pl::app

#include "app/automation.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include <time.h>

// clang-format off: glad must come before GLFW
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on

#include "app/app.hpp"
#include "app/clip_report.hpp"
#include "app/frame.hpp"

namespace pl::app {

namespace {

// A JSON string literal.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else
      out += c;
  }
  return out + "\"";
}

// The views' rectangles (framebuffer pixels, y down) and cameras, so screenshot tests map
// cells to pixels with exactly the app's numbers instead of re-deriving its layout; and what
// the window says (title, status, the agents' endpoints, each view's result), so tests check
// the app's state without reading text off pixels.
bool write_layout(const std::string& path, const App& app, int fb_w, int fb_h) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(
      f,
      "{\"framebuffer\": [%d, %d], \"title\": %s, \"status\": %s, \"scenario\": %s, \"agents\": [",
      fb_w, fb_h, quoted(window_title(app)).c_str(), quoted(app.document.status_message).c_str(),
      quoted(app.document.scenario ? app.document.scenario_path : std::string()).c_str());
  for (std::size_t i = 0; i < app.scene().agents.size(); ++i) {
    const Agent& a = app.scene().agents[i];
    std::fprintf(f, "%s[%.17g, %.17g, %.17g, %.17g]", i ? ", " : "", a.start.x, a.start.y, a.goal.x,
                 a.goal.y);
  }
  // What of the agent the views' planners read (the agent settings not greyed out).
  std::fprintf(f, "], \"map\": [%d, %d], \"agent_inputs_read\": [", app.scene().map.width(),
               app.scene().map.height());
  const AgentInputs read = views_agent_inputs(app);
  const std::pair<AgentInput, const char*> inputs[] = {
      {AgentInput::Capability, "capability"}, {AgentInput::Size, "size"},
      {AgentInput::Radius, "radius"},         {AgentInput::TurningRadius, "turning radius"},
      {AgentInput::Headings, "headings"},     {AgentInput::Reverse, "reverse"}};
  bool first = true;
  for (const auto& [input, name] : inputs)
    if (reads(read, input)) std::fprintf(f, "%s\"%s\"", first ? "" : ", ", name), first = false;
  const std::vector<std::string> names = view_names(app);
  std::fprintf(f, "], \"stopped\": %s, \"views\": [",
               quoted(app.views.stopped ? app.views.stopped->text : std::string()).c_str());
  for (std::size_t i = 0; i < app.views.size(); ++i) {
    const View& v = *app.views[i];
    // The agent driving this view's path (panel_drive.cpp), at the drive clock.
    const DriveProfile& drive = v.drive.profile;
    const Pose pose = v.drive.built && drive.valid() ? drive.pose_at(app.views.drive.time) : Pose{};
    // What the compare table measures this view's length against.
    const CompareBaseline cb = compare_baseline(app, v);
    // The view's map layer (MapRenderer::layer_stats); last: the frame drawn came through it.
    const MapRenderer::LayerStats layer =
        v.renderer ? v.renderer->layer_stats() : MapRenderer::LayerStats{};
    std::fprintf(
        f,
        "%s{\"name\": %s, \"viewport\": [%d, %d, %d, %d], \"zoom\": %.17g, \"offset\": [%.17g, "
        "%.17g], "
        "\"planner\": \"%s\", \"frame\": %zu, \"found\": %s, \"length\": %.17g, \"message\": %s, "
        "\"path_problem\": %s, \"travel_time\": %.17g, \"drive_pose\": [%.17g, %.17g, %.17g], "
        "\"phase\": %s, "
        "\"baseline\": {\"length\": %.17g, \"optimal\": %s, \"any_angle\": %s}, "
        "\"layer\": {\"draws\": %llu, \"partial\": %llu, \"direct\": %llu, \"last\": %s}}",
        i ? ", " : "", quoted(names[i]).c_str(), v.viewport.x, v.viewport.y, v.viewport.width,
        v.viewport.height, v.camera.zoom(), v.camera.offset().x, v.camera.offset().y,
        v.planner.c_str(), v.cursor ? v.cursor->frame() : std::size_t(0),
        v.result.found ? "true" : "false", v.result.length, quoted(v.result.message).c_str(),
        quoted(v.path_problem).c_str(), drive.valid() ? drive.travel_time() : -1.0, pose.x, pose.y,
        pose.heading,
        quoted(v.cursor ? std::string(v.cursor->state().phase()) : std::string()).c_str(),
        cb.length, cb.optimum ? "true" : "false", cb.any_angle ? "true" : "false",
        static_cast<unsigned long long>(layer.draws), static_cast<unsigned long long>(layer.partial),
        static_cast<unsigned long long>(layer.direct), layer.last_from_layer ? "true" : "false");
  }
  // What ImGui had to clip (app/clip_report.hpp) and whether the text drawn over the views
  // stays in its view: tests assert nothing is clipped.
  std::fprintf(f, "], \"panel_frame\": %ld, \"clip\": %s, \"view_texts\": [", app.ui.panel_frame,
               clip_report_json().c_str());
  for (std::size_t i = 0; i < app.ui.drawn_texts.size(); ++i) {
    const UiSettings::DrawnText& t = app.ui.drawn_texts[i];
    const bool inside = t.x >= t.vx - 0.5f && t.y >= t.vy - 0.5f &&
                        t.x + t.w <= t.vx + t.vw + 0.5f && t.y + t.h <= t.vy + t.vh + 0.5f;
    std::fprintf(f, "%s{\"what\": %s, \"rect\": [%.1f, %.1f, %.1f, %.1f], \"inside\": %s}",
                 i ? ", " : "", quoted(t.what).c_str(), t.x, t.y, t.w, t.h,
                 inside ? "true" : "false");
  }
  std::fprintf(f, "]}\n");
  return std::fclose(f) == 0;
}

}  // namespace

Automation::Automation(const Options& opt) : opt_(opt), frames_left_(opt.shot_frame) {
  if (!opt.bench()) return;
  frame_ms_.reserve(std::size_t(opt.bench_frames));
  cpu_ms_.reserve(std::size_t(opt.bench_frames));
  process_ms_.reserve(std::size_t(opt.bench_frames));
  jumps_shown_.reserve(std::size_t(opt.bench_frames));
}

namespace {
// CPU time of the calling thread, or of the whole process, in milliseconds.
double cpu_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}
}  // namespace

void Automation::frame_begin() {
  frame_start_ = std::chrono::steady_clock::now();
  if (!opt_.bench()) return;
  frame_cpu_start_ = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
  frame_process_start_ = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
}

void Automation::adjust_views(App& app) {
  if ((opt_.bench_zoom > 0 || opt_.center) && !zoomed_) {  // once, after the first fit
    zoomed_ = true;
    View& v0 = *app.views[0];
    if (opt_.bench_zoom > 0)
      v0.camera.zoom_at({v0.viewport.width * 0.5, v0.viewport.height * 0.5}, opt_.bench_zoom);
    if (opt_.center) v0.camera.center_on(*opt_.center);
    app.sync_cameras(0);
  }
  if (opt_.bench() && opt_.bench_pan > 0) {
    // A drag to and fro: 40 frames one way, 40 back, so the view stays over the same part of
    // the map and every frame moves (no view can reuse its last picture).
    const double dir = (pan_frames_++ / 40) % 2 == 0 ? 1.0 : -1.0;
    app.views[0]->camera.pan({dir * opt_.bench_pan, 0.5 * dir * opt_.bench_pan});
    app.sync_cameras(0);
  }
}

void Automation::move_timeline(App& app) {
  if (opt_.bench() && opt_.bench_scrub && app.view().cursor) {
    lcg_ = lcg_ * 6364136223846793005ull + 1442695040888963407ull;
    const auto t0 = std::chrono::steady_clock::now();
    app.scrub_to(std::size_t((lcg_ >> 33) % (timeline_last(app) + 1)));
    seek_ms_ +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
}

bool Automation::after_render(App& app, GLFWwindow* window, const FrameSize& fb) {
  bool ok = true;
  const bool busy = app.any_run() || app.background_load;
  if (!opt_.screenshot.empty() && frames_left_ > 0 && --frames_left_ == 0 && !busy) {
    if (!write_region(opt_.screenshot, 0, 0, fb.width, fb.height)) {
      std::fprintf(stderr, "pathlab: could not write %s\n", opt_.screenshot.c_str());
      ok = false;
    }
    if (!opt_.layout.empty() && !write_layout(opt_.layout, app, fb.width, fb.height)) {
      std::fprintf(stderr, "pathlab: could not write %s\n", opt_.layout.c_str());
      ok = false;
    }
    if (opt_.exit_after) glfwSetWindowShouldClose(window, GLFW_TRUE);
  } else if (frames_left_ == 0 && busy) {
    frames_left_ = 1;
  }
  return ok;
}

void Automation::frame_end(GLFWwindow* window, const App& app) {
  if (!opt_.bench()) return;
  glFinish();
  const auto frame_end = std::chrono::steady_clock::now();
  frame_ms_.push_back(std::chrono::duration<double, std::milli>(frame_end - frame_start_).count());
  cpu_ms_.push_back(cpu_ms(CLOCK_THREAD_CPUTIME_ID) - frame_cpu_start_);
  process_ms_.push_back(cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - frame_process_start_);
  jumps_shown_.push_back(app.seek_stats.shown);
  if (int(frame_ms_.size()) >= opt_.bench_frames) glfwSetWindowShouldClose(window, GLFW_TRUE);
}

void Automation::report(const App& app) const {
  if (!opt_.bench() || frame_ms_.empty()) return;
  auto mean_p95 = [](std::vector<double> v) {
    double sum = 0;
    for (double ms : v) sum += ms;
    std::sort(v.begin(), v.end());
    const std::size_t i95 = std::min(v.size() - 1, std::size_t(double(v.size()) * 0.95));
    return std::pair{sum / double(v.size()), v[i95]};
  };
  const auto [mean, p95] = mean_p95(frame_ms_);
  const auto [cpu_mean, cpu_p95] = mean_p95(cpu_ms_);
  const auto [all_mean, all_p95] = mean_p95(process_ms_);
  // The map layers of the views (MapRenderer::layer_stats): frames drawn through them, the
  // share of their pixels the terrain pass shaded, and frames drawn past them.
  MapRenderer::LayerStats layers;
  for (const auto& v : app.views)
    if (v->renderer) {
      const MapRenderer::LayerStats& l = v->renderer->layer_stats();
      layers.draws += l.draws, layers.pixels += l.pixels, layers.view_pixels += l.view_pixels;
      layers.direct += l.direct;
    }
  std::printf(
      "frames %zu mean_ms %.3f p95_ms %.3f cpu_mean_ms %.3f cpu_p95_ms %.3f "
      "process_cpu_mean_ms %.3f process_cpu_p95_ms %.3f seek_mean_ms %.3f "
      "background_seeks %zu background_seek_mean_ms %.3f layer_draws %llu layer_shaded %.3f "
      "layer_direct %llu\n",
      frame_ms_.size(), mean, p95, cpu_mean, cpu_p95, all_mean, all_p95,
      seek_ms_ / double(frame_ms_.size()), app.seek_stats.shown,
      app.seek_stats.shown ? app.seek_stats.worker_ms / double(app.seek_stats.shown) : 0.0,
      static_cast<unsigned long long>(layers.draws),
      layers.view_pixels ? double(layers.pixels) / double(layers.view_pixels) : 0.0,
      static_cast<unsigned long long>(layers.direct));
  std::fflush(stdout);
  if (opt_.bench_log.empty()) return;
  std::FILE* f = std::fopen(opt_.bench_log.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "pathlab: could not write %s\n", opt_.bench_log.c_str());
    return;
  }
  std::fprintf(f, "frame wall_ms cpu_ms process_cpu_ms jump_shown\n");
  for (std::size_t i = 0; i < frame_ms_.size(); ++i)
    std::fprintf(f, "%zu %.3f %.3f %.3f %d\n", i, frame_ms_[i], cpu_ms_[i], process_ms_[i],
                 int(jumps_shown_[i] - (i ? jumps_shown_[i - 1] : 0)));
  std::fclose(f);
}

}  // namespace pl::app

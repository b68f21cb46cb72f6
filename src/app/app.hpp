// The desktop app's state and its panels (one function and file per panel, DESIGN.md section 8).
// The model lives in core/planners/viz/editor; this holds what the UI adds: the loaded scene,
// the map camera, the planner selection, a run on a worker thread and the trace being shown.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/renderer.hpp"
#include "core/clearance.hpp"
#include "core/scene.hpp"
#include "editor/camera.hpp"
#include "planners/planner.hpp"
#include "viz/draw.hpp"
#include "viz/trace.hpp"

namespace pl::app {

// A planner run on a worker thread. The UI polls finished(); the Trace moves to the app then.
class Run {
 public:
  Run(const Scene& scene, std::string planner, std::map<std::string, std::string> params,
      int agent);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  bool finished() const { return done_.load(std::memory_order_acquire); }
  float progress() const { return progress_.load(std::memory_order_relaxed); }
  void cancel() { cancel_.store(true, std::memory_order_relaxed); }
  // Waits for the worker; then the result and trace may be taken.
  void join();
  const std::string& planner() const { return planner_; }

  PlanResult result;
  std::unique_ptr<Trace> trace;
  std::string error;  // exception text, if the planner threw

 private:
  Scene scene_;
  std::string planner_;
  std::map<std::string, std::string> params_;
  int agent_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::atomic<float> progress_{0};
  std::thread worker_;
};

struct App {
  Scene scene;
  std::string scene_path;
  std::string load_error;

  // Map view.
  editor::Camera camera;
  Viewport map_viewport;
  bool fit_pending = true;
  std::unique_ptr<MapRenderer> renderer;
  bool terrain_dirty = true;
  DrawList draw_list;
  bool grid_lines = true;
  bool show_agents = true;
  bool show_parent_arrows = false;
  std::optional<Vec2> hover_map;  // map point under the mouse
  bool ignore_input = false;      // automated runs: the picture must not depend on the pointer

  // Clearance overlay: a heat map texture over the terrain, numbers when zoomed in.
  bool show_clearance = false;
  ClearanceMetric clearance_metric = ClearanceMetric::True;
  CapabilityMask clearance_cap = 0;  // 0 = the current agent's capability
  ClearanceCache clearance_cache;
  // What the heat texture on the GPU shows; it is uploaded again only when this changes.
  struct HeatKey {
    std::uint64_t uid = 0, version = 0;
    CapabilityMask cap = 0;
    ClearanceMetric metric = ClearanceMetric::True;
    bool valid = false;
    bool operator==(const HeatKey&) const = default;
  } heat_key;
  // The current agent's capability (what the status bar reports clearance for).
  CapabilityMask agent_capability() const;
  // The capability the clearance overlay shows.
  CapabilityMask overlay_capability() const {
    return clearance_cap ? clearance_cap : agent_capability();
  }

  // Planner panel.
  std::string planner = "astar";
  std::map<std::string, std::string> params;
  int agent = 0;
  std::unique_ptr<Run> run;

  // The finished run being shown.
  std::string shown_planner;
  PlanResult result;
  std::unique_ptr<Trace> trace;
  std::unique_ptr<TraceCursor> cursor;
  bool playing = false;
  float fps = 30;
  double play_accum = 0;

  // What the search texture on the GPU shows (open and closed grid cells of one frame); it is
  // rebuilt and uploaded again only when this changes. trace_generation counts traces shown,
  // so a new trace never matches an old key.
  std::uint64_t trace_generation = 0;
  struct SearchKey {
    std::uint64_t generation = 0;
    std::size_t frame = 0;
    int width = 0, height = 0;
    bool open = true, closed = true;
    bool valid = false;
    bool operator==(const SearchKey&) const = default;
  } search_key;
  // Whether that texture holds every open and closed node (false: some are not grid cells,
  // and the frame is drawn as vector primitives).
  bool search_texture_ok = false;
  bool search_has_open = false, search_has_closed = false;  // for the legend

  bool load(const std::string& path);
  void select_planner(const std::string& name);
  void start_run();
  // Moves a finished run's trace into view; true if one arrived.
  bool poll_run();
  // Advances the timeline by dt seconds when playing.
  void tick(double dt);
  bool busy() const { return run != nullptr || playing; }
};

// Panels.
void panel_planner(App& app);
void panel_timeline(App& app);
void panel_overlays(App& app);
void panel_status(App& app, float x, float y, float width, float height);
// Map input (pan, zoom, fit) and the overlay list for this frame.
void map_view_input(App& app);
void map_view_build(App& app);

// The left column's width in ImGui units, the status bar's height.
inline constexpr float kSideWidth = 330;
inline constexpr float kStatusHeight = 24;

}  // namespace pl::app

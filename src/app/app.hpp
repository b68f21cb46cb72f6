// The desktop app's state and its panels (one function and file per panel, DESIGN.md section 8).
// The model lives in core/planners/viz/editor; this holds what the UI adds: the open document
// (editor::Document, so every edit can be undone), one or more map views side by side (each
// with its own planner, run, trace and camera), the editing tool, and file handling. Planners
// come from registry(); what their nodes are comes from the node spaces their traces declare
// (viz/trace.hpp), never from the planner's name or parameters.
#pragma once

#include <array>
#include <bitset>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/renderer.hpp"
#include "app/tools/tool.hpp"
#include "core/clearance.hpp"
#include "core/generators.hpp"
#include "core/io.hpp"
#include "core/scene.hpp"
#include "editor/camera.hpp"
#include "editor/document.hpp"
#include "editor/tools.hpp"
#include "planners/planner.hpp"
#include "viz/draw.hpp"
#include "viz/overlays.hpp"
#include "viz/timeline.hpp"
#include "viz/trace.hpp"

namespace pl::app {

// The registry the app builds its planner menus and runs from: Registry::builtin() unless a
// program embedding the app (the test build, pathlab_test_app) sets another one before
// app_main. The registry must outlive the app.
const Registry& registry();
void use_registry(const Registry& registry);

// The whole program (command line, window, main loop; app_main.cpp): main() calls it.
int app_main(int argc, char** argv);

// A planner run on a worker thread. The UI polls finished(); the Trace moves to the view then.
class Run {
 public:
  // record = false: no trace (a reference run only needs the result).
  Run(const Scene& scene, std::string planner, std::map<std::string, std::string> params,
      int agent, bool record = true);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  bool finished() const { return done_.load(std::memory_order_acquire); }
  float progress() const { return progress_.load(std::memory_order_relaxed); }
  void cancel() { cancel_.store(true, std::memory_order_relaxed); }
  // Waits for the worker; then the result and trace may be taken.
  void join();
  const std::string& planner() const { return planner_; }
  const std::map<std::string, std::string>& params() const { return params_; }
  int agent() const { return agent_; }
  const Scene& scene() const { return scene_; }

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

// One map view: a planner set-up, its run and the trace it shows, a camera and the GPU
// textures of what it shows. Every view shows the same document.
struct View {
  // The set-up the planner panel edits.
  std::string planner = "astar";
  std::map<std::string, std::string> params;
  int agent = 0;  // the scene agent this view plans for
  std::unique_ptr<Run> run;
  std::uint64_t run_doc_version = 0;  // document version the pending run plans on

  // The finished run on screen and what it was made for (to tell when it is stale).
  bool has_run = false;
  std::string shown_planner;
  std::map<std::string, std::string> shown_params;
  int shown_agent = -1;
  int shown_width = 0, shown_height = 0;  // map size the run planned on
  std::uint64_t shown_doc_version = 0;
  PlanResult result;
  std::unique_ptr<Trace> trace;
  std::unique_ptr<TraceCursor> cursor;

  // Camera and where the view is on the framebuffer.
  editor::Camera camera;
  Viewport viewport;
  bool fit_pending = true;

  // GPU side, created by the render loop (needs the GL context).
  std::unique_ptr<MapRenderer> renderer;
  DrawList draw_list;
  struct TerrainKey {
    std::uint64_t uid = 0, version = 0;
    bool operator==(const TerrainKey&) const = default;
  } terrain_key;
  // What the heat texture on the GPU shows; it is uploaded again only when this changes.
  struct HeatKey {
    std::uint64_t uid = 0, version = 0;
    CapabilityMask cap = 0;
    ClearanceMetric metric = ClearanceMetric::True;
    // The g heat map: which trace and frame (generation 0 = the clearance heat map).
    std::uint64_t generation = 0;
    std::size_t frame = 0;
    bool valid = false;
    bool operator==(const HeatKey&) const = default;
  } heat_key;
  // What the search texture shows (open and closed nodes standing on cells, one frame); rebuilt
  // only when this changes. trace_generation counts traces shown, so a new trace never matches.
  std::uint64_t trace_generation = 0;
  struct SearchKey {
    std::uint64_t generation = 0;
    std::size_t frame = 0;
    int width = 0, height = 0;
    bool open = true, closed = true;
    bool valid = false;
    bool operator==(const SearchKey&) const = default;
  } search_key;
  bool search_has_open = false, search_has_closed = false;  // for the legend

  void select_planner(const std::string& name);
  // Replaces what the view shows with a finished run.
  void take(Run& finished, std::uint64_t doc_version);
  void clear_run();
};

// A question the app asks before it throws away unsaved changes.
enum class PendingAction { None, Open, New, Quit };
// A file dialog a menu asked for (files.cpp shows it).
enum class FileRequest { None, Open, Save, ImportPng, ExportView, ExportMap };

struct App {
  editor::Document doc;
  const Scene& scene() const { return doc.scene(); }
  std::string scene_path;       // file the document was opened from or saved to
  std::string load_error;       // the last failed load or save, shown until the next success
  std::string status_message;   // the last successful file operation
  // The .map file the map was read from and the map's state then: a save references it only
  // while the map is unchanged, and never writes the .map.
  std::string map_source;
  std::uint64_t map_source_uid = 0, map_source_version = 0;
  // A loaded .scen: its problems (pick one to set the agent's start and goal).
  std::optional<Scenario> scenario;
  std::string scenario_path;
  int scenario_pick = -1;

  // Views, left to right. The planner, overlays and timeline panels act on the active one.
  std::vector<std::unique_ptr<View>> views;
  int active = 0;
  View& view() { return *views[std::size_t(active)]; }
  const View& view() const { return *views[std::size_t(active)]; }
  bool lock_cameras = true, lock_timelines = true;
  bool show_difference = true;  // compare: cells expanded by one view and not the other
  // The difference of the two views' frames on screen, recomputed only when either changes.
  struct DiffKey {
    std::uint64_t gen_a = 0, gen_b = 0;
    std::size_t frame_a = 0, frame_b = 0;
    bool valid = false;
    bool operator==(const DiffKey&) const = default;
  } diff_key;
  std::array<ClosedDifference, 2> diff_views;  // what view A / view B expanded alone
  bool auto_rerun = true;       // re-run stale views as soon as the document changes (live)
  bool compare_figures = false; // the compare table also lists every planner figure
  // The optimal answer to what the views ask, when no view's planner is optimal but the
  // registry names a reference for them (HAA*: Annotated A*): "% over optimal" in the table.
  std::unique_ptr<Run> reference_run;
  std::optional<PlanResult> reference;
  std::string reference_planner;
  struct ReferenceKey {
    std::uint64_t doc_version = 0;
    int agent = -1;
    std::string planner;
    bool operator==(const ReferenceKey&) const = default;
  } reference_key;
  // Starts or drops the reference run as the views' runs and the document change.
  void update_reference();
  bool run_on_open = false;     // interactive: every view runs when a document opens

  // Shared display options.
  std::array<bool, kLayerCount> layers{};
  bool grid_lines = true;
  bool show_parent_arrows = false;
  // Planner shapes that carry a requirement (HAA* edges, entrances): only those the view's
  // agent may use.
  bool only_usable_shapes = true;
  // Planner shapes of these roles are hidden (legend checkboxes in the Display tab).
  std::bitset<std::size_t(Role::Count)> hidden_roles;
  std::optional<Vec2> hover_map;  // map point under the mouse
  int hover_view = -1;            // view under the mouse
  Viewport map_area;              // framebuffer pixels the views share
  std::optional<editor::Cell> menu_cell;  // the cell a right-click menu is about
  bool ignore_input = false;      // automated runs: the picture must not depend on the pointer
  float menu_height = 0;          // main menu bar, ImGui units
  float side_width = 330;         // the side column, ImGui units (the user may resize it)
  int side_tab_request = -1;      // select this side tab next frame (0 Plan, 1 Edit, 2 Display)

  // Clearance overlay: a heat map texture over the terrain, numbers when zoomed in.
  bool show_clearance = false;
  bool show_g_heat = false;       // g of the frame on screen as a heat map (instead of clearance)
  bool show_search_numbers = true;  // g, h, f in each searched cell when zoomed in
  ClearanceMetric clearance_metric = ClearanceMetric::True;
  CapabilityMask clearance_cap = 0;  // 0 = the current agent's capability
  ClearanceCache clearance_cache;

  // The agent the Edit tab and the agent tool work on, and whose capability the status bar
  // and the clearance overlay use. Each view plans for its own View::agent; choosing an agent
  // in the Plan tab sets both.
  int agent = 0;
  // Selects agent i for editing; with a single view, that view plans for it too.
  void select_agent(int i);
  CapabilityMask agent_capability() const;
  CapabilityMask overlay_capability() const {
    return clearance_cap ? clearance_cap : agent_capability();
  }

  // Editing.
  // The tools (tools/tool.hpp; keys 1-8 pick tools[i]) and what outlives them.
  std::vector<std::unique_ptr<Tool>> tools = make_tools();
  int tool_index = 0;
  Tool& tool() { return *tools[std::size_t(tool_index)]; }
  const Tool& tool() const { return *tools[std::size_t(tool_index)]; }
  ToolState tool_state;
  ToolDrag drag;
  GeneratorParams generator;
  int new_width = 64, new_height = 64;

  // Timeline (shared by locked views).
  bool playing = false;
  float fps = 30;
  double play_accum = 0;
  // Breakpoints: stop playing when a node of this cell (or one heading of it) is opened /
  // expanded; resolved through each view's trace's node spaces (viz/timeline.hpp).
  using Breakpoint = CellBreak;
  std::vector<Breakpoint> breakpoints;

  // Files.
  FileRequest file_request = FileRequest::None;
  bool quit_confirmed = false;  // the user agreed to quit (main loop closes the window)
  PendingAction pending = PendingAction::None;
  std::string pending_path;  // for PendingAction::Open
  std::vector<std::string> dropped;  // paths dropped onto the window, opened next frame
  std::string export_view_path;      // set: the render loop writes the active view as PNG
  std::string window_shot_path;      // set: the render loop writes the whole window (F12)

  App();
  // Opens a scene, .map, .scen or PNG; on failure sets load_error and leaves the document
  // and views as they were.
  bool load(const std::string& path);
  // Saves the document (and the views' set-ups) as a scene file; false + load_error on failure.
  bool save(const std::string& path);
  // Opens `path`, first asking about unsaved changes.
  void request_open(const std::string& path);
  // A fresh scene (64x64 ground, one agent), first asking about unsaved changes.
  void request_new();
  void new_scene();
  // Sets the current agent's start and goal to a problem of the loaded scenario (one step).
  void pick_scenario_problem(int index);

  View& add_view(const std::string& planner);
  void remove_view(int index);
  // Compare presets: the views a comparison needs.
  void preset_compare(const std::vector<std::string>& planners,
                      const std::vector<std::map<std::string, std::string>>& params = {});

  // Starts a run of view v (cancelling one in progress).
  void start_run(View& v);
  void start_all_runs();
  // Moves finished runs into their views; true if one arrived.
  bool poll_runs();
  bool stale(const View& v) const;
  bool any_run() const;
  // Advances the timeline by dt seconds when playing.
  void tick(double dt);
  // Seeks the active view (and, locked, every view) to a frame.
  void seek_all(std::size_t frame);
  void step_all(long delta);
  // After the camera of view `from` moved: locked views copy it.
  void sync_cameras(int from);
  // The first frame after v's current one, up to `until`, at which a breakpoint fires.
  std::optional<std::size_t> next_break(const View& v,
                                        std::size_t until = std::numeric_limits<std::size_t>::max()) const;
  bool busy() const { return any_run() || playing || drag.active; }
};

// The timeline position and its end: locked, over every view (the furthest frame shown, the
// longest trace); unlocked, the active view's.
std::size_t timeline_now(const App& app);
std::size_t timeline_last(const App& app);

// Display and timeline settings between runs (settings.cpp); missing or bad files = defaults.
void load_settings(App& app, const std::string& path);
bool save_settings(const App& app, const std::string& path);

// Compare presets by id ("hq-lq", "eager-lazy", ...): sets up and runs the views; false for an
// unknown id or one whose planners the registry lacks.
bool apply_preset(App& app, const std::string& id);
std::vector<std::string> preset_ids();

// Panels and menus.
void main_menu(App& app);
// The side column: one window with tabs (Plan: planner and timeline; Edit: tools, agent,
// undo; Display: overlays and legend), full height, its width resizable and remembered.
void panel_side(App& app);
void section_planner(App& app);
void section_timeline(App& app);
void section_overlays(App& app);
void section_tools(App& app);
void panel_compare(App& app);
void panel_status(App& app, float x, float y, float width, float height);
void dialogs(App& app);
// File dialogs, recent files, drag and drop, autosave (files.cpp).
void file_dialogs(App& app);
const std::vector<std::string>& recent_paths();
void open_recent(App& app, const std::string& path);
// Map input (pan, zoom, fit, editing tools) and the overlay lists for this frame.
void map_view_input(App& app);
void map_view_build(App& app);
// Keyboard shortcuts that work anywhere the keyboard is not captured (undo, redo, tools).
void shortcuts(App& app);

// Height of the compare table under the views (ImGui units; 0 with one view).
float compare_height(const App& app);

// The left column's width in ImGui units, the status bar's height.
inline constexpr float kSideWidth = 330;
inline constexpr float kStatusHeight = 24;

}  // namespace pl::app

// The desktop app's state and its panels (one function and file per panel, DESIGN.md section 8).
// The model lives in core/planners/viz/editor; App composes what the UI adds: the open document
// (document_state.hpp: editor::Document, so every edit can be undone, and where it came from),
// one or more map views side by side with their runs and timeline (views.hpp), the UI settings
// (ui_settings.hpp), and the editing tools (tools/tool.hpp). Planners
// come from registry(); what their nodes are comes from the node spaces their traces declare
// (viz/trace.hpp), never from the planner's name or parameters.
#pragma once

#include <array>
#include <bitset>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/document_state.hpp"
#include "app/renderer.hpp"
#include "app/tools/tool.hpp"
#include "app/ui_settings.hpp"
#include "app/views.hpp"
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

struct LoadedFile;      // app.cpp: what opening a file read
struct BackgroundLoad;  // app.cpp: a file being read on a worker thread

// The whole program's state: the document, the views with their runs, and the UI settings,
// each its own struct (document_state.hpp, views.hpp, ui_settings.hpp), plus the editing tools
// and the agent being edited, which tie them together.
struct App {
  DocumentState document;
  Views views;
  UiSettings ui;

  const Scene& scene() const { return document.doc.scene(); }
  View& view() { return *views[std::size_t(views.active)]; }
  const View& view() const { return *views[std::size_t(views.active)]; }

  // The agent the Edit tab and the agent tool work on, and whose capability the status bar
  // and the clearance overlay use. Each view plans for its own View::agent; choosing an agent
  // in the Plan tab sets both.
  int agent = 0;
  // Selects agent i for editing; with a single view, that view plans for it too.
  void select_agent(int i);
  CapabilityMask agent_capability() const;
  CapabilityMask overlay_capability() const {
    return ui.clearance_cap ? ui.clearance_cap : agent_capability();
  }

  // Editing: the tools (tools/tool.hpp; keys 1-8 pick tools[i]) and what outlives them.
  std::vector<std::unique_ptr<Tool>> tools = make_tools();
  int tool_index = 0;
  Tool& tool() { return *tools[std::size_t(tool_index)]; }
  const Tool& tool() const { return *tools[std::size_t(tool_index)]; }
  ToolState tool_state;
  ToolDrag drag;
  // The Map menu's dialogs: generator settings, the size of a new or resized map.
  GeneratorParams generator;
  int new_width = 64, new_height = 64;

  // Starts or drops the reference run as the views' runs and the document change.
  void update_reference();

  App();
  // Opens a scene, .map, .scen or PNG; on failure sets load_error and leaves the document
  // and views as they were.
  bool load(const std::string& path);
  // The same, read on a worker thread: the UI keeps drawing, a window names the file with the
  // time so far and offers Cancel (the document stays as it was). Interactive opens use this.
  void load_in_background(const std::string& path);
  // Every frame: adopts a finished background load (or its error); true while one is running.
  bool poll_background_load();
  void cancel_background_load();
  // The file being read in the background and the seconds so far ("" and 0 when none).
  std::string background_load_path() const;
  double background_load_seconds() const;
  std::shared_ptr<BackgroundLoad> background_load;  // the one in progress, or null
  // Makes what read_file() read the document (never throws).
  void adopt(LoadedFile&& file);
  // Saves the document (and the views' set-ups) as a scene file; false + load_error on failure.
  bool save(const std::string& path);
  // Opens `path`, first asking about unsaved changes.
  void request_open(const std::string& path);
  // A fresh scene (64x64 ground, one agent), first asking about unsaved changes.
  void request_new();
  // Quits, first asking about unsaved changes.
  void request_quit();
  // Does what the unsaved-changes question (ui.unsaved) returned: opens, starts a new scene or
  // quits (Carry), saves to the document's file (Save, then tells the question how it went), or
  // asks for Save As (SaveAs: the file dialog reports back to the question).
  void carry_out(const editor::UnsavedPrompt::Next& next);
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
  // The same for a user dragging the timeline: a long jump runs beside the frame loop
  // (BackgroundSeek) and the view shows its frame until the jump is done (poll_seeks).
  void scrub_to(std::size_t frame);
  void scrub_view(View& v, std::size_t frame);
  // Shows the jumps that ended; true if one did. Called once a frame, before anything reads
  // the cursors.
  bool poll_seeks();
  // Waits for running jumps and goes to the frames last asked for.
  void settle_seeks();
  // Jumps shown after running on the worker, and the worker's time in them.
  struct SeekStats {
    std::size_t shown = 0;
    double worker_ms = 0;
  } seek_stats;
  // Whether the timeline moves view v: it has a trace, and it is the active view or the
  // timelines are locked.
  bool on_timeline(const View& v) const;
  void step_all(long delta);
  // After the camera of view `from` moved: locked views copy it.
  void sync_cameras(int from);
  // The first frame after v's current one, up to `until`, at which a breakpoint fires.
  std::optional<BreakHit> next_break(
      const View& v, std::size_t until = std::numeric_limits<std::size_t>::max()) const;
  // Seeks to the frame a breakpoint fired at and says so (Views::stopped).
  void stop_at(const View& v, const BreakHit& hit);
  // The breakpoint stop on screen in view v, if v shows the frame it fired at.
  const Views::Stop* stop_shown(const View& v) const;
  bool busy() const { return any_run() || views.playing || views.drive.playing || drag.active; }
};

// A node as the app names it: "(x, y)" for a node standing on a cell with no label of its own
// (with its heading when it has one), else its label (through its node space).
std::string node_name(const Trace& t, const NodeInfo& d);

// Each view's name by what sets it apart (view_names.cpp): its planner, the parameters that are
// not the planner's defaults or that differ from another view of the same planner, and its
// agent when the views plan for different agents: "haa quality=lq". Without the view letter.
std::vector<std::string> view_names(const App& app);
// What of the agent the planners of the views read (PlannerInfo::agent_inputs, OR'd).
AgentInputs views_agent_inputs(const App& app);
// "read by annotated-astar, haa" / "no planner reads this", for an agent setting's tooltip.
std::string agent_input_readers(AgentInput input);

// The window's title: the document's file name (the map's or scenario's when it came from
// one, "untitled" for a new scene), a "*" when it has unsaved changes, then "pathlab".
std::string window_title(const App& app);

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
// The Compare menu's items, one per preset (greyed when the registry lacks its planners).
void compare_menu_items(App& app);

// Panels and menus.
void main_menu(App& app);
// The side column: one window with tabs (Plan: planner and timeline; Edit: tools, agent,
// undo; Display: overlays and legend), full height, its width resizable and remembered.
void panel_side(App& app);
void section_planner(App& app);
void section_timeline(App& app);
// The agent drives its path (panel_drive.cpp): the Drive section, the clock, the sprite in each
// view, and a view's travel time (negative when it has no path to drive).
void section_drive(App& app);
void drive_tick(App& app, double dt);
void drive_build(App& app, View& v, DrawSink& sink, const Style& style);
double drive_travel_time(App& app, View& v);
void section_overlays(App& app);
void section_tools(App& app);
void panel_compare(App& app);
void panel_status(App& app, float x, float y, float width, float height);
// The modal dialogs and the cell menu (dialogs.cpp), and the scenario window.
void dialogs(App& app);
void section_scenario(App& app);
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

// What a view's path length is measured against in the compare table ("% over"): runs for the
// same agent and of the same kind of length only. Any-angle paths (an any-angle planner, or a
// run that says its length is any-angle) are measured against any-angle runs, every other path
// against the rest: an 8-connected optimum is no yardstick for a path that may join any two
// points. Within a kind, the optimum when an optimal run answered (a run is optimal when it
// says so, else when its planner is, per the registry), or the reference run the registry names
// for these planners; else the best of those runs. length 0: no run to measure against.
struct CompareBaseline {
  double length = 0;
  bool optimum = false;
  bool any_angle = false;  // the kind of length of the view asked about
};
CompareBaseline compare_baseline(const App& app, const View& v);

// The left column's width in ImGui units, the status bar's height.
inline constexpr float kSideWidth = 330;
inline constexpr float kStatusHeight = 24;

}  // namespace pl::app

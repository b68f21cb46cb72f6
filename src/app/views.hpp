// The views with their runs: each View a planner set-up, its run on a worker thread, the trace
// it shows and its camera; Views the row of them side by side, with what they share (locks, the
// timeline and its breakpoints, the reference run behind "% over optimal").
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/drive_state.hpp"
#include "app/renderer.hpp"
#include "core/clearance.hpp"
#include "core/scene.hpp"
#include "editor/camera.hpp"
#include "planners/planner.hpp"
#include "viz/background_seek.hpp"
#include "viz/draw.hpp"
#include "viz/timeline.hpp"
#include "viz/trace.hpp"

namespace pl::app {

// A planner run on a worker thread. The UI polls finished(); the Trace moves to the view then.
class Run {
 public:
  // record = false: no trace (a reference run only needs the result). `reuse`: a planner made
  // for this same name and parameters by an earlier run (what it keeps between queries, such
  // as a graph cache, then serves this one); null makes a new one from the registry.
  Run(const Scene& scene, std::string planner, std::map<std::string, std::string> params,
      int agent, bool record = true, std::unique_ptr<Planner> reuse = nullptr);
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
  // After join(): the planner, for the next run with the same name and parameters. Null when
  // the run was cancelled or threw: a planner stopped part-way may hold half-made state, and
  // the app cannot know, so it starts afresh then.
  std::unique_ptr<Planner> take_planner();

  PlanResult result;
  std::unique_ptr<Trace> trace;
  // The trace at its last frame, made on the worker: on a big search the seek there (a keyframe
  // of up to a million nodes into fresh memory, then the replay) is a frame's worth of work or
  // more (~190 ms at a million nodes), which the frame that shows the result would otherwise do.
  std::unique_ptr<TraceCursor> cursor;
  // The search texture's stamps for this trace, made on the worker for the same reason.
  std::unique_ptr<SearchTexture> search;
  // The spare cursor of the view's first jump (BackgroundSeek::make_spare; null for a trace too
  // small to jump on a worker), made on the worker for the same reason.
  std::unique_ptr<TraceCursor> spare;
  std::string error;  // exception text, if the planner threw
  // Why the run's agent cannot drive the path found (core/path_check.hpp), or empty.
  std::string path_problem;

 private:
  Scene scene_;
  std::string planner_;
  std::map<std::string, std::string> params_;
  int agent_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::atomic<float> progress_{0};
  // Owned by the worker until done_; handed back by take_planner() after join().
  std::unique_ptr<Planner> planner_obj_;
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
  // The planner of the last finished run and the set-up it was made for: the next run with the
  // same planner and parameters reuses it, so whatever it keeps between queries (the circles
  // planner's graph cache) serves a live replan while the user drags. Never shared between two
  // runs at once: a run owns it from start to join.
  std::unique_ptr<Planner> kept_planner;
  std::string kept_name;
  std::map<std::string, std::string> kept_params;

  // The finished run on screen and what it was made for (to tell when it is stale).
  bool has_run = false;
  std::string shown_planner;
  std::map<std::string, std::string> shown_params;
  int shown_agent = -1;
  int shown_width = 0, shown_height = 0;  // map size the run planned on
  std::uint64_t shown_doc_version = 0;
  PlanResult result;
  std::string path_problem;  // the agent cannot drive the path: why (Run::path_problem)
  std::unique_ptr<Trace> trace;
  std::unique_ptr<TraceCursor> cursor;
  // The run's prepared search texture (Run::search), until the renderer takes it.
  std::unique_ptr<SearchTexture> prepared_search;
  // A long jump of the cursor running beside the frame loop (App::scrub_to). Declared after the
  // trace, so it is destroyed (its worker joined) first.
  BackgroundSeek seek_job;
  // The frame the view is on or, while a jump runs, the frame it is going to.
  std::size_t frame_wanted() const;

  // Camera and where the view is on the framebuffer.
  editor::Camera camera;
  Viewport viewport;
  bool fit_pending = true;
  // The camera the last fit left, for its viewport: while the camera is still there (the user
  // neither panned nor zoomed), a view whose size changes is fitted again.
  struct Fitted {
    int width = 0, height = 0;
    double zoom = 0;
    Vec2 offset;
  } fitted;

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
  ViewDrive drive;  // the agent driving this view's path (panel_drive.cpp)

  void select_planner(const std::string& name);
  // Replaces what the view shows with a finished run.
  void take(Run& finished, std::uint64_t doc_version);
  void clear_run();
  // Keeps the planner of a joined run for the next one (Run::take_planner).
  void keep_planner(Run& finished);
  // The kept planner when it was made for the current planner and parameters, else null.
  std::unique_ptr<Planner> reusable_planner();
};

// Views, left to right, and what they share. Iterates and indexes like the list of views.
struct Views {
  std::vector<std::unique_ptr<View>> list;
  int active = 0;  // the planner, overlays and timeline panels act on this one
  bool lock_cameras = true, lock_timelines = true;
  bool auto_rerun = true;       // re-run stale views as soon as the document changes (live)
  bool run_on_open = false;     // interactive: every view runs when a document opens

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

  // Timeline (shared by locked views).
  bool playing = false;
  float fps = 30;
  double play_accum = 0;
  // Breakpoints: stop playing when a node of this cell (or one heading of it) is opened /
  // expanded; resolved through each view's trace's node spaces (viz/timeline.hpp).
  using Breakpoint = CellBreak;
  std::vector<Breakpoint> breakpoints;
  // The breakpoint that stopped the timeline: said on the timeline ("stopped: (38, 18)
  // expanded") and its cell highlighted, while the view shows that frame of that trace.
  struct Stop {
    int view = 0;
    std::uint64_t generation = 0;  // the view's trace_generation then
    std::size_t frame = 0;
    Breakpoint breakpoint;
    std::string text;
  };
  std::optional<Stop> stopped;
  // The agents driving their paths, all views at once (panel_drive.cpp).
  DriveState drive;

  auto begin() { return list.begin(); }
  auto end() { return list.end(); }
  auto begin() const { return list.begin(); }
  auto end() const { return list.end(); }
  std::size_t size() const { return list.size(); }
  bool empty() const { return list.empty(); }
  std::unique_ptr<View>& operator[](std::size_t i) { return list[i]; }
  const std::unique_ptr<View>& operator[](std::size_t i) const { return list[i]; }
};

}  // namespace pl::app

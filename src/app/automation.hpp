// The automated modes of the command line: --screenshot (with --layout, --exit) once the runs
// are in and ImGui has laid its windows out; --zoom/--center once after the first fit; and the
// frame-time benchmark (--bench-frames N, --bench-scrub), which times each frame from its start
// to after glFinish and prints "frames N mean_ms X p95_ms Y cpu_mean_ms A cpu_p95_ms B
// process_cpu_mean_ms C process_cpu_p95_ms D seek_mean_ms E": wall time; the main thread's CPU
// time (the app's own work and the GL calls it makes); the whole process's CPU time (with the
// software rasteriser's threads: all the work a frame costs); both steadier than wall time on a
// loaded machine; and the wall time of the scrub's seeks.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "app/command_line.hpp"
#include "app/window.hpp"

namespace pl::app {

struct App;

class Automation {
 public:
  explicit Automation(const Options& opt);
  // At the top of each frame.
  void frame_begin();
  // Before the panels are built: scrubbing, a pseudo-random frame of the timeline (so the
  // panels show the frame the views draw).
  void move_timeline(App& app);
  // After the map views took their input: the requested camera (once), panning.
  void adjust_views(App& app);
  // After ImGui drew: the screenshot and layout when due (then --exit). False if one could not
  // be written.
  bool after_render(App& app, GLFWwindow* window, const FrameSize& fb);
  // After the swap: the frame's time and whether it showed a landed jump; closes the window
  // after N frames.
  void frame_end(GLFWwindow* window, const App& app);
  // Prints the benchmark's figures (nothing when not benchmarking).
  void report(const App& app) const;

 private:
  const Options& opt_;
  int frames_left_;  // to the screenshot (--shot-frame; ImGui lays windows out over the first)
  bool zoomed_ = false;
  std::uint64_t lcg_ = 12345;  // --bench-scrub: a fixed-seed LCG, the same frames on every run
  std::uint64_t pan_frames_ = 0;  // --bench-pan: frames panned so far
  std::chrono::steady_clock::time_point frame_start_;
  std::vector<double> frame_ms_, cpu_ms_, process_ms_;
  std::vector<std::size_t> jumps_shown_;  // App::seek_stats.shown after each frame
  double frame_cpu_start_ = 0, frame_process_start_ = 0, seek_ms_ = 0;
};

}  // namespace pl::app

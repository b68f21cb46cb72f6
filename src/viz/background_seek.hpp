#pragma once
// BackgroundSeek: moves a trace cursor to a far frame on a worker thread while the caller keeps
// showing the cursor it has.
//
// A jump far forward across a large trace rewrites the record of every node changed in between
// (up to every node: 4-15 ms at a million nodes; a jump back rewrites only a keyframe's
// frontier, see TraceCursor). A user dragging the timeline asks for such a jump every frame;
// done on the frame loop, it adds its whole cost to the frame. Here the jump runs on a
// second cursor (a spare over the same immutable Trace) while the frame loop draws the frame it
// has; when the jump is done the two cursors change places, and the old one is the spare of the
// next jump. The picture reaches the wanted frame one frame later, and the frame loop never
// waits. Requests made while a jump runs are kept (the latest wins) for when it ends.
//
// Memory: the spare holds a second frame state (about 48 bytes a node seen), kept until reset().
// A result big enough that its jumps go to the worker gets its spare when the run ends
// (make_spare, on the run's worker), not on the first jump: see make_spare.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "viz/trace.hpp"

namespace pl {

class BackgroundSeek {
 public:
  BackgroundSeek() = default;
  BackgroundSeek(const BackgroundSeek&) = delete;
  BackgroundSeek& operator=(const BackgroundSeek&) = delete;
  ~BackgroundSeek() { reset(); }

  // Seeks shorter than this many events (seek_cost) are cheaper done at once than handed over.
  static constexpr double kWorthIt = 50'000;
  // A job runs only on idle cores; one that has not ended after this long is given a share of
  // busy ones where the system allows it (collect()), and the jobs after it run niced instead.
  static constexpr std::chrono::milliseconds kPatience{250};

  // A spare for the jumps of a view showing `shown`, made now (a copy of it: every page of a
  // frame state as big as the trace's last frame written once), or null when the trace is too
  // small for a jump to go to the worker (even a jump from frame 0 to the end costs less than
  // kWorthIt). Made by a fresh cursor's first jump instead, that memory is faulted in
  // while the user drags (~190 ms at a million nodes, seconds on the idle-policy worker of a busy
  // machine, during which the view shows the frame it had). Call it where a result is made
  // ready off the frame loop; give it to the view's job with adopt_spare().
  static std::unique_ptr<TraceCursor> make_spare(const TraceCursor& shown);
  // The spare the next job moves (a null one changes nothing). Nothing may be running.
  void adopt_spare(std::unique_ptr<TraceCursor> spare);

  // When the spare (the frame shown before, or the result's last frame) lies where a jump to
  // `frame` is cheap (seek_cost under kWorthIt: a jump back restores only a keyframe's
  // frontier), moves it there now and makes it `shown`, as collect() would, and returns true;
  // false (nothing changes) otherwise, or while a job runs. Of two frames a scrub has shown, one
  // is more often past the next target than the shown one alone: fewer jumps need the worker.
  bool jump_spare_now(std::unique_ptr<TraceCursor>& shown, std::size_t frame);

  // Starts moving a spare cursor over `trace` to `frame` on the worker. Nothing may be running
  // (busy() false). `trace` must outlive the job and the spare (reset() before replacing it).
  void start(const Trace& trace, std::size_t frame);
  // A job was started and its cursor not yet taken.
  bool busy() const { return worker_.joinable(); }
  // The frame the running job moves to.
  std::size_t target() const { return target_; }
  // If the job has ended: its cursor's state goes to `shown` (the same object), `shown`'s old
  // state becomes the spare, and true. False (nothing changes) while it runs or when none was
  // started.
  bool collect(std::unique_ptr<TraceCursor>& shown);
  // Waits for a running job and collects it.
  bool finish(std::unique_ptr<TraceCursor>& shown);
  // Waits for a running job and drops it, the spare and any wanted frame: for a trace about to go.
  void reset();

  // A frame asked for while a job ran (the latest request), taken once.
  void want(std::size_t frame) { wanted_ = frame; }
  std::optional<std::size_t> take_wanted() { return std::exchange(wanted_, std::nullopt); }
  const std::optional<std::size_t>& wanted() const { return wanted_; }

  // How long the last collected job took on the worker, in milliseconds.
  double last_ms() const { return last_ms_; }

 private:
  std::unique_ptr<TraceCursor> spare_;  // the worker's while busy()
  std::thread worker_;
  std::atomic<bool> done_{false};
  std::atomic<long> tid_{0};  // the worker's thread id, once it runs
  bool raised_ = false;       // collect() raised a starved job
  bool starved_ = false;      // the last job took longer than kPatience: the next runs niced
  std::chrono::steady_clock::time_point started_;
  std::size_t target_ = 0;
  std::optional<std::size_t> wanted_;
  double job_ms_ = 0, last_ms_ = 0;  // job_ms_ is the worker's until done_
};

}  // namespace pl

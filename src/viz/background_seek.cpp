#include "viz/background_seek.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <utility>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace pl {

namespace {

// The jump yields to the frame loop and the GL driver's threads. A software rasteriser
// (llvmpipe) draws on every core, so a jump at the same priority takes its milliseconds out of
// the frame being drawn: scrubbing a 1M-node search on 2 cores made every frame 5-7 ms slower.
// It runs at the idle policy (SCHED_IDLE): only on a core that nothing else wants, the frame
// loop's vsync wait or the main thread's share of a frame, so a frame never waits for it. At
// nice +10 (the policy before) it still took about a tenth of a busy core; scrubbing at random
// on 2 cores, the p95 frame was ~2-3 ms longer (docs/traces-and-frames.md, eleventh round).
// A machine whose cores something else keeps busy would starve it (SCHED_IDLE still gets
// ~0.3% of a busy core): a job unfinished after kPatience is raised to nice +10 by the frame
// loop (collect) where the system allows it (leaving the idle policy needs CAP_SYS_NICE or a
// RLIMIT_NICE above 0, which desktops seldom grant), and after a job that took longer than
// that, the next ones run at nice +10 (idle = false) until one is quick again. Returns the
// thread's id, 0 where threads have none.
long yield_to_the_frame(bool idle) {
#if defined(__linux__)
  const auto tid = long(syscall(SYS_gettid));
  sched_param none{};
  if (idle && sched_setscheduler(0, SCHED_IDLE, &none) == 0) return tid;
  // No idle policy: nice, 10 above the thread that started it.
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, id_t(tid));
  if (errno == 0) setpriority(PRIO_PROCESS, id_t(tid), std::min(now + 10, 19));
  return tid;
#else
  return 0;
#endif
}

// A starved job's thread to the normal policy at nice +10 (see yield_to_the_frame).
void raise_starved(long tid) {
#if defined(__linux__)
  if (tid <= 0) return;
  sched_param none{};
  if (sched_setscheduler(pid_t(tid), SCHED_OTHER, &none) != 0) return;
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, id_t(tid));
  if (errno == 0) setpriority(PRIO_PROCESS, id_t(tid), std::max(now, 10));
#else
  (void)tid;
#endif
}

}  // namespace

std::unique_ptr<TraceCursor> BackgroundSeek::make_spare(const TraceCursor& shown) {
  // The dearest jump (from frame 0 to the end: every node restored, a replay at most) decides.
  const Trace& t = shown.trace();
  if (double(t.node_count()) / 2 + double(t.max_replay_events()) < kWorthIt) return nullptr;
  return std::make_unique<TraceCursor>(shown);
}

void BackgroundSeek::adopt_spare(std::unique_ptr<TraceCursor> spare) {
  if (worker_.joinable()) worker_.join();  // callers check busy(); never move the worker's spare
  if (spare) spare_ = std::move(spare);
}

void BackgroundSeek::start(const Trace& trace, std::size_t frame) {
  if (worker_.joinable()) worker_.join();  // callers check busy(); never leave a thread behind
  done_.store(false, std::memory_order_relaxed);
  tid_.store(0, std::memory_order_relaxed);
  raised_ = false;
  started_ = std::chrono::steady_clock::now();
  target_ = frame;
  const bool idle = !starved_;  // see yield_to_the_frame
  worker_ = std::thread([this, &trace, frame, idle] {
    tid_.store(yield_to_the_frame(idle), std::memory_order_release);
    const auto t0 = std::chrono::steady_clock::now();
    if (!spare_) spare_ = std::make_unique<TraceCursor>(trace);
    spare_->seek(frame);
    job_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    done_.store(true, std::memory_order_release);
  });
}

bool BackgroundSeek::jump_spare_now(std::unique_ptr<TraceCursor>& shown, std::size_t frame) {
  if (worker_.joinable() || !spare_ || !shown) return false;
  if (spare_->seek_cost(frame) >= kWorthIt) return false;
  spare_->seek(frame);
  std::swap(*spare_, *shown);  // as finish(): the objects stay, their contents change places
  return true;
}

bool BackgroundSeek::collect(std::unique_ptr<TraceCursor>& shown) {
  if (!worker_.joinable()) return false;
  if (!done_.load(std::memory_order_acquire)) {
    if (!raised_ && std::chrono::steady_clock::now() - started_ > kPatience) {
      const long tid = tid_.load(std::memory_order_acquire);
      raised_ = tid != 0;  // 0: not running yet (it starts at the normal policy)
      raise_starved(tid);
    }
    return false;
  }
  return finish(shown);
}

bool BackgroundSeek::finish(std::unique_ptr<TraceCursor>& shown) {
  if (!worker_.joinable()) return false;
  worker_.join();
  last_ms_ = job_ms_;
  starved_ = last_ms_ > double(kPatience.count());
  // The contents change places, not the objects: whoever holds a reference to the shown cursor
  // (a panel that read it before asking for a jump) keeps holding the shown one, never the
  // spare the next job will move on the worker. Moving a cursor moves its vectors: O(1).
  if (shown)
    std::swap(*spare_, *shown);
  else
    shown = std::move(spare_);
  return true;
}

void BackgroundSeek::reset() {
  if (worker_.joinable()) worker_.join();
  spare_.reset();
  wanted_.reset();
}

}  // namespace pl

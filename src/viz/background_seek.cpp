#include "viz/background_seek.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <utility>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace pl {

namespace {

// The jump yields to the frame loop and the GL driver's threads. A software rasteriser
// (llvmpipe) draws on every core, so a jump at the same priority takes its milliseconds out of
// the frame being drawn: scrubbing a 1M-node search on 2 cores made every frame 5-7 ms slower.
// At a lower priority it runs on what the frame leaves idle (the main thread's share of a
// frame, a vsync wait) and still gets a tenth of a busy core, so it always finishes.
void yield_to_the_frame() {
#if defined(__linux__)
  // Linux applies a nice value to one thread when given its thread id; 10 above the thread
  // that started it.
  const auto tid = id_t(syscall(SYS_gettid));
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, tid);
  if (errno == 0) setpriority(PRIO_PROCESS, tid, std::min(now + 10, 19));
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
  target_ = frame;
  worker_ = std::thread([this, &trace, frame] {
    yield_to_the_frame();
    const auto t0 = std::chrono::steady_clock::now();
    if (!spare_) spare_ = std::make_unique<TraceCursor>(trace);
    spare_->seek(frame);
    job_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    done_.store(true, std::memory_order_release);
  });
}

bool BackgroundSeek::collect(std::unique_ptr<TraceCursor>& shown) {
  if (!worker_.joinable() || !done_.load(std::memory_order_acquire)) return false;
  return finish(shown);
}

bool BackgroundSeek::finish(std::unique_ptr<TraceCursor>& shown) {
  if (!worker_.joinable()) return false;
  worker_.join();
  last_ms_ = job_ms_;
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

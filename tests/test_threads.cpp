// The code that runs on more than one thread, exercised the way the app does it: a planner run
// on a worker thread while the UI thread reads its progress and cancels it (app/app.cpp, Run),
// a watched run whose trace the UI thread takes after the join, the HAA* build cancelled while
// it runs, the timeline's long jumps on a worker (viz/background_seek.hpp) and the autosave
// writer thread (editor/autosave.hpp). scripts/test.sh runs these
// (Threads.*, Autosave.*) under ThreadSanitizer (PATHLAB_TSAN).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "core/io.hpp"
#include "editor/autosave.hpp"
#include "editor/document.hpp"
#include "io_test_util.hpp"
#include "planners/planner.hpp"
#include "test_util.hpp"
#include "viz/background_seek.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// What app::Run does: plan on a worker thread with a cancel flag and a progress value the UI
// thread reads every frame.
struct WorkerRun {
  std::atomic<bool> cancel{false};
  std::atomic<float> progress{0};
  std::atomic<bool> done{false};
  PlanResult result;
  std::unique_ptr<Trace> trace;
  std::thread worker;

  WorkerRun(Planner& planner_ref, const Scene& scene, const Query& q, bool record) {
    worker = std::thread([this, &planner_ref, &scene, q, record] {
      TraceRecorder recorder;
      RunContext ctx;
      ctx.observer = record ? &recorder : nullptr;
      ctx.cancel = &cancel;
      ctx.progress = &progress;
      result = planner_ref.plan(scene, q, ctx);
      trace = std::make_unique<Trace>(recorder.take());
      done.store(true, std::memory_order_release);
    });
  }
  ~WorkerRun() {
    cancel = true;
    if (worker.joinable()) worker.join();
  }
};

Scene open_map(int side, unsigned seed) {
  std::mt19937 rng(seed);
  Scene s;
  s.map = test::random_map(rng, side, side, {0, 1, 4}, {0.8, 0.1, 0.1});
  s.map.set(0, 0, 0);
  s.map.set(side - 1, side - 1, 0);
  return s;
}

Query corner_to_corner(int side) {
  Query q;
  q.start = {0.5, 0.5, 0};
  q.goal = {side - 0.5, side - 0.5, 0};
  return q;
}

TEST(Threads, RunsReportProgressAndStopWhenCancelled) {
  const Scene scene = open_map(256, 11);
  const Query q = corner_to_corner(256);
  // Whole runs on a smaller map: under ThreadSanitizer every planner runs several times slower.
  const Scene small = open_map(64, 12);
  const Query small_q = corner_to_corner(64);
  for (const PlannerInfo& info : Registry::builtin().all()) {
    SCOPED_TRACE(info.name);
    auto planner = Registry::builtin().create(info.name);
    // Cancelled mid-run: the UI thread polls progress like a frame would, then cancels.
    {
      WorkerRun run(*planner, scene, q, true);
      float last = 0;
      for (int frame = 0; frame < 3 && !run.done.load(std::memory_order_acquire); ++frame) {
        last = std::max(last, run.progress.load(std::memory_order_relaxed));
        std::this_thread::sleep_for(1ms);
      }
      run.cancel = true;
      run.worker.join();
      EXPECT_GE(last, 0.0f);
      if (run.result.cancelled) {
        EXPECT_FALSE(run.result.found);
      }
      ASSERT_NE(run.trace, nullptr);  // whatever was recorded is handed over
    }
    // Left alone, a worker run gives what a run on this thread gives.
    const PlanResult here = planner->plan(small, small_q);
    auto fresh = Registry::builtin().create(info.name);
    WorkerRun run(*fresh, small, small_q, false);
    run.worker.join();
    EXPECT_FALSE(run.result.cancelled);
    EXPECT_EQ(run.result.found, here.found);
    EXPECT_EQ(run.result.length, here.length);
    EXPECT_EQ(run.result.points, here.points);
  }
}

TEST(Threads, WatchedRunHandsItsTraceToAnotherThread) {
  const Scene scene = open_map(96, 3);
  const Query q = corner_to_corner(96);
  auto planner = Registry::builtin().create("astar");
  WorkerRun run(*planner, scene, q, true);
  while (!run.done.load(std::memory_order_acquire)) std::this_thread::sleep_for(100us);
  run.worker.join();
  ASSERT_TRUE(run.result.found);
  TraceCursor cursor(*run.trace);
  cursor.seek(cursor.last_frame());
  EXPECT_EQ(cursor.state().counters().expanded, run.result.expanded);
}

TEST(Threads, HaaBuildCancelledWhileItRuns) {
  const Scene scene = open_map(128, 5);
  const Query q = corner_to_corner(128);
  auto planner = Registry::builtin().create("haa");
  {
    WorkerRun run(*planner, scene, q, false);
    // Cancel as soon as the build has started (or at once if it reports no progress).
    for (int i = 0; i < 200 && run.progress.load(std::memory_order_relaxed) == 0.0f &&
                    !run.done.load(std::memory_order_acquire);
         ++i)
      std::this_thread::sleep_for(100us);
    run.cancel = true;
    run.worker.join();
    if (run.result.cancelled) {
      EXPECT_FALSE(run.result.found);
    }
  }
  // The planner is usable afterwards: the next run (on another worker) builds and answers.
  WorkerRun again(*planner, scene, q, false);
  again.worker.join();
  EXPECT_FALSE(again.result.cancelled);
  const PlanResult ref = Registry::builtin().create("haa")->plan(scene, q);
  EXPECT_EQ(again.result.found, ref.found);
  EXPECT_EQ(again.result.length, ref.length);
}

// Every node record, the counters and the frame's scalars of two frame states.
void expect_same_frame(const FrameState& a, const FrameState& b) {
  ASSERT_EQ(a.frame(), b.frame());
  EXPECT_EQ(a.counters(), b.counters());
  ASSERT_EQ(a.current() == nullptr, b.current() == nullptr);
  if (a.current()) {
    EXPECT_EQ(a.current()->desc.id, b.current()->desc.id);
  }
  ASSERT_EQ(a.nodes().size(), b.nodes().size());
  for (std::size_t i = 0; i < a.nodes().size(); ++i) {
    const NodeState &x = a.nodes()[i], &y = b.nodes()[i];
    ASSERT_EQ(x.status, y.status) << "node " << i << " at frame " << a.frame();
    ASSERT_EQ(x.parent, y.parent) << "node " << i;
    ASSERT_EQ(x.g, y.g) << "node " << i;
  }
}

// What the timeline does while the user drags it: far jumps run on a worker while the UI thread
// keeps reading the cursor it shows; when a jump ends the cursors change places.
TEST(Threads, BackgroundSeekShowsTheFrameAskedForAndNeverTheHalfDoneOne) {
  const Scene scene = open_map(160, 7);
  auto planner = Registry::builtin().create("dijkstra");
  WorkerRun run(*planner, scene, corner_to_corner(160), true);
  run.worker.join();
  ASSERT_TRUE(run.result.found);
  const Trace& trace = *run.trace;
  ASSERT_GT(trace.keyframe_count(), 2u) << "the jumps should restore keyframes";

  auto shown = std::make_unique<TraceCursor>(trace);
  // Panels hold references to the shown cursor across a frame: a jump changes its contents,
  // never the object (the old contents become the worker's spare).
  const TraceCursor* const shown_object = shown.get();
  TraceCursor reference(trace);
  BackgroundSeek job;
  std::mt19937 rng(11);
  for (int i = 0; i < 30; ++i) {
    const std::size_t target = rng() % (trace.frame_count() + 5);  // past the end too
    const std::size_t before = shown->frame();
    const SearchCounters counters = shown->state().counters();
    job.start(trace, target);
    ASSERT_TRUE(job.busy());
    EXPECT_EQ(job.target(), target);
    // The shown cursor stays whole and where it was while the worker moves the spare.
    while (!job.collect(shown)) {
      EXPECT_EQ(shown->frame(), before);
      EXPECT_EQ(shown->state().counters(), counters);
      EXPECT_LE(shown->state().open_list(8).size(), 8u);
    }
    EXPECT_FALSE(job.busy());
    EXPECT_EQ(shown.get(), shown_object);
    reference.seek(target);
    expect_same_frame(shown->state(), reference.state());
  }

  // Requests made while a jump runs: the latest wins, taken once.
  job.start(trace, 3);
  job.want(10);
  job.want(20);
  EXPECT_EQ(job.wanted(), std::optional<std::size_t>(20));
  EXPECT_TRUE(job.finish(shown));
  EXPECT_EQ(shown->frame(), 3u);
  EXPECT_EQ(job.take_wanted(), std::optional<std::size_t>(20));
  EXPECT_EQ(job.take_wanted(), std::nullopt);
  EXPECT_FALSE(job.finish(shown)) << "nothing runs";

  // A trace about to go: reset waits for the worker and drops the spare.
  job.start(trace, trace.frame_count() / 2);
  job.want(1);
  job.reset();
  EXPECT_FALSE(job.busy());
  EXPECT_EQ(job.wanted(), std::nullopt);
  EXPECT_EQ(shown->frame(), 3u) << "a dropped jump is never shown";
}

// A big result's spare cursor is made with the result (app::Run, on the run's worker): the
// view's first jump moves it, in memory already written, instead of a fresh cursor's (whose
// page faults kept the first jump of a 1M-node scrub from landing for seconds on a busy
// machine). A trace too small for a jump to go to the worker gets none.
TEST(Threads, FirstJumpMovesTheSpareMadeWithTheResult) {
  auto planner = Registry::builtin().create("dijkstra");
  const auto at_end = [](const Trace& t) {
    auto c = std::make_unique<TraceCursor>(t);
    c->seek(c->last_frame());
    return c;
  };
  {
    const Scene small = open_map(160, 7);
    WorkerRun run(*planner, small, corner_to_corner(160), true);
    run.worker.join();
    EXPECT_EQ(BackgroundSeek::make_spare(*at_end(*run.trace)), nullptr)
        << "no jump of a 25k-node trace goes to the worker: no second frame state for it";
  }
  const Scene scene = open_map(512, 7);
  WorkerRun run(*planner, scene, corner_to_corner(512), true);
  run.worker.join();
  ASSERT_TRUE(run.result.found);
  const Trace& trace = *run.trace;
  // The spare is made at the end, where a result is shown first.
  const auto last = at_end(trace);
  auto spare = BackgroundSeek::make_spare(*last);
  ASSERT_NE(spare, nullptr);
  expect_same_frame(spare->state(), last->state());
  // A jump far forward (one back restores only a keyframe's few nodes, and runs at once).
  auto shown = std::make_unique<TraceCursor>(trace);
  shown->seek(trace.frame_count() / 10);
  const std::size_t target = trace.frame_count() * 2 / 3;
  ASSERT_GE(shown->seek_cost(target), BackgroundSeek::kWorthIt) << "a jump for the worker";
  const NodeState* const spare_memory = spare->state().nodes().data();
  BackgroundSeek job;
  job.adopt_spare(std::move(spare));
  job.adopt_spare(nullptr);  // changes nothing
  job.start(trace, target);
  ASSERT_TRUE(job.finish(shown));
  EXPECT_EQ(shown->state().nodes().data(), spare_memory) << "the jump landed in the spare";
  TraceCursor reference(trace);
  reference.seek(target);
  expect_same_frame(shown->state(), reference.state());
}

TEST(Threads, AJumpNearTheSpareLandsAtOnce) {
  // The spare is a frame shown before (here: the result's last frame). A jump far forward of the
  // shown frame but back from the spare's is cheap there: it moves the spare at once and makes
  // it the shown cursor (the same object), without a worker.
  auto planner = Registry::builtin().create("dijkstra");
  const Scene scene = open_map(512, 7);
  WorkerRun run(*planner, scene, corner_to_corner(512), true);
  run.worker.join();
  ASSERT_TRUE(run.result.found);
  const Trace& trace = *run.trace;
  auto last = std::make_unique<TraceCursor>(trace);
  last->seek(last->last_frame());
  auto spare = BackgroundSeek::make_spare(*last);
  ASSERT_NE(spare, nullptr);
  auto shown = std::make_unique<TraceCursor>(trace);
  shown->seek(trace.frame_count() / 10);
  const std::size_t target = trace.frame_count() * 2 / 3;
  ASSERT_GE(shown->seek_cost(target), BackgroundSeek::kWorthIt);
  ASSERT_LT(spare->seek_cost(target), BackgroundSeek::kWorthIt);

  BackgroundSeek job;
  job.adopt_spare(std::move(spare));
  const TraceCursor* const object = shown.get();
  ASSERT_TRUE(job.jump_spare_now(shown, target));
  EXPECT_FALSE(job.busy());
  EXPECT_EQ(shown.get(), object) << "the shown cursor stays the same object";
  EXPECT_EQ(shown->frame(), target);
  TraceCursor reference(trace);
  reference.seek(target);
  expect_same_frame(shown->state(), reference.state());

  // The spare now holds frame / 10: the last frame is far from it, so nothing changes.
  EXPECT_FALSE(job.jump_spare_now(shown, trace.frame_count() - 1));
  EXPECT_EQ(shown->frame(), target);
  // And a job finds the spare where it was left: it lands on the frame asked for.
  job.start(trace, trace.frame_count() - 1);
  ASSERT_TRUE(job.finish(shown));
  EXPECT_EQ(shown->frame(), trace.frame_count() - 1);
}

TEST(Threads, AutosaveWritesOnItsOwnThreadAndDiscardWins) {
  iotest::TempDir tmp("autosave_threads");
  editor::Autosave a(tmp.path.string(), 0s);
  Scene big;
  big.map = GridMap(1024, 1024);
  editor::Document doc(big);
  const auto t0 = editor::Autosave::Clock::now();
  // Many frames of edits: each update() snapshots, the writer thread keeps the newest.
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(doc.set_cell(i, 0, TerrainId(1 + i % 3)));
    EXPECT_TRUE(a.update(t0 + std::chrono::seconds(i), doc, "/doc.json"));
  }
  a.wait();
  EXPECT_TRUE(a.error().empty()) << a.error();
  ASSERT_TRUE(fs::exists(a.path()));
  EXPECT_EQ(load_scene(a.path()).map.at(19, 0), TerrainId(1 + 19 % 3));

  // A discard while a write may still be running: the file is gone and stays gone.
  ASSERT_TRUE(doc.set_cell(5, 5, 2));
  EXPECT_TRUE(a.update(t0 + 100s, doc, "/doc.json"));
  a.discard();
  EXPECT_FALSE(fs::exists(a.path()));
  a.wait();
  EXPECT_FALSE(fs::exists(a.path()));

  // The destructor finishes a waiting write before it joins.
  {
    editor::Autosave b(tmp.path.string(), 0s);
    ASSERT_TRUE(doc.set_cell(6, 6, 3));
    b.update(t0 + 200s, doc, "/doc.json");
  }
  EXPECT_TRUE(fs::exists(a.path()));
}

}  // namespace
}  // namespace pl

// Trace recording and replay on synthetic event streams: frame semantics, what each event does
// to the replayed state, and that every way of reaching a frame (jumping, stepping forward,
// stepping back, random walks) gives the same state, with keyframes bounding the work.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <map>
#include <queue>
#include <random>
#include <string>

#include "viz/trace.hpp"

namespace pl {
namespace {

std::vector<TraceEvent> all_events(const Trace& t) {
  std::vector<TraceEvent> out;
  for (const TraceEvent& e : t.events()) out.push_back(e);
  return out;
}

// An independent, naive model of what a frame should show, kept by the generator below.
struct ModelNode {
  float x = 0, y = 0;
  double g = 0, h = 0;
  std::uint32_t parent = kNoNode;  // planner id
  NodeStatus status = NodeStatus::Unseen;
};
struct ModelFrame {
  std::map<std::uint32_t, ModelNode> nodes;
  SearchCounters counters;
  std::uint32_t current = kNoNode;
  std::string phase;
  std::map<std::string, double> named;
  std::size_t shapes = 0;
  std::size_t path_size = 0;
};

struct Synthetic {
  Trace trace;
  // Expected states of every `model_every`-th frame and of the last one (copying the model
  // at every frame would dominate the test's time).
  std::map<std::size_t, ModelFrame> model;
};

// A grid-like random search: ids are cells of a w x h grid (scrambled so they are sparse, which
// exercises the id map), each frame closes the best open node and opens or relaxes neighbours,
// with occasional tests, marks, counters, phases, paths, re-openings and moved nodes.
Synthetic make_trace(std::uint32_t seed, std::size_t events, int w, std::size_t model_every,
                     std::size_t frame_every = 1) {
  std::mt19937 rng(seed);
  TraceRecorder rec;
  Synthetic out;
  ModelFrame m;
  std::vector<std::uint32_t> open_ids;
  const auto id_of = [](int cell) { return std::uint32_t(cell) * 2654435761u ^ 0x5bd1e995u; };
  const int cells = w * w;
  std::uniform_int_distribution<int> cell(0, cells - 1);
  std::uniform_real_distribution<double> unit(0, 1);
  std::size_t frames = 0, closes = 0;
  auto keep = [&] {
    if (model_every && frames % model_every == 0) out.model[frames] = m;
  };
  keep();

  auto do_open = [&](int c, std::uint32_t parent, double g, double h) {
    NodeDesc d;
    d.id = id_of(c);
    d.x = float(c % w) + 0.5f;
    d.y = float(c / w) + 0.5f;
    if (unit(rng) < 0.02) d.x += 100;  // the planner moved it: a new description
    rec.open(d, parent, g, h);
    ModelNode& n = m.nodes[d.id];
    if (n.status == NodeStatus::Open) --m.counters.open;
    n = ModelNode{d.x, d.y, g, h, parent, NodeStatus::Open};
    ++m.counters.open;
    ++m.counters.generated;
    open_ids.push_back(d.id);
  };
  auto touch_parent = [&](std::uint32_t parent) {
    if (parent != kNoNode) m.nodes.try_emplace(parent);
  };

  m.phase = "search";
  rec.phase("search");
  do_open(cell(rng), kNoNode, 0, 10);
  std::size_t n_events = 2;
  while (n_events < events) {
    const double r = unit(rng);
    if (r < 0.35 || open_ids.empty()) {
      const int c = cell(rng);
      std::uint32_t parent = open_ids.empty() || unit(rng) < 0.05 ? id_of(cell(rng)) : open_ids[0];
      touch_parent(parent);
      do_open(c, parent, unit(rng) * 100, unit(rng) * 50);
    } else if (r < 0.55) {
      const std::uint32_t id = open_ids[std::size_t(rng()) % open_ids.size()];
      const std::uint32_t parent = id_of(cell(rng));
      touch_parent(parent);
      const double g = unit(rng) * 100;
      rec.relax(id, parent, g);
      ModelNode& n = m.nodes[id];
      if (n.status == NodeStatus::Unseen) {
        n.status = NodeStatus::Open;
        ++m.counters.open;
      }
      n.g = g;
      n.parent = parent;
      ++m.counters.relaxed;
    } else if (r < 0.80) {
      const std::size_t k = std::size_t(rng()) % open_ids.size();
      const std::uint32_t id = open_ids[k];
      open_ids.erase(open_ids.begin() + std::ptrdiff_t(k));
      rec.close(id);
      ModelNode& n = m.nodes[id];
      if (n.status == NodeStatus::Open) --m.counters.open;
      n.status = NodeStatus::Closed;
      m.current = id;
      ++m.counters.expanded;
      if (++closes % frame_every == 0) {
        rec.frame();
        ++frames;
        keep();
      }
    } else if (r < 0.88) {
      const bool ok = unit(rng) < 0.5;
      rec.test(Shape::segment({unit(rng), unit(rng)}, {unit(rng), unit(rng)}), ok);
      ++(ok ? m.counters.tests_passed : m.counters.tests_failed);
      ++m.shapes;
    } else if (r < 0.93) {
      rec.mark(Shape::polyline({{1, 2}, {3, 4}, {5, 6}}), Role::Subgoal);
      ++m.shapes;
    } else if (r < 0.97) {
      const char* names[] = {"los tests", "expanded", "heap size"};
      const char* name = names[std::size_t(rng()) % 3];
      const double v = std::floor(unit(rng) * 1000);
      rec.counter(name, v);
      m.named[name] = v;
    } else if (r < 0.985) {
      std::vector<PathPiece> p(1 + std::size_t(rng()) % 4);
      rec.path(p);
      m.path_size = p.size();
    } else {
      const std::string name = "refine " + std::to_string(rng() % 9);
      rec.phase(name);
      m.phase = name;
    }
    ++n_events;
  }
  out.trace = rec.take();
  if (model_every) out.model[out.trace.frame_count() - 1] = m;
  return out;
}

void expect_matches_model(const FrameState& s, const ModelFrame& m) {
  SCOPED_TRACE("frame " + std::to_string(s.frame()));
  EXPECT_EQ(s.counters(), m.counters);
  EXPECT_EQ(s.phase(), m.phase);
  EXPECT_EQ(s.shapes().size(), m.shapes);
  EXPECT_EQ(s.path().size(), m.path_size);
  ASSERT_EQ(s.nodes().size(), m.nodes.size());
  for (auto& [id, mn] : m.nodes) {
    const NodeState* n = s.node_by_id(id);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->status, mn.status);
    if (mn.status == NodeStatus::Unseen) continue;
    EXPECT_EQ(n->desc.x, mn.x);
    EXPECT_EQ(n->desc.y, mn.y);
    EXPECT_EQ(n->g, mn.g);
    EXPECT_EQ(n->h, mn.h);
    const NodeState* p = s.parent_of(*n);
    EXPECT_EQ(p ? p->desc.id : kNoNode, mn.parent);
  }
  EXPECT_EQ(s.current() ? s.current()->desc.id : kNoNode, m.current);
  const auto open = s.open_list(std::size_t(-1));
  EXPECT_EQ(open.size(), m.counters.open);
  for (const NodeState* n : open) EXPECT_EQ(n->status, NodeStatus::Open);
  EXPECT_EQ(s.named_counters().size(), m.named.size());
  for (auto& [name, v] : m.named) EXPECT_EQ(s.counter(name), v) << name;
}

// Dijkstra over an open w x w 4-connected grid from its centre, a node closed a frame, as the
// grid planners report it (dense ids through a StepReporter).
Trace wavefront_trace(int w) {
  TraceRecorder rec;
  StepReporter rep(&rec);
  rec.space(NodeSpace::cells(w, w));
  const std::size_t n = std::size_t(w) * std::size_t(w);
  std::vector<double> g(n, INFINITY);
  std::vector<char> closed(n, 0);
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  const auto start = std::uint32_t(w / 2 * w + w / 2);
  g[start] = 0;
  rep.open(start, kNoNode, 0, 0);
  open.push({0, start});
  const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  while (!open.empty()) {
    const auto [d, id] = open.top();
    open.pop();
    if (closed[id] || d > g[id]) continue;
    closed[id] = 1;
    rep.close(id);
    const int x = int(id) % w, y = int(id) / w;
    for (int j = 0; j < 4; ++j) {
      const int nx = x + dx[j], ny = y + dy[j];
      if (nx < 0 || ny < 0 || nx >= w || ny >= w) continue;
      const auto nb = std::uint32_t(ny * w + nx);
      if (closed[nb] || d + 1 >= g[nb]) continue;
      g[nb] = d + 1;
      rep.open(nb, id, d + 1, 0);
      open.push({d + 1, nb});
    }
    rep.frame();
  }
  rep.flush();
  return rec.take();
}

TEST(Trace, EmptyTraceHasOneEmptyFrame) {
  TraceRecorder rec;
  Trace t = rec.take();
  EXPECT_EQ(t.frame_count(), 1u);
  EXPECT_EQ(t.event_count(), 0u);
  TraceCursor c(t);
  EXPECT_EQ(c.frame(), 0u);
  EXPECT_FALSE(c.step_forward());
  EXPECT_FALSE(c.step_back());
  c.seek(5);
  EXPECT_EQ(c.frame(), 0u);
  EXPECT_TRUE(c.state().nodes().empty());
  EXPECT_TRUE(c.state().path().empty());
  EXPECT_EQ(c.state().current(), nullptr);
  EXPECT_EQ(c.state().phase(), "");
  EXPECT_TRUE(c.state().open_list(10).empty());
}

TEST(Trace, FrameBoundaries) {
  TraceRecorder rec;
  rec.open(NodeDesc{1, 0.5f, 0.5f}, kNoNode, 0, 1);
  rec.open(NodeDesc{2, 1.5f, 0.5f}, 1, 1, 1);
  rec.frame();
  rec.close(1);
  rec.frame();
  rec.frame();  // an empty frame is still a step the planner asked for
  rec.close(2);
  Trace t = rec.take();
  ASSERT_EQ(t.frame_count(), 5u);  // 0 = nothing, 1, 2, 3 (= 2), 4 = after the trailing close
  EXPECT_EQ(t.event_count(), 4u);
  EXPECT_EQ(t.frame_events(0).size(), 0u);
  EXPECT_EQ(t.frame_events(1).size(), 2u);
  EXPECT_EQ(t.frame_events(3).size(), 0u);
  EXPECT_EQ(t.frame_events(4).size(), 1u);
  TraceCursor c(t);
  EXPECT_TRUE(c.state().nodes().empty());
  c.seek(1);
  EXPECT_EQ(c.state().counters().generated, 2u);
  EXPECT_EQ(c.state().counters().expanded, 0u);
  c.seek(3);
  EXPECT_EQ(c.state().counters().expanded, 1u);
  c.seek(4);
  EXPECT_EQ(c.state().counters().expanded, 2u);

  // A trace that ends with frame() has no extra frame.
  rec.open(NodeDesc{1, 0.5f, 0.5f}, kNoNode, 0, 1);
  rec.frame();
  EXPECT_EQ(rec.take().frame_count(), 2u);
}

TEST(Trace, EventsShapeTheState) {
  TraceRecorder rec;
  rec.phase("insert start");
  rec.open(NodeDesc{10, 0.5f, 0.5f}, kNoNode, 0, 4);
  rec.counter("expanded", 0);
  rec.frame();  // 1
  rec.phase("search");
  rec.close(10);
  rec.open(NodeDesc{11, 1.5f, 0.5f}, 10, 1, 3);
  rec.open(NodeDesc{12, 1.5f, 1.5f}, 10, 1.5, 3.5);  // f = 5
  rec.open(NodeDesc{13, 0.5f, 1.5f}, 10, 2, 2);      // f = 4, larger g than node 11
  rec.test(Shape::segment({0.5, 0.5}, {3, 3}), false);
  rec.mark(Shape::point({7, 7}), Role::Transition);
  rec.counter("expanded", 1);
  rec.frame();  // 2
  rec.relax(12, 13, 1.2);
  rec.close(13);
  rec.open(NodeDesc{12, 9.5f, 9.5f}, 13, 1.1, 3.5);  // re-reported somewhere else
  rec.test(Shape::segment({0.5, 0.5}, {2, 2}), true);
  const PathPiece piece{PathPiece::Kind::Line, {{0.5, 0.5}, {0.5, 1.5}}, {}};
  rec.path(std::span<const PathPiece>(&piece, 1));
  rec.frame();  // 3
  Trace t = rec.take();
  ASSERT_EQ(t.frame_count(), 4u);
  ASSERT_EQ(t.phases().size(), 2u);
  EXPECT_EQ(t.phases()[0].name, "insert start");
  EXPECT_EQ(t.phases()[0].first_frame, 1u);
  EXPECT_EQ(t.phases()[1].name, "search");
  EXPECT_EQ(t.phases()[1].first_frame, 2u);
  EXPECT_EQ(t.node_count(), 4u);
  EXPECT_EQ(t.descriptions().size(), 5u);  // one per node, plus node 12's move

  TraceCursor c(t);
  c.seek(1);
  EXPECT_EQ(c.state().phase(), "insert start");
  EXPECT_EQ(c.state().counter("expanded"), 0.0);
  EXPECT_EQ(c.state().current(), nullptr);

  c.seek(2);
  const FrameState& s = c.state();
  EXPECT_EQ(s.phase(), "search");
  ASSERT_NE(s.current(), nullptr);
  EXPECT_EQ(s.current()->desc.id, 10u);
  EXPECT_EQ(s.current()->status, NodeStatus::Closed);
  EXPECT_EQ(s.counters().open, 3u);
  EXPECT_EQ(s.counters().generated, 4u);
  EXPECT_EQ(s.counters().expanded, 1u);
  EXPECT_EQ(s.counters().tests_failed, 1u);
  EXPECT_EQ(s.counter("expanded"), 1.0);
  EXPECT_FALSE(s.counter("nothing").has_value());
  auto open = s.open_list(10);
  ASSERT_EQ(open.size(), 3u);
  EXPECT_EQ(open[0]->desc.id, 13u);  // f 4, g 2 beats f 4, g 1
  EXPECT_EQ(open[1]->desc.id, 11u);
  EXPECT_EQ(open[2]->desc.id, 12u);
  ASSERT_EQ(s.open_list(1).size(), 1u);
  EXPECT_EQ(s.open_list(1)[0]->desc.id, 13u);
  ASSERT_EQ(s.shapes().size(), 2u);
  EXPECT_TRUE(s.shapes()[0].is_test);
  EXPECT_EQ(s.shapes()[0].role, Role::Rejected);
  EXPECT_EQ(s.shapes()[0].frame, 2u);
  EXPECT_EQ(s.shapes()[1].role, Role::Transition);
  EXPECT_TRUE(s.path().empty());
  const NodeState* n11 = s.node_by_id(11);
  ASSERT_NE(n11, nullptr);
  EXPECT_EQ(s.parent_of(*n11)->desc.id, 10u);
  EXPECT_DOUBLE_EQ(n11->f(), 4.0);
  EXPECT_EQ(s.node_by_id(99), nullptr);

  c.step_forward();
  const FrameState& s3 = c.state();
  EXPECT_EQ(s3.current()->desc.id, 13u);
  EXPECT_EQ(s3.counters().relaxed, 1u);
  EXPECT_EQ(s3.counters().generated, 5u);
  EXPECT_EQ(s3.counters().open, 2u);  // 11 and 12; 13 closed
  EXPECT_EQ(s3.counters().tests_passed, 1u);
  const NodeState* n12 = s3.node_by_id(12);
  EXPECT_EQ(n12->desc.x, 9.5f);
  EXPECT_EQ(n12->g, 1.1);
  EXPECT_EQ(s3.parent_of(*n12)->desc.id, 13u);
  EXPECT_EQ(s3.path().size(), 1u);
  EXPECT_EQ(s3.shapes().back().frame, 3u);

  c.step_back();  // node 12 is back where it was first reported
  EXPECT_EQ(c.state().node_by_id(12)->desc.x, 1.5f);
  EXPECT_EQ(c.state().node_by_id(12)->g, 1.5);
  EXPECT_EQ(c.state().current()->desc.id, 10u);
  EXPECT_TRUE(c.state().path().empty());
  c.step_back();
  EXPECT_EQ(c.state().phase(), "insert start");
  EXPECT_EQ(c.state().nodes().size(), 1u);
  EXPECT_EQ(c.state().shapes().size(), 0u);
}

TEST(Trace, ParentOnlyNodesAreUnseen) {
  TraceRecorder rec;
  rec.open(NodeDesc{5, 1, 1}, 77, 1, 1);
  Trace t = rec.take();
  TraceCursor c(t);
  c.seek(1);
  ASSERT_EQ(c.state().nodes().size(), 2u);
  const NodeState* p = c.state().parent_of(*c.state().node_by_id(5));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->desc.id, 77u);
  EXPECT_EQ(p->status, NodeStatus::Unseen);
  EXPECT_EQ(c.state().counters().open, 1u);
}

TEST(Trace, ReplayMatchesIndependentModel) {
  Synthetic syn = make_trace(1, 60000, 40, 7);
  const Trace& t = syn.trace;
  ASSERT_GT(syn.model.size(), 1000u);
  TraceCursor c(t);
  for (std::size_t k = 0; k < t.frame_count(); ++k) {
    if (k > 0) {
      ASSERT_TRUE(c.step_forward());
    }
    if (auto it = syn.model.find(k); it != syn.model.end()) {
      expect_matches_model(c.state(), it->second);
      if (HasFailure()) return;
    }
  }
  EXPECT_FALSE(c.step_forward());
  // Jumps land on the same states.
  std::mt19937 rng(2);
  TraceCursor j(t);
  for (int i = 0; i < 300; ++i) {
    auto it = syn.model.begin();
    std::advance(it, std::ptrdiff_t(rng() % syn.model.size()));
    j.seek(it->first);
    expect_matches_model(j.state(), it->second);
    if (HasFailure()) return;
  }
}

TEST(Trace, SeekEqualsSteppingForward) {
  for (std::uint32_t seed : {3u, 4u}) {
    // Few distinct nodes and many events: many keyframes.
    Synthetic syn = make_trace(seed, 150000, seed == 3 ? 30 : 200, 0, seed == 3 ? 1 : 7);
    const Trace& t = syn.trace;
    // Random re-openings keep most nodes changing to the end, so keyframes hold most nodes and
    // come every 4 (nodes + open) events: fewer with 40,000 nodes than with 900.
    ASSERT_GT(t.keyframe_count(), seed == 3 ? 5u : 2u);
    TraceCursor stepper(t);
    for (std::size_t k = 0; k < t.frame_count(); ++k) {
      if (k > 0) {
        ASSERT_TRUE(stepper.step_forward());
      }
      if (k % 13 != 0 && k + 1 != t.frame_count()) continue;
      TraceCursor jumper(t);
      jumper.seek(k);
      ASSERT_EQ(jumper.frame(), k);
      ASSERT_TRUE(jumper.state() == stepper.state()) << "seed " << seed << " frame " << k;
    }
  }
}

TEST(Trace, ForwardThenBackEqualsJump) {
  Synthetic syn = make_trace(5, 200000, 60, 0);
  const Trace& t = syn.trace;
  std::mt19937 rng(6);
  for (int i = 0; i < 60; ++i) {
    const std::size_t k = rng() % t.frame_count();
    // Short and long walks back, some past the undo log's reach.
    const std::size_t back = i % 3 == 0 ? rng() % 5 : i % 3 == 1 ? rng() % 200 : rng() % 20000;
    const std::size_t j = k >= back ? k - back : 0;
    TraceCursor walk(t);
    walk.seek(k);
    for (int s = 0; s < 30 && walk.frame() < t.frame_count() - 1; ++s) walk.step_forward();
    while (walk.frame() > j) ASSERT_TRUE(walk.step_back());
    TraceCursor jump(t);
    jump.seek(j);
    ASSERT_TRUE(walk.state() == jump.state()) << "k " << k << " j " << j;
  }
  // Stepping back from the very end to frame 0.
  TraceCursor walk(t), jump(t);
  walk.seek(t.frame_count() - 1);
  std::size_t k = walk.frame();
  while (walk.step_back()) {
    --k;
    if (k % 211 == 0) {
      jump.seek(k);
      ASSERT_TRUE(walk.state() == jump.state()) << k;
    }
  }
  EXPECT_EQ(walk.frame(), 0u);
  EXPECT_TRUE(walk.state().nodes().empty());
}

// Playing a long trace forward overflows the cursor's undo log, which then forgets its oldest
// frames; stepping back must still agree with jumping, both within the log and past it.
TEST(Trace, LongPlaybackThenBack) {
  Synthetic syn = make_trace(12, 250000, 20, 0);  // few nodes: comparing every frame is cheap
  const Trace& t = syn.trace;
  TraceCursor play(t);
  while (play.step_forward()) {
  }
  std::size_t k = play.frame();
  std::size_t cheap = 0;
  while (k > 0) {
    ASSERT_TRUE(play.step_back());
    --k;
    cheap += play.last_replayed() <= t.frame_events(k + 1).size();
    TraceCursor fresh(t);  // jumping from frame 0, never through an undo log
    fresh.seek(k);
    ASSERT_TRUE(play.state() == fresh.state()) << k;
  }
  // Most steps back undo just one frame instead of replaying from a keyframe.
  EXPECT_GT(cheap, t.frame_count() * 9 / 10);
}

TEST(Trace, RandomWalkOfMoves) {
  Synthetic syn = make_trace(7, 80000, 25, 3);
  const Trace& t = syn.trace;
  std::mt19937 rng(8);
  TraceCursor c(t);
  for (int i = 0; i < 3000; ++i) {
    const int what = int(rng() % 4);
    if (what == 0)
      c.seek(rng() % (t.frame_count() + 3));
    else if (what == 1)
      c.step_back();
    else
      c.step_forward();
    if (auto it = syn.model.find(c.frame()); it != syn.model.end()) {
      expect_matches_model(c.state(), it->second);
      if (HasFailure()) return;
    }
  }
}

TEST(Trace, KeyframesBoundTheReplay) {
  Synthetic syn = make_trace(9, 300000, 80, 0);
  const Trace& t = syn.trace;
  std::size_t largest_frame = 0;
  for (std::size_t k = 0; k < t.frame_count(); ++k)
    largest_frame = std::max(largest_frame, t.frame_events(k).size());
  EXPECT_GT(t.keyframe_count(), 5u);
  // A keyframe holds at most every node and every node open.
  EXPECT_LE(t.max_replay_events(),
            Trace::keyframe_interval(t.node_count(), t.node_count()) + largest_frame);
  std::mt19937 rng(10);
  for (int i = 0; i < 300; ++i) {
    TraceCursor c(t);
    const std::size_t k = rng() % t.frame_count();
    c.seek(k);
    EXPECT_LE(c.last_replayed(), t.max_replay_events()) << k;
    // From anywhere else too: moving never replays more than a fresh jump could.
    const std::size_t k2 = rng() % t.frame_count();
    c.seek(k2);
    EXPECT_LE(c.last_replayed(), t.max_replay_events() + t.node_count() / 2) << k2;
  }
  // Memory: O(events). A keyframe holding H nodes and O open ones follows at least 4 (H + O)
  // events...
  std::size_t held = 0;
  for (std::size_t i = 0; i < t.keyframe_count(); ++i)
    held += t.keyframe_nodes(i) + t.keyframe_open(i);
  EXPECT_LE(4 * held, t.event_count());
  // ...so all of it stays within a small multiple of the events (this trace reports many
  // shapes, which take side-table room of their own).
  EXPECT_LT(t.memory_bytes(), 5 * sizeof(TraceEvent) * t.event_count());
}

// The app hands a jump to a worker when seek_cost says it is long: the estimate must follow what
// the seek then does (events replayed, plus half an event a restored node).
TEST(Trace, SeekCostFollowsWhatTheSeekDoes) {
  Synthetic syn = make_trace(9, 300000, 80, 0);
  const Trace& t = syn.trace;
  ASSERT_GT(t.keyframe_count(), 5u);
  std::mt19937 rng(12);
  TraceCursor c(t);
  std::size_t cheap = 0;
  for (int i = 0; i < 300; ++i) {
    EXPECT_EQ(c.seek_cost(c.frame()), 0.0);
    const std::size_t k = rng() % 4 == 0 ? c.frame() + 1 + rng() % 8 : rng() % t.frame_count();
    const double cost = c.seek_cost(k);
    c.seek(k);
    const double replayed = double(c.last_replayed());
    // Stream bytes per event vary along the trace; a factor of 4 either way is what a caller
    // choosing "now or on a worker" can live with.
    EXPECT_GE(cost * 4 + 64, replayed) << "to " << k;
    if (cost < 1000) {
      ++cheap;
      EXPECT_LE(replayed, cost * 4 + 64) << "a cheap estimate that replays much: to " << k;
    }
  }
  EXPECT_GT(cheap, 30u) << "the short steps should be estimated as cheap";
}

// One cursor jumping anywhere from wherever it is (keyframe restores that write only the
// records that differ from those it holds) lands on the state a fresh cursor's jump makes, on a
// trace with re-openings and moved nodes (descriptions) and on a wavefront that settles what it
// closes.
TEST(Trace, JumpsFromAnywhereEqualFreshJumps) {
  Synthetic syn = make_trace(13, 120000, 50, 0);
  const Trace wave = wavefront_trace(160);
  for (const Trace* t : {static_cast<const Trace*>(&syn.trace), &wave}) {
    ASSERT_GT(t->keyframe_count(), 5u);
    std::mt19937 rng(14);
    TraceCursor c(*t);
    std::size_t partial = 0;
    for (int i = 0; i < 200; ++i) {
      const std::size_t k = rng() % t->frame_count();
      c.seek(k);
      if (c.last_restored() > 0 && c.last_restored() < t->frame_info(k).node_count) ++partial;
      TraceCursor fresh(*t);
      fresh.seek(k);
      ASSERT_TRUE(c.state() == fresh.state()) << "frame " << k;
    }
    EXPECT_GT(partial, 20u) << "restores should have kept some records";
  }
}

// A wavefront closes each node once, soon after it opened: keyframes hold its frontier, not
// every node, so they come often (short replays), and a jump between two late frames rewrites
// few records.
TEST(Trace, SettlingSearchHasSmallKeyframes) {
  const Trace t = wavefront_trace(300);
  const std::size_t n = t.node_count();
  ASSERT_GT(n, 80000u);
  EXPECT_GT(t.keyframe_count(), 30u);
  std::size_t largest = 0;
  for (std::size_t i = 0; i < t.keyframe_count(); ++i)
    largest = std::max(largest, t.keyframe_nodes(i));
  EXPECT_LT(largest, n / 20) << "a keyframe holds about the frontier";
  EXPECT_LT(t.max_replay_events(), t.event_count() / 20);
  TraceCursor c(t);
  c.seek(t.frame_count() * 9 / 10);
  c.seek(t.frame_count() * 8 / 10);  // back past the undo log's reach: a restore
  EXPECT_GT(c.last_restored(), 0u);
  EXPECT_LT(c.last_restored(), n / 10);
  TraceCursor fresh(t);
  fresh.seek(t.frame_count() * 8 / 10);
  EXPECT_TRUE(c.state() == fresh.state());
}

TEST(Trace, FinalCounters) {
  Synthetic syn = make_trace(11, 50000, 50, 1000000);
  TraceCursor c(syn.trace);
  c.seek(syn.trace.frame_count() - 1);
  expect_matches_model(c.state(), syn.model.rbegin()->second);
  const SearchCounters& k = c.state().counters();
  std::size_t opens = 0, closes = 0, relaxes = 0, tests = 0;
  for (const TraceEvent& e : syn.trace.events()) {
    opens += e.kind == TraceEvent::Kind::Open;
    closes += e.kind == TraceEvent::Kind::Close;
    relaxes += e.kind == TraceEvent::Kind::Relax;
    tests += e.kind == TraceEvent::Kind::Test;
  }
  EXPECT_EQ(k.generated, opens);
  EXPECT_EQ(k.expanded, closes);
  EXPECT_EQ(k.relaxed, relaxes);
  EXPECT_EQ(k.tests_passed + k.tests_failed, tests);
  std::size_t open_now = 0;
  for (const NodeState& n : c.state().nodes()) open_now += n.status == NodeStatus::Open;
  EXPECT_EQ(k.open, open_now);
  auto list = c.state().open_list(open_now + 10);
  EXPECT_EQ(list.size(), open_now);
  for (std::size_t i = 1; i < list.size(); ++i) {
    EXPECT_LE(list[i - 1]->f(), list[i]->f());
    if (list[i - 1]->f() == list[i]->f()) {
      EXPECT_GE(list[i - 1]->g, list[i]->g);
    }
  }
}

// Large ids start in the hash table and move to the direct table once it grows over them.
TEST(Trace, IdsKeepTheirIndexWhenTheTableGrows) {
  TraceRecorder rec;
  const std::uint32_t big = (1u << 20) + 5, huge = 4000000000u;
  rec.open(NodeDesc{big, 1, 1}, kNoNode, 0, 0);
  rec.open(NodeDesc{huge, 2, 2}, big, 1, 0);
  for (std::uint32_t id = 0; id < 300000; ++id) rec.open(NodeDesc{id * 3, 0, 0}, big, 1, 0);
  rec.open(NodeDesc{big + 1, 0, 0}, big, 1, 0);  // the direct table now grows over `big`
  rec.relax(big, huge, 5);
  rec.close(huge);
  Trace t = rec.take();
  EXPECT_EQ(t.node_count(), 300003u);
  EXPECT_EQ(t.index_of(big), 0u);
  EXPECT_EQ(t.index_of(huge), 1u);
  EXPECT_EQ(t.index_of(3 * 1234), 1236u);
  EXPECT_EQ(t.index_of(3 * 1234 + 1), kNoNode);
  TraceCursor c(t);
  c.seek(1);
  EXPECT_EQ(c.state().node_by_id(big)->g, 5.0);
  EXPECT_EQ(c.state().parent_of(*c.state().node_by_id(big))->desc.id, huge);
  EXPECT_EQ(c.state().node_by_id(huge)->status, NodeStatus::Closed);
  EXPECT_EQ(c.state().node_by_id(3 * 299999)->desc.id, 3 * 299999u);
}

// The batched hot path (StepReporter -> batch) records exactly what single calls record, node
// events, tests and marks in order, including steps with more events than the reporter buffers.
// A search loop reports each step as one FrameClose event (the previous step's frame boundary
// and the next node closed), and a step of bounded size makes room once and writes its opens and
// relaxes unchecked. Recorded, that must be the same trace as frame() then close() with checked
// writes, across many buffer boundaries; the default batch() must split it the same way.
TEST(Trace, FrameCloseEqualsFrameThenClose) {
  struct Log final : SearchObserver {
    std::vector<std::string> calls;
    void open(const NodeDesc& d, std::uint32_t p, double g, double h) override {
      calls.push_back("open " + std::to_string(d.id) + " " + std::to_string(p) + " " +
                      std::to_string(g) + " " + std::to_string(h));
    }
    void relax(std::uint32_t n, std::uint32_t p, double g) override {
      calls.push_back("relax " + std::to_string(n) + " " + std::to_string(p) + " " +
                      std::to_string(g));
    }
    void close(std::uint32_t n) override { calls.push_back("close " + std::to_string(n)); }
    void frame() override { calls.push_back("frame"); }
  };
  TraceRecorder single, batched;
  Log log_single, log_batched;
  StepReporter ref(&single), steps(&batched), log_steps(&log_batched);
  std::mt19937 rng(29);
  ref.open(0, kNoNode, 0.0, 5.0);
  log_single.open(NodeDesc{0}, kNoNode, 0.0, 5.0);
  steps.open(0, kNoNode, 0.0, 5.0);
  log_steps.open(0, kNoNode, 0.0, 5.0);
  for (int step = 0; step < 700; ++step) {
    const std::uint32_t cur = std::uint32_t(rng() % 3000);
    ref.frame();
    ref.close(cur);
    log_single.frame();
    log_single.close(cur);
    steps.frame_close(cur, 8);
    log_steps.frame_close(cur, 8);
    const int n = int(rng() % 9);  // at most the room made
    for (int i = 0; i < n; ++i) {
      const std::uint32_t id = std::uint32_t(rng() % 3000);
      const double g = double(rng() % 100) + 0.25, h = double(rng() % 100);
      if (rng() % 3) {
        ref.open(id, cur, g, h);
        log_single.open(NodeDesc{id}, cur, g, h);
        steps.open<false>(id, cur, g, h);
        log_steps.open<false>(id, cur, g, h);
      } else {
        ref.relax(id, cur, g);
        log_single.relax(id, cur, g);
        steps.relax<false>(id, cur, g);
        log_steps.relax<false>(id, cur, g);
      }
    }
  }
  ref.frame();
  log_single.frame();
  steps.frame();
  log_steps.frame();
  ref.flush();
  steps.flush();
  log_steps.flush();
  EXPECT_EQ(log_single.calls, log_batched.calls);
  const Trace a = single.take(), b = batched.take();
  ASSERT_EQ(a.frame_count(), b.frame_count());
  ASSERT_GT(a.frame_count(), 700u);  // 701 boundaries
  ASSERT_EQ(a.event_count(), b.event_count());
  const std::vector<TraceEvent> ea = all_events(a), eb = all_events(b);
  ASSERT_EQ(ea.size(), eb.size());
  for (std::size_t i = 0; i < ea.size(); ++i) {
    ASSERT_EQ(ea[i].kind, eb[i].kind) << i;
    ASSERT_EQ(ea[i].a, eb[i].a) << i;
    ASSERT_EQ(ea[i].b, eb[i].b) << i;
    ASSERT_EQ(ea[i].x, eb[i].x) << i;
  }
}

TEST(Trace, BatchEqualsSingleCalls) {
  TraceRecorder single, batched;
  StepReporter steps(&batched);
  std::mt19937 rng(13);
  for (int step = 0; step < 300; ++step) {
    const std::uint32_t cur = std::uint32_t(step);
    single.close(cur);
    steps.close(cur);
    const int n = step % 50 == 0 ? 150 : int(rng() % 9);
    for (int i = 0; i < n; ++i) {
      const std::uint32_t id = std::uint32_t(rng() % 2000);
      const double g = double(rng() % 100), h = double(rng() % 100);
      const unsigned kind = rng() % 8;
      if (kind == 0) {  // geometry in the same batch: a tested segment
        const Shape seg = Shape::segment({g, h}, {h, g});
        single.test(seg, id % 2 == 0);
        steps.test(seg, id % 2 == 0);
      } else if (kind == 1) {  // a mark; every 5th a polyline (its points are copied)
        const Shape m = id % 5 == 0 ? Shape::polyline({{g, h}, {h, g}, {g, g}})
                                    : Shape::cell(int(id % 40), int(id / 40));
        single.mark(m, Role::Candidate);
        steps.mark(m, Role::Candidate);
      } else if (kind < 6) {
        const NodeDesc d{id, float(id % 40) + 0.5f, float(id / 40) + 0.5f};
        single.open(d, cur, g, h);
        steps.open(d, cur, g, h);
      } else {
        single.relax(id, cur, g);
        steps.relax(id, cur, g);
      }
    }
    if (step % 17 == 0) {  // a non-node event in the middle of a step
      single.counter("expanded", step);
      steps.flush();
      batched.counter("expanded", step);
    }
    single.frame();
    steps.frame();
  }
  steps.flush();  // frames travel in the batch: nothing reaches the recorder before a flush
  const Trace a = single.take(), b = batched.take();
  ASSERT_EQ(a.event_count(), b.event_count());
  ASSERT_EQ(a.frame_count(), b.frame_count());
  // Same events in the same order (tests and marks interleaved with node events), same shapes.
  const std::vector<TraceEvent> ea = all_events(a), eb = all_events(b);
  ASSERT_EQ(ea.size(), a.event_count());
  ASSERT_EQ(eb.size(), b.event_count());
  for (std::size_t i = 0; i < a.event_count(); ++i) {
    ASSERT_EQ(ea[i].kind, eb[i].kind) << i;
    ASSERT_EQ(ea[i].a, eb[i].a) << i;
    ASSERT_EQ(ea[i].flag, eb[i].flag) << i;
    ASSERT_EQ(ea[i].b, eb[i].b) << i;
    ASSERT_TRUE(std::bit_cast<std::uint64_t>(ea[i].x) == std::bit_cast<std::uint64_t>(eb[i].x)) << i;
    ASSERT_TRUE(std::bit_cast<std::uint64_t>(ea[i].y) == std::bit_cast<std::uint64_t>(eb[i].y)) << i;
  }
  ASSERT_EQ(a.shapes().size(), b.shapes().size());
  ASSERT_GT(a.shapes().size(), 100u);
  for (std::size_t i = 0; i < a.shapes().size(); ++i) {
    const ShapeRecord &x = a.shapes()[i], &y = b.shapes()[i];
    ASSERT_EQ(x.shape.kind, y.shape.kind) << i;
    ASSERT_EQ(x.shape.a, y.shape.a) << i;
    ASSERT_EQ(x.shape.b, y.shape.b) << i;
    ASSERT_EQ(x.shape.points, y.shape.points) << i;
    ASSERT_EQ(x.frame, y.frame) << i;
    ASSERT_EQ(x.role, y.role) << i;
    ASSERT_EQ(x.ok, y.ok) << i;
  }
  TraceCursor ca(a), cb(b);
  while (ca.step_forward()) {
    ASSERT_TRUE(cb.step_forward());
    ASSERT_TRUE(ca.state() == cb.state()) << ca.frame();
  }
}

// A node of a dense space opened by id alone (the grid planners' hot path) is placed, headed and
// labelled by its space exactly as a described one, and costs the trace no description.
TEST(Trace, DenseNodesOpenedByIdNeedNoDescription) {
  TraceRecorder described, by_id;
  const NodeSpace cells = NodeSpace::cells(7, 5);
  const NodeSpace headings = NodeSpace::cell_headings(7, 5, 8, 35);
  described.space(cells);
  described.space(headings);
  StepReporter steps(&by_id);
  by_id.space(cells);
  by_id.space(headings);
  const std::uint32_t ids[] = {0, 6, 34, 35, 35 + 8 * 12 + 3, 35 + 8 * 35 - 1};
  for (std::uint32_t id : ids) {
    const NodeSpace& s = id < 35 ? cells : headings;
    NodeDesc d;
    d.id = id;
    d.x = float(s.position(id)->x);
    d.y = float(s.position(id)->y);
    if (id >= 35) d.heading = float(s.heading(id));
    described.open(d, kNoNode, 1.0, 2.0);
    steps.open(id, kNoNode, 1.0, 2.0);
    described.frame();
    steps.frame();
  }
  steps.flush();
  const Trace a = described.take(), b = by_id.take();
  ASSERT_EQ(a.frame_count(), b.frame_count());
  EXPECT_EQ(b.descriptions().size(), 0u);
  TraceCursor ca(a), cb(b);
  ca.seek(a.frame_count() - 1);
  cb.seek(b.frame_count() - 1);
  for (std::uint32_t id : ids) {
    const NodeState *x = ca.state().node_by_id(id), *y = cb.state().node_by_id(id);
    ASSERT_TRUE(x && y) << id;
    EXPECT_EQ(y->status, NodeStatus::Open) << id;
    EXPECT_EQ(a.position_of(x->desc), b.position_of(y->desc)) << id;
    EXPECT_EQ(a.label_of(x->desc), b.label_of(y->desc)) << id;
    const double ha = a.heading_of(x->desc), hb = b.heading_of(y->desc);
    EXPECT_TRUE((std::isnan(ha) && std::isnan(hb)) || std::abs(ha - hb) < 1e-6) << id;
    EXPECT_EQ(y->g, 1.0);
  }
}

TEST(Trace, RecorderStartsAfreshAfterTake) {
  TraceRecorder rec;
  rec.phase("a");
  rec.open(NodeDesc{1, 0, 0}, kNoNode, 0, 0);
  rec.frame();
  Trace first = rec.take();
  rec.open(NodeDesc{2, 0, 0}, kNoNode, 0, 0);
  Trace second = rec.take();
  EXPECT_EQ(first.node_count(), 1u);
  EXPECT_EQ(second.node_count(), 1u);
  EXPECT_EQ(second.phases().size(), 0u);
  EXPECT_EQ(second.index_of(1), kNoNode);
  EXPECT_EQ(second.index_of(2), 0u);
  // A moved trace keeps working.
  Trace moved = std::move(first);
  TraceCursor c(moved);
  c.seek(1);
  EXPECT_EQ(c.state().phase(), "a");
  EXPECT_EQ(c.state().node_by_id(1)->status, NodeStatus::Open);
}

}  // namespace
}  // namespace pl

namespace pl {
namespace {

// The event coding is lossless: whatever doubles a planner reports (steps that fit the step
// table, steps that do not, more distinct steps than the table holds, NaN, infinities, -0),
// whatever its parents (none, the node just closed, new, arbitrary), the decoded events and the
// replayed states give back every value bit for bit.
TEST(TraceCoding, ValuesRoundTripBitForBit) {
  std::mt19937 rng(77);
  TraceRecorder rec;
  struct Reported {
    TraceEvent::Kind kind;
    std::uint32_t id, parent;
    double g, h;
  };
  std::vector<Reported> reported;
  std::map<std::uint32_t, std::pair<double, double>> latest;  // id -> g, h
  std::uint32_t last_closed = kNoNode;
  const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, 5e-324, 1.0, 0.1};
  auto value = [&](double parent_value) {
    switch (rng() % 5) {
      case 0:
        return specials[rng() % std::size(specials)];
      case 1:
        return parent_value + double(rng() % 400) * 0.37;  // many distinct steps
      case 2:
        return std::ldexp(double(rng()), int(rng() % 40) - 20);
      default:
        return parent_value + (rng() % 2 ? 1.0 : std::sqrt(2.0));
    }
  };
  for (int step = 0; step < 20000; ++step) {
    const std::uint32_t id = rng() % 3000;
    std::uint32_t parent = kNoNode;
    switch (rng() % 4) {
      case 0: break;
      case 1: parent = last_closed; break;
      default: parent = rng() % 3500;  // sometimes never seen before
    }
    const double pg = latest.count(parent) ? latest[parent].first : 0.0;
    const double ph = latest.count(parent) ? latest[parent].second : 0.0;
    const int what = int(rng() % 6);
    if (what < 3) {
      const double g = value(pg), h = value(ph);
      if (rng() % 3)
        rec.open(NodeDesc{id, 0, 0}, parent, g, h);
      else {
        StepReporter rep(&rec);
        rep.open(id, parent, g, h);
        rep.flush();
      }
      reported.push_back({TraceEvent::Kind::Open, id, parent, g, h});
      latest[id] = {g, h};
    } else if (what < 5) {
      const double g = value(pg);
      rec.relax(id, parent, g);
      reported.push_back({TraceEvent::Kind::Relax, id, parent, g, 0});
      latest[id].first = g;
    } else {
      rec.close(id);
      reported.push_back({TraceEvent::Kind::Close, id, kNoNode, 0, 0});
      last_closed = id;
    }
    if (rng() % 4 == 0) {
      rec.frame();
      last_closed = kNoNode;
    }
  }
  const Trace t = rec.take();
  ASSERT_EQ(t.event_count(), reported.size());
  auto bits = [](double v) { return std::bit_cast<std::uint64_t>(v); };
  std::size_t i = 0;
  for (const TraceEvent& e : t.events()) {
    const Reported& r = reported[i];
    ASSERT_EQ(e.kind, r.kind) << i;
    ASSERT_EQ(t.node_id(e.a), r.id) << i;
    if (r.kind != TraceEvent::Kind::Close) {
      ASSERT_EQ(e.b == kNoNode ? kNoNode : t.node_id(e.b), r.parent) << i;
      ASSERT_EQ(bits(e.x), bits(r.g)) << i << " g " << e.x << " vs " << r.g;
    }
    if (r.kind == TraceEvent::Kind::Open) {
      ASSERT_EQ(bits(e.y), bits(r.h)) << i;
    }
    ++i;
  }
  ASSERT_EQ(i, reported.size());
  // Frame by frame, kinds and nodes decode alone too.
  i = 0;
  for (std::size_t k = 1; k < t.frame_count(); ++k)
    for (const TraceEvent& e : t.frame_events(k)) {
      ASSERT_EQ(e.kind, reported[i].kind) << i;
      ASSERT_EQ(t.node_id(e.a), reported[i].id) << i;
      ++i;
    }
  ASSERT_EQ(i, reported.size());
  // The replay, from keyframes and undo alike, ends with the latest values.
  TraceCursor c(t);
  c.seek(t.frame_count() / 3);
  c.seek(t.frame_count() - 1);
  for (const auto& [id, gh] : latest) {
    const NodeState* n = c.state().node_by_id(id);
    ASSERT_TRUE(n) << id;
    ASSERT_EQ(bits(n->g), bits(gh.first)) << id;
    ASSERT_EQ(bits(n->h), bits(gh.second)) << id;  // 0 unless opened
  }
  TraceCursor fresh(t);
  for (std::size_t k = t.frame_count() - 1; k-- > t.frame_count() - 200;) {
    ASSERT_TRUE(c.step_back());
    fresh.seek(k);
    ASSERT_TRUE(c.state() == fresh.state()) << k;
  }
}

// A grid search costs a few bytes an event, and the whole trace (keyframes included) stays
// well within the 40 bytes an event the trace format promises for large grid searches.
TEST(TraceCoding, GridSearchIsCompact) {
  TraceRecorder rec;
  StepReporter rep(&rec);
  const int side = 300;
  rec.space(NodeSpace::cells(side, side));
  std::vector<double> g(std::size_t(side) * side, INFINITY);
  std::vector<char> closed(g.size(), 0);
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  const auto start = std::uint32_t(side / 2 * side + side / 2);
  auto hof = [&](std::uint32_t c) {
    const double dx = std::abs(double(int(c % side) - side + 1)), dy = std::abs(double(int(c / side) - side + 1));
    return std::max(dx, dy) + (std::sqrt(2.0) - 1) * std::min(dx, dy);
  };
  g[start] = 0;
  rep.open(start, kNoNode, 0, hof(start));
  open.push({hof(start), start});
  const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  while (!open.empty()) {
    auto [f, c] = open.top();
    open.pop();
    if (closed[c]) continue;
    closed[c] = 1;
    rep.close(c);
    const int x = int(c % side), y = int(c / side);
    for (int k = 0; k < 8; ++k) {
      const int nx = x + dx[k], ny = y + dy[k];
      if (nx < 0 || ny < 0 || nx >= side || ny >= side) continue;
      const auto nb = std::uint32_t(ny * side + nx);
      if (closed[nb]) continue;
      const double ng = g[c] + (k < 4 ? 1.0 : std::sqrt(2.0));
      if (ng < g[nb]) {
        if (std::isinf(g[nb]))
          rep.open(nb, c, ng, hof(nb));
        else
          rep.relax(nb, c, ng);
        g[nb] = ng;
        open.push({ng + hof(nb), nb});
      }
    }
    rep.frame();
  }
  rep.flush();
  const Trace t = rec.take();
  ASSERT_GT(t.event_count(), 100000u);
  const double stream = double(t.event_bytes()) / double(t.event_count());
  const double total = double(t.memory_bytes()) / double(t.event_count());
  EXPECT_LT(stream, 6.0);
  EXPECT_LT(total, 40.0);
  // The values survive: the replayed last frame has every reported g.
  TraceCursor c(t);
  c.seek(t.frame_count() - 1);
  for (std::uint32_t id = 0; id < g.size(); ++id)
    if (const NodeState* n = c.state().node_by_id(id)) {
      ASSERT_EQ(n->g, g[id]) << id;
    }
}

}  // namespace
}  // namespace pl

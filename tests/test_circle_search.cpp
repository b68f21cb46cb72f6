// The circles planner on the shared search machinery, as a watcher sees it: the node space it
// declares, node labels, the order of events within an expansion (close, the tests the
// expansion built, then each searched edge's mark before the node it opens), and the same
// expansion order in eager and lazy mode.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "planners/circles.hpp"

namespace pl {
namespace {

// Records the search phase's events as a flat log.
class EventLog final : public SearchObserver {
 public:
  enum class Kind { Open, Relax, Close, Test, Mark, Frame };
  struct Event {
    Kind kind;
    std::uint32_t id;
  };

  void phase(std::string_view name) override { searching_ = name == "search"; }
  void space(const NodeSpace& s) override { spaces.push_back(s); }
  void open(const NodeDesc& d, std::uint32_t, double, double) override {
    if (desc.empty()) spaces_before_first_node = spaces.size();
    desc[d.id] = d;
    desc[d.id].label = nullptr;  // valid during the call only: kept in `labels` instead
    add(Kind::Open, d.id);
    labels[d.id] = d.label ? d.label : "";
  }
  void relax(std::uint32_t id, std::uint32_t, double) override { add(Kind::Relax, id); }
  void close(std::uint32_t id) override { add(Kind::Close, id); }
  void test(const Shape&, bool) override { add(Kind::Test); }
  void mark(const Shape&, Role role) override {
    if (role == Role::Candidate) add(Kind::Mark);
  }
  void frame() override { add(Kind::Frame); }

  std::vector<NodeSpace> spaces;
  std::size_t spaces_before_first_node = 0;
  std::vector<Event> events;  // in the search phase
  std::map<std::uint32_t, NodeDesc> desc;
  std::map<std::uint32_t, std::string> labels;

 private:
  void add(Kind k, std::uint32_t id = kNoNode) {
    if (searching_) events.push_back({k, id});
  }
  bool searching_ = false;
};

EventLog watch(const CircleForest& f, CircleGraphMode mode, PlanResult* out = nullptr) {
  EventLog log;
  CirclePlanOptions o;
  o.mode = mode;
  RunContext ctx;
  ctx.observer = &log;
  const PlanResult r = plan_among_circles(f.circles, f.query, o, ctx);
  if (out) *out = r;
  return log;
}

CircleForest forest(int count, std::uint32_t seed) {
  CircleForestSpec spec;
  spec.count = count;
  spec.seed = seed;
  return make_circle_forest(spec);
}

TEST(CircleSearch, DeclaresAPointsSpaceAndLabelsNodes) {
  const CircleForest f = forest(40, 3);
  PlanResult r;
  const EventLog log = watch(f, CircleGraphMode::Lazy, &r);
  ASSERT_TRUE(r.found);
  ASSERT_EQ(log.spaces.size(), 1u);
  EXPECT_EQ(log.spaces[0], NodeSpace::points(0, 0, "circle graph"));
  EXPECT_EQ(log.spaces_before_first_node, 1u);
  std::size_t opens = 0;
  for (const EventLog::Event& e : log.events) {
    if (e.kind != EventLog::Kind::Open) continue;
    ++opens;
    const NodeDesc& d = log.desc.at(e.id);
    const std::string& label = log.labels.at(e.id);
    if (d.x == float(f.query.start.x) && d.y == float(f.query.start.y) && opens == 1) {
      EXPECT_EQ(label, "start");
    } else if (d.x == float(f.query.goal.x) && d.y == float(f.query.goal.y)) {
      EXPECT_EQ(label, "goal");
    } else {
      // "circle N, cw|ccw, arrival|departure", N an index into the scene's circles.
      ASSERT_EQ(label.rfind("circle ", 0), 0u) << label;
      const std::size_t comma = label.find(", ");
      ASSERT_NE(comma, std::string::npos) << label;
      EXPECT_LT(std::stoul(label.substr(7, comma - 7)), f.circles.size()) << label;
      const std::string rest = label.substr(comma);
      EXPECT_TRUE(rest == ", cw, arrival" || rest == ", cw, departure" ||
                  rest == ", ccw, arrival" || rest == ", ccw, departure")
          << label;
    }
  }
  EXPECT_EQ(opens, r.generated);
}

TEST(CircleSearch, EventsOfAnExpansionStayInOrder) {
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    SCOPED_TRACE(mode == CircleGraphMode::Lazy ? "lazy" : "eager");
    const EventLog log = watch(forest(60, 5), mode);
    using K = EventLog::Kind;
    // The start's open and a frame; then per expansion: close, the tests it built (lazy mode
    // only), then per searched edge its mark and at most one open or relax, and a frame; last,
    // the planner's closing frame (path and counters).
    const auto& ev = log.events;
    ASSERT_GE(ev.size(), 2u);
    EXPECT_EQ(ev[0].kind, K::Open);
    EXPECT_EQ(ev[1].kind, K::Frame);
    ASSERT_EQ(ev.back().kind, K::Frame);
    std::size_t i = 2, expansions = 0, tests = 0;
    while (i + 1 < ev.size()) {
      ASSERT_EQ(ev[i].kind, K::Close) << "event " << i;
      ++expansions;
      ++i;
      while (i < ev.size() && ev[i].kind == K::Test) ++i, ++tests;
      while (i < ev.size() && ev[i].kind == K::Mark) {
        ++i;
        if (i < ev.size() && (ev[i].kind == K::Open || ev[i].kind == K::Relax)) ++i;
      }
      ASSERT_LT(i, ev.size());
      ASSERT_EQ(ev[i].kind, K::Frame) << "event " << i;
      ++i;
    }
    EXPECT_GT(expansions, 2u);
    if (mode == CircleGraphMode::Eager) {
      EXPECT_EQ(tests, 0u);  // the graph was built before the search
    } else {
      EXPECT_GT(tests, 0u);
    }
  }
}

TEST(CircleSearch, EagerAndLazyCloseTheSameNodesInOrder) {
  // Ids differ between the modes (creation order); what the nodes are does not.
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    const CircleForest f = forest(30 + int(seed) * 15, seed);
    auto closed = [&](CircleGraphMode mode) {
      const EventLog log = watch(f, mode);
      std::vector<std::tuple<float, float, float, std::string>> out;
      for (const EventLog::Event& e : log.events) {
        if (e.kind != EventLog::Kind::Close) continue;
        const NodeDesc& d = log.desc.at(e.id);
        out.emplace_back(d.x, d.y, std::isnan(d.heading) ? -10.f : d.heading, log.labels.at(e.id));
      }
      return out;
    };
    EXPECT_EQ(closed(CircleGraphMode::Eager), closed(CircleGraphMode::Lazy)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace pl

// The search hook: the small, algorithm-agnostic vocabulary every planner speaks while it works
// (DESIGN.md section 3). Planners never draw; they report phases, nodes, tests, marks and paths
// here, and the viz library records them into a trace that the app and tests replay.
//
// Cost when nobody watches: planners dispatch once per query on whether an observer is attached
// and run a separate instantiation of their loop with every report compiled out.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "core/geometry.hpp"
#include "core/node_space.hpp"
#include "core/terrain.hpp"

namespace pl {

inline constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

// How a node is shown: a position in map units, an optional heading (radians, 0 = east,
// clockwise on screen; NaN = none), a level (0 = base grid, higher = abstract layers) and an
// optional label. What the id means is told by the node space that contains it (NodeSpace,
// declared with SearchObserver::space()); for grid spaces the position and heading repeat what
// the space says, for Layer and Points spaces they are the only source.
struct NodeDesc {
  std::uint32_t id = kNoNode;
  float x = 0, y = 0;
  float heading = std::numeric_limits<float>::quiet_NaN();
  std::int16_t level = 0;
  // A planner's own name for the node ("circle 12 cw", "entrance 4"), or nullptr for the space's
  // default label (NodeSpace::label). Must stay valid during the call; observers copy it.
  const char* label = nullptr;
};

// Semantic role of a shape; the renderer maps roles to colours and legend entries.
enum class Role : std::uint8_t {
  Open,
  Closed,
  Current,
  Candidate,
  Accepted,
  Rejected,
  Path,
  AbstractNode,
  AbstractEdge,
  AbstractPath,
  Cluster,
  Entrance,
  Transition,
  Start,
  Goal,
  Subgoal,
  Obstacle,
  Highlight,
  Count
};
const char* role_name(Role r);

// Who may use what a shape stands for (an HAA* edge or entrance, any planner's per-agent
// structure): agents whose capability holds every terrain of `capability` and whose size is at
// most `clearance`. clearance 0 (the default) means no requirement: the shape concerns every
// agent. Viewers show "only what this agent may use" with admits(), knowing nothing of the
// planner; labels come from the two fields (e.g. "ground,swamp >= 2").
struct Requirement {
  CapabilityMask capability = 0;
  std::uint16_t clearance = 0;
  bool any() const { return clearance != 0; }
  bool admits(CapabilityMask agent_capability, int agent_size) const {
    return clearance == 0 || ((capability & ~agent_capability) == 0 && agent_size <= clearance);
  }
  bool operator==(const Requirement&) const = default;
};

struct Shape {
  enum class Kind : std::uint8_t { Point, Cell, Segment, Arc, Circle, Pose, Polyline };
  Kind kind = Kind::Point;
  Vec2 a, b;              // point / cell (a = cell corner) / segment (a, b) / circle centre a
  double radius = 0;      // circle, arc
  double angle = 0;       // arc start angle, pose heading
  double sweep = 0;       // arc sweep (positive = clockwise on screen)
  std::int16_t level = 0;
  std::uint32_t tag = kNoNode;  // planner-defined: e.g. the circle that rejected an edge
  std::vector<Vec2> points;     // polyline
  Requirement requirement;      // none by default; set with require()

  static Shape point(Vec2 p) { return Shape{Kind::Point, p, {}, 0, 0, 0, 0, kNoNode, {}, {}}; }
  static Shape cell(int x, int y) {
    return Shape{Kind::Cell, {double(x), double(y)}, {}, 0, 0, 0, 0, kNoNode, {}, {}};
  }
  static Shape segment(Vec2 p, Vec2 q) { return Shape{Kind::Segment, p, q, 0, 0, 0, 0, kNoNode, {}, {}}; }
  static Shape circle(Vec2 c, double r) { return Shape{Kind::Circle, c, {}, r, 0, 0, 0, kNoNode, {}, {}}; }
  static Shape arc(const Arc& a) {
    return Shape{Kind::Arc, a.center, {}, a.radius, a.start_angle, a.sweep, 0, kNoNode, {}, {}};
  }
  static Shape pose(const Pose& p) {
    return Shape{Kind::Pose, {p.x, p.y}, {}, 0, p.heading, 0, 0, kNoNode, {}, {}};
  }
  // The outline of the axis-aligned box [x0, x1] x [y0, y1] as a closed polyline.
  static Shape box(double x0, double y0, double x1, double y1) {
    return polyline({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}});
  }
  static Shape polyline(std::vector<Vec2> pts) {
    return Shape{Kind::Polyline, {}, {}, 0, 0, 0, 0, kNoNode, std::move(pts), {}};
  }
  // Marks the shape as usable only by agents with this capability and size <= clearance.
  Shape& require(CapabilityMask capability, int clearance) {
    requirement.capability = capability;
    requirement.clearance = std::uint16_t(std::clamp(clearance, 1, 65535));
    return *this;
  }
};

// One node event of a search step, for the batched hot path (SearchObserver::batch).
// Geometry travels in the same batch (Test, Mark): line-of-sight tests and candidate curves come
// by the hundred thousand, and a virtual call each would cost as much as the test.
struct NodeEvent {
  enum class Kind : std::uint8_t { Open, Relax, Close, Test, Mark };
  Kind kind = Kind::Open;
  std::uint32_t parent = kNoNode;  // Open, Relax; Test: 1 = passed; Mark: the Role
  NodeDesc node;                   // Relax and Close use node.id only
  double g = 0, h = 0;             // Open: g, h; Relax: g
  const Shape* shape = nullptr;    // Test, Mark: valid during the batch() call
};

class SearchObserver {
 public:
  virtual ~SearchObserver() = default;
  // A named stage: "insert start", "abstract search", "refine 4/9", "smooth".
  virtual void phase(std::string_view /*name*/) {}
  // Declares what the ids in [space.base, space.base + space.count()) mean, before the first of
  // them is reported (see core/node_space.hpp).
  virtual void space(const NodeSpace& /*space*/) {}
  // A node was generated (or re-opened) with this parent and g, h.
  virtual void open(const NodeDesc& /*node*/, std::uint32_t /*parent*/, double /*g*/, double /*h*/) {}
  // A better path to an open node was found.
  virtual void relax(std::uint32_t /*node*/, std::uint32_t /*parent*/, double /*g*/) {}
  // A node was taken off the open list and expanded.
  virtual void close(std::uint32_t /*node*/) {}
  // Geometry that was tried: a line of sight, a bitangent, an entrance scan.
  virtual void test(const Shape& /*shape*/, bool /*ok*/) {}
  // Anything else worth seeing: a transition point, a subgoal, an arc.
  virtual void mark(const Shape& /*shape*/, Role /*role*/) {}
  // The result of a phase or of the search.
  virtual void path(std::span<const PathPiece> /*pieces*/) {}
  // A counter the planner keeps ("expanded", "los tests").
  virtual void counter(std::string_view /*name*/, double /*value*/) {}
  // A step boundary; by default one per expansion.
  virtual void frame() {}
  // The hot path: close(`closed`) first unless it is kNoNode (a step usually starts by
  // expanding a node), then the node and geometry events in order, then a frame boundary if
  // `ends_frame`.
  // Search loops report through this (one virtual call per step instead of one per generated
  // node); the default forwards to close / open / relax and then frame().
  virtual void batch(std::uint32_t closed, std::span<const NodeEvent> events, bool ends_frame);
};

// What a search loop uses to report node events: collects a step's events and hands them over
// in one batch() call. Events beyond the capacity are flushed early without a frame boundary.
class StepReporter {
 public:
  explicit StepReporter(SearchObserver* o) : o_(o) {}
  SearchObserver* observer() const { return o_; }
  void open(const NodeDesc& node, std::uint32_t parent, double g, double h) {
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::Open;
    e.node = node;
    e.parent = parent;
    e.g = g;
    e.h = h;
  }
  void relax(std::uint32_t id, std::uint32_t parent, double g) {
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::Relax;
    e.node.id = id;
    e.parent = parent;
    e.g = g;
  }
  void close(std::uint32_t id) {
    if (n_ == 0 && closed_ == kNoNode) {
      closed_ = id;  // the usual case: the step's expansion travels in the batch header
      return;
    }
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::Close;
    e.node.id = id;
  }
  // Geometry tried or worth seeing, in order with the node events. The shape is copied into the
  // reporter's own slots: no allocation unless it is a polyline.
  void test(const Shape& shape, bool ok) {
    const std::size_t i = slot();
    shapes_[i] = shape;
    NodeEvent& e = buf_[i];
    e.kind = NodeEvent::Kind::Test;
    e.parent = ok ? 1 : 0;
    e.shape = &shapes_[i];
  }
  void mark(const Shape& shape, Role role) {
    const std::size_t i = slot();
    shapes_[i] = shape;
    NodeEvent& e = buf_[i];
    e.kind = NodeEvent::Kind::Mark;
    e.parent = std::uint32_t(role);
    e.shape = &shapes_[i];
  }
  // Ends the step: hands the events over with a frame boundary.
  void frame() {
    o_->batch(closed_, {buf_, n_}, true);
    n_ = 0;
    closed_ = kNoNode;
  }
  // Hands over pending events without a frame boundary (before a non-node event).
  void flush() {
    if (n_ || closed_ != kNoNode) o_->batch(closed_, {buf_, n_}, false);
    n_ = 0;
    closed_ = kNoNode;
  }

 private:
  static constexpr std::size_t kCapacity = 64;
  NodeEvent& next() { return buf_[slot()]; }
  std::size_t slot() {
    if (n_ == kCapacity) flush();
    return n_++;
  }
  SearchObserver* o_;
  NodeEvent buf_[kCapacity];
  Shape shapes_[kCapacity];  // Test and Mark events' shapes, by event slot
  std::size_t n_ = 0;
  std::uint32_t closed_ = kNoNode;
};

// Attached, does nothing: used to measure what the hook itself costs (building the events and
// one virtual call per step).
class NullObserver final : public SearchObserver {
 public:
  void batch(std::uint32_t, std::span<const NodeEvent>, bool) override {}
};

}  // namespace pl

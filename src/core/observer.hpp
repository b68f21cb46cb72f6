// The search hook: the small, algorithm-agnostic vocabulary every planner speaks while it works
// (DESIGN.md section 3). Planners never draw; they report phases, nodes, tests, marks and paths
// here, and the viz library records them into a trace that the app and tests replay.
//
// Cost when nobody watches: planners dispatch once per query on whether an observer is attached
// and run a separate instantiation of their loop with every report compiled out.
#pragma once

#include <algorithm>
#include <cassert>
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

// One event of a search step, for the batched hot path (SearchObserver::batch).
// Geometry travels in the same batch (Test, Mark): line-of-sight tests and candidate curves come
// by the hundred thousand, and a virtual call each would cost as much as the test.
// 40 bytes, written in a handful of stores: the cost of watching a search is mostly these writes.
struct NodeEvent {
  // 16 bits, not 8: a store through an unsigned char may alias anything, and would make the
  // search loop reload its state after every event it reports.
  // FrameClose is Frame followed by Close of `id`: a search loop's step boundary and the next
  // node it expands, in one event (the loop's commonest pair, one write instead of two).
  enum class Kind : std::uint16_t { Open, Relax, Close, Test, Mark, Frame, FrameClose };
  std::uint32_t id = kNoNode;      // Open, Relax, Close, FrameClose: the node
  std::uint32_t parent = kNoNode;  // Open, Relax; Test: 1 = passed; Mark: the Role
  double g = 0, h = 0;             // Open: g, h; Relax: g
  union {
    // Open: the node's description, or nullptr when its id says everything (a dense space:
    // Cells, Corners, CellHeadings, with the space's default label). Valid during batch().
    const NodeDesc* desc = nullptr;
    const Shape* shape;  // Test, Mark: valid during the batch() call
  };
  Kind kind = Kind::Open;
  // The description of an Open event: *desc, or just the id.
  NodeDesc node() const {
    if (desc) return *desc;
    NodeDesc d;
    d.id = id;
    return d;
  }
};
static_assert(sizeof(NodeEvent) == 40);

class SearchObserver {
 public:
  virtual ~SearchObserver() = default;
  // A named stage: "insert start", "abstract search", "refine 4/9", "smooth".
  virtual void phase(std::string_view /*name*/) {}
  // Declares what the ids in [space.base, space.base + space.count()) mean, before the first of
  // them is reported (see core/node_space.hpp).
  virtual void space(const NodeSpace& /*space*/) {}
  // A node was generated (or re-opened) with this parent and g, h. For a node of a dense space
  // (Cells, Corners, CellHeadings) without a label of its own, only node.id may be set: its
  // position and heading are the space's (NodeSpace::position, heading).
  virtual void open(const NodeDesc& /*node*/, std::uint32_t /*parent*/, double /*g*/, double /*h*/) {}
  // A better path to an open node was found.
  virtual void relax(std::uint32_t /*node*/, std::uint32_t /*parent*/, double /*g*/) {}
  // A node was taken off the open list and expanded.
  virtual void close(std::uint32_t /*node*/) {}
  // Geometry that was tried: a line of sight, a bitangent, an entrance scan.
  virtual void test(const Shape& /*shape*/, bool /*ok*/) {}
  // Anything else worth seeing: a transition point, a subgoal, an arc.
  virtual void mark(const Shape& /*shape*/, Role /*role*/) {}
  // What this planner's shapes of `role` stand for, in the legend's words ("jump", "ascending
  // edge"): roles are a small shared vocabulary, so "highlight" or "candidate" alone tells a
  // viewer little. Once a search is enough, at any point; the last name given counts; without
  // one a viewer shows the role's own name.
  virtual void role_name(Role /*role*/, std::string_view /*name*/) {}
  // The result of a phase or of the search.
  virtual void path(std::span<const PathPiece> /*pieces*/) {}
  // A counter the planner keeps ("expanded", "los tests").
  virtual void counter(std::string_view /*name*/, double /*value*/) {}
  // A step boundary; by default one per expansion.
  virtual void frame() {}
  // The hot path: node and geometry events, with frame boundaries (Kind::Frame) among them, in
  // order. Search loops report through this (one virtual call per batch of events instead of
  // one per event); the default forwards each to open / relax / close / test / mark / frame.
  virtual void batch(std::span<const NodeEvent> events);
};

// What a search loop uses to report node events: collects them, frame boundaries included, and
// hands them over in one batch() call when its buffer fills or flush() is called (before any
// non-node event, and at the end of a search). One virtual call per a few dozen steps.
class StepReporter {
 public:
  explicit StepReporter(SearchObserver* o) : o_(o) {}
  StepReporter(const StepReporter&) = delete;
  StepReporter& operator=(const StepReporter&) = delete;
  SearchObserver* observer() const { return o_; }
  // A described node (a Layer or Points space, or a label): the description is copied into the
  // reporter's own slots.
  void open(const NodeDesc& node, std::uint32_t parent, double g, double h) {
    if (nd_ == kSideCapacity) flush();
    NodeDesc* d = &descs_[nd_++];
    *d = node;
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::Open;
    e.id = node.id;
    e.parent = parent;
    e.g = g;
    e.h = h;
    e.desc = d;
  }
  // A node of a dense space: its id says everything (the hot path of grid searches).
  // kChecked = false: room was made by frame_close(id, room).
  template <bool kChecked = true>
  void open(std::uint32_t id, std::uint32_t parent, double g, double h) {
    NodeEvent& e = next<kChecked>();
    e.kind = NodeEvent::Kind::Open;
    e.id = id;
    e.parent = parent;
    e.g = g;
    e.h = h;
    e.desc = nullptr;
  }
  template <bool kChecked = true>
  void relax(std::uint32_t id, std::uint32_t parent, double g) {
    NodeEvent& e = next<kChecked>();
    e.kind = NodeEvent::Kind::Relax;
    e.id = id;
    e.parent = parent;
    e.g = g;
  }
  void close(std::uint32_t id) {
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::Close;
    e.id = id;
  }
  // Ends the step and closes `id`: frame() then close(id), as one event.
  void frame_close(std::uint32_t id) {
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::FrameClose;
    e.id = id;
  }
  // As frame_close(), and makes room for `room` more events at once: the next `room` open(id,
  // ...) and relax() calls made with kChecked = false skip the buffer check of their own. A
  // search whose steps report a bounded number of events (the grid: at most eight successors,
  // nothing else) checks once per step instead of once per event.
  void frame_close(std::uint32_t id, std::size_t room) {
    if (std::size_t(end() - at_) < 1 + room) flush();
    NodeEvent& e = *at_++;
    e.kind = NodeEvent::Kind::FrameClose;
    e.id = id;
  }
  // Geometry tried or worth seeing, in order with the node events. The shape is copied into the
  // reporter's own slots: no allocation unless it is a polyline.
  void test(const Shape& shape, bool ok) {
    const Shape* s = keep(shape);
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::Test;
    e.parent = ok ? 1 : 0;
    e.shape = s;
  }
  void mark(const Shape& shape, Role role) {
    const Shape* s = keep(shape);
    NodeEvent& e = next();
    e.kind = NodeEvent::Kind::Mark;
    e.parent = std::uint32_t(role);
    e.shape = s;
  }
  // Ends the step: a frame boundary, in order with the events.
  void frame() { next().kind = NodeEvent::Kind::Frame; }
  // Hands over the pending events (before a non-node event, and when the search ends).
  void flush() {
    if (at_ != buf_) o_->batch({buf_, std::size_t(at_ - buf_)});
    at_ = buf_;
    nd_ = ns_ = 0;
  }

 private:
  static constexpr std::size_t kCapacity = 256, kSideCapacity = 64;
  NodeEvent* end() { return buf_ + kCapacity; }
  template <bool kChecked = true>
  NodeEvent& next() {
    if constexpr (kChecked) {
      if (at_ == end()) flush();
    } else {
      assert(at_ < end());
    }
    return *at_++;
  }
  const Shape* keep(const Shape& shape) {
    if (ns_ == kSideCapacity) flush();
    Shape* s = &shapes_[ns_++];
    *s = shape;
    return s;
  }
  SearchObserver* o_;
  NodeEvent buf_[kCapacity];
  Shape shapes_[kSideCapacity];    // Test and Mark events' shapes
  NodeDesc descs_[kSideCapacity];  // described Open events' nodes
  // The next free event slot: a pointer rather than a count, so that writing an event needs no
  // address arithmetic.
  NodeEvent* at_ = buf_;
  std::size_t nd_ = 0, ns_ = 0;
};

// Attached, does nothing: used to measure what the hook itself costs (building the events and
// one virtual call per batch).
class NullObserver final : public SearchObserver {
 public:
  void batch(std::span<const NodeEvent>) override {}
};

}  // namespace pl

// Search traces: what a planner reported through the observer hook (core/observer.hpp), recorded
// cheaply while it runs and replayed afterwards, frame by frame, forward and back (DESIGN.md
// section 3). The UI, the CLI and the tests share this model; it knows nothing of rendering.
//
//   TraceRecorder  the SearchObserver a planner reports to; take() hands over a Trace.
//   Trace          the immutable recording: compact events, frame boundaries, phase markers,
//                  side tables (node descriptions, shapes, paths, names) and keyframes.
//   TraceCursor    a replay position on a Trace; its FrameState is what a view shows.
//
// Node spaces: what an id means is only ever what the planner declared (SearchObserver::space,
// core/node_space.hpp). The recorder keeps the declared spaces in a small table and finds each
// node's space once, when the node is first named; Trace and FrameState then answer "which
// cell, heading, corner, position, label" through that space. A node in no declared space is a
// free point drawn at the position its NodeDesc gave: no code here reads meaning into an id.
// Labels a planner gives (NodeDesc::label) are interned once in a side table.
//
// Frames: frame 0 is the state before any event; frame k (k >= 1) is the state after all events
// reported before the k-th frame() call; if events follow the last frame() call, one more frame
// holds them, so the last frame is always the state after every event.
//
// Event encoding: events are kept as a byte stream, 2-8 bytes a grid event instead of a 32-byte
// record. Node references are relative to the nodes seen so far (a node named for the first time
// costs nothing, an Open's parent is usually "the node this frame closed"); g and h are coded as
// the parent's g and h plus a step taken from a per-trace table of at most 255 step values (a
// grid search has a handful: 1, sqrt 2, terrain costs), used only when the sum gives back the
// reported double bit for bit, else stored raw: the encoding is lossless. Shapes, paths, names
// and descriptions stay in side tables. TraceEvent is the decoded form: events() decodes with
// values from frame 0, frame_events(k) decodes one frame (kinds and indices; the values need
// the state before the frame, see TraceEvent).
//
// Memory budget: a watched search on a big map would record about 50 bytes a node (a
// maximum-size map: some 13 GB). A TraceRecorder has a byte budget (set_budget(); by default
// default_trace_budget(): PATHLAB_TRACE_BUDGET, else a quarter of physical memory). At the first
// frame boundary where what the trace holds, plus what finish() will add (the nodes' final
// values and keyframes, counted at the policy's bound below), passes the budget,
// recording stops: the frame just ended is the trace's last, every later report is ignored (the
// search itself runs on to its end, watched by a recorder that does nothing), and the Trace says
// truncated() at frame truncated_frame(). The check runs every few thousand events, after fewer
// events the nearer the budget is, so the trace can pass the budget by about one frame's events
// and by the slack of a vector's growth.
//
// Keyframe policy: each node's values after its last change (its final values, 21 bytes a
// node: g, h, parent, status; 4 more when the trace has node descriptions) are kept once, and a
// keyframe at frame k holds only the nodes named by k that change after k (the others already
// have their final values there), plus the open list: for a search that settles what it
// closes, a keyframe is its frontier, not every node. One is kept at frame 0, and after any
// frame at which the events since the previous keyframe reach max(4096, 4 (H + O)), H and O
// the nodes and open nodes a keyframe there would hold, so keyframes add at most 29 / 4 bytes
// an event (a held node: its values and its index, 25 or 29 bytes; an open one 4). A seek restores the nearest keyframe at or before its frame, writing only the node
// records that differ from those it holds (Trace::settled_), and replays fewer events than
// that interval plus one frame.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/geometry.hpp"
#include "core/observer.hpp"

namespace pl {

enum class NodeStatus : std::uint8_t { Unseen, Open, Closed };
const char* node_status_name(NodeStatus s);

inline constexpr std::uint8_t kNoSpace = 0xFF;       // a node in no declared space
inline constexpr std::uint32_t kNoLabel = kNoNode;   // a node without a label of its own
// At most this many distinct spaces a trace (re-declaring a range reuses its slot); nodes of
// spaces declared beyond it are free points.
inline constexpr std::size_t kMaxSpaces = kNoSpace;

// A NodeDesc as a trace keeps it: the label interned (an index into the trace's label table)
// and the node's declared space resolved (an index into Trace::spaces()). 24 bytes.
struct NodeInfo {
  std::uint32_t id = kNoNode;  // the planner's node id
  float x = 0, y = 0;          // map units, as the planner described the node
  float heading = std::numeric_limits<float>::quiet_NaN();  // as described; NaN = none
  std::int16_t level = 0;                                    // as described
  std::uint8_t space = kNoSpace;
  std::uint8_t spare = 0;
  std::uint32_t label = kNoLabel;
};
static_assert(sizeof(NodeInfo) == 24);

// One node as of some frame. A node that has only been named as a parent is Unseen; it, and a
// node relaxed or closed without ever being opened, has no described position (desc.x = desc.y
// = 0), but its space (and so a grid node's cell) is known from its id's first appearance.
struct NodeState {
  NodeInfo desc;
  double g = std::numeric_limits<double>::infinity();
  double h = 0;
  std::uint32_t parent = kNoNode;  // index into FrameState::nodes(), kNoNode = none
  NodeStatus status = NodeStatus::Unseen;
  double f() const { return g + h; }
};
static_assert(sizeof(NodeState) <= 48, "keyframe memory (see the policy above) assumes this");

struct SearchCounters {
  std::uint64_t expanded = 0;   // close() events
  std::uint64_t generated = 0;  // open() events, re-openings included
  std::uint64_t relaxed = 0;    // relax() events
  std::uint64_t tests_passed = 0, tests_failed = 0;
  std::uint64_t open = 0;  // nodes whose status is Open now (the open list's size)
  bool operator==(const SearchCounters&) const = default;
};

// A test() or mark() shape. Tests carry role Accepted or Rejected so one legend serves both.
struct ShapeRecord {
  Shape shape;
  std::uint32_t frame = 0;  // first frame that shows it: lets a view highlight "this frame"
  Role role = Role::Highlight;
  bool is_test = false;
  bool ok = false;  // tests only
};

// Per-agent filtering of recorded shapes (see Requirement in core/observer.hpp): true when the
// shape has no requirement or an agent of this capability and size may use what it stands for.
// Lets a view show "only the edges this agent may use" without knowing the planner.
inline bool admits(const ShapeRecord& r, CapabilityMask agent_capability, int agent_size) {
  return r.shape.requirement.admits(agent_capability, agent_size);
}
// The shapes of `shapes` (e.g. FrameState::shapes()) that admit the agent, in report order.
std::vector<const ShapeRecord*> shapes_for_agent(std::span<const ShapeRecord> shapes,
                                                 CapabilityMask agent_capability, int agent_size);

// One event, decoded (the trace keeps events encoded, see the top of this file); nodes are dense
// indices (first-appearance order), everything variable-sized lives in the Trace's side tables.
struct TraceEvent {
  enum class Kind : std::uint8_t { Phase, Open, Relax, Close, Test, Mark, Path, Counter };
  Kind kind = Kind::Phase;
  std::uint8_t flag = 0;  // Test: ok; Mark: role
  std::uint16_t spare = 0;
  // Open/Relax/Close: node index; Test/Mark: shape record; Path: path; Phase: phase name;
  // Counter: counter name.
  std::uint32_t a = 0;
  std::uint32_t b = kNoNode;  // Open/Relax: parent node index (kNoNode = none)
  std::uint32_t c = kNoNode;  // Open: node description index (kNoNode: the id's space places it)
  // Open/Relax: g; Counter: value. Open: h. Node values are coded against the parent's, so only
  // Trace::events() (which replays from frame 0) decodes them; Trace::frame_events() leaves
  // them NaN (a Counter's value is always there).
  double x = 0;
  double y = 0;
};
static_assert(sizeof(TraceEvent) == 32, "the decoded form stays compact");

class Trace;

// The replay state at one frame. Shapes and paths are views into the Trace, so a FrameState is
// valid only while its Trace lives.
class FrameState {
 public:
  // The recording this state replays (node spaces, labels, raw events).
  const Trace& trace() const { return *trace_; }
  std::size_t frame() const { return frame_; }
  // Name of the latest phase() so far; empty before the first one.
  std::string_view phase() const;

  // Every node seen so far, by dense index (the order in which the planner first named them).
  std::span<const NodeState> nodes() const { return nodes_; }
  const NodeState* node(std::uint32_t index) const {
    return index < nodes_.size() ? &nodes_[index] : nullptr;
  }
  // nullptr if the planner has not named this id by this frame.
  const NodeState* node_by_id(std::uint32_t id) const;
  const NodeState* parent_of(const NodeState& n) const { return node(n.parent); }
  // The node closed last (the one being expanded), or nullptr.
  const NodeState* current() const { return node(current_); }

  const SearchCounters& counters() const { return counters_; }
  // Named counters from counter(), in order of first report.
  std::vector<std::pair<std::string_view, double>> named_counters() const;
  std::optional<double> counter(std::string_view name) const;

  // test() and mark() shapes so far, in report order.
  std::span<const ShapeRecord> shapes() const;
  // The latest path() so far; empty if none.
  std::span<const PathPiece> path() const;

  // Up to max_count open nodes, best first: smallest f, then larger g (the usual A* tie
  // break), then smaller id, so the UI's clipped list is stable. O(open x log max_count).
  std::vector<const NodeState*> open_list(std::size_t max_count) const;
  // The open list's order: true when a comes before b.
  static bool better(const NodeState& a, const NodeState& b);

  // The nodes standing on cell (x, y) that this frame has opened or closed, through the
  // declared Cells and CellHeadings spaces (Trace::cell_node_ids): one for a Cells space, up to
  // k for a CellHeadings one, in space then heading order. heading >= 0: only that heading.
  std::vector<const NodeState*> nodes_at(int x, int y, int heading = -1) const;
  // The same into `out` (cleared first): a caller visiting many cells reuses one buffer.
  void nodes_at(int x, int y, std::vector<const NodeState*>& out, int heading = -1) const;
  // Of nodes_at(x, y), the best in the open list's order (closed nodes included); nullptr if none.
  const NodeState* best_at(int x, int y) const;

  // Same frame and same content. NaN headings compare equal to each other.
  bool operator==(const FrameState& o) const;

 private:
  friend class Trace;
  friend class TraceCursor;
  friend struct TraceReplay;

  const Trace* trace_ = nullptr;  // set by whoever exposes the state; keyframes leave it stale
  std::size_t frame_ = 0;
  std::uint32_t phase_ = kNoNode;    // phase name index
  std::uint32_t current_ = kNoNode;  // node index
  std::uint32_t path_ = kNoNode;     // path index
  std::uint32_t shape_count_ = 0;
  std::vector<NodeState> nodes_;
  // The open nodes, unordered, and each open node's position there (the entries of other nodes
  // are stale: only set_status reads them, for open nodes): the open list costs O(open), not
  // O(nodes), and the frontier is usually a small part of the nodes.
  std::vector<std::uint32_t> open_;
  std::vector<std::uint32_t> open_pos_;
  std::vector<double> named_;  // by counter name index
  SearchCounters counters_;
};

class Trace {
 public:
  struct PhaseMarker {
    std::string name;
    std::size_t first_frame = 0;  // the first frame at which this phase is the current one
  };
  // Where frame k ends and what it has seen: the replay state of frame k is events
  // [0, event_end) (bytes [0, byte_end) of the encoded stream) applied to the empty state.
  struct FrameInfo {
    std::uint64_t event_end = 0;
    std::uint64_t byte_end = 0;
    std::uint32_t node_count = 0;
    std::uint32_t shape_count = 0;
  };
  class EventRange;

  Trace();
  Trace(Trace&&) noexcept = default;
  Trace& operator=(Trace&&) noexcept = default;
  // A trace can run to hundreds of megabytes: share it by reference, never copy it by accident.
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  // At least 1 (frame 0, the empty state).
  std::size_t frame_count() const { return frames_.size(); }
  // True when recording stopped at the recorder's budget (see the top of this file): the
  // search ran on, but the trace ends at frame truncated_frame() (its last frame).
  bool truncated() const { return truncated_; }
  std::size_t truncated_frame() const { return truncated_ ? frames_.size() - 1 : 0; }
  // The budget the recorder had, in bytes (0 for a trace never recorded).
  std::size_t budget() const { return budget_; }
  // Recorded events, frame boundaries excluded (they are kept apart, 16 bytes a frame).
  std::size_t event_count() const { return event_count_; }
  // Bytes of the encoded event stream.
  std::size_t event_bytes() const { return bytes_.size(); }
  std::size_t node_count() const { return node_ids_.size(); }
  const std::vector<PhaseMarker>& phases() const { return phases_; }
  // Everything the trace holds, keyframes included.
  std::size_t memory_bytes() const;

  // Raw access, for exporters and tools that need more than the replayed state.
  // Every event, decoded in order with its values (O(nodes) memory while iterating).
  EventRange events() const;
  // O(frame k's block of 64 frames).
  FrameInfo frame_info(std::size_t k) const;
  // Where frame k's events end in the encoded stream: bytes between frames measure the work of
  // replaying between them.
  std::uint64_t frame_byte_end(std::size_t k) const { return frames_[k].byte_end; }
  // The events that take frame k-1 to frame k (empty for k = 0), decoded without node values.
  EventRange frame_events(std::size_t k) const;
  std::span<const NodeInfo> descriptions() const { return descs_; }
  std::uint32_t node_id(std::uint32_t index) const { return node_ids_[index]; }
  // The space of the node with this dense index (kNoSpace = a free point).
  std::uint8_t node_space(std::uint32_t index) const { return node_spaces_[index]; }
  // Dense index of a planner node id, or kNoNode if it never appears.
  std::uint32_t index_of(std::uint32_t id) const;
  std::span<const ShapeRecord> shapes() const { return shapes_; }
  std::span<const PathPiece> path(std::uint32_t index) const { return paths_[index]; }
  const std::string& phase_name(std::uint32_t index) const { return phase_names_[index]; }
  const std::string& counter_name(std::uint32_t index) const { return counter_names_[index]; }
  std::size_t counter_name_count() const { return counter_names_.size(); }
  // What the planner called its shapes of this role (SearchObserver::role_name); empty when it
  // gave no name, and a viewer shows the role's own.
  std::string_view role_name(Role role) const {
    return std::size_t(role) < role_names_.size() ? std::string_view(role_names_[std::size_t(role)])
                                                  : std::string_view();
  }

  // ---- Node spaces (see the top of this file). Every question about what a node is goes
  // through the space it was found in when first named; nodes in none are free points.
  // The declared spaces, in declaration order (a re-declared range keeps its slot).
  std::span<const NodeSpace> spaces() const { return spaces_; }
  // The space of a node; nullptr for a free point.
  const NodeSpace* space_of(const NodeInfo& d) const {
    return d.space < spaces_.size() ? &spaces_[d.space] : nullptr;
  }
  // The grid cell the node stands on (Cells and CellHeadings nodes), else nullopt.
  std::optional<CellXY> cell_of(const NodeInfo& d) const;
  // The integer point of a Corners node, else nullopt.
  std::optional<CellXY> corner_of(const NodeInfo& d) const;
  // The heading index in [0, k) of a CellHeadings node, else -1.
  int heading_index_of(const NodeInfo& d) const;
  // Radians, 0 = east, clockwise on screen: a CellHeadings node's heading, else the heading the
  // planner described (NaN = none).
  double heading_of(const NodeInfo& d) const;
  // Where the node is drawn: a grid space's position (cell centre, corner point), else the
  // position the planner described.
  Vec2 position_of(const NodeInfo& d) const;
  // A Layer space's level, 0 for the grid spaces, else the level the planner described.
  int level_of(const NodeInfo& d) const;
  // The planner's label for the node, else its space's label ("(3,4) heading 2/8 (90 deg)"),
  // else "point (x, y)" from the described position.
  std::string label_of(const NodeInfo& d) const;
  // The interned labels (NodeInfo::label indexes them).
  std::span<const std::string> labels() const { return labels_; }
  // Whether some declared space gives its nodes headings (the open list's heading column).
  bool has_headings() const;
  // How many of the trace's nodes are in space `space` (kNoSpace: in none), over the whole trace.
  std::size_t nodes_in_space(std::uint8_t space) const { return space_nodes_[space]; }
  // The ids of the trace's nodes that stand on cell (x, y): those the trace found in a declared
  // Cells or CellHeadings space whose map contains the cell (all k headings, or only `heading`
  // when >= 0), in space then heading order.
  std::vector<std::uint32_t> cell_node_ids(int x, int y, int heading = -1) const;

  std::size_t keyframe_count() const { return keyframes_.size(); }
  std::size_t keyframe_frame(std::size_t i) const { return keyframes_[i].frame; }
  // Nodes and open nodes the i-th keyframe holds.
  std::size_t keyframe_nodes(std::size_t i) const { return keyframes_[i].index.size(); }
  std::size_t keyframe_open(std::size_t i) const { return keyframes_[i].open.size(); }
  // Bytes a snapshot of n nodes, `open` of them open, takes in this trace.
  std::size_t snapshot_bytes(std::size_t n, std::size_t open) const {
    return n * (descs_.empty() ? 21 : 25) + open * 4;
  }
  // Most events a seek may replay after restoring a keyframe (see the policy above).
  std::size_t max_replay_events() const { return max_replay_; }
  // Events since the last keyframe that trigger a new one, when one would hold `held` nodes
  // and `open` open nodes.
  static std::size_t keyframe_interval(std::size_t held, std::size_t open) {
    return std::max<std::size_t>(4096, 4 * (held + open));
  }
  // Keyframes take at most this many bytes an event (the policy above).
  static constexpr double kKeyframeBytesPerEvent = 29.0 / 4;

 private:
  friend class TraceRecorder;
  friend class TraceCursor;
  friend class FrameState;
  friend struct TraceReplay;
  friend class EventReader;

  // Per frame: where its events end in the stream, and the nodes and shapes seen so far.
  struct FrameRec {
    std::uint64_t byte_end = 0;
    std::uint32_t node_count = 0;
    std::uint32_t shape_count = 0;
  };
  static_assert(sizeof(FrameRec) == 16);
  static constexpr std::size_t kFrameBlock = 64;  // event_end is kept once per block of frames

  // A replay state, compactly: per node g, h, parent, status (and the description index when
  // the trace has descriptions) of the nodes in `index`; the rest of FrameState as is.
  struct Keyframe {
    std::size_t frame = 0;
    // The nodes held, ascending: those named by `frame` that change after it (the others have
    // their final values, final_). Empty in final_, which holds every node by index.
    std::vector<std::uint32_t> index;
    std::vector<double> g, h;
    std::vector<std::uint32_t> parent, desc;
    std::vector<NodeStatus> status;
    std::vector<std::uint32_t> open;  // the open nodes (the open index, rebuilt without a scan)
    std::vector<double> named;
    std::uint32_t phase = kNoNode, current = kNoNode, path = kNoNode;
    SearchCounters counters;
  };
  // Calls visit(id, index) for each id cell_node_ids(x, y, heading) would list; index is the
  // node's index into FrameState::nodes(). Defined in trace.cpp, its only user.
  template <class F>
  void visit_cell_node_ids(int x, int y, int heading, F&& visit) const;
  // Snapshots the nodes `held` (ascending) of s.
  void snapshot(const FrameState& s, std::span<const std::uint32_t> held,
                std::span<const std::uint32_t> last_desc, Keyframe& k) const;
  // The values (and description indices, from last_desc) of nodes index(0), ..., index(n - 1)
  // of s into k's arrays. Defined in trace.cpp, its only user.
  template <class Index>
  void keep_values(const FrameState& s, std::size_t n, Index index,
                   std::span<const std::uint32_t> last_desc, Keyframe& k) const;

  // Node id -> dense index, on the recorder's hot path (one or two look-ups an event). Small ids
  // (grid cells, the common case) go to a direct table, where a search's neighbouring cells
  // share cache lines; the table may hold up to max(2^20, 4 x nodes) ids, so memory stays
  // O(nodes). Other ids go to an open-addressing hash table.
  class IdMap {
   public:
    std::uint32_t find(std::uint32_t id) const {
      return id < direct_.size() ? direct_[id] : find_hashed(id);
    }
    // The index of id, inserting `next` if id is new.
    std::uint32_t insert(std::uint32_t id, std::uint32_t next, bool& inserted);
    std::size_t memory_bytes() const {
      return slots_.capacity() * sizeof(Slot) + direct_.capacity() * sizeof(std::uint32_t);
    }

   private:
    struct Slot {
      std::uint32_t id = kNoNode;
      std::uint32_t index = kNoNode;  // kNoNode = empty slot
    };
    std::vector<std::uint32_t> direct_;  // by id; kNoNode = absent
    std::vector<Slot> slots_;
    std::size_t size_ = 0, hashed_ = 0;
    std::uint32_t find_hashed(std::uint32_t id) const;
    std::uint32_t insert_hashed(std::uint32_t id, std::uint32_t next, bool& inserted);
    void grow_hash(std::size_t slots);
    void grow_direct(std::uint32_t id);
  };

  // Called once recording ends: closes the last frame and builds the keyframes.
  void finish();

  std::vector<std::uint8_t> bytes_;  // the encoded events
  std::size_t event_count_ = 0;
  std::vector<FrameRec> frames_;
  std::vector<std::uint64_t> block_events_;  // event_end of frames 0, 64, 128, ...
  // Step tables of the g and h coding (see the top of this file).
  std::vector<double> g_steps_, h_steps_;
  std::vector<NodeInfo> descs_;
  std::vector<std::uint32_t> node_ids_;
  std::vector<std::uint8_t> node_spaces_;  // by node index: its space, kNoSpace = none
  std::vector<NodeSpace> spaces_;
  std::array<std::uint32_t, 256> space_nodes_{};  // nodes per space index, set by finish()
  std::vector<std::string> labels_;
  IdMap ids_;
  std::vector<ShapeRecord> shapes_;
  std::vector<std::vector<PathPiece>> paths_;
  std::vector<std::string> phase_names_, counter_names_;
  std::array<std::string, std::size_t(Role::Count)> role_names_;
  std::vector<PhaseMarker> phases_;
  std::vector<Keyframe> keyframes_;  // ascending frames; keyframes_[0] is frame 0
  Keyframe final_;                   // every node's values at the last frame
  // By node index: the last frame at which this node or one named before it changed (opened,
  // relaxed, closed); non-decreasing. Nodes [0, i) with settled_[i - 1] <= f look the same in
  // every frame from f on, so a restore from such a frame leaves them as they are (set by
  // finish(); 4 bytes a node).
  std::vector<std::uint32_t> settled_;
  std::size_t max_replay_ = 0;
  bool truncated_ = false;
  std::size_t budget_ = 0;
};

// Where a decoder reads the node values an event's g and h are coded against: node i's g and h
// at g + i * stride and h + i * stride bytes, for i < count (others: not yet seen, g infinite,
// h 0). Filled from a FrameState (the replay) or from plain arrays (Trace::events()).
struct NodeValues {
  const char* g = nullptr;
  const char* h = nullptr;
  std::size_t stride = 0;
  std::size_t count = 0;
};

// Decodes the encoded events of frames (first, last] of a trace, in order.
class EventReader {
 public:
  EventReader() = default;
  EventReader(const Trace& trace, std::size_t first, std::size_t last);
  // The next event, false at the end. Node values (Open's g and h, Relax's g) are decoded
  // against `values` as of just before the event; without them they are NaN.
  bool next(TraceEvent& e, const NodeValues& values);
  bool next(TraceEvent& e) { return next(e, NodeValues{}); }
  // The frame the event last returned belongs to.
  std::size_t frame() const { return frame_; }

 private:
  void enter_frames();
  const Trace* trace_ = nullptr;
  const std::uint8_t* p_ = nullptr;
  const std::uint8_t* frame_end_ = nullptr;
  std::size_t frame_ = 0, last_ = 0;
  std::uint32_t nodes_ = 0, shapes_ = 0, last_close_ = kNoNode;
};

// Decoded events as a range (Trace::events(), Trace::frame_events()).
class Trace::EventRange {
 public:
  class iterator {
   public:
    using value_type = TraceEvent;
    using difference_type = std::ptrdiff_t;
    const TraceEvent& operator*() const { return e_; }
    const TraceEvent* operator->() const { return &e_; }
    iterator& operator++() {
      advance();
      return *this;
    }
    void operator++(int) { advance(); }
    bool operator==(std::default_sentinel_t) const { return done_; }

   private:
    friend class EventRange;
    void advance();
    EventReader reader_;
    TraceEvent e_;
    bool done_ = false, values_ = false;
    std::vector<double> g_, h_;  // values_: every node's g and h so far
  };
  EventRange(const Trace& trace, std::size_t first, std::size_t last, bool values)
      : trace_(&trace), first_(first), last_(last), values_(values) {}
  iterator begin() const;
  std::default_sentinel_t end() const { return {}; }
  // Counts by decoding: O(events in the range).
  std::size_t size() const;
  bool empty() const { return size() == 0; }

 private:
  const Trace* trace_;
  std::size_t first_, last_;
  bool values_;
};

// PATHLAB_TRACE_BUDGET when set (bytes, or with a K, M or G suffix: "64M"), else a quarter of
// the machine's physical memory (sysconf), else 1 GiB when that is unknown. An unreadable
// PATHLAB_TRACE_BUDGET is ignored.
std::size_t default_trace_budget();
// "4096", "64K", "512M", "2G" (powers of 1024), optionally followed by "B" or "iB"; nullopt
// for anything else or for 0.
std::optional<std::size_t> parse_byte_size(std::string_view text);

// The dense per-cell view of a frame's nodes, for passes over every node (search textures, g
// heat maps, differences): which cell index (y * width + x) of a width x height map a node
// stands on, through its declared space, for the price of a table look-up. Cells nodes map to
// their cell, CellHeadings nodes to the cell they stand on; nodes of other spaces, of spaces
// over a map of another size, and free points map to none.
class CellIndexer {
 public:
  CellIndexer(const Trace& trace, int width, int height);
  // -1: the node stands on no cell of this map.
  std::int64_t operator()(const NodeInfo& d) const {
    const Entry& e = table_[d.space];
    if (e.per_cell == 0) return -1;
    const std::uint32_t i = d.id - e.base;
    return e.per_cell == 1 ? std::int64_t(i) : std::int64_t(i / e.per_cell);
  }
  // True when some node of the trace can stand on a cell (a texture pass has work to do).
  bool any() const { return any_; }
  // True when the node's space has several nodes a cell (headings): a cell shows the best.
  bool shared(const NodeInfo& d) const { return table_[d.space].per_cell > 1; }

 private:
  struct Entry {
    std::uint32_t base = 0;
    std::uint32_t per_cell = 0;  // ids a cell: 1 for Cells, k for CellHeadings, 0 = no cells
  };
  std::array<Entry, 256> table_{};
  bool any_ = false;
};

// Records everything it is told. Per event: one or two id look-ups and a 32-byte push; a node's
// space is found once, when it is first named (the space of the previous new node is tried
// first); shapes, paths, names and labels are copied to side tables (names and labels once each).
class TraceRecorder final : public SearchObserver {
 public:
  TraceRecorder();

  void phase(std::string_view name) override;
  void space(const NodeSpace& space) override;
  void open(const NodeDesc& node, std::uint32_t parent, double g, double h) override;
  void relax(std::uint32_t node, std::uint32_t parent, double g) override;
  void close(std::uint32_t node) override;
  void test(const Shape& shape, bool ok) override;
  void mark(const Shape& shape, Role role) override;
  void path(std::span<const PathPiece> pieces) override;
  void counter(std::string_view name, double value) override;
  void role_name(Role role, std::string_view name) override;
  void frame() override;
  // Node events and frame boundaries in one call: no virtual call per event.
  void batch(std::span<const NodeEvent> events) override;

  std::size_t event_count() const { return trace_.event_count_; }
  // The byte budget of the recordings to come (0 = default_trace_budget()); kept by take().
  void set_budget(std::size_t bytes);
  std::size_t budget() const { return trace_.budget_; }
  // True once the current recording has stopped at the budget.
  bool stopped() const { return stopped_; }
  // What the current recording holds, with the keyframes take() will add, in bytes.
  std::size_t estimated_bytes() const;
  // Hands the recording over (keyframes are built here, in one pass) and starts a new one.
  Trace take();

 private:
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using NameIndex = std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>>;

  std::uint32_t node_index(std::uint32_t id);
  // node_index(id), and whether the id is new (its index is the node count before the call).
  std::uint32_t node_index(std::uint32_t id, bool& is_new);
  std::uint8_t find_space(std::uint32_t id);
  // An Open event without a description (NodeEvent::desc == nullptr): nothing but the id.
  void open_dense(std::uint32_t id, std::uint32_t parent, double g, double h);
  // The Open event of node index i (new: first named here; desc: its description's index, or
  // kNoNode).
  void push_open(std::uint32_t i, bool is_new, std::uint32_t parent, std::uint32_t desc, double g,
                 double h);
  void push_relax(std::uint32_t i, bool is_new, std::uint32_t parent, double g);
  // Codes node index i (nodes named before it: n) and the parent (node id or kNoNode) into the
  // tag and the stream; returns the parent's index.
  std::uint32_t put_parent(std::uint8_t& tag, std::uint8_t*& out, std::uint32_t parent);
  // The step code of value v against ref (kRaw: v follows as 8 bytes).
  std::uint8_t step_code(double ref, double v, bool is_h);
  void end_event(const std::uint8_t* buf, const std::uint8_t* end);
  void set_status(std::uint32_t i, NodeStatus to);
  std::uint32_t name_index(NameIndex& index, std::vector<std::string>& names,
                           std::string_view name);
  void push_shape(const Shape& shape, Role role, bool is_test, bool ok);
  void check_budget();

  Trace trace_;
  // Per node index, what open() needs at hand: its latest description and its space.
  // g and h as the replay will have them (the coding's reference values).
  struct Known {
    double g = std::numeric_limits<double>::infinity();
    double h = 0;
    std::uint32_t last_desc = kNoNode;
    std::uint8_t space = kNoSpace;
    NodeStatus status = NodeStatus::Unseen;  // a relax of an unseen node opens it
  };
  std::vector<Known> known_;
  NameIndex phase_index_, counter_index_, label_index_;
  // The id range of each declared space (end = base + count(), 2^32 for unbounded Points), so
  // a new node finds its space with two comparisons a space; the last hit is tried first.
  struct SpaceRange {
    std::uint64_t base = 0, end = 0;
  };
  std::vector<SpaceRange> ranges_;
  std::uint8_t last_space_ = kNoSpace;
  std::uint32_t last_close_ = kNoNode;  // the node this frame closed last (the coding's parent)
  // Step tables' indices: a value's bits -> its code.
  std::unordered_map<std::uint64_t, std::uint8_t> g_codes_, h_codes_;
  std::uint8_t last_g_ = 0, last_h_ = 0;  // the codes used last, tried first
  bool stopped_ = false;
  std::size_t next_check_ = 0;
  // Heap bytes of the side tables' variable parts (shape points, paths, names), counted as they
  // are added so a budget check costs O(1).
  std::size_t side_bytes_ = 0;  // events_.size() at which frame() checks the budget next
};

// A replay position. Moves between frames by the cheapest of: replaying forward from the
// current state, undoing recent frames (an undo log kept for up to ~64k recent events), or
// restoring the nearest keyframe at or before the target and replaying from there.
// The Trace must outlive the cursor and stay where it is.
class TraceCursor {
  friend struct TraceReplay;

 public:
  explicit TraceCursor(const Trace& trace);

  const Trace& trace() const { return *trace_; }
  std::size_t frame() const { return state_.frame_; }
  std::size_t last_frame() const { return trace_->frame_count() - 1; }
  const FrameState& state() const { return state_; }

  // Frames past the end go to the last frame.
  void seek(std::size_t frame);
  // Apply the next frame's events; false (and no change) at the last frame.
  bool step_forward();
  // Back one frame; false (and no change) at frame 0.
  bool step_back();

  // Events applied or undone by the latest move, for tests and profiling.
  std::size_t last_replayed() const { return last_replayed_; }
  // Node records a keyframe restore of the latest move wrote (0 when it restored none).
  std::size_t last_restored() const { return last_restored_; }

  // What seek(frame) would cost, in events replayed (a restored keyframe node counts half an
  // event): the same choice seek() makes, so a caller can decide whether to wait for it.
  double seek_cost(std::size_t frame) const;

 private:
  // How seek() gets to a frame.
  struct SeekPlan {
    enum class How { Stay, Forward, Back, Restore } how = How::Stay;
    std::size_t target = 0, key = 0, log_from = 0;
    double cost = 0;  // in stream bytes
  };
  SeekPlan plan_seek(std::size_t frame, bool stepping_back) const;

  struct Undo {
    NodeState node;           // Open/Relax/Close: the node's record before the event
    double value = 0;         // Counter: previous value
    // Phase: previous phase; Path: previous path; Close: previous current; Counter: previous
    // number of counters.
    std::uint32_t index = 0;
    std::uint32_t a = 0;      // the event's node, counter or name
    std::size_t frame = 0;    // the frame the event belongs to
    TraceEvent::Kind kind = TraceEvent::Kind::Phase;
  };

  void seek(std::size_t frame, bool stepping_back);
  void restore(std::size_t keyframe);
  // The first node restore(keyframe) writes: the nodes before it are the same in the state
  // held now and in the keyframe's (Trace::settled_).
  std::size_t restore_from(std::size_t keyframe) const;
  // Replays to `frame`, logging undo entries for the frames after `log_from` (>= frame()).
  void forward_to(std::size_t frame, std::size_t log_from);
  void back_to(std::size_t frame);
  void trim_undo();
  NodeValues values() const;

  const Trace* trace_;
  double bytes_per_event_ = 1;  // the stream's mean: seek costs are estimated in bytes
  FrameState state_;
  std::vector<Undo> undo_;     // one entry per event in (undo_base_, frame()]
  std::size_t undo_base_ = 0;  // the undo log reaches back to this frame
  std::size_t last_replayed_ = 0, last_restored_ = 0;
};

}  // namespace pl

#include "viz/trace.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>

namespace pl {

namespace {

bool same_float(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

bool same_desc(const NodeInfo& a, const NodeInfo& b) {
  return a.id == b.id && same_float(a.x, b.x) && same_float(a.y, b.y) &&
         same_float(a.heading, b.heading) && a.level == b.level && a.space == b.space &&
         a.label == b.label;
}

bool same_node(const NodeState& a, const NodeState& b) {
  return same_desc(a.desc, b.desc) && same_float(a.g, b.g) && same_float(a.h, b.h) &&
         a.parent == b.parent && a.status == b.status;
}

// How many undo entries a cursor keeps before it forgets the oldest frames, and how many frames
// back a seek prepares for cheap step_back(): enough for a user holding the "back" key.
constexpr std::size_t kMaxUndo = std::size_t(1) << 16;
constexpr std::size_t kUndoFramesAfterSeek = 64;

}  // namespace

const char* node_status_name(NodeStatus s) {
  switch (s) {
    case NodeStatus::Unseen:
      return "unseen";
    case NodeStatus::Open:
      return "open";
    case NodeStatus::Closed:
      return "closed";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// The event coding (see the top of trace.hpp). A tag byte: the kind in bits 0-2, then
//   Open:  bit 3 node new, bits 4-5 parent mode, bit 6 description index follows;
//          [node: varint nodes-1-index] [parent: varint] g-code [8 bytes] h-code [8 bytes] [desc]
//   Relax: bit 3 node new, bits 4-5 parent mode; [node] [parent] g-code [8 bytes]
//   Close: bit 3 node new; [node]
//   Test:  bit 3 ok (the shape is the next shape record)
//   Mark:  bits 3-7 role (the shape is the next shape record)
//   Phase, Path: varint index; Counter: varint index, 8 bytes value.
// Parent modes: none, the node this frame closed last, a new node, varint nodes-1-index.

namespace {

constexpr std::uint8_t kRaw = 255;
constexpr std::uint8_t kParentNone = 0, kParentClosed = 1, kParentNew = 2, kParentIndex = 3;

inline void put_varint(std::uint8_t*& out, std::uint64_t v) {
  while (v >= 0x80) {
    *out++ = std::uint8_t(v | 0x80);
    v >>= 7;
  }
  *out++ = std::uint8_t(v);
}

inline std::uint64_t get_varint(const std::uint8_t*& p) {
  std::uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t b = *p++;
    v |= std::uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
}

inline void put_raw(std::uint8_t*& out, double v) {
  std::memcpy(out, &v, 8);
  out += 8;
}

// An event's node: new (tag bit 8, named by the event itself) or counted back from the `named`
// nodes named before it.
inline void put_node(std::uint8_t& tag, std::uint8_t*& out, std::uint32_t named, std::uint32_t i,
                     bool is_new) {
  if (is_new)
    tag |= 8;
  else
    put_varint(out, named - 1 - i);
}

// A g or h value: its step code, then the value itself when the code is kRaw.
inline void put_step(std::uint8_t*& out, std::uint8_t code, double v) {
  *out++ = code;
  if (code == kRaw) put_raw(out, v);
}

inline double get_raw(const std::uint8_t*& p) {
  double v;
  std::memcpy(&v, p, 8);
  p += 8;
  return v;
}

// An event's node, as put_node wrote it: new (tag bit 8; the next dense index) or counted back
// from the `named` nodes named before it.
inline std::uint32_t get_node(std::uint8_t tag, const std::uint8_t*& p, std::uint32_t& named) {
  if (tag & 8) return named++;
  return named - 1 - std::uint32_t(get_varint(p));
}

// An Open or Relax event's parent, as put_parent wrote it (mode: tag bits 4-5): none, the node
// closed last in this frame, a new node, or one counted back from the `named` nodes.
inline std::uint32_t get_parent(std::uint8_t tag, const std::uint8_t*& p, std::uint32_t& named,
                                std::uint32_t last_close) {
  switch ((tag >> 4) & 3) {
    case kParentClosed:
      return last_close;
    case kParentNew:
      return named++;
    case kParentIndex:
      return named - 1 - std::uint32_t(get_varint(p));
    default:
      return kNoNode;
  }
}

inline bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

inline double value_at(const char* base, std::size_t stride, std::uint32_t i) {
  double v;
  std::memcpy(&v, base + std::size_t(i) * stride, 8);
  return v;
}

}  // namespace

EventReader::EventReader(const Trace& trace, std::size_t first, std::size_t last)
    : trace_(&trace), frame_(first), last_(std::min(last, trace.frames_.size() - 1)) {
  const Trace::FrameRec& f = trace.frames_[std::min(first, last_)];
  p_ = frame_end_ = trace.bytes_.data() + f.byte_end;
  nodes_ = f.node_count;
  shapes_ = f.shape_count;
  if (first >= last_) frame_ = last_;
}

void EventReader::enter_frames() {
  // Past the end of frame_: move to the next frame that has events (frames may be empty).
  while (p_ == frame_end_ && frame_ < last_) {
    ++frame_;
    frame_end_ = trace_->bytes_.data() + trace_->frames_[frame_].byte_end;
    last_close_ = kNoNode;  // the parent register is per frame
  }
}

bool EventReader::next(TraceEvent& e, const NodeValues& v) {
  enter_frames();
  if (p_ == frame_end_) return false;
  const std::uint8_t tag = *p_++;
  e = TraceEvent{};
  e.kind = TraceEvent::Kind(tag & 7);
  using K = TraceEvent::Kind;
  auto value = [&](const char* base, double none, const std::vector<double>& steps) {
    const std::uint8_t code = *p_++;
    if (code == kRaw) return get_raw(p_);
    if (!base) return std::numeric_limits<double>::quiet_NaN();
    const double ref = e.b == kNoNode ? 0.0 : e.b < v.count ? value_at(base, v.stride, e.b) : none;
    return ref + steps[code];
  };
  switch (e.kind) {
    case K::Open: {
      e.a = get_node(tag, p_, nodes_);
      e.b = get_parent(tag, p_, nodes_, last_close_);
      e.x = value(v.g, std::numeric_limits<double>::infinity(), trace_->g_steps_);
      e.y = value(v.h, 0.0, trace_->h_steps_);
      if (tag & 64) e.c = std::uint32_t(get_varint(p_));
      break;
    }
    case K::Relax:
      e.a = get_node(tag, p_, nodes_);
      e.b = get_parent(tag, p_, nodes_, last_close_);
      e.x = value(v.g, std::numeric_limits<double>::infinity(), trace_->g_steps_);
      break;
    case K::Close:
      e.a = last_close_ = get_node(tag, p_, nodes_);
      break;
    case K::Test:
      e.flag = (tag >> 3) & 1;
      e.a = shapes_++;
      break;
    case K::Mark:
      e.flag = std::uint8_t(tag >> 3);
      e.a = shapes_++;
      break;
    case K::Phase:
    case K::Path:
      e.a = std::uint32_t(get_varint(p_));
      break;
    case K::Counter:
      e.a = std::uint32_t(get_varint(p_));
      e.x = get_raw(p_);
      break;
  }
  return true;
}

Trace::EventRange Trace::events() const {
  return EventRange(*this, 0, frames_.size() - 1, true);
}

Trace::EventRange Trace::frame_events(std::size_t k) const {
  if (k == 0 || k >= frames_.size()) return EventRange(*this, 0, 0, false);
  return EventRange(*this, k - 1, k, false);
}

Trace::EventRange::iterator Trace::EventRange::begin() const {
  iterator it;
  it.reader_ = EventReader(*trace_, first_, last_);
  it.values_ = values_;
  if (values_) {
    it.g_.assign(trace_->node_count(), std::numeric_limits<double>::infinity());
    it.h_.assign(trace_->node_count(), 0.0);
  }
  it.advance();
  return it;
}

void Trace::EventRange::iterator::advance() {
  if (!values_) {
    done_ = !reader_.next(e_);
    return;
  }
  const NodeValues v{reinterpret_cast<const char*>(g_.data()),
                     reinterpret_cast<const char*>(h_.data()), sizeof(double), g_.size()};
  done_ = !reader_.next(e_, v);
  if (done_) return;
  if (e_.kind == TraceEvent::Kind::Open) {
    g_[e_.a] = e_.x;
    h_[e_.a] = e_.y;
  } else if (e_.kind == TraceEvent::Kind::Relax) {
    g_[e_.a] = e_.x;
  }
}

std::size_t Trace::EventRange::size() const {
  EventReader r(*trace_, first_, last_);
  TraceEvent e;
  std::size_t n = 0;
  while (r.next(e)) ++n;
  return n;
}

Trace::FrameInfo Trace::frame_info(std::size_t k) const {
  const std::size_t block = k / kFrameBlock;
  std::uint64_t events = block_events_[block];
  EventReader r(*this, block * kFrameBlock, k);
  TraceEvent e;
  while (r.next(e)) ++events;
  return FrameInfo{events, frames_[k].byte_end, frames_[k].node_count, frames_[k].shape_count};
}

// ---------------------------------------------------------------------------------------------
// Applying and undoing events: shared by keyframe construction and the cursor, so both can
// never disagree about what an event means.

struct TraceReplay {
  using Undo = TraceCursor::Undo;

  // Make room for the nodes frame `k` has seen; new nodes start Unseen.
  static void grow(const Trace& t, FrameState& s, std::size_t node_count) {
    const std::size_t old = s.nodes_.size();
    if (node_count > old) {
      for (std::size_t i = old; i < node_count; ++i) {  // each record written once, whole
        NodeState x;
        x.desc.id = t.node_ids_[i];
        x.desc.space = t.node_spaces_[i];
        s.nodes_.push_back(x);
      }
      s.open_pos_.resize(node_count, kNoNode);
    }
  }

  static void shrink(FrameState& s, std::size_t node_count) {
    // The nodes cut off are Unseen again, so none of them is in the open index.
    s.nodes_.resize(node_count);
    s.open_pos_.resize(node_count);
  }

  // Keeps the open index (open_, open_pos_) in step with the statuses.
  static void set_status(FrameState& s, std::uint32_t i, NodeStatus to) {
    NodeState& n = s.nodes_[i];
    const bool was_open = n.status == NodeStatus::Open, is_open = to == NodeStatus::Open;
    n.status = to;
    if (was_open == is_open) return;
    if (is_open) {
      s.open_pos_[i] = std::uint32_t(s.open_.size());
      s.open_.push_back(i);
    } else {
      const std::uint32_t pos = s.open_pos_[i], last = s.open_.back();
      s.open_[pos] = last;
      s.open_pos_[last] = pos;
      s.open_.pop_back();
    }
    s.counters_.open = s.open_.size();
  }

  static NodeValues values(const FrameState& s) {
    if (s.nodes_.empty()) return NodeValues{nullptr, nullptr, 0, 0};
    return NodeValues{reinterpret_cast<const char*>(&s.nodes_[0].g),
                      reinterpret_cast<const char*>(&s.nodes_[0].h), sizeof(NodeState),
                      s.nodes_.size()};
  }

  // Replays frames (from, to] onto s, which must hold the state of frame `from` with room for
  // frame `to`'s nodes (grow()), and returns the events replayed. The same as EventReader::next
  // and apply<false> event by event (the tests compare seeks with stepping and with a model),
  // fused: no decoded TraceEvent, no NodeValues per event, the frame's bounds and the counters
  // in locals. A far seek replays a few hundred thousand events; on a 1M-node Dijkstra the pair
  // cost about 170 instructions an event, this about 95.
  static std::size_t run(const Trace& t, FrameState& s, std::size_t from, std::size_t to) {
    if (to <= from) return 0;
    using K = TraceEvent::Kind;
    const std::uint8_t* const bytes = t.bytes_.data();
    const std::uint8_t* p = bytes + t.frames_[from].byte_end;
    std::uint32_t named = t.frames_[from].node_count;
    NodeState* const nodes = s.nodes_.data();
    const std::size_t count = s.nodes_.size();
    const double* const g_steps = t.g_steps_.data();
    const double* const h_steps = t.h_steps_.data();
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::uint64_t generated = 0, relaxed = 0, expanded = 0, passed = 0, failed = 0;
    std::size_t events = 0;
    for (std::size_t f = from + 1; f <= to; ++f) {
      const std::uint8_t* const end = bytes + t.frames_[f].byte_end;
      std::uint32_t last_close = kNoNode;  // the parent register is per frame
      while (p < end) {
        const std::uint8_t tag = *p++;
        ++events;
        switch (K(tag & 7)) {
          case K::Open:
          case K::Relax: {
            const std::uint32_t a = get_node(tag, p, named);
            const std::uint32_t b = get_parent(tag, p, named, last_close);
            // A value coded as a step from the parent's (as of just before this event).
            const NodeState* const par = b < count ? nodes + b : nullptr;
            auto value = [&](double NodeState::*field, double none, const double* steps) {
              const std::uint8_t code = *p++;
              if (code == kRaw) return get_raw(p);
              if (count == 0) return kNaN;
              const double ref = b == kNoNode ? 0.0 : par ? par->*field : none;
              return ref + steps[code];
            };
            const double g = value(&NodeState::g, kInf, g_steps);
            NodeState& n = nodes[a];
            if (K(tag & 7) == K::Open) {
              const double h = value(&NodeState::h, 0.0, h_steps);
              const std::uint32_t c = (tag & 64) ? std::uint32_t(get_varint(p)) : kNoNode;
              set_status(s, a, NodeStatus::Open);
              if (c != kNoNode) n.desc = t.descs_[c];
              n.h = h;
              ++generated;
            } else {
              if (n.status == NodeStatus::Unseen) set_status(s, a, NodeStatus::Open);
              ++relaxed;
            }
            n.g = g;
            n.parent = b;
            break;
          }
          case K::Close: {
            const std::uint32_t a = get_node(tag, p, named);
            last_close = a;
            set_status(s, a, NodeStatus::Closed);
            s.current_ = a;
            ++expanded;
            break;
          }
          case K::Test:
            ++((tag >> 3) & 1 ? passed : failed);
            break;
          case K::Mark:
            break;
          case K::Phase:
            s.phase_ = std::uint32_t(get_varint(p));
            break;
          case K::Path:
            s.path_ = std::uint32_t(get_varint(p));
            break;
          case K::Counter: {
            const auto a = std::uint32_t(get_varint(p));
            const double x = get_raw(p);
            if (a >= s.named_.size()) s.named_.resize(std::size_t(a) + 1, 0.0);
            s.named_[a] = x;
            break;
          }
        }
      }
    }
    s.counters_.generated += generated;
    s.counters_.relaxed += relaxed;
    s.counters_.expanded += expanded;
    s.counters_.tests_passed += passed;
    s.counters_.tests_failed += failed;
    return events;
  }

  template <bool kLog>
  static void apply(const Trace& t, FrameState& s, const TraceEvent& e, std::vector<Undo>& log,
                    std::size_t frame) {
    using K = TraceEvent::Kind;
    auto entry = [&](const NodeState& node, double value, std::uint32_t index) {
      log.push_back(Undo{node, value, index, e.a, frame, e.kind});
    };
    switch (e.kind) {
      case K::Phase:
        if constexpr (kLog) entry({}, 0, s.phase_);
        s.phase_ = e.a;
        break;
      case K::Open: {
        NodeState& n = s.nodes_[e.a];
        if constexpr (kLog) entry(n, 0, 0);
        set_status(s, e.a, NodeStatus::Open);
        if (e.c != kNoNode) n.desc = t.descs_[e.c];  // else: the id and its space say it all
        n.g = e.x;
        n.h = e.y;
        n.parent = e.b;
        ++s.counters_.generated;
        break;
      }
      case K::Relax: {
        NodeState& n = s.nodes_[e.a];
        if constexpr (kLog) entry(n, 0, 0);
        if (n.status == NodeStatus::Unseen) set_status(s, e.a, NodeStatus::Open);
        n.g = e.x;
        n.parent = e.b;
        ++s.counters_.relaxed;
        break;
      }
      case K::Close: {
        NodeState& n = s.nodes_[e.a];
        if constexpr (kLog) entry(n, 0, s.current_);
        set_status(s, e.a, NodeStatus::Closed);
        s.current_ = e.a;
        ++s.counters_.expanded;
        break;
      }
      case K::Test:
        if constexpr (kLog) entry({}, 0, e.flag);
        ++(e.flag ? s.counters_.tests_passed : s.counters_.tests_failed);
        break;
      case K::Mark:
        if constexpr (kLog) entry({}, 0, 0);
        break;
      case K::Path:
        if constexpr (kLog) entry({}, 0, s.path_);
        s.path_ = e.a;
        break;
      case K::Counter:
        if constexpr (kLog)
          entry({}, e.a < s.named_.size() ? s.named_[e.a] : 0.0, std::uint32_t(s.named_.size()));
        if (e.a >= s.named_.size()) s.named_.resize(std::size_t(e.a) + 1, 0.0);
        s.named_[e.a] = e.x;
        break;
    }
  }

  static void undo(FrameState& s, const Undo& u) {
    using K = TraceEvent::Kind;
    switch (u.kind) {
      case K::Phase:
        s.phase_ = u.index;
        break;
      case K::Open:
      case K::Relax:
      case K::Close: {
        set_status(s, u.a, u.node.status);
        s.nodes_[u.a] = u.node;
        if (u.kind == K::Open) --s.counters_.generated;
        if (u.kind == K::Relax) --s.counters_.relaxed;
        if (u.kind == K::Close) {
          --s.counters_.expanded;
          s.current_ = u.index;
        }
        break;
      }
      case K::Test:
        --(u.index ? s.counters_.tests_passed : s.counters_.tests_failed);
        break;
      case K::Mark:
        break;
      case K::Path:
        s.path_ = u.index;
        break;
      case K::Counter:
        if (u.index <= u.a)
          s.named_.resize(u.index);
        else
          s.named_[u.a] = u.value;
        break;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// FrameState

std::string_view FrameState::phase() const {
  return phase_ == kNoNode ? std::string_view() : std::string_view(trace_->phase_names_[phase_]);
}

const NodeState* FrameState::node_by_id(std::uint32_t id) const {
  return node(trace_->index_of(id));
}

std::vector<std::pair<std::string_view, double>> FrameState::named_counters() const {
  std::vector<std::pair<std::string_view, double>> out;
  out.reserve(named_.size());
  for (std::size_t i = 0; i < named_.size(); ++i)
    out.emplace_back(trace_->counter_names_[i], named_[i]);
  return out;
}

std::optional<double> FrameState::counter(std::string_view name) const {
  for (std::size_t i = 0; i < named_.size(); ++i)
    if (trace_->counter_names_[i] == name) return named_[i];
  return std::nullopt;
}

std::span<const ShapeRecord> FrameState::shapes() const {
  return {trace_->shapes_.data(), shape_count_};
}

std::vector<const ShapeRecord*> shapes_for_agent(std::span<const ShapeRecord> shapes,
                                                 CapabilityMask agent_capability, int agent_size) {
  std::vector<const ShapeRecord*> out;
  for (const ShapeRecord& r : shapes)
    if (admits(r, agent_capability, agent_size)) out.push_back(&r);
  return out;
}

std::span<const PathPiece> FrameState::path() const {
  if (path_ == kNoNode) return {};
  return trace_->paths_[path_];
}

bool FrameState::better(const NodeState& a, const NodeState& b) {
  const double fa = a.f(), fb = b.f();
  if (fa != fb) return fa < fb;
  if (a.g != b.g) return a.g > b.g;
  return a.desc.id < b.desc.id;
}

std::vector<const NodeState*> FrameState::nodes_at(int x, int y, int heading) const {
  std::vector<const NodeState*> out;
  nodes_at(x, y, out, heading);
  return out;
}

void FrameState::nodes_at(int x, int y, std::vector<const NodeState*>& out, int heading) const {
  out.clear();
  trace_->visit_cell_node_ids(x, y, heading, [&](std::uint32_t, std::uint32_t index) {
    if (const NodeState* n = node(index); n && n->status != NodeStatus::Unseen) out.push_back(n);
  });
}

const NodeState* FrameState::best_at(int x, int y) const {
  const NodeState* best = nullptr;
  for (const NodeState* n : nodes_at(x, y))
    if (!best || better(*n, *best)) best = n;
  return best;
}

std::vector<const NodeState*> FrameState::open_list(std::size_t max_count) const {
  std::vector<const NodeState*> out;
  if (max_count == 0) return out;
  out.reserve(std::min(open_.size(), max_count));
  auto better = [](const NodeState* a, const NodeState* b) { return FrameState::better(*a, *b); };
  // A bounded max-heap of the best max_count so far: the UI asks for a few dozen rows out of
  // possibly millions of open nodes, so this beats sorting everything.
  for (const std::uint32_t i : open_) {
    const NodeState* n = &nodes_[i];
    if (out.size() < max_count) {
      out.push_back(n);
      std::push_heap(out.begin(), out.end(), better);
    } else if (better(n, out.front())) {
      std::pop_heap(out.begin(), out.end(), better);
      out.back() = n;
      std::push_heap(out.begin(), out.end(), better);
    }
  }
  std::sort_heap(out.begin(), out.end(), better);
  return out;
}

bool FrameState::operator==(const FrameState& o) const {
  if (frame_ != o.frame_ || phase_ != o.phase_ || current_ != o.current_ || path_ != o.path_ ||
      shape_count_ != o.shape_count_ || !(counters_ == o.counters_) ||
      nodes_.size() != o.nodes_.size() || named_.size() != o.named_.size())
    return false;
  for (std::size_t i = 0; i < named_.size(); ++i)
    if (!same_float(named_[i], o.named_[i])) return false;
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (!same_node(nodes_[i], o.nodes_[i])) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Trace

namespace {
std::size_t id_hash(std::uint32_t id, std::size_t mask) {
  return std::size_t((std::uint64_t(id) * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}
}  // namespace

std::uint32_t Trace::IdMap::find_hashed(std::uint32_t id) const {
  if (slots_.empty()) return kNoNode;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = id_hash(id, mask);; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.index == kNoNode) return kNoNode;
    if (s.id == id) return s.index;
  }
}

std::uint32_t Trace::IdMap::insert(std::uint32_t id, std::uint32_t next, bool& inserted) {
  if (id >= direct_.size() && std::size_t(id) < std::max<std::size_t>(1u << 20, 4 * (size_ + 1)))
    grow_direct(id);
  if (id < direct_.size()) {
    std::uint32_t& s = direct_[id];
    inserted = s == kNoNode;
    if (inserted) {
      s = next;
      ++size_;
    }
    return s;
  }
  return insert_hashed(id, next, inserted);
}

std::uint32_t Trace::IdMap::insert_hashed(std::uint32_t id, std::uint32_t next, bool& inserted) {
  if (2 * (hashed_ + 1) > slots_.size()) grow_hash(std::max<std::size_t>(1024, 2 * slots_.size()));
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = id_hash(id, mask);; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.index == kNoNode) {
      s = Slot{id, next};
      ++hashed_;
      ++size_;
      inserted = true;
      return next;
    }
    if (s.id == id) {
      inserted = false;
      return s.index;
    }
  }
}

void Trace::IdMap::grow_hash(std::size_t slots) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(slots, Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.index == kNoNode) continue;
    std::size_t i = id_hash(s.id, mask);
    while (slots_[i].index != kNoNode) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void Trace::IdMap::grow_direct(std::uint32_t id) {
  std::size_t n = std::max<std::size_t>(1024, direct_.size() * 2);
  while (n <= id) n *= 2;
  n = std::min(n, std::max<std::size_t>(1u << 20, 4 * (size_ + 1)));
  direct_.resize(n, kNoNode);
  if (hashed_ == 0) return;
  // Ids the table now covers move out of the hash table, so each id lives in one place.
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size(), Slot{});
  hashed_ = 0;
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.index == kNoNode) continue;
    if (s.id < n) {
      direct_[s.id] = s.index;
      continue;
    }
    std::size_t i = id_hash(s.id, mask);
    while (slots_[i].index != kNoNode) i = (i + 1) & mask;
    slots_[i] = s;
    ++hashed_;
  }
}

Trace::Trace() {
  frames_.push_back(FrameRec{});
  block_events_.push_back(0);
  keyframes_.emplace_back();
}

std::uint32_t Trace::index_of(std::uint32_t id) const {
  return ids_.find(id);
}

std::optional<CellXY> Trace::cell_of(const NodeInfo& d) const {
  const NodeSpace* s = space_of(d);
  return s ? s->cell(d.id) : std::nullopt;
}

std::optional<CellXY> Trace::corner_of(const NodeInfo& d) const {
  const NodeSpace* s = space_of(d);
  return s ? s->corner(d.id) : std::nullopt;
}

int Trace::heading_index_of(const NodeInfo& d) const {
  const NodeSpace* s = space_of(d);
  return s ? s->heading_index(d.id) : -1;
}

double Trace::heading_of(const NodeInfo& d) const {
  const NodeSpace* s = space_of(d);
  return s && s->kind == NodeSpace::Kind::CellHeadings ? s->heading(d.id) : double(d.heading);
}

Vec2 Trace::position_of(const NodeInfo& d) const {
  if (const NodeSpace* s = space_of(d))
    if (auto p = s->position(d.id)) return *p;
  return {d.x, d.y};
}

int Trace::level_of(const NodeInfo& d) const {
  const NodeSpace* s = space_of(d);
  if (!s || s->kind == NodeSpace::Kind::Points) return d.level;
  return s->kind == NodeSpace::Kind::Layer ? s->level : 0;
}

std::string Trace::label_of(const NodeInfo& d) const {
  if (d.label < labels_.size()) return labels_[d.label];
  if (const NodeSpace* s = space_of(d)) return s->label(d.id);
  char buf[64];
  std::snprintf(buf, sizeof buf, "point (%.2f, %.2f)", double(d.x), double(d.y));
  return buf;
}

bool Trace::has_headings() const {
  return std::any_of(spaces_.begin(), spaces_.end(), [](const NodeSpace& s) {
    return s.kind == NodeSpace::Kind::CellHeadings;
  });
}

template <class F>
void Trace::visit_cell_node_ids(int x, int y, int heading, F&& visit) const {
  // An id counts only if the trace found its node in this very space: a node named before the
  // space was declared, or of a space declared later over the same ids, is not on the cell.
  auto add = [&](std::size_t space, std::uint32_t id) {
    const std::uint32_t index = index_of(id);
    if (index != kNoNode && node_spaces_[index] == space) visit(id, index);
  };
  for (std::size_t si = 0; si < spaces_.size(); ++si) {
    const NodeSpace& s = spaces_[si];
    if (x < 0 || y < 0 || x >= s.width || y >= s.height) continue;
    if (s.kind == NodeSpace::Kind::Cells) {
      if (heading < 0) add(si, s.cell_id(x, y));
    } else if (s.kind == NodeSpace::Kind::CellHeadings) {
      if (heading >= s.headings) continue;
      for (int i = heading < 0 ? 0 : heading; i < (heading < 0 ? s.headings : heading + 1); ++i)
        add(si, s.heading_id(x, y, i));
    }
  }
}

std::vector<std::uint32_t> Trace::cell_node_ids(int x, int y, int heading) const {
  std::vector<std::uint32_t> out;
  visit_cell_node_ids(x, y, heading, [&](std::uint32_t id, std::uint32_t) { out.push_back(id); });
  return out;
}

CellIndexer::CellIndexer(const Trace& trace, int width, int height) {
  const auto spaces = trace.spaces();
  for (std::size_t i = 0; i < spaces.size() && i < kMaxSpaces; ++i) {
    const NodeSpace& s = spaces[i];
    if (s.width != width || s.height != height) continue;
    if (s.kind == NodeSpace::Kind::Cells) table_[i] = {s.base, 1};
    if (s.kind == NodeSpace::Kind::CellHeadings && s.headings > 0)
      table_[i] = {s.base, std::uint32_t(s.headings)};
    any_ |= table_[i].per_cell != 0;
  }
}

std::size_t Trace::memory_bytes() const {
  std::size_t b = sizeof(*this);
  b += bytes_.capacity() + frames_.capacity() * sizeof(FrameRec);
  b += settled_.capacity() * sizeof(std::uint32_t);
  b += block_events_.capacity() * sizeof(std::uint64_t);
  b += (g_steps_.capacity() + h_steps_.capacity()) * sizeof(double);
  b += descs_.capacity() * sizeof(NodeInfo);
  b += node_ids_.capacity() * sizeof(std::uint32_t) + node_spaces_.capacity();
  b += spaces_.capacity() * sizeof(NodeSpace);
  for (const NodeSpace& s : spaces_) b += s.name.capacity();
  b += ids_.memory_bytes();
  b += shapes_.capacity() * sizeof(ShapeRecord);
  for (const ShapeRecord& s : shapes_) b += s.shape.points.capacity() * sizeof(Vec2);
  b += paths_.capacity() * sizeof(std::vector<PathPiece>);
  for (const auto& p : paths_) b += p.capacity() * sizeof(PathPiece);
  for (const auto* names : {&phase_names_, &counter_names_, &labels_}) {
    b += names->capacity() * sizeof(std::string);
    for (const std::string& s : *names) b += s.capacity();
  }
  for (const std::string& s : role_names_) b += s.capacity();
  b += phases_.capacity() * sizeof(PhaseMarker);
  for (const PhaseMarker& p : phases_) b += p.name.capacity();
  b += keyframes_.capacity() * sizeof(Keyframe);
  auto keyframe_bytes = [](const Keyframe& k) {
    return (k.g.capacity() + k.h.capacity() + k.named.capacity()) * sizeof(double) +
           (k.index.capacity() + k.parent.capacity() + k.desc.capacity() + k.open.capacity()) *
               sizeof(std::uint32_t) +
           k.status.capacity();
  };
  for (const Keyframe& k : keyframes_) b += keyframe_bytes(k);
  b += keyframe_bytes(final_);
  return b;
}

template <class Index>
void Trace::keep_values(const FrameState& s, std::size_t n, Index index,
                        std::span<const std::uint32_t> last_desc, Keyframe& k) const {
  k.g.resize(n);
  k.h.resize(n);
  k.parent.resize(n);
  k.status.resize(n);
  if (!descs_.empty()) k.desc.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t i = index(j);
    const NodeState& x = s.nodes_[i];
    k.g[j] = x.g;
    k.h[j] = x.h;
    k.parent[j] = x.parent;
    k.status[j] = x.status;
    if (!descs_.empty()) k.desc[j] = last_desc[i];
  }
}

void Trace::snapshot(const FrameState& s, std::span<const std::uint32_t> held,
                     std::span<const std::uint32_t> last_desc, Keyframe& k) const {
  k.frame = s.frame_;
  k.index.assign(held.begin(), held.end());
  keep_values(s, held.size(), [&](std::size_t j) { return std::size_t(held[j]); }, last_desc, k);
  k.open = s.open_;
  k.named = s.named_;
  k.phase = s.phase_;
  k.current = s.current_;
  k.path = s.path_;
  k.counters = s.counters_;
}

void Trace::finish() {
  if (bytes_.size() > frames_.back().byte_end) {
    if (frames_.size() % kFrameBlock == 0) block_events_.push_back(event_count_);
    frames_.push_back(FrameRec{bytes_.size(), std::uint32_t(node_ids_.size()),
                               std::uint32_t(shapes_.size())});
  }

  space_nodes_.fill(0);
  for (const std::uint8_t s : node_spaces_) ++space_nodes_[s];
  const std::size_t nodes = frames_.back().node_count, frames = frames_.size();

  // First pass: the frame of each node's last change, and from it, per frame, how many nodes
  // are held by a keyframe there (named by then, changed later): +1 at the frame a node is
  // named, -1 at its last change.
  std::vector<std::uint32_t> changed_last(nodes, 0);
  {
    EventReader r(*this, 0, frames - 1);
    TraceEvent e;
    while (r.next(e))
      if (e.kind == TraceEvent::Kind::Open || e.kind == TraceEvent::Kind::Relax ||
          e.kind == TraceEvent::Kind::Close)
        changed_last[e.a] = std::uint32_t(r.frame());
  }
  settled_.resize(nodes);
  for (std::size_t i = 0; i < nodes; ++i)
    settled_[i] = i ? std::max(changed_last[i], settled_[i - 1]) : changed_last[i];
  std::vector<std::int32_t> held_delta(frames + 1, 0);
  for (std::size_t i = 0, named = 0; i < nodes; ++i) {
    while (frames_[named].node_count <= i) ++named;  // the frame that named node i
    if (changed_last[i] > named) ++held_delta[named], --held_delta[changed_last[i]];
  }

  // Second pass: the replay, with a keyframe wherever the policy says.
  keyframes_.clear();
  keyframes_.emplace_back();
  max_replay_ = 0;
  FrameState s;
  s.trace_ = this;
  std::vector<TraceReplay::Undo> no_log;
  // The description each node has so far (snapshots need its index).
  std::vector<std::uint32_t> last_desc(descs_.empty() ? 0 : node_ids_.size(), kNoNode);
  std::uint64_t since_key = 0;  // events since the last keyframe
  std::int64_t held_now = 0;    // nodes a keyframe at this frame would hold
  // Nodes named so far that change after the frame they were added at, ascending (filtered
  // down to those a keyframe holds when one is taken).
  std::vector<std::uint32_t> held;
  std::size_t named = 0;
  TraceReplay::grow(*this, s, nodes);  // values are read before growth
  EventReader r(*this, 0, frames - 1);
  TraceEvent e;
  std::size_t k = 1;
  auto end_frames = [&](std::size_t upto) {
    // Frames before `upto` are complete: apply the keyframe policy to each.
    for (; k < upto; ++k) {
      s.shape_count_ = frames_[k].shape_count;
      s.frame_ = k;
      held_now += held_delta[k];
      for (; named < frames_[k].node_count; ++named)
        if (changed_last[named] > k) held.push_back(std::uint32_t(named));
      if (since_key >= keyframe_interval(std::size_t(held_now), s.open_.size())) {
        std::erase_if(held, [&](std::uint32_t i) { return changed_last[i] <= k; });
        keyframes_.emplace_back();
        snapshot(s, held, last_desc, keyframes_.back());  // what frame k saw
        since_key = 0;
      } else {
        max_replay_ = std::max<std::size_t>(max_replay_, since_key);
      }
    }
  };
  while (r.next(e, TraceReplay::values(s))) {
    end_frames(r.frame());
    TraceReplay::apply<false>(*this, s, e, no_log, r.frame());
    if (e.kind == TraceEvent::Kind::Open && e.c != kNoNode) last_desc[e.a] = e.c;
    ++since_key;
  }
  end_frames(frames);
  // Every node's last values: what a keyframe does not hold.
  final_.frame = frames - 1;
  keep_values(s, nodes, [](std::size_t i) { return i; }, last_desc, final_);
  // Recording over-allocates by up to 2x; a finished trace is read-only, so give it back.
  bytes_.shrink_to_fit();
  frames_.shrink_to_fit();
  block_events_.shrink_to_fit();
  descs_.shrink_to_fit();
  node_ids_.shrink_to_fit();
  node_spaces_.shrink_to_fit();
  shapes_.shrink_to_fit();
  paths_.shrink_to_fit();
}

// ---------------------------------------------------------------------------------------------
// TraceRecorder

std::optional<std::size_t> parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    const std::uint64_t d = std::uint64_t(text[i] - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return std::nullopt;
    v = v * 10 + d;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string_view unit = text.substr(i);
  int shift = 0;
  if (!unit.empty()) {
    const char u = char(unit.front() | 0x20);  // lower case
    shift = u == 'k' ? 10 : u == 'm' ? 20 : u == 'g' ? 30 : u == 't' ? 40 : u == 'b' ? 0 : -1;
    if (shift < 0) return std::nullopt;
    if (u != 'b') unit.remove_prefix(1);
    if (!(unit.empty() || unit == "B" || unit == "b" || unit == "iB" || unit == "ib")) return std::nullopt;
  }
  if (v == 0 || v > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
  v <<= shift;
  if (v > std::numeric_limits<std::size_t>::max()) return std::nullopt;
  return std::size_t(v);
}

std::size_t default_trace_budget() {
  if (const char* env = std::getenv("PATHLAB_TRACE_BUDGET"))
    if (auto v = parse_byte_size(env)) return *v;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return std::size_t(pages) / 4 * std::size_t(page);
  return std::size_t(1) << 30;
}

TraceRecorder::TraceRecorder() { set_budget(0); }

void TraceRecorder::set_budget(std::size_t bytes) {
  trace_.budget_ = bytes == 0 ? default_trace_budget() : bytes;
  next_check_ = 0;
}

std::size_t TraceRecorder::estimated_bytes() const {
  const Trace& t = trace_;
  std::size_t b = sizeof(Trace) + side_bytes_;
  b += t.bytes_.capacity() + t.frames_.capacity() * sizeof(Trace::FrameRec);
  b += t.block_events_.capacity() * sizeof(std::uint64_t);
  b += t.descs_.capacity() * sizeof(NodeInfo);
  b += t.node_ids_.capacity() * sizeof(std::uint32_t) + t.node_spaces_.capacity();
  b += t.ids_.memory_bytes() + t.shapes_.capacity() * sizeof(ShapeRecord);
  b += t.paths_.capacity() * sizeof(std::vector<PathPiece>);
  b += known_.capacity() * sizeof(Known);
  b += (g_codes_.size() + h_codes_.size()) * 32 + (t.g_steps_.size() + t.h_steps_.size()) * 8;
  // What finish() adds: every node's final values and settled frame, the last changes it
  // works from, and keyframes within the policy's bound (one at least every 4096 events).
  const std::size_t keys = t.event_count_ / 4096 + 2;
  return b + t.snapshot_bytes(t.node_ids_.size(), 0) + 2 * t.node_ids_.size() * 4 +
         std::size_t(double(t.event_count_) * Trace::kKeyframeBytesPerEvent) +
         keys * sizeof(Trace::Keyframe);
}

void TraceRecorder::check_budget() {
  const std::size_t used = estimated_bytes();
  if (used > trace_.budget_) {
    stopped_ = true;
    trace_.truncated_ = true;
    return;
  }
  // An event adds a few bytes, its keyframe share up to 25, and at most a node (24 + 8 + 8 + 24
  // while recording) or a small shape (~100): check again after a quarter of what the rest of
  // the budget could hold at 256 bytes an event, and at least every 4096 events.
  const std::size_t room = (trace_.budget_ - used) / (256 * 4);
  next_check_ = trace_.event_count_ + std::clamp<std::size_t>(room, 1, 4096);
}

std::uint32_t TraceRecorder::node_index(std::uint32_t id) {
  bool is_new = false;
  return node_index(id, is_new);
}

std::uint32_t TraceRecorder::node_index(std::uint32_t id, bool& is_new) {
  const auto next = std::uint32_t(trace_.node_ids_.size());
  const std::uint32_t i = trace_.ids_.insert(id, next, is_new);
  if (is_new) {
    const std::uint8_t space = find_space(id);
    trace_.node_ids_.push_back(id);
    trace_.node_spaces_.push_back(space);
    known_.push_back({std::numeric_limits<double>::infinity(), 0.0, kNoNode, space, NodeStatus::Unseen});
  }
  return i;
}

std::uint8_t TraceRecorder::find_space(std::uint32_t id) {
  // A search names most of its nodes from one space: try the last one first.
  if (last_space_ != kNoSpace) {
    const SpaceRange& r = ranges_[last_space_];
    if (id >= r.base && id < r.end) return last_space_;
  }
  // The latest declaration wins should two ever overlap (they must not: node_space.hpp).
  for (std::size_t i = ranges_.size(); i-- > 0;)
    if (id >= ranges_[i].base && id < ranges_[i].end) return last_space_ = std::uint8_t(i);
  return kNoSpace;
}

void TraceRecorder::space(const NodeSpace& s) {
  if (stopped_) return;
  const std::uint64_t n = s.count();
  const bool unbounded = s.kind == NodeSpace::Kind::Points && n == 0;
  const SpaceRange r{s.base, unbounded ? std::uint64_t(1) << 32 : s.base + n};
  for (std::size_t i = 0; i < ranges_.size(); ++i)
    if (ranges_[i].base == r.base && ranges_[i].end == r.end) {
      trace_.spaces_[i] = s;  // the same range again: the new declaration replaces the old
      return;
    }
  if (trace_.spaces_.size() >= kMaxSpaces) return;
  trace_.spaces_.push_back(s);
  ranges_.push_back(r);
}

std::uint32_t TraceRecorder::name_index(NameIndex& index, std::vector<std::string>& names,
                                        std::string_view name) {
  auto it = index.find(name);
  if (it != index.end()) return it->second;
  const auto i = std::uint32_t(names.size());
  names.emplace_back(name);
  index.emplace(std::string(name), i);
  side_bytes_ += 2 * (sizeof(std::string) + name.size()) + 32;  // the name, its index entry
  return i;
}

void TraceRecorder::set_status(std::uint32_t i, NodeStatus to) {
  known_[i].status = to;
}

void TraceRecorder::end_event(const std::uint8_t* buf, const std::uint8_t* end) {
  trace_.bytes_.insert(trace_.bytes_.end(), buf, end);
  ++trace_.event_count_;
}

void TraceRecorder::phase(std::string_view name) {
  if (stopped_) return;
  const std::uint32_t i = name_index(phase_index_, trace_.phase_names_, name);
  trace_.phases_.push_back(Trace::PhaseMarker{std::string(name), trace_.frames_.size()});
  side_bytes_ += sizeof(Trace::PhaseMarker) + name.size();
  std::uint8_t buf[16], *out = buf;
  *out++ = std::uint8_t(TraceEvent::Kind::Phase);
  put_varint(out, i);
  end_event(buf, out);
}

void TraceRecorder::open(const NodeDesc& node, std::uint32_t parent, double g, double h) {
  if (stopped_) return;
  bool is_new = false;
  const std::uint32_t i = node_index(node.id, is_new);
  // The label pointer is valid only during this call: intern its text.
  const std::uint32_t label =
      node.label ? name_index(label_index_, trace_.labels_, node.label) : kNoLabel;
  Known& k = known_[i];
  const NodeInfo info{node.id, node.x, node.y, node.heading, node.level, k.space, 0, label};
  std::uint32_t d = k.last_desc;
  if (d == kNoNode || !same_desc(trace_.descs_[d], info)) {
    d = std::uint32_t(trace_.descs_.size());
    trace_.descs_.push_back(info);
    k.last_desc = d;
  }
  push_open(i, is_new, parent, d, g, h);
}

void TraceRecorder::open_dense(std::uint32_t id, std::uint32_t parent, double g, double h) {
  if (stopped_) return;
  bool is_new = false;
  const std::uint32_t i = node_index(id, is_new);
  push_open(i, is_new, parent, kNoNode, g, h);  // no description: the node's space places it
}

std::uint32_t TraceRecorder::put_parent(std::uint8_t& tag, std::uint8_t*& out,
                                        std::uint32_t parent) {
  if (parent == kNoNode) return kNoNode;  // mode kParentNone
  bool is_new = false;
  const auto before = std::uint32_t(trace_.node_ids_.size());
  const std::uint32_t b = node_index(parent, is_new);
  if (is_new) {
    tag |= kParentNew << 4;
  } else if (b == last_close_) {
    tag |= kParentClosed << 4;
  } else {
    tag |= kParentIndex << 4;
    put_varint(out, before - 1 - b);
  }
  return b;
}

std::uint8_t TraceRecorder::step_code(double ref, double v, bool is_h) {
  std::vector<double>& steps = is_h ? trace_.h_steps_ : trace_.g_steps_;
  std::uint8_t& last = is_h ? last_h_ : last_g_;
  const double step = v - ref;
  // The code is usable only when the decoder's sum gives v back bit for bit.
  if (!same_bits(ref + step, v)) return kRaw;
  if (last < steps.size() && same_bits(steps[last], step)) return last;
  auto& codes = is_h ? h_codes_ : g_codes_;
  const auto bits = std::bit_cast<std::uint64_t>(step);
  if (auto it = codes.find(bits); it != codes.end()) return last = it->second;
  if (steps.size() >= kRaw) return kRaw;  // the table is full
  const auto code = std::uint8_t(steps.size());
  steps.push_back(step);
  codes.emplace(bits, code);
  return last = code;
}

void TraceRecorder::push_open(std::uint32_t i, bool is_new, std::uint32_t parent,
                              std::uint32_t desc, double g, double h) {
  std::uint8_t buf[48], *out = buf + 1;
  std::uint8_t tag = std::uint8_t(TraceEvent::Kind::Open);
  // Node references count back from the nodes named before this one.
  put_node(tag, out, std::uint32_t(trace_.node_ids_.size()), i, is_new);
  const std::uint32_t b = put_parent(tag, out, parent);
  const double ref_g = b == kNoNode ? 0.0 : known_[b].g;
  const double ref_h = b == kNoNode ? 0.0 : known_[b].h;
  put_step(out, step_code(ref_g, g, false), g);
  put_step(out, step_code(ref_h, h, true), h);
  if (desc != kNoNode) {
    tag |= 64;
    put_varint(out, desc);
  }
  buf[0] = tag;
  known_[i].g = g;
  known_[i].h = h;
  set_status(i, NodeStatus::Open);
  end_event(buf, out);
}

void TraceRecorder::push_relax(std::uint32_t i, bool is_new, std::uint32_t parent, double g) {
  std::uint8_t buf[32], *out = buf + 1;
  std::uint8_t tag = std::uint8_t(TraceEvent::Kind::Relax);
  put_node(tag, out, std::uint32_t(trace_.node_ids_.size()), i, is_new);
  const std::uint32_t b = put_parent(tag, out, parent);
  put_step(out, step_code(b == kNoNode ? 0.0 : known_[b].g, g, false), g);
  buf[0] = tag;
  known_[i].g = g;
  if (known_[i].status == NodeStatus::Unseen) set_status(i, NodeStatus::Open);
  end_event(buf, out);
}

void TraceRecorder::relax(std::uint32_t node, std::uint32_t parent, double g) {
  if (stopped_) return;
  bool is_new = false;
  const std::uint32_t i = node_index(node, is_new);
  push_relax(i, is_new, parent, g);
}

void TraceRecorder::close(std::uint32_t node) {
  if (stopped_) return;
  bool is_new = false;
  const auto named = std::uint32_t(trace_.node_ids_.size());
  const std::uint32_t i = node_index(node, is_new);
  std::uint8_t buf[16], *out = buf + 1;
  buf[0] = std::uint8_t(std::uint8_t(TraceEvent::Kind::Close) | (is_new ? 8 : 0));
  if (!is_new) put_varint(out, named - 1 - i);
  last_close_ = i;
  set_status(i, NodeStatus::Closed);
  end_event(buf, out);
}

void TraceRecorder::push_shape(const Shape& shape, Role role, bool is_test, bool ok) {
  ShapeRecord r;
  r.shape = shape;
  r.frame = std::uint32_t(trace_.frames_.size());
  r.role = role;
  r.is_test = is_test;
  r.ok = ok;
  side_bytes_ += r.shape.points.capacity() * sizeof(Vec2);
  trace_.shapes_.push_back(std::move(r));
}

void TraceRecorder::test(const Shape& shape, bool ok) {
  if (stopped_) return;
  push_shape(shape, ok ? Role::Accepted : Role::Rejected, true, ok);
  const std::uint8_t tag = std::uint8_t(std::uint8_t(TraceEvent::Kind::Test) | (ok ? 8 : 0));
  end_event(&tag, &tag + 1);
}

void TraceRecorder::mark(const Shape& shape, Role role) {
  if (stopped_) return;
  push_shape(shape, role, false, false);
  const std::uint8_t tag =
      std::uint8_t(std::uint8_t(TraceEvent::Kind::Mark) | (std::uint8_t(role) << 3));
  end_event(&tag, &tag + 1);
}

void TraceRecorder::path(std::span<const PathPiece> pieces) {
  if (stopped_) return;
  std::uint8_t buf[16], *out = buf;
  *out++ = std::uint8_t(TraceEvent::Kind::Path);
  put_varint(out, trace_.paths_.size());
  trace_.paths_.emplace_back(pieces.begin(), pieces.end());
  side_bytes_ += pieces.size() * sizeof(PathPiece);
  end_event(buf, out);
}

// Kept even past the budget (a legend's few words, not an event): the shapes a stopped trace
// holds still need their names.
void TraceRecorder::role_name(Role role, std::string_view name) {
  if (std::size_t(role) < trace_.role_names_.size()) trace_.role_names_[std::size_t(role)] = name;
}

void TraceRecorder::counter(std::string_view name, double value) {
  if (stopped_) return;
  std::uint8_t buf[24], *out = buf;
  *out++ = std::uint8_t(TraceEvent::Kind::Counter);
  put_varint(out, name_index(counter_index_, trace_.counter_names_, name));
  put_raw(out, value);
  end_event(buf, out);
}

void TraceRecorder::frame() {
  if (stopped_) return;
  Trace& t = trace_;
  if (t.frames_.size() % Trace::kFrameBlock == 0) t.block_events_.push_back(t.event_count_);
  t.frames_.push_back(Trace::FrameRec{t.bytes_.size(), std::uint32_t(t.node_ids_.size()),
                                      std::uint32_t(t.shapes_.size())});
  last_close_ = kNoNode;  // the parent register is per frame (frames decode on their own)
  if (t.event_count_ >= next_check_) check_budget();
}

void TraceRecorder::batch(std::span<const NodeEvent> events) {
  if (stopped_) return;
  // The class is final, so these calls are direct (and inlinable), not virtual.
  for (const NodeEvent& e : events) {
    switch (e.kind) {
      case NodeEvent::Kind::Open:
        if (e.desc)
          open(*e.desc, e.parent, e.g, e.h);
        else
          open_dense(e.id, e.parent, e.g, e.h);
        break;
      case NodeEvent::Kind::Relax:
        relax(e.id, e.parent, e.g);
        break;
      case NodeEvent::Kind::Close:
        close(e.id);
        break;
      case NodeEvent::Kind::Test:
        test(*e.shape, e.parent != 0);
        break;
      case NodeEvent::Kind::Mark:
        mark(*e.shape, Role(e.parent));
        break;
      case NodeEvent::Kind::Frame:
        frame();
        break;
      case NodeEvent::Kind::FrameClose:
        frame();
        close(e.id);
        break;
    }
  }
}

Trace TraceRecorder::take() {
  trace_.finish();
  const std::size_t budget = trace_.budget_;
  Trace out = std::move(trace_);
  trace_ = Trace();
  trace_.budget_ = budget;
  stopped_ = false;
  next_check_ = 0;
  side_bytes_ = 0;
  last_close_ = kNoNode;
  g_codes_.clear();
  h_codes_.clear();
  last_g_ = last_h_ = 0;
  known_.clear();
  phase_index_.clear();
  counter_index_.clear();
  label_index_.clear();
  ranges_.clear();
  last_space_ = kNoSpace;
  return out;
}

// ---------------------------------------------------------------------------------------------
// TraceCursor

TraceCursor::TraceCursor(const Trace& trace) : trace_(&trace) {
  if (trace.event_count_ > 0)
    bytes_per_event_ = std::max(1.0, double(trace.bytes_.size()) / double(trace.event_count_));
  restore(0);
}

NodeValues TraceCursor::values() const { return TraceReplay::values(state_); }

std::size_t TraceCursor::restore_from(std::size_t keyframe) const {
  const Trace& t = *trace_;
  const FrameState& s = state_;
  // Both states are of frames from min(now, key) on: nodes settled by then are the same in each.
  const auto since = std::uint32_t(std::min(s.frame_, t.keyframes_[keyframe].frame));
  const std::size_t held =
      std::min<std::size_t>(t.frames_[t.keyframes_[keyframe].frame].node_count, s.nodes_.size());
  const auto it = std::upper_bound(t.settled_.begin(),
                                   t.settled_.begin() + std::ptrdiff_t(held), since);
  return std::size_t(it - t.settled_.begin());
}

void TraceCursor::restore(std::size_t keyframe) {
  const Trace& t = *trace_;
  const Trace::Keyframe& k = t.keyframes_[keyframe];
  const Trace::Keyframe& last = t.final_;
  FrameState& s = state_;
  const std::size_t n = t.frames_[k.frame].node_count;
  // Node records keep their description unless the trace has described nodes: a node of a
  // dense space is its id and its space, set once when the record is made. Records before
  // `first` are the keyframe's already (restore_from): on a scrub, where both frames lie past
  // most of the search's settled nodes, that is most of them. A node the keyframe does not hold
  // changes no more after it: its values are its last ones.
  const std::size_t old = std::min(n, s.nodes_.size());
  const std::size_t first = restore_from(keyframe);
  const std::size_t kept = t.descs_.empty() ? old : 0;
  std::size_t j = std::size_t(std::lower_bound(k.index.begin(), k.index.end(), first) -
                              k.index.begin());
  auto desc = [&](std::size_t i, std::uint32_t di) {
    if (di != kNoNode) return t.descs_[di];
    NodeInfo d;
    d.id = t.node_ids_[i];
    d.space = t.node_spaces_[i];
    return d;
  };
  // The keyframe's entry for node i, or its last values (i ascending).
  auto values_of = [&](std::size_t i, NodeState& x, bool with_desc) {
    const bool in_key = j < k.index.size() && k.index[j] == i;
    const Trace::Keyframe& from = in_key ? k : last;
    const std::size_t at = in_key ? j++ : i;
    if (with_desc) x.desc = desc(i, from.desc.empty() ? kNoNode : from.desc[at]);
    x.g = from.g[at];
    x.h = from.h[at];
    x.parent = from.parent[at];
    x.status = from.status[at];
  };
  s.nodes_.resize(old);
  last_restored_ = n - first;
  for (std::size_t i = first; i < old; ++i) values_of(i, s.nodes_[i], i >= kept);
  // New records are written once, whole (resize() would write each a second time). The
  // capacity stays from earlier frames: push_back rarely allocates.
  for (std::size_t i = old; i < n; ++i) {
    NodeState x;
    values_of(i, x, true);
    s.nodes_.push_back(x);
  }
  s.open_ = k.open;
  // Positions are read only for open nodes (set_status), so the rest need not be reset: a
  // restore writes 4 bytes an open node here, not 4 MB at a million nodes.
  s.open_pos_.resize(n, kNoNode);
  for (std::size_t q = 0; q < s.open_.size(); ++q) s.open_pos_[s.open_[q]] = std::uint32_t(q);
  s.trace_ = trace_;
  s.frame_ = k.frame;
  s.phase_ = k.phase;
  s.current_ = k.current;
  s.path_ = k.path;
  s.shape_count_ = t.frames_[k.frame].shape_count;
  s.named_ = k.named;
  s.counters_ = k.counters;
  undo_.clear();
  undo_base_ = k.frame;
}

void TraceCursor::forward_to(std::size_t target, std::size_t log_from) {
  const Trace& t = *trace_;
  TraceReplay::grow(t, state_, t.frames_[target].node_count);
  if (log_from > state_.frame_) {
    undo_.clear();
    undo_base_ = log_from;
  }
  // Frames up to log_from need no undo entries: the fused replay.
  const std::size_t unlogged = std::min(target, std::max(log_from, state_.frame_));
  std::size_t n = TraceReplay::run(t, state_, state_.frame_, unlogged);
  EventReader r(t, unlogged, target);
  TraceEvent e;
  while (r.next(e, values())) {
    TraceReplay::apply<true>(t, state_, e, undo_, r.frame());
    ++n;
  }
  last_replayed_ += n;
  state_.shape_count_ = t.frames_[target].shape_count;
  state_.frame_ = target;
  trim_undo();
}

void TraceCursor::back_to(std::size_t target) {
  const Trace& t = *trace_;
  std::size_t n = 0;
  while (!undo_.empty() && undo_.back().frame > target) {
    TraceReplay::undo(state_, undo_.back());
    undo_.pop_back();
    ++n;
  }
  TraceReplay::shrink(state_, t.frames_[target].node_count);
  state_.shape_count_ = t.frames_[target].shape_count;
  state_.frame_ = target;
  last_replayed_ = n;
}

void TraceCursor::trim_undo() {
  if (undo_.size() <= kMaxUndo) return;
  // Forget the oldest frames so that at most half the budget remains: amortised O(1) an event.
  // The frame of the entry kMaxUndo / 2 from the end is kept whole.
  const std::size_t base = undo_[undo_.size() - kMaxUndo / 2].frame - 1;
  auto it = std::partition_point(undo_.begin(), undo_.end(),
                                 [base](const Undo& u) { return u.frame <= base; });
  undo_.erase(undo_.begin(), it);
  undo_base_ = base;
}

void TraceCursor::seek(std::size_t target) {
  seek(target, false);
}

TraceCursor::SeekPlan TraceCursor::plan_seek(std::size_t target, bool stepping_back) const {
  const Trace& t = *trace_;
  SeekPlan p;
  p.target = target = std::min(target, last_frame());
  const std::size_t now = state_.frame_;
  if (target == now) return p;

  // The last keyframe at or before the target.
  auto kit = std::upper_bound(t.keyframes_.begin(), t.keyframes_.end(), target,
                              [](std::size_t f, const Trace::Keyframe& k) { return f < k.frame; });
  p.key = std::size_t(kit - t.keyframes_.begin()) - 1;
  const std::size_t key_frame = t.keyframes_[p.key].frame;
  // Costs in stream bytes (events are a few bytes each).
  const auto at = [&](std::size_t k) { return double(t.frames_[k].byte_end); };
  // Where the undo log should start. A jump prepares a few frames; a step back that fell off the
  // log (the user is walking backwards) prepares half the log's budget, so the replay it pays
  // for is spread over many cheap steps.
  p.log_from = target > kUndoFramesAfterSeek ? target - kUndoFramesAfterSeek : 0;
  if (stepping_back) {
    const double from = at(target) - double(kMaxUndo / 2) * bytes_per_event_;
    auto it = std::lower_bound(
        t.frames_.begin() + std::ptrdiff_t(key_frame), t.frames_.begin() + std::ptrdiff_t(target),
        from, [](const Trace::FrameRec& f, double b) { return double(f.byte_end) < b; });
    p.log_from = std::size_t(it - t.frames_.begin());
  }
  p.log_from = std::max(p.log_from, key_frame);

  // Restoring a node costs about half what replaying an event does.
  const double restore_cost =
      double(t.frames_[key_frame].node_count - restore_from(p.key)) / 2 * bytes_per_event_ +
      at(target) - at(key_frame);
  if (target > now && (now >= key_frame || at(target) - at(now) <= restore_cost)) {
    p.how = SeekPlan::How::Forward;
    p.log_from = std::max(now, p.log_from);
    p.cost = at(target) - at(now);
    return p;
  }
  if (target < now && target >= undo_base_ && at(now) - at(target) <= restore_cost) {
    p.how = SeekPlan::How::Back;
    p.cost = at(now) - at(target);
    return p;
  }
  p.how = SeekPlan::How::Restore;
  p.cost = restore_cost;
  return p;
}

double TraceCursor::seek_cost(std::size_t frame) const {
  return plan_seek(frame, false).cost / bytes_per_event_;
}

void TraceCursor::seek(std::size_t target, bool stepping_back) {
  const SeekPlan p = plan_seek(target, stepping_back);
  last_replayed_ = last_restored_ = 0;
  switch (p.how) {
    case SeekPlan::How::Stay:
      return;
    case SeekPlan::How::Forward:
      forward_to(p.target, p.log_from);
      return;
    case SeekPlan::How::Back:
      back_to(p.target);
      return;
    case SeekPlan::How::Restore:
      restore(p.key);
      forward_to(p.target, p.log_from);
      return;
  }
}

bool TraceCursor::step_forward() {
  if (state_.frame_ >= last_frame()) return false;
  last_replayed_ = last_restored_ = 0;
  forward_to(state_.frame_ + 1, state_.frame_);
  return true;
}

bool TraceCursor::step_back() {
  if (state_.frame_ == 0) return false;
  seek(state_.frame_ - 1, true);
  return true;
}

}  // namespace pl

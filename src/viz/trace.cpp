#include "viz/trace.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
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
// Applying and undoing events: shared by keyframe construction and the cursor, so both can
// never disagree about what an event means.

struct TraceReplay {
  using Undo = TraceCursor::Undo;

  // Make room for the nodes and counters frame `fi` has seen; new nodes start Unseen.
  static void grow(const Trace& t, FrameState& s, const Trace::FrameInfo& fi) {
    const std::size_t old = s.nodes_.size();
    if (fi.node_count > old) {
      s.nodes_.resize(fi.node_count);
      s.open_pos_.resize(fi.node_count, kNoNode);
      for (std::size_t i = old; i < fi.node_count; ++i) {
        s.nodes_[i].desc.id = t.node_ids_[i];
        s.nodes_[i].desc.space = t.node_spaces_[i];
      }
    }
    if (fi.counter_count > s.named_.size()) s.named_.resize(fi.counter_count, 0.0);
  }

  static void shrink(FrameState& s, const Trace::FrameInfo& fi) {
    // The nodes cut off are Unseen again, so none of them is in the open index.
    s.nodes_.resize(fi.node_count);
    s.open_pos_.resize(fi.node_count);
    s.named_.resize(fi.counter_count);
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
      s.open_pos_[i] = kNoNode;
    }
    s.counters_.open = s.open_.size();
  }

  template <bool kLog>
  static void apply(const Trace& t, FrameState& s, const TraceEvent& e, std::vector<Undo>& log) {
    using K = TraceEvent::Kind;
    switch (e.kind) {
      case K::Phase:
        if constexpr (kLog) log.push_back(Undo{{}, 0, s.phase_});
        s.phase_ = e.a;
        break;
      case K::Open: {
        NodeState& n = s.nodes_[e.a];
        if constexpr (kLog) log.push_back(Undo{n, 0, 0});
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
        if constexpr (kLog) log.push_back(Undo{n, 0, 0});
        if (n.status == NodeStatus::Unseen) set_status(s, e.a, NodeStatus::Open);
        n.g = e.x;
        n.parent = e.b;
        ++s.counters_.relaxed;
        break;
      }
      case K::Close: {
        NodeState& n = s.nodes_[e.a];
        if constexpr (kLog) log.push_back(Undo{n, 0, s.current_});
        set_status(s, e.a, NodeStatus::Closed);
        s.current_ = e.a;
        ++s.counters_.expanded;
        break;
      }
      case K::Test:
        if constexpr (kLog) log.push_back(Undo{});
        ++(e.flag ? s.counters_.tests_passed : s.counters_.tests_failed);
        break;
      case K::Mark:
        if constexpr (kLog) log.push_back(Undo{});
        break;
      case K::Path:
        if constexpr (kLog) log.push_back(Undo{{}, 0, s.path_});
        s.path_ = e.a;
        break;
      case K::Counter:
        if constexpr (kLog) log.push_back(Undo{{}, s.named_[e.a], 0});
        s.named_[e.a] = e.x;
        break;
    }
  }

  static void undo(FrameState& s, const TraceEvent& e, const Undo& u) {
    using K = TraceEvent::Kind;
    switch (e.kind) {
      case K::Phase:
        s.phase_ = u.index;
        break;
      case K::Open:
      case K::Relax:
      case K::Close: {
        set_status(s, e.a, u.node.status);
        s.nodes_[e.a] = u.node;
        if (e.kind == K::Open) --s.counters_.generated;
        if (e.kind == K::Relax) --s.counters_.relaxed;
        if (e.kind == K::Close) {
          --s.counters_.expanded;
          s.current_ = u.index;
        }
        break;
      }
      case K::Test:
        --(e.flag ? s.counters_.tests_passed : s.counters_.tests_failed);
        break;
      case K::Mark:
        break;
      case K::Path:
        s.path_ = u.index;
        break;
      case K::Counter:
        s.named_[e.a] = u.value;
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
  for (const std::uint32_t id : trace_->cell_node_ids(x, y, heading))
    if (const NodeState* n = node_by_id(id); n && n->status != NodeStatus::Unseen) out.push_back(n);
  return out;
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
  frames_.push_back(FrameInfo{});
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

std::vector<std::uint32_t> Trace::cell_node_ids(int x, int y, int heading) const {
  std::vector<std::uint32_t> out;
  // An id counts only if the trace found its node in this very space: a node named before the
  // space was declared, or of a space declared later over the same ids, is not on the cell.
  auto add = [&](std::size_t space, std::uint32_t id) {
    const std::uint32_t index = index_of(id);
    if (index != kNoNode && node_spaces_[index] == space) out.push_back(id);
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

std::span<const TraceEvent> Trace::frame_events(std::size_t k) const {
  if (k == 0 || k >= frames_.size()) return {};
  return std::span<const TraceEvent>(events_).subspan(
      frames_[k - 1].event_end, frames_[k].event_end - frames_[k - 1].event_end);
}

std::size_t Trace::memory_bytes() const {
  std::size_t b = sizeof(*this);
  b += events_.capacity() * sizeof(TraceEvent);
  b += frames_.capacity() * sizeof(FrameInfo);
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
  b += phases_.capacity() * sizeof(PhaseMarker);
  for (const PhaseMarker& p : phases_) b += p.name.capacity();
  b += keyframes_.capacity() * sizeof(FrameState);
  for (const FrameState& k : keyframes_)
    b += k.nodes_.capacity() * sizeof(NodeState) + k.named_.capacity() * sizeof(double) +
         (k.open_.capacity() + k.open_pos_.capacity()) * sizeof(std::uint32_t);
  return b;
}

void Trace::finish() {
  if (events_.size() > frames_.back().event_end)
    frames_.push_back(FrameInfo{events_.size(), std::uint32_t(node_ids_.size()),
                                std::uint32_t(counter_names_.size()),
                                std::uint32_t(shapes_.size())});

  space_nodes_.fill(0);
  for (const std::uint8_t s : node_spaces_) ++space_nodes_[s];
  keyframes_.clear();
  keyframes_.emplace_back();
  max_replay_ = 0;
  FrameState s;
  s.trace_ = this;
  std::vector<TraceReplay::Undo> no_log;
  std::uint64_t since_key = 0;  // events since the last keyframe
  for (std::size_t k = 1; k < frames_.size(); ++k) {
    TraceReplay::grow(*this, s, frames_[k]);
    for (const TraceEvent& e : frame_events(k)) TraceReplay::apply<false>(*this, s, e, no_log);
    s.shape_count_ = frames_[k].shape_count;
    s.frame_ = k;
    since_key += frames_[k].event_end - frames_[k - 1].event_end;
    if (since_key >= keyframe_interval(frames_[k].node_count)) {
      keyframes_.push_back(s);
      since_key = 0;
    } else {
      max_replay_ = std::max<std::size_t>(max_replay_, since_key);
    }
  }
  // Recording over-allocates by up to 2x; a finished trace is read-only, so give it back.
  events_.shrink_to_fit();
  frames_.shrink_to_fit();
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
  b += t.events_.capacity() * sizeof(TraceEvent) + t.frames_.capacity() * sizeof(Trace::FrameInfo);
  b += t.descs_.capacity() * sizeof(NodeInfo);
  b += t.node_ids_.capacity() * sizeof(std::uint32_t) + t.node_spaces_.capacity();
  b += t.ids_.memory_bytes() + t.shapes_.capacity() * sizeof(ShapeRecord);
  b += t.paths_.capacity() * sizeof(std::vector<PathPiece>);
  b += known_.capacity() * sizeof(Known);
  // Keyframes: at most 1.75x the events' memory (the policy at the top of trace.hpp).
  return b + t.events_.size() * sizeof(TraceEvent) * 7 / 4;
}

void TraceRecorder::check_budget() {
  const std::size_t used = estimated_bytes();
  if (used > trace_.budget_) {
    stopped_ = true;
    trace_.truncated_ = true;
    return;
  }
  // An event adds 32 bytes, its keyframe share 56, and at most a node (24 + 8 + 8) or a small
  // shape (~100): check again after a quarter of what the rest of the budget could hold at 256
  // bytes an event, and at least every 4096 events.
  const std::size_t room = (trace_.budget_ - used) / (256 * 4);
  next_check_ = trace_.events_.size() + std::clamp<std::size_t>(room, 1, 4096);
}

std::uint32_t TraceRecorder::node_index(std::uint32_t id) {
  bool inserted = false;
  const auto next = std::uint32_t(trace_.node_ids_.size());
  const std::uint32_t i = trace_.ids_.insert(id, next, inserted);
  if (inserted) {
    const std::uint8_t space = find_space(id);
    trace_.node_ids_.push_back(id);
    trace_.node_spaces_.push_back(space);
    known_.push_back({kNoNode, space});
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

void TraceRecorder::phase(std::string_view name) {
  if (stopped_) return;
  const std::uint32_t i = name_index(phase_index_, trace_.phase_names_, name);
  trace_.phases_.push_back(Trace::PhaseMarker{std::string(name), trace_.frames_.size()});
  side_bytes_ += sizeof(Trace::PhaseMarker) + name.size();
  TraceEvent e;
  e.kind = TraceEvent::Kind::Phase;
  e.a = i;
  trace_.events_.push_back(e);
}

void TraceRecorder::open(const NodeDesc& node, std::uint32_t parent, double g, double h) {
  if (stopped_) return;
  const std::uint32_t i = node_index(node.id);
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
  push_open(i, parent, d, g, h);
}

void TraceRecorder::open_dense(std::uint32_t id, std::uint32_t parent, double g, double h) {
  if (stopped_) return;
  push_open(node_index(id), parent, kNoNode, g, h);  // no description: the node's space places it
}

void TraceRecorder::push_open(std::uint32_t i, std::uint32_t parent, std::uint32_t desc, double g,
                              double h) {
  TraceEvent e;
  e.kind = TraceEvent::Kind::Open;
  e.a = i;
  e.b = parent == kNoNode ? kNoNode : node_index(parent);
  e.c = desc;
  e.x = g;
  e.y = h;
  trace_.events_.push_back(e);
}

void TraceRecorder::relax(std::uint32_t node, std::uint32_t parent, double g) {
  if (stopped_) return;
  TraceEvent e;
  e.kind = TraceEvent::Kind::Relax;
  e.a = node_index(node);
  e.b = parent == kNoNode ? kNoNode : node_index(parent);
  e.x = g;
  trace_.events_.push_back(e);
}

void TraceRecorder::close(std::uint32_t node) {
  if (stopped_) return;
  TraceEvent e;
  e.kind = TraceEvent::Kind::Close;
  e.a = node_index(node);
  trace_.events_.push_back(e);
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
  TraceEvent e;
  e.kind = TraceEvent::Kind::Test;
  e.flag = ok ? 1 : 0;
  e.a = std::uint32_t(trace_.shapes_.size());
  push_shape(shape, ok ? Role::Accepted : Role::Rejected, true, ok);
  trace_.events_.push_back(e);
}

void TraceRecorder::mark(const Shape& shape, Role role) {
  if (stopped_) return;
  TraceEvent e;
  e.kind = TraceEvent::Kind::Mark;
  e.flag = std::uint8_t(role);
  e.a = std::uint32_t(trace_.shapes_.size());
  push_shape(shape, role, false, false);
  trace_.events_.push_back(e);
}

void TraceRecorder::path(std::span<const PathPiece> pieces) {
  if (stopped_) return;
  TraceEvent e;
  e.kind = TraceEvent::Kind::Path;
  e.a = std::uint32_t(trace_.paths_.size());
  trace_.paths_.emplace_back(pieces.begin(), pieces.end());
  side_bytes_ += pieces.size() * sizeof(PathPiece);
  trace_.events_.push_back(e);
}

void TraceRecorder::counter(std::string_view name, double value) {
  if (stopped_) return;
  TraceEvent e;
  e.kind = TraceEvent::Kind::Counter;
  e.a = name_index(counter_index_, trace_.counter_names_, name);
  e.x = value;
  trace_.events_.push_back(e);
}

void TraceRecorder::frame() {
  if (stopped_) return;
  trace_.frames_.push_back(Trace::FrameInfo{
      trace_.events_.size(), std::uint32_t(trace_.node_ids_.size()),
      std::uint32_t(trace_.counter_names_.size()), std::uint32_t(trace_.shapes_.size())});
  if (trace_.events_.size() >= next_check_) check_budget();
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
  restore(0);
}

void TraceCursor::restore(std::size_t keyframe) {
  state_ = trace_->keyframes_[keyframe];
  state_.trace_ = trace_;
  undo_.clear();
  undo_base_ = state_.frame_;
}

void TraceCursor::forward_to(std::size_t target, std::size_t log_from) {
  const Trace& t = *trace_;
  const auto ev = [&](std::size_t k) { return std::size_t(t.frames_[k].event_end); };
  TraceReplay::grow(t, state_, t.frames_[target]);
  const TraceEvent* events = t.events_.data();
  for (std::size_t i = ev(state_.frame_), end = ev(log_from); i < end; ++i)
    TraceReplay::apply<false>(t, state_, events[i], undo_);
  if (log_from > state_.frame_) {
    undo_.clear();
    undo_base_ = log_from;
  }
  for (std::size_t i = ev(log_from), end = ev(target); i < end; ++i)
    TraceReplay::apply<true>(t, state_, events[i], undo_);
  last_replayed_ += ev(target) - ev(state_.frame_);
  state_.shape_count_ = t.frames_[target].shape_count;
  state_.frame_ = target;
  trim_undo();
}

void TraceCursor::back_to(std::size_t target) {
  const Trace& t = *trace_;
  const std::size_t begin = t.frames_[target].event_end;
  const std::size_t end = t.frames_[state_.frame_].event_end;
  for (std::size_t i = end; i > begin; --i) {
    TraceReplay::undo(state_, t.events_[i - 1], undo_.back());
    undo_.pop_back();
  }
  TraceReplay::shrink(state_, t.frames_[target]);
  state_.shape_count_ = t.frames_[target].shape_count;
  state_.frame_ = target;
  last_replayed_ = end - begin;
}

void TraceCursor::trim_undo() {
  if (undo_.size() <= kMaxUndo) return;
  // Forget the oldest frames so that at most half the budget remains: amortised O(1) an event.
  const Trace& t = *trace_;
  const std::uint64_t now = t.frames_[state_.frame_].event_end;
  const std::uint64_t keep_from = now - kMaxUndo / 2;
  auto first = t.frames_.begin() + std::ptrdiff_t(undo_base_);
  auto last = t.frames_.begin() + std::ptrdiff_t(state_.frame_);
  auto it =
      std::lower_bound(first, last, keep_from,
                       [](const Trace::FrameInfo& f, std::uint64_t e) { return f.event_end < e; });
  const std::size_t base = std::size_t(it - t.frames_.begin());
  const std::size_t drop = t.frames_[base].event_end - t.frames_[undo_base_].event_end;
  undo_.erase(undo_.begin(), undo_.begin() + std::ptrdiff_t(drop));
  undo_base_ = base;
}

void TraceCursor::seek(std::size_t target) {
  seek(target, false);
}

void TraceCursor::seek(std::size_t target, bool stepping_back) {
  const Trace& t = *trace_;
  target = std::min(target, last_frame());
  const std::size_t now = state_.frame_;
  last_replayed_ = 0;
  if (target == now) return;

  // The last keyframe at or before the target.
  auto kit = std::upper_bound(t.keyframes_.begin(), t.keyframes_.end(), target,
                              [](std::size_t f, const FrameState& k) { return f < k.frame_; });
  const auto key = std::size_t(kit - t.keyframes_.begin()) - 1;
  const std::size_t key_frame = t.keyframes_[key].frame_;
  const auto ev = [&](std::size_t k) { return std::size_t(t.frames_[k].event_end); };
  // Where the undo log should start. A jump prepares a few frames; a step back that fell off the
  // log (the user is walking backwards) prepares half the log's budget, so the replay it pays
  // for is spread over many cheap steps.
  std::size_t log_from = target > kUndoFramesAfterSeek ? target - kUndoFramesAfterSeek : 0;
  if (stepping_back) {
    const std::uint64_t from = ev(target) > kMaxUndo / 2 ? ev(target) - kMaxUndo / 2 : 0;
    auto it = std::lower_bound(
        t.frames_.begin() + std::ptrdiff_t(key_frame), t.frames_.begin() + std::ptrdiff_t(target),
        from, [](const Trace::FrameInfo& f, std::uint64_t e) { return f.event_end < e; });
    log_from = std::size_t(it - t.frames_.begin());
  }
  log_from = std::max(log_from, key_frame);

  if (target > now && now >= key_frame) {
    forward_to(target, std::max(now, log_from));
    return;
  }
  // Copying a snapshot node costs about half what replaying an event does.
  const std::size_t restore_cost = t.keyframes_[key].nodes_.size() / 2 + ev(target) - ev(key_frame);
  if (target < now && target >= undo_base_ && ev(now) - ev(target) <= restore_cost) {
    back_to(target);
    return;
  }
  restore(key);
  forward_to(target, log_from);
}

bool TraceCursor::step_forward() {
  if (state_.frame_ >= last_frame()) return false;
  last_replayed_ = 0;
  forward_to(state_.frame_ + 1, state_.frame_);
  return true;
}

bool TraceCursor::step_back() {
  if (state_.frame_ == 0) return false;
  seek(state_.frame_ - 1, true);
  return true;
}

}  // namespace pl

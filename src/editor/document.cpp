#include "editor/document.hpp"

#include <limits>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace pl::editor {

namespace {

struct CellChange {
  std::uint32_t index;
  TerrainId value;  // the other state's terrain (before, until undone)
};

// A run of cell edits. Compacted (one entry per cell, net changes only) when the run closes.
struct CellsOp {
  std::vector<CellChange> changes;
  bool closed = false;
};

// The other state's cells, for steps that touched so many cells that a diff would be larger.
struct CellsSnapshotOp {
  std::vector<TerrainId> cells;
};

// Maps and palettes live behind pointers: a Palette holds a 512-byte symbol index, and every
// op (even a one-cell edit) is as large as the largest alternative of the variant.
struct MapOp {
  std::unique_ptr<GridMap> map;
  std::optional<std::string> map_file;
};

struct PaletteOp {
  std::unique_ptr<Palette> palette;
};

enum class ListKind { Set, Insert, Erase };

template <class T>
struct ListOp {
  ListKind kind;
  std::size_t index;
  T value;
};

template <class T>
struct ListSwapOp {
  std::vector<T> values;
};

using AnyOp = std::variant<CellsOp, CellsSnapshotOp, MapOp, PaletteOp, ListOp<Circle>,
                           ListOp<Agent>, ListSwapOp<Circle>, ListSwapOp<Agent>>;

// Applying an element op turns it into its own inverse: Set swaps, Insert becomes Erase.
template <class T>
void apply_list(std::vector<T>& list, ListOp<T>& op) {
  switch (op.kind) {
    case ListKind::Set:
      std::swap(list.at(op.index), op.value);
      break;
    case ListKind::Insert:
      list.insert(list.begin() + std::ptrdiff_t(op.index), std::move(op.value));
      op.value = T{};
      op.kind = ListKind::Erase;
      break;
    case ListKind::Erase:
      op.value = std::move(list.at(op.index));
      list.erase(list.begin() + std::ptrdiff_t(op.index));
      op.kind = ListKind::Insert;
      break;
  }
}

std::size_t bytes_of(const Agent& a) {
  return sizeof(Agent) + a.name.capacity();
}
std::size_t bytes_of(const Circle&) {
  return sizeof(Circle);
}

std::size_t bytes_of(const Palette& p) {
  std::size_t n = sizeof(Palette);
  for (const Terrain& t : p.terrains())
    n += sizeof(Terrain) + t.name.capacity() + t.aliases.capacity();
  return n;
}

}  // namespace

struct Document::Op {
  AnyOp v;
};
static_assert(sizeof(Document::Op) <= 160, "keep one-cell steps small");

struct Document::StepRecord {
  std::string label;
  std::vector<Op> ops;
  std::uint64_t before = 0, after = 0;  // history states on either side
  std::size_t bytes = 0;
  bool saved_inside = false;  // mark_saved() ran while this step was open
};

namespace {

using Op = Document::Op;

void apply(Op& op, Scene& s) {
  std::visit(
      [&](auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, CellsOp>) {
          // Entries are unique per cell after compaction, so order does not matter.
          for (CellChange& c : o.changes) {
            const int x = int(c.index % std::uint32_t(s.map.width()));
            const int y = int(c.index / std::uint32_t(s.map.width()));
            const TerrainId cur = s.map.at(x, y);
            s.map.set(x, y, c.value);
            c.value = cur;
          }
        } else if constexpr (std::is_same_v<T, CellsSnapshotOp>) {
          std::vector<TerrainId> cur = s.map.cells();
          s.map.assign(std::move(o.cells));
          o.cells = std::move(cur);
        } else if constexpr (std::is_same_v<T, MapOp>) {
          GridMap cur = std::move(s.map);
          s.map = std::move(*o.map);
          *o.map = std::move(cur);
          std::swap(s.map_file, o.map_file);
        } else if constexpr (std::is_same_v<T, PaletteOp>) {
          Palette cur = s.map.palette();
          s.map.set_palette(std::move(*o.palette));
          *o.palette = std::move(cur);
        } else if constexpr (std::is_same_v<T, ListOp<Circle>>) {
          apply_list(s.circles, o);
        } else if constexpr (std::is_same_v<T, ListOp<Agent>>) {
          apply_list(s.agents, o);
        } else if constexpr (std::is_same_v<T, ListSwapOp<Circle>>) {
          std::swap(s.circles, o.values);
        } else if constexpr (std::is_same_v<T, ListSwapOp<Agent>>) {
          std::swap(s.agents, o.values);
        }
      },
      op.v);
}

std::size_t payload_bytes(const CellsOp& o) {
  return o.changes.capacity() * sizeof(CellChange);
}
std::size_t payload_bytes(const CellsSnapshotOp& o) {
  return o.cells.capacity();
}
std::size_t payload_bytes(const MapOp& o) {
  return sizeof(GridMap) + o.map->cells().capacity() + bytes_of(o.map->palette()) +
         (o.map_file ? o.map_file->capacity() : 0);
}
std::size_t payload_bytes(const PaletteOp& o) {
  return bytes_of(*o.palette);
}
template <class T>
std::size_t payload_bytes(const ListOp<T>& o) {
  return bytes_of(o.value);
}
template <class T>
std::size_t payload_bytes(const ListSwapOp<T>& o) {
  std::size_t n = 0;
  for (const T& v : o.values) n += bytes_of(v);
  return n;
}

std::size_t bytes_of(const Op& op) {
  return sizeof(Op) + std::visit([](const auto& o) { return payload_bytes(o); }, op.v);
}

// Turns a run of recorded cell edits into its net inverse: the oldest "before" of each cell,
// minus cells that ended where they started. Must run while the map is exactly in the state
// right after the run (that is, before any later op of the step changes it). Returns false
// when nothing is left. A run larger than the map itself becomes a snapshot of the old cells.
bool close_cells(Op& op, const GridMap& map) {
  auto* run = std::get_if<CellsOp>(&op.v);
  if (!run || run->closed) return true;
  run->closed = true;
  auto& ch = run->changes;
  std::stable_sort(ch.begin(), ch.end(),
                   [](const CellChange& a, const CellChange& b) { return a.index < b.index; });
  // unique keeps the first of equal elements: the oldest "before".
  ch.erase(std::unique(ch.begin(), ch.end(),
                       [](const CellChange& a, const CellChange& b) { return a.index == b.index; }),
           ch.end());
  const auto& cells = map.cells();
  std::erase_if(ch, [&](const CellChange& c) { return cells[c.index] == c.value; });
  if (ch.empty()) return false;
  if (ch.size() * sizeof(CellChange) > cells.size()) {
    std::vector<TerrainId> before = cells;
    for (const CellChange& c : ch) before[c.index] = c.value;
    op.v = CellsSnapshotOp{std::move(before)};
  } else {
    ch.shrink_to_fit();
  }
  return true;
}

}  // namespace

Document::Document(Scene scene) : scene_(std::move(scene)) {}
Document::~Document() = default;
Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;

void Document::reset(Scene scene) {
  scene_ = std::move(scene);
  depth_ = 0;
  pending_.reset();
  undo_.clear();
  redo_.clear();
  history_bytes_ = 0;
  state_ = saved_state_ = next_state_++;
  settings_dirty_ = false;
  changed();
}

void Document::mark_unsaved() {
  // No state ever takes this number, so no undo or redo returns to "saved".
  saved_state_ = std::numeric_limits<std::uint64_t>::max();
}

void Document::mark_saved() {
  if (pending_ && !pending_->ops.empty())
    pending_->saved_inside = true;  // the saved state is the one this step will commit
  else
    saved_state_ = state_;
  settings_dirty_ = false;
}

// ---- Steps

Document::StepRecord& Document::pending() {
  if (!pending_) pending_ = std::make_unique<StepRecord>();
  return *pending_;
}

void Document::begin_step(const std::string& label) {
  if (depth_ == 0) pending().label = label;
  ++depth_;
}

void Document::end_step() {
  if (depth_ == 0) return;
  if (--depth_ == 0) commit();
}

void Document::close_last_cells() {
  if (pending_ && !pending_->ops.empty() && !close_cells(pending_->ops.back(), scene_.map))
    pending_->ops.pop_back();
}

template <class T>
void Document::push(T&& op) {
  StepRecord& st = pending();
  // Built in place: moving a whole variant here trips GCC 12's -Wmaybe-uninitialized.
  st.ops.emplace_back();
  st.ops.back().v.template emplace<std::decay_t<T>>(std::forward<T>(op));
  if (depth_ == 0) commit();
}

template <class T>
void Document::record(T&& op) {
  // A run of cell edits stays one op until something else happens; close it first.
  close_last_cells();
  push(std::forward<T>(op));
}

void Document::commit() {
  depth_ = 0;
  if (!pending_) return;
  std::unique_ptr<StepRecord> st = std::move(pending_);
  if (!st->ops.empty() && !close_cells(st->ops.back(), scene_.map)) st->ops.pop_back();
  if (st->ops.empty()) {
    // The cells went back to where they were: no step. The version already moved on, which
    // only costs a view a needless re-run.
    if (st->saved_inside) saved_state_ = state_;
    return;
  }
  st->before = state_;
  st->after = state_ = next_state_++;
  if (st->saved_inside) saved_state_ = state_;
  st->ops.shrink_to_fit();
  st->bytes = sizeof(StepRecord) + st->label.capacity();
  for (const Op& op : st->ops) st->bytes += bytes_of(op);
  for (auto& r : redo_) history_bytes_ -= r->bytes;
  redo_.clear();
  history_bytes_ += st->bytes;
  undo_.push_back(std::move(st));
  trim();
}

void Document::trim() {
  // Oldest first; erasing at the front of a vector of pointers is cheap at these sizes.
  std::size_t drop = 0;
  while (history_bytes_ > memory_limit_ && undo_.size() - drop > 1) {
    history_bytes_ -= undo_[drop]->bytes;
    ++drop;
  }
  undo_.erase(undo_.begin(), undo_.begin() + std::ptrdiff_t(drop));
}

void Document::set_memory_limit(std::size_t bytes) {
  memory_limit_ = bytes;
  trim();
}

std::size_t Document::memory_used() const {
  return history_bytes_;
}

// ---- Recorded edits

bool Document::set_cell(int x, int y, TerrainId t) {
  if (!scene_.map.in_bounds(x, y)) return false;
  const TerrainId old = scene_.map.at(x, y);
  if (old == t) return false;
  if (t >= scene_.map.palette().size()) throw std::out_of_range("set_cell: terrain not in palette");
  StepRecord& st = pending();
  const CellChange c{std::uint32_t(scene_.map.index(x, y)), old};
  auto* run = st.ops.empty() ? nullptr : std::get_if<CellsOp>(&st.ops.back().v);
  if (run && !run->closed) {
    run->changes.push_back(c);
    scene_.map.set(x, y, t);
    changed();
    if (depth_ == 0) commit();
    return true;
  }
  // The previous op is not an open cell run (that case appended above), so record() closing it
  // is unaffected by this cell having changed already.
  scene_.map.set(x, y, t);
  changed();
  record(CellsOp{{c}, false});
  return true;
}

void Document::replace_map(GridMap map, std::optional<std::string> map_file) {
  if (map.same_content(scene_.map) && map_file == scene_.map_file) return;
  // A pending cell run must be closed against the map it was recorded on, before it goes.
  close_last_cells();
  MapOp op{std::make_unique<GridMap>(std::move(scene_.map)), std::move(scene_.map_file)};
  scene_.map = std::move(map);
  scene_.map_file = std::move(map_file);
  changed();
  push(std::move(op));
}

void Document::set_palette(Palette palette) {
  Palette old = scene_.map.palette();
  if (old == palette) return;
  scene_.map.set_palette(std::move(palette));  // throws before changing anything
  changed();
  record(PaletteOp{std::make_unique<Palette>(
      std::move(old))});  // a palette change leaves the cells a run closes on
}

namespace {

// True when the step's last op already holds the oldest value of list element `i`, so a
// further Set of it (a drag) needs no new record.
template <class T>
bool merges_with_last(const std::vector<Document::Op>& ops, std::size_t i) {
  if (ops.empty()) return false;
  const auto* last = std::get_if<ListOp<T>>(&ops.back().v);
  return last && last->kind == ListKind::Set && last->index == i;
}

}  // namespace

template <class T>
void Document::set_item(std::vector<T>& list, std::size_t i, const T& value) {
  T& cur = list.at(i);
  if (cur == value) return;
  if (pending_ && merges_with_last<T>(pending_->ops, i)) {
    cur = value;
    changed();
    return;
  }
  ListOp<T> op{ListKind::Set, i, cur};
  cur = value;
  changed();
  record(std::move(op));
}

template <class T>
void Document::insert_item(std::vector<T>& list, std::size_t i, const T& value, const char* what) {
  if (i > list.size()) throw std::out_of_range(std::string(what) + ": index");
  list.insert(list.begin() + std::ptrdiff_t(i), value);
  changed();
  record(ListOp<T>{ListKind::Erase, i, {}});
}

template <class T>
void Document::erase_item(std::vector<T>& list, std::size_t i) {
  T old = list.at(i);
  list.erase(list.begin() + std::ptrdiff_t(i));
  changed();
  record(ListOp<T>{ListKind::Insert, i, std::move(old)});
}

template <class T>
void Document::replace_items(std::vector<T>& list, std::vector<T> items) {
  if (items == list) return;
  std::swap(list, items);
  changed();
  record(ListSwapOp<T>{std::move(items)});
}

void Document::set_circle(std::size_t i, const Circle& c) { set_item(scene_.circles, i, c); }
void Document::insert_circle(std::size_t i, const Circle& c) {
  insert_item(scene_.circles, i, c, "insert_circle");
}
void Document::erase_circle(std::size_t i) { erase_item(scene_.circles, i); }
void Document::replace_circles(std::vector<Circle> circles) {
  replace_items(scene_.circles, std::move(circles));
}

void Document::set_agent(std::size_t i, const Agent& a) { set_item(scene_.agents, i, a); }
void Document::insert_agent(std::size_t i, const Agent& a) {
  insert_item(scene_.agents, i, a, "insert_agent");
}
void Document::erase_agent(std::size_t i) { erase_item(scene_.agents, i); }

void Document::set_views(std::vector<ViewSetup> views) {
  if (views == scene_.views) return;
  scene_.views = std::move(views);
  settings_dirty_ = true;
}

// ---- Undo / redo

bool Document::can_undo() const {
  return !undo_.empty() || (pending_ && !pending_->ops.empty());
}
bool Document::can_redo() const {
  return !redo_.empty() && !(pending_ && !pending_->ops.empty());
}

bool Document::undo() {
  commit();
  if (undo_.empty()) return false;
  std::unique_ptr<StepRecord> st = std::move(undo_.back());
  undo_.pop_back();
  for (auto it = st->ops.rbegin(); it != st->ops.rend(); ++it) apply(*it, scene_);
  state_ = st->before;
  changed();
  redo_.push_back(std::move(st));
  return true;
}

bool Document::redo() {
  commit();
  if (redo_.empty()) return false;
  std::unique_ptr<StepRecord> st = std::move(redo_.back());
  redo_.pop_back();
  for (Op& op : st->ops) apply(op, scene_);
  state_ = st->after;
  changed();
  undo_.push_back(std::move(st));
  return true;
}

std::size_t Document::undo_count() const {
  return undo_.size() + (pending_ && !pending_->ops.empty() ? 1 : 0);
}
std::size_t Document::redo_count() const {
  return can_redo() ? redo_.size() : 0;
}

std::string Document::undo_label() const {
  if (pending_ && !pending_->ops.empty()) return pending_->label;
  return undo_.empty() ? std::string() : undo_.back()->label;
}

std::string Document::redo_label() const {
  return can_redo() ? redo_.back()->label : std::string();
}

bool same_edit_content(const Scene& a, const Scene& b) {
  return a.map.same_content(b.map) && a.map_file == b.map_file && a.circles == b.circles &&
         a.agents == b.agents;
}

}  // namespace pl::editor

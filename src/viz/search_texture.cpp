#include "viz/search_texture.hpp"

#include <algorithm>
#include <cmath>

namespace pl {

SearchTexture::Dirty SearchTexture::rebuild(const FrameState& state) {
  const Trace& t = state.trace();
  trace_ = &t;
  if (img_.width == width_ && img_.height == height_)
    std::fill(img_.pixels.begin(), img_.pixels.end(), std::uint8_t(0));  // no new 4 MB to fault in
  else
    img_ = Image(width_, height_);
  find_spaces(t);
  const CellIndexer cell(t, width_, height_);
  const auto nodes = state.nodes();
  status_.resize(nodes.size());
  open_nodes_ = closed_nodes_ = 0;
  // One pass in node order, the order search_image paints in.
  const bool paint = cell.any() && (open_ || closed_);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const NodeState& n = nodes[i];
    status_[i] = n.status;
    if (n.status == NodeStatus::Unseen) continue;
    const std::int64_t c = cell(n.desc);
    if (c < 0) continue;
    const bool is_open = n.status == NodeStatus::Open, is_closed = !is_open;
    (is_open ? open_nodes_ : closed_nodes_) += 1;
    if (!paint || (!(is_open && open_) && !(is_closed && closed_))) continue;
    const auto ci = std::size_t(c);
    if (!cell.shared(n.desc))
      img_.set_index(ci, is_open ? open_c_ : closed_c_);
    else if (is_closed)
      img_.set_index(ci, closed_tint_);
    else if (!(img_.at_index(ci) == closed_tint_))
      img_.set_index(ci, open_tint_);
  }
  valid_ = true;
  frame_ = state.frame();
  if (stamped_) resolve_bucket();  // the texels stay; the frame's bucket is decided anew
  last_changed_ = nodes.size();
  Dirty d{0, 0, width_, height_, true};
  return d;
}

void SearchTexture::find_spaces(const Trace& t) {
  spaces_.clear();
  const auto spaces = t.spaces();
  for (std::size_t i = 0; i < spaces.size() && i < kMaxSpaces; ++i) {
    const NodeSpace& s = spaces[i];
    if (s.width != width_ || s.height != height_) continue;
    if (s.kind == NodeSpace::Kind::Cells) spaces_.push_back({s.base, 1, std::uint8_t(i)});
    if (s.kind == NodeSpace::Kind::CellHeadings && s.headings > 0)
      spaces_.push_back({s.base, std::uint32_t(s.headings), std::uint8_t(i)});
  }
  simple_ = spaces_.size() == 1 && spaces_[0].per_cell == 1;
}

bool SearchTexture::prepare(const Trace& t, std::uint64_t generation, int width, int height) {
  valid_ = stamped_ = logged_ = prepared_ = false;
  trace_ = &t;
  generation_ = generation;
  width_ = width;
  height_ = height;
  find_spaces(t);
  if (!simple_) return false;
  build_log(t);
  logged_ = false;  // the log goes: the stamps say everything it would
  prepared_ = log_first_.size() == t.frame_count() && build_stamps(t);
  if (prepared_) build_texels(t);
  log_ = {};
  log_first_ = {};
  return prepared_;
}

void SearchTexture::paint(std::size_t ci) {
  // The nodes standing on the cell, in node order, painted by search_image's rule.
  scratch_.clear();
  const Trace& t = *trace_;
  for (const CellSpace& s : spaces_) {
    for (std::uint32_t k = 0; k < s.per_cell; ++k) {
      const std::uint32_t index = t.index_of(s.base + std::uint32_t(ci) * s.per_cell + k);
      if (index != kNoNode && index < status_.size() && t.node_space(index) == s.space)
        scratch_.push_back(index);
    }
  }
  std::sort(scratch_.begin(), scratch_.end());
  Rgba c{0, 0, 0, 0};
  for (const std::uint32_t index : scratch_) {
    const NodeStatus st = status_[index];
    const bool is_open = st == NodeStatus::Open, is_closed = st == NodeStatus::Closed;
    if (!(is_open && open_) && !(is_closed && closed_)) continue;
    const bool shared =
        std::find_if(spaces_.begin(), spaces_.end(), [&](const CellSpace& s) {
          return s.space == t.node_space(index);
        })->per_cell > 1;
    if (!shared)
      c = is_open ? open_c_ : closed_c_;
    else if (is_closed)
      c = closed_tint_;
    else if (!(c == closed_tint_))
      c = open_tint_;
  }
  img_.set_index(ci, c);
}

SearchTexture::Dirty SearchTexture::update(const FrameState& state, std::uint64_t generation,
                                           int width, int height, const Style& style, bool open,
                                           bool closed) {
  const Rgba open_c = style.colour(Role::Open), closed_c = style.colour(Role::Closed);
  touched_.clear();
  const bool same_trace =
      generation == generation_ && &state.trace() == trace_ && width == width_ && height == height_;
  if (!same_trace || (stamped_ && !allow_stamps_)) {
    logged_ = false;  // the log is of one trace, its cells of one map size
    if (!same_trace) prepared_ = false;
    if (stamped_) valid_ = false;  // the image was dropped
    stamped_ = false;
  }
  if (stamped_ && valid_) {
    // Every frame is in the stamps, and the options and colours are the renderer's uniforms.
    open_ = open;
    closed_ = closed;
    open_c_ = open_c;
    closed_c_ = closed_c;
    last_changed_ = 0;
    if (state.frame() == frame_) return {};
    frame_ = state.frame();
    open_nodes_ = open_count_[frame_];
    closed_nodes_ = closed_count_[frame_];
    resolve_bucket();
    return {};
  }
  if (!valid_ || generation != generation_ || &state.trace() != trace_ || width != width_ ||
      height != height_ || open != open_ || closed != closed_ || !(open_c == open_c_) ||
      !(closed_c == closed_c_)) {
    generation_ = generation;
    width_ = width;
    height_ = height;
    open_ = open;
    closed_ = closed;
    open_c_ = open_c;
    closed_c_ = closed_c;
    open_tint_ = heading_cell_tint(open_c);
    closed_tint_ = heading_cell_tint(closed_c);
    return rebuild(state);
  }
  last_changed_ = 0;
  if (state.frame() == frame_) return {};
  const Trace& t = *trace_;
  if (!logged_) {
    const bool ready = prepared_ && allow_stamps_ && simple_;
    if (!ready) build_log(t);
    prepared_ = false;
    if (ready ||
        (allow_stamps_ && simple_ && log_first_.size() == t.frame_count() && build_stamps(t))) {
      // The log and the image are not needed any more: every frame is in the stamps.
      if (!ready) build_texels(t);
      stamped_ = true;
      log_ = {};
      log_first_ = {};
      img_ = Image{};
      frame_ = state.frame();
      open_nodes_ = open_count_[frame_];
      closed_nodes_ = closed_count_[frame_];
      resolve_bucket();  // the full upload carries them; touched_ too, for prepared texels
      return {0, 0, width_, height_, true};
    }
  }
  if (log_first_.size() != t.frame_count()) return rebuild(state);  // no log: too large
  const std::size_t from = frame_, to = state.frame();
  if (status_.size() < t.node_count()) status_.resize(t.node_count(), NodeStatus::Unseen);
  const CellIndexer cell(t, width_, height_);
  Dirty d{width_, height_, 0, 0, false};
  const bool forward = to > from;
  const std::size_t j0 = log_first_[std::min(from, to)], j1 = log_first_[std::max(from, to)];
  // A change is a random access into the image and the node tables (about 10 ns), a rebuild a
  // sequential pass over the frame's nodes (about 2 ns a node): a long jump rebuilds.
  if (j1 - j0 > state.nodes().size() / 16 + 1024) return rebuild(state);
  frame_ = to;
  for (std::size_t n = j0; n < j1; ++n) {
    // Forward in log order, each change to its after-status; back in reverse, to its before.
    const std::uint32_t entry = log_[forward ? n : j1 - 1 - (n - j0)];
    const std::uint32_t i = entry & 0x0FFFFFFFu;
    const auto was = NodeStatus(forward ? (entry >> 28) & 3 : entry >> 30);
    const auto now = NodeStatus(forward ? entry >> 30 : (entry >> 28) & 3);
    status_[i] = now;
    if (was != NodeStatus::Unseen) (was == NodeStatus::Open ? open_nodes_ : closed_nodes_) -= 1;
    if (now != NodeStatus::Unseen) (now == NodeStatus::Open ? open_nodes_ : closed_nodes_) += 1;
    ++last_changed_;
    if (!(open_ || closed_)) continue;
    NodeInfo info;
    info.id = t.node_id(i);
    info.space = t.node_space(i);
    const auto ci = std::size_t(cell(info));  // logged nodes stand on cells
    if (simple_) {
      const bool is_open = now == NodeStatus::Open, is_closed = now == NodeStatus::Closed;
      img_.set_index(ci, is_open && open_     ? open_c_
                         : is_closed && closed_ ? closed_c_
                                                : Rgba{0, 0, 0, 0});
    } else {
      paint(ci);
    }
    const int x = int(ci % std::size_t(width_)), y = int(ci / std::size_t(width_));
    d.x0 = std::min(d.x0, x);
    d.y0 = std::min(d.y0, y);
    d.x1 = std::max(d.x1, x + 1);
    d.y1 = std::max(d.y1, y + 1);
  }
  if (d.empty()) return {};
  return d;
}

void SearchTexture::build_log(const Trace& t) {
  logged_ = true;
  log_.clear();
  log_first_.clear();
  if (t.node_count() >= (std::size_t(1) << 28) || t.event_count() >= (std::size_t(1) << 32))
    return;  // rebuilt on every move instead
  const CellIndexer cell(t, width_, height_);
  std::vector<NodeStatus> status(t.node_count(), NodeStatus::Unseen);
  std::vector<char> on_cell(t.node_count(), 0);
  for (std::uint32_t i = 0; i < t.node_count(); ++i) {
    NodeInfo info;
    info.id = t.node_id(i);
    info.space = t.node_space(i);
    on_cell[i] = cell(info) >= 0;
  }
  log_first_.reserve(t.frame_count());
  log_first_.push_back(0);
  for (std::size_t k = 1; k < t.frame_count(); ++k) {
    for (const TraceEvent& e : t.frame_events(k)) {
      NodeStatus to;
      switch (e.kind) {
        case TraceEvent::Kind::Open:
          to = NodeStatus::Open;
          break;
        case TraceEvent::Kind::Relax:
          if (status[e.a] != NodeStatus::Unseen) continue;
          to = NodeStatus::Open;
          break;
        case TraceEvent::Kind::Close:
          to = NodeStatus::Closed;
          break;
        default:
          continue;
      }
      const NodeStatus from = status[e.a];
      if (from == to || !on_cell[e.a]) continue;
      status[e.a] = to;
      log_.push_back(e.a | std::uint32_t(from) << 28 | std::uint32_t(to) << 30);
    }
    log_first_.push_back(std::uint32_t(log_.size()));
  }
  log_.shrink_to_fit();
}

bool SearchTexture::build_stamps(const Trace& t) {
  const CellIndexer cell(t, width_, height_);
  stamps_.assign(2 * std::size_t(width_) * std::size_t(height_), kNever);
  open_count_.assign(t.frame_count(), 0);
  closed_count_.assign(t.frame_count(), 0);
  std::uint32_t open = 0, closed = 0;
  for (std::size_t k = 1; k < t.frame_count(); ++k) {
    for (std::size_t n = log_first_[k - 1]; n < log_first_[k]; ++n) {
      const std::uint32_t entry = log_[n];
      NodeInfo info;
      info.id = t.node_id(entry & 0x0FFFFFFFu);
      info.space = t.node_space(entry & 0x0FFFFFFFu);
      const auto ci = std::size_t(cell(info));  // logged nodes stand on cells
      const auto from = NodeStatus((entry >> 28) & 3), to = NodeStatus(entry >> 30);
      const auto f = std::uint32_t(k);
      if (from == NodeStatus::Unseen && to == NodeStatus::Open) {
        stamps_[2 * ci] = f;
        ++open;
      } else if (from == NodeStatus::Unseen && to == NodeStatus::Closed) {
        stamps_[2 * ci] = stamps_[2 * ci + 1] = f;
        ++closed;
      } else if (from == NodeStatus::Open && to == NodeStatus::Closed) {
        stamps_[2 * ci + 1] = f;
        --open;
        ++closed;
      } else {  // a reopened node: two numbers cannot say when it was what
        stamps_ = {};
        open_count_ = {};
        closed_count_ = {};
        return false;
      }
    }
    open_count_[k] = open;
    closed_count_[k] = closed;
  }
  return true;
}

void SearchTexture::build_texels(const Trace& t) {
  // The narrowest buckets whose indices, and the one past the last, stay below kNeverTexel.
  const std::uint32_t limit = (std::uint32_t(1) << texel_bits_) - 2;
  const std::size_t last = t.frame_count() > 0 ? t.frame_count() - 1 : 0;
  shift_ = 0;
  while ((last >> shift_) + 1 > limit) ++shift_;
  const std::size_t buckets = (last >> shift_) + 1;
  texels_.resize(stamps_.size());
  bucket_first_.assign(buckets + 1, 0);
  // A cell goes to the bucket of each stamp it has, once if both share one: counted, then placed
  // in cell order (so each bucket's cells are in increasing order).
  auto each_bucket = [&](std::size_t ci, auto&& visit) {
    const std::uint32_t o = stamps_[2 * ci], c = stamps_[2 * ci + 1];
    if (o != kNever) visit(o >> shift_);
    if (c != kNever && (o == kNever || (c >> shift_) != (o >> shift_))) visit(c >> shift_);
  };
  const std::size_t cells = stamps_.size() / 2;
  // Each tile's first and last stamp, in the same pass.
  const std::size_t w = std::size_t(std::max(width_, 0));
  tiles_x_ = int((w + kTile - 1) / kTile);
  tiles_y_ = w > 0 ? int((cells / w + kTile - 1) / kTile) : 0;
  tile_stamps_.assign(2 * std::size_t(tiles_x_) * std::size_t(tiles_y_), 0);
  for (std::size_t i = 0; i < tile_stamps_.size(); i += 2) tile_stamps_[i] = kNever;
  for (std::size_t ci = 0; ci < cells; ++ci) {
    const std::size_t tile = (ci / w / kTile) * std::size_t(tiles_x_) + ci % w / kTile;
    for (int j = 0; j < 2; ++j) {
      const std::uint32_t v = stamps_[2 * ci + std::size_t(j)];
      texels_[2 * ci + std::size_t(j)] = v == kNever ? kNeverTexel : std::uint16_t(v >> shift_);
      if (v == kNever) continue;
      tile_stamps_[2 * tile] = std::min(tile_stamps_[2 * tile], v);
      tile_stamps_[2 * tile + 1] = std::max(tile_stamps_[2 * tile + 1], v);
    }
    each_bucket(ci, [&](std::uint32_t b) { ++bucket_first_[b + 1]; });
  }
  for (std::size_t b = 0; b < buckets; ++b) bucket_first_[b + 1] += bucket_first_[b];
  bucket_cells_.resize(bucket_first_[buckets]);
  std::vector<std::uint32_t> next(bucket_first_.begin(), bucket_first_.end() - 1);
  for (std::size_t ci = 0; ci < cells; ++ci)
    each_bucket(ci, [&](std::uint32_t b) { bucket_cells_[next[b]++] = std::uint32_t(ci); });
}

void SearchTexture::resolve_bucket() {
  // A stamp s in bucket b = s >> shift_ is passed at frame f when f >= s. Its texel becomes b
  // when it is (f >= s implies the bucket of f is b or later) and b + 1 when not: compared with
  // f's bucket, b says "passed" for b and every later bucket, b + 1 "not yet" for b and every
  // earlier one, so the texel is right for every bucket, and only bucket b's depend on f.
  const auto f = std::uint32_t(frame_);
  const std::uint32_t b = f >> shift_;
  if (b + 1 >= bucket_first_.size()) return;
  for (std::uint32_t k = bucket_first_[b]; k < bucket_first_[b + 1]; ++k) {
    const std::uint32_t ci = bucket_cells_[k];
    bool changed = false;
    for (std::size_t j = 2 * std::size_t(ci); j < 2 * std::size_t(ci) + 2; ++j) {
      const std::uint32_t s = stamps_[j];
      if (s == kNever || (s >> shift_) != b) continue;
      const auto v = std::uint16_t(f >= s ? b : b + 1);
      changed |= texels_[j] != v;
      texels_[j] = v;
    }
    if (changed) touched_.push_back(ci);
  }
}

bool changed_rects(const SearchTexture& tex, std::size_t from, std::size_t to, double zoom,
                   double ox, double oy, int width, int height, std::vector<PixelRect>& out,
                   double max_share, std::size_t max_rects) {
  out.clear();
  if (from == to) return true;
  const int tiles_x = tex.tiles_x(), tiles_y = tex.tiles_y();
  const double tile_px = SearchTexture::kTile * zoom;
  if (tiles_x <= 0 || tiles_y <= 0 || !(tile_px > 0) || width <= 0 || height <= 0) return false;
  // The tiles over the viewport.
  auto first = [&](double o, int n) { return std::clamp(int(std::floor(-o / tile_px)), 0, n); };
  auto end = [&](double o, int size, int n) {
    return std::clamp(int(std::ceil((size - o) / tile_px)), 0, n);
  };
  const int x0 = first(ox, tiles_x), x1 = end(ox, width, tiles_x);
  const int y0 = first(oy, tiles_y), y1 = end(oy, height, tiles_y);
  const int band = std::max(1, int(std::ceil(16.0 / tile_px)));
  auto px = [](double v, int size, int margin) {
    return std::clamp(int(margin < 0 ? std::floor(v) : std::ceil(v)) + margin, 0, size);
  };
  std::vector<char> column(std::size_t(std::max(x1 - x0, 0)));
  double area = 0;
  for (int by = y0; by < y1; by += band) {
    const int ey = std::min(by + band, y1);
    std::fill(column.begin(), column.end(), 0);
    for (int y = by; y < ey; ++y)
      for (int x = x0; x < x1; ++x)
        column[std::size_t(x - x0)] |=
            tex.tile_changes(std::size_t(y) * std::size_t(tiles_x) + std::size_t(x), from, to);
    for (int x = x0; x < x1;) {
      if (!column[std::size_t(x - x0)]) {
        ++x;
        continue;
      }
      const int start = x;
      int last = x;
      for (++x; x < x1 && x - last <= band; ++x)
        if (column[std::size_t(x - x0)]) last = x;
      const PixelRect r{px(ox + start * tile_px, width, -1), px(oy + by * tile_px, height, -1),
                        px(ox + (last + 1) * tile_px, width, 1),
                        px(oy + ey * tile_px, height, 1)};
      if (r.x1 <= r.x0 || r.y1 <= r.y0) continue;
      out.push_back(r);
      area += double(r.x1 - r.x0) * double(r.y1 - r.y0);
      if (out.size() > max_rects || area > max_share * double(width) * double(height)) {
        out.clear();
        return false;
      }
    }
  }
  return true;
}

}  // namespace pl

// HAA* abstraction: entrances, transitions, intra-edges and dominance (see haa.hpp).
#include "planners/haa.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <thread>
#include <type_traits>
#include <atomic>

#include "core/error.hpp"

namespace pl {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

bool same_weight(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

Vec2 centre(int x, int y) {
  return {x + 0.5, y + 0.5};
}

}  // namespace

const char* haa_quality_name(HaaQuality q) {
  switch (q) {
    case HaaQuality::Initial:
      return "initial";
    case HaaQuality::High:
      return "hq";
    case HaaQuality::Low:
      return "lq";
  }
  return "?";
}

const char* haa_placement_name(HaaPlacement p) {
  switch (p) {
    case HaaPlacement::Paper:
      return "paper";
    case HaaPlacement::Middle:
      return "middle";
    case HaaPlacement::Spread:
      return "spread";
  }
  return "?";
}

std::vector<int> parse_haa_sizes(const std::string& text) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    char* stop = nullptr;
    const long v = std::strtol(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || v < 1 || v > 64)
      throw InputError("sizes: '" + text + "' is not a list of sizes in 1..64 (e.g. 1,2)");
    out.push_back(int(v));
    pos = end + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<CapabilityMask> haa_default_capabilities(const GridMap& map) {
  CapabilityMask present = 0;
  for (TerrainId t : map.cells()) present |= CapabilityMask(1) << t;
  present &= map.palette().all_passable();
  std::vector<TerrainId> terrains;
  for (int t = 0; t < kMaxTerrains; ++t)
    if (present >> t & 1u) terrains.push_back(TerrainId(t));
  std::vector<CapabilityMask> out;
  const std::size_t k = std::min<std::size_t>(terrains.size(), 12);  // 4095 capabilities at most
  for (std::uint32_t subset = 1; subset < (1u << k); ++subset) {
    CapabilityMask m = 0;
    for (std::size_t i = 0; i < k; ++i)
      if (subset >> i & 1u) m |= CapabilityMask(1) << terrains[i];
    out.push_back(m);
  }
  std::sort(out.begin(), out.end(), [](CapabilityMask a, CapabilityMask b) {
    return std::popcount(a) != std::popcount(b) ? std::popcount(a) < std::popcount(b) : a < b;
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// LocalSearch

void LocalSearch::prepare(const Area& area, int map_width, int map_height,
                          const std::uint16_t* clearance, int size, const std::vector<float>& costs,
                          double min_cost) {
  area_ = area;
  map_w_ = map_width;
  if (space_.width != map_width || space_.height != map_height)
    space_ = NodeSpace::cells(map_width, map_height);
  min_cost_ = min_cost;
  const int aw = area.x1 - area.x0, ah = area.y1 - area.y0;
  pw_ = aw + 2;
  const std::size_t n = std::size_t(pw_) * std::size_t(ah + 2);
  pass_.assign(n, 0);
  cost_.clear();
  if (!costs.empty()) cost_.assign(n, 1.0f);
  if (wanted_.size() < n) wanted_.resize(n, 0);
  free_cells_ = 0;
  for (int ly = 0; ly < ah; ++ly) {
    const std::size_t row =
        std::size_t(area.y0 + ly) * std::size_t(map_width) + std::size_t(area.x0);
    const std::size_t out = std::size_t(ly + 1) * std::size_t(pw_) + 1;
    for (int lx = 0; lx < aw; ++lx) {
      const bool f = clearance[row + std::size_t(lx)] >= size;
      pass_[out + std::size_t(lx)] = f;
      free_cells_ += f;
      if (!cost_.empty()) cost_[out + std::size_t(lx)] = costs[row + std::size_t(lx)];
    }
  }
}

std::size_t LocalSearch::memory_bytes() const {
  return pass_.capacity() + wanted_.capacity() + cost_.capacity() * sizeof(float) +
         pool_.memory_bytes() + open_.memory_bytes() + dijkstra_open_.memory_bytes();
}

// The prepared area as a problem of the search machinery: ids are padded area indices, observers
// see cells of the map. Moves are octile without corner cutting; g is the double sum of
// terrain_step_cost along the path from the source, the same sum the query's path_cost makes of
// a refined path.
template <bool kAStar>
struct LocalSearch::Problem {
  using Cost = double;
  using Order = std::conditional_t<kAStar, HaaOrder, HaaDijkstraOrder>;
  // A*: a successor whose f is not above its parent's is the next pop (consistent heuristic);
  // Dijkstra: successors always lie above their parent.
  static constexpr bool kFastSlot = kAStar;
  static constexpr bool kGrowing = false;

  const std::uint8_t* pass;
  const float* cost;           // nullptr: every move costs its length
  const std::uint8_t* wanted;  // Dijkstra: 1 = a cell to settle
  std::size_t remaining = 0;   // Dijkstra: wanted cells not settled yet
  std::int64_t pw;
  std::uint64_t start_node, target_node;
  std::int64_t tx, ty;  // A*: the target, padded coordinates
  double min_cost;
  std::size_t bound;
  std::int64_t off[8];
  std::int64_t x0, y0;  // the area's corner on the map
  const NodeSpace* space;

  std::uint32_t start() const { return std::uint32_t(start_node); }
  std::size_t node_bound() const { return bound; }
  bool stop(std::uint32_t n) {
    if constexpr (kAStar)
      return n == target_node;
    else
      return wanted[n] && --remaining == 0;
  }
  float progress(const OpenEntry&) const { return -1.0f; }

  void evaluate(std::uint32_t, double g, double& f, double& h, std::int64_t x,
                std::int64_t y) const {
    h = min_cost * octile_distance(double(x - tx), double(y - ty));
    f = g + h;
  }
  void evaluate(std::uint32_t n, double g, double& f, double& h) const {
    if constexpr (kAStar) {
      evaluate(n, g, f, h, std::int64_t(n) % pw, std::int64_t(n) / pw);
    } else {
      h = 0;
      f = g;
    }
  }

  template <class Out>
  void expand(std::uint32_t cur, double g, Out& out) const {
    // Moves in the order E, S, W, N, SE, SW, NW, NE, one bit each; a diagonal needs both of its
    // cardinal side cells (no corner cutting). The padding keeps every read inside the area.
    const std::uint8_t* pc = pass + cur;
    const unsigned e = pc[1], s = pc[pw], w = pc[-1], n = pc[-pw];
    unsigned moves = e | s << 1 | w << 2 | n << 3 | (pc[pw + 1] & e & s) << 4 |
                     (pc[pw - 1] & w & s) << 5 | (pc[-pw - 1] & w & n) << 6 |
                     (pc[-pw + 1] & e & n) << 7;
    while (moves) {
      const int d = __builtin_ctz(moves);
      moves &= moves - 1;
      const std::uint32_t nb = std::uint32_t(std::int64_t(cur) + off[d]);
      double step = d < 4 ? 1.0 : kSqrt2;
      if (cost) step = terrain_step_cost(step, double(cost[cur]), double(cost[nb]));
      if constexpr (kAStar)
        out.reach(nb, g + step, std::int64_t(nb) % pw, std::int64_t(nb) / pw);
      else
        out.reach(nb, g + step);
    }
  }

  std::int64_t x_of(std::uint32_t n) const { return x0 + std::int64_t(n) % pw - 1; }
  std::int64_t y_of(std::uint32_t n) const { return y0 + std::int64_t(n) / pw - 1; }
  std::uint32_t id(std::uint32_t n) const { return space->cell_id(int(x_of(n)), int(y_of(n))); }
  // No desc(): cells are reported by id; the declared Cells space says where they are.
};

template <bool kAStar>
void LocalSearch::search(int sx, int sy, int tx, int ty, std::size_t wanted, SearchObserver* obs) {
  expanded_ = generated_ = 0;
  if (!free(sx, sy)) {
    pool_.new_search();  // nothing reached
    return;
  }
  Problem<kAStar> p{};
  p.pass = pass_.data();
  p.cost = cost_.empty() ? nullptr : cost_.data();
  p.wanted = wanted_.data();
  p.pw = pw_;
  p.start_node = local(sx, sy);
  p.target_node = kAStar ? local(tx, ty) : kNoNode;
  p.tx = tx - area_.x0 + 1;
  p.ty = ty - area_.y0 + 1;
  p.min_cost = min_cost_;
  p.bound = pass_.size();
  for (int d = 0; d < 8; ++d) p.off[d] = std::int64_t(kDy[d]) * pw_ + kDx[d];
  p.x0 = area_.x0;
  p.y0 = area_.y0;
  p.space = &space_;
  p.remaining = wanted;
  const SearchOutcome out = with_listener(obs, [&](auto& l) {
    if constexpr (kAStar)
      return best_first(p, pool_, open_, l, RunContext{});
    else
      return best_first(p, pool_, dijkstra_open_, l, RunContext{});
  });
  expanded_ = out.expanded;
  generated_ = out.generated;
}

void LocalSearch::dijkstra(int sx, int sy, std::span<const std::uint32_t> stop_after,
                           SearchObserver* obs) {
  std::size_t wanted = 0;  // distinct stop_after cells inside the area
  for (std::uint32_t cell : stop_after) {
    const int x = int(cell) % map_w_, y = int(cell) / map_w_;
    if (!inside(x, y)) continue;
    std::uint8_t& m = wanted_[local(x, y)];
    wanted += m == 0;
    m = 1;
  }
  search<false>(sx, sy, -1, -1, wanted, obs);
  for (std::uint32_t cell : stop_after) {
    const int x = int(cell) % map_w_, y = int(cell) / map_w_;
    if (inside(x, y)) wanted_[local(x, y)] = 0;
  }
}

void LocalSearch::astar(int sx, int sy, int tx, int ty, SearchObserver* obs) {
  search<true>(sx, sy, tx, ty, 0, obs);
}

double LocalSearch::distance(int x, int y) const {
  if (!inside(x, y)) return kInf;
  const std::uint32_t n = local(x, y);
  return pool_.seen(n) ? pool_.g(n) : kInf;
}

void LocalSearch::path_to(int x, int y, std::vector<std::uint32_t>& out) const {
  out.clear();
  if (!std::isfinite(distance(x, y))) return;
  for (std::uint32_t n = local(x, y); n != kNoNode; n = pool_.parent(n))
    out.push_back(cell_index(n));
  std::reverse(out.begin(), out.end());
}

// ---------------------------------------------------------------------------------------------
// HaaAbstraction

void HaaAbstraction::cluster_rect(int c, int& x0, int& y0, int& x1, int& y1) const {
  const int cs = params_.cluster_size;
  x0 = (c % ncx_) * cs;
  y0 = (c / ncx_) * cs;
  x1 = std::min(w_, x0 + cs);
  y1 = std::min(h_, y0 + cs);
}

const ClearanceGrid* HaaAbstraction::clearance(CapabilityMask cap) const {
  for (std::size_t i = 0; i < caps_.size(); ++i)
    if (caps_[i] == cap) return &clearance_[i];
  return nullptr;
}

std::size_t HaaAbstraction::memory_bytes() const {
  std::size_t b = nodes_.capacity() * sizeof(Node) + edges_.capacity() * sizeof(Edge) +
                  node_of_cell_.capacity() * sizeof(std::int32_t) +
                  path_cells_.capacity() * sizeof(std::uint32_t) + cost_.capacity() * sizeof(float);
  for (auto& c : clearance_) b += c.capacity() * sizeof(std::uint16_t);
  b += arc_begin_.capacity() * sizeof(std::uint32_t) + arcs_.capacity() * sizeof(Arc);
  for (auto& a : cluster_nodes_) b += a.capacity() * sizeof(std::uint32_t);
  return b;
}

std::uint32_t HaaAbstraction::node_at(int x, int y) {
  std::int32_t& slot = node_of_cell_[std::size_t(y) * std::size_t(w_) + std::size_t(x)];
  if (slot < 0) {
    slot = std::int32_t(nodes_.size());
    nodes_.push_back({x, y, cluster_of(x, y), true});
  }
  return std::uint32_t(slot);
}

bool HaaAbstraction::build(const GridMap& map, const HaaParams& params, const RunContext& ctx) {
  const Stopwatch clock;
  const int threads = threads_;
  *this = HaaAbstraction();
  threads_ = threads;
  params_ = params;
  if (params_.cluster_size < 2) throw InputError("cluster size must be at least 2");
  if (params_.sizes.empty()) params_.sizes = {1};
  std::sort(params_.sizes.begin(), params_.sizes.end());
  w_ = map.width();
  h_ = map.height();
  const int cs = params_.cluster_size;
  ncx_ = (w_ + cs - 1) / cs;
  ncy_ = (h_ + cs - 1) / cs;
  stats_.clusters = std::size_t(ncx_) * std::size_t(ncy_);
  caps_ = params_.capabilities.empty() ? haa_default_capabilities(map) : params_.capabilities;
  for (TerrainId t : map.cells()) present_ |= CapabilityMask(1) << t;
  present_ &= map.palette().all_passable();
  const Palette& pal = map.palette();
  if (!pal.uniform_costs()) {
    cost_.resize(map.cells().size());
    for (std::size_t i = 0; i < cost_.size(); ++i) cost_[i] = float(pal[map.cells()[i]].cost);
    min_cost_ = pal.min_cost(present_ ? present_ : pal.all_passable());
  }
  for (CapabilityMask c : caps_) clearance_.push_back(true_clearance(map, c));
  // The terrains under a size-s agent standing at each cell (its s x s square, clipped to the
  // map), for the intra-edges' capability annotation; dropped after the build.
  footprint_.assign(params_.sizes.size(), {});
  {
    std::vector<CapabilityMask> rows(map.cells().size());  // terrains of cells x..x+s-1
    for (std::size_t si = 0; si < params_.sizes.size(); ++si) {
      const int s = params_.sizes[si];
      for (int y = 0; y < h_; ++y)
        for (int x = 0; x < w_; ++x) {
          CapabilityMask m = 0;
          for (int fx = x; fx < std::min(w_, x + s); ++fx)
            m |= CapabilityMask(1)
                 << map.cells()[std::size_t(y) * std::size_t(w_) + std::size_t(fx)];
          rows[std::size_t(y) * std::size_t(w_) + std::size_t(x)] = m;
        }
      std::vector<CapabilityMask>& f = footprint_[si];
      f.assign(map.cells().size(), 0);
      for (int y = 0; y < h_; ++y)
        for (int x = 0; x < w_; ++x) {
          CapabilityMask m = 0;
          for (int fy = y; fy < std::min(h_, y + s); ++fy)
            m |= rows[std::size_t(fy) * std::size_t(w_) + std::size_t(x)];
          f[std::size_t(y) * std::size_t(w_) + std::size_t(x)] = m;
        }
    }
  }
  node_of_cell_.assign(map.cells().size(), -1);

  // The base graph: traversable cells (any passable terrain) and their octile adjacencies
  // without corner cutting, each counted once.
  {
    const CapabilityMask all = pal.all_passable();
    auto free_at = [&](int x, int y) { return map.passable(x, y, all); };
    for (int y = 0; y < h_; ++y)
      for (int x = 0; x < w_; ++x) {
        if (!free_at(x, y)) continue;
        ++stats_.base_nodes;
        stats_.base_edges += free_at(x + 1, y) + free_at(x, y + 1);
        stats_.base_edges += free_at(x + 1, y + 1) && free_at(x + 1, y) && free_at(x, y + 1);
        stats_.base_edges += free_at(x - 1, y + 1) && free_at(x - 1, y) && free_at(x, y + 1);
      }
  }

  SearchObserver* obs = ctx.observer;
  if (obs) {
    obs->phase("clusters");
    for (int c = 0; c < ncx_ * ncy_; ++c) {
      int x0, y0, x1, y1;
      cluster_rect(c, x0, y0, x1, y1);
      obs->mark(Shape::box(x0, y0, x1, y1), Role::Cluster);
    }
    obs->frame();
  }
  scan_entrances(obs);
  if (ctx.progress) ctx.progress->store(0.05f, std::memory_order_relaxed);
  if (!intra_edges(ctx)) {
    *this = HaaAbstraction();
    threads_ = threads;
    return false;
  }
  footprint_ = {};
  if (params_.quality == HaaQuality::Low) {
    const int smax = params_.sizes.back();
    for (Edge& e : edges_) e.clearance = std::min(e.clearance, smax);
  }
  if (params_.quality != HaaQuality::Initial) strong_dominance(obs);
  if (params_.quality == HaaQuality::Low) weak_dominance(obs);
  finish(obs);
  stats_.build_ms = clock.ms();
  if (ctx.progress) ctx.progress->store(1.0f, std::memory_order_relaxed);
  return true;
}

// Scans every border between two adjacent clusters once per capability. A run of pairs ends at
// the border's end (so a run touching a cluster corner is closed there, not dropped), at a pair
// with a cell outside the capability (the scan then restarts at the next free pair), and where
// the clearance of either side rises (a new entrance starts at that pair).
void HaaAbstraction::scan_entrances(SearchObserver* obs) {
  const int cs = params_.cluster_size;
  struct Pair {
    int ax, ay, bx, by;
  };
  std::vector<Pair> pairs;
  std::vector<std::uint32_t> pending;  // transitions chosen, reported after the scan phase
  if (obs) obs->phase("scan entrances");
  auto close_run = [&](std::size_t ci, bool vertical, int i0, int i1) {
    const ClearanceGrid& cl = clearance_[ci];
    auto at = [&](int x, int y) {
      return int(cl[std::size_t(y) * std::size_t(w_) + std::size_t(x)]);
    };
    Entrance en;
    en.vertical = vertical;
    en.capability = caps_[ci];
    en.x = pairs[std::size_t(i0)].ax;
    en.y = pairs[std::size_t(i0)].ay;
    en.cluster_a = cluster_of(en.x, en.y);
    en.cluster_b = cluster_of(pairs[std::size_t(i0)].bx, pairs[std::size_t(i0)].by);
    en.length = i1 - i0;
    std::vector<int> m(std::size_t(i1 - i0));
    for (int i = i0; i < i1; ++i) {
      const Pair& p = pairs[std::size_t(i)];
      m[std::size_t(i - i0)] = std::min(at(p.ax, p.ay), at(p.bx, p.by));
    }
    en.clearance = *std::max_element(m.begin(), m.end());
    std::vector<int> chosen;
    // Inside an entrance neither side's clearance rises, so m never rises either: the pairs
    // at the maximum form a prefix, and so do the pairs that serve every size of S.
    const int first = int(std::find(m.begin(), m.end(), en.clearance) - m.begin());
    const int enough = std::min(en.clearance, params_.sizes.back());
    int last = 0;  // end of the prefix of pairs that every agent able to cross here can use
    while (last + 1 < en.length && m[std::size_t(last + 1)] >= enough) ++last;
    // The middle of that prefix; but a pair that already carries nodes (the transition of an
    // overlapping entrance of another capability) within the prefix's middle half is taken
    // instead, the way the paper re-uses nodes: it saves two nodes and their intra-edges.
    auto middle = [&] {
      const int mid = last / 2;
      int best = mid, best_off = (last + 1) / 4 + 1;
      for (int k = 0; k <= last; ++k) {
        const Pair& p = pairs[std::size_t(i0 + k)];
        const bool reused =
            node_of_cell_[std::size_t(p.ay) * std::size_t(w_) + std::size_t(p.ax)] >= 0 &&
            node_of_cell_[std::size_t(p.by) * std::size_t(w_) + std::size_t(p.bx)] >= 0;
        if (reused && std::abs(k - mid) < best_off) {
          best = k;
          best_off = std::abs(k - mid);
        }
      }
      return best;
    };
    switch (params_.placement) {
      case HaaPlacement::Paper:
        chosen = {first};
        break;
      case HaaPlacement::Middle:
        chosen = {middle()};
        break;
      case HaaPlacement::Spread:
        chosen = {middle()};
        if (en.length >= std::max(3, cs / 2) && en.length - 1 != chosen[0])
          chosen.push_back(en.length - 1);
        break;
    }
    for (int k : chosen) {
      const Pair& p = pairs[std::size_t(i0 + k)];
      Edge e;
      e.a = node_at(p.ax, p.ay);
      e.b = node_at(p.bx, p.by);
      e.capability = caps_[ci];
      e.clearance = m[std::size_t(k)];
      e.weight = 1.0;
      if (!cost_.empty())
        e.weight =
            terrain_step_cost(1.0, cost_[std::size_t(p.ay) * std::size_t(w_) + std::size_t(p.ax)],
                              cost_[std::size_t(p.by) * std::size_t(w_) + std::size_t(p.bx)]);
      e.inter = true;
      e.path_offset = std::uint32_t(path_cells_.size());
      e.path_length = 2;
      path_cells_.push_back(std::uint32_t(p.ay * w_ + p.ax));
      path_cells_.push_back(std::uint32_t(p.by * w_ + p.bx));
      en.transitions.push_back(std::uint32_t(edges_.size()));
      pending.push_back(std::uint32_t(edges_.size()));
      edges_.push_back(e);
      ++stats_.transitions;
    }
    if (obs) {
      const Pair& a = pairs[std::size_t(i0)];
      const Pair& b = pairs[std::size_t(i1 - 1)];
      Shape s =
          vertical ? Shape::segment({double(a.bx), double(a.by)}, {double(b.bx), double(b.by + 1)})
                   : Shape::segment({double(a.bx), double(a.by)}, {double(b.bx + 1), double(b.by)});
      s.tag = std::uint32_t(entrances_.size());
      obs->mark(s.require(en.capability, en.clearance), Role::Entrance);
    }
    entrances_.push_back(std::move(en));
    ++stats_.entrances;
  };
  for (int pass = 0; pass < 2; ++pass) {
    const bool vertical = pass == 0;
    // Vertical borders: between cluster columns, at x = k * cs; horizontal: at y = k * cs.
    const int borders = vertical ? ncx_ - 1 : ncy_ - 1;
    const int segments = vertical ? ncy_ : ncx_;
    for (int k = 1; k <= borders; ++k) {
      for (int sgm = 0; sgm < segments; ++sgm) {
        pairs.clear();
        const int from = sgm * cs, to = std::min(vertical ? h_ : w_, from + cs);
        for (int i = from; i < to; ++i)
          pairs.push_back(vertical ? Pair{k * cs - 1, i, k * cs, i}
                                   : Pair{i, k * cs - 1, i, k * cs});
        for (std::size_t ci = 0; ci < caps_.size(); ++ci) {
          const ClearanceGrid& cl = clearance_[ci];
          auto at = [&](int x, int y) {
            return int(cl[std::size_t(y) * std::size_t(w_) + std::size_t(x)]);
          };
          int start = -1, prev_a = 0, prev_b = 0;
          for (int i = 0; i < int(pairs.size()); ++i) {
            const Pair& p = pairs[std::size_t(i)];
            const int ca = at(p.ax, p.ay), cb = at(p.bx, p.by);
            if (ca == 0 || cb == 0) {
              if (start >= 0) close_run(ci, vertical, start, i);
              start = -1;
            } else if (start < 0) {
              start = i;
            } else if (ca > prev_a || cb > prev_b) {
              close_run(ci, vertical, start, i);
              start = i;
            }
            prev_a = ca;
            prev_b = cb;
          }
          if (start >= 0) close_run(ci, vertical, start, int(pairs.size()));
        }
        if (obs) obs->frame();
      }
    }
  }
  if (obs) {
    obs->phase("choose transitions");
    for (std::uint32_t ei : pending) {
      const Edge& e = edges_[ei];
      Shape s = Shape::segment(centre(nodes_[e.a].x, nodes_[e.a].y),
                               centre(nodes_[e.b].x, nodes_[e.b].y));
      s.tag = ei;
      obs->mark(s.require(e.capability, e.clearance), Role::Transition);
    }
    obs->frame();
  }
}

// One Dijkstra inside the cluster per (abstract node, capability, size): it yields the optimal
// lengths to every other node of the cluster at once, where one A* per pair would expand the
// cluster's cells over and over. The Dijkstra from the i-th node stops once the later nodes the
// agent can stand on are settled (their distances and parents are then final, so the edges are
// those of a full search). Clusters are independent: they are shared out among threads, each
// with its own LocalSearch and output, and the outputs are appended in cluster order, so the
// abstraction is the same whatever the number of threads.
void HaaAbstraction::cluster_intra_edges(std::size_t c,
                                         const std::vector<std::uint32_t>& mem,
                                         LocalSearch& search, ClusterEdges& out) const {
  std::vector<std::uint32_t> path, wanted;
  LocalSearch::Area area;
  cluster_rect(int(c), area.x0, area.y0, area.x1, area.y1);
  for (std::size_t ci = 0; ci < caps_.size(); ++ci) {
    const ClearanceGrid& cl = clearance_[ci];
    auto at = [&](std::uint32_t cell) { return int(cl[cell]); };
    for (std::size_t si = 0; si < params_.sizes.size(); ++si) {
      const int s = params_.sizes[si];
      bool prepared = false;  // the area for (c, s), made when the first source needs it
      for (std::size_t i = 0; i + 1 < mem.size(); ++i) {
        const Node& src = nodes_[mem[i]];
        if (at(std::uint32_t(src.y * w_ + src.x)) < s) continue;
        wanted.clear();
        for (std::size_t j = i + 1; j < mem.size(); ++j) {
          const std::uint32_t cell = std::uint32_t(nodes_[mem[j]].y * w_ + nodes_[mem[j]].x);
          if (at(cell) >= s) wanted.push_back(cell);
        }
        if (wanted.empty()) continue;
        if (!prepared) search.prepare(area, w_, h_, cl.data(), s, cost_, min_cost_);
        prepared = true;
        search.dijkstra(src.x, src.y, wanted);
        ++out.searches;
        out.expanded += search.expanded();
        for (std::size_t j = i + 1; j < mem.size(); ++j) {
          const Node& dst = nodes_[mem[j]];
          const double d = search.distance(dst.x, dst.y);
          if (!std::isfinite(d)) continue;
          search.path_to(dst.x, dst.y, path);
          // The clearance the whole path offers: its cells and the side cells of its diagonal
          // moves (which must be free for the agent as well).
          int pc = std::numeric_limits<int>::max();
          for (std::size_t k = 0; k < path.size(); ++k) {
            pc = std::min(pc, at(path[k]));
            if (k > 0) {
              const int x0 = int(path[k - 1]) % w_, y0 = int(path[k - 1]) / w_;
              const int x1 = int(path[k]) % w_, y1 = int(path[k]) / w_;
              if (x0 != x1 && y0 != y1)
                pc = std::min(
                    {pc, at(std::uint32_t(y0 * w_ + x1)), at(std::uint32_t(y1 * w_ + x0))});
            }
          }
          // Beyond the paper: the capability the path really needs is the set of terrains
          // under the agent's footprint along it. When the abstraction holds that smaller
          // capability, the edge is annotated with it (and its clearance along the path):
          // the same path found by searches for several capabilities then collapses into one
          // edge under strong dominance, and agents lacking unused terrains may use it.
          CapabilityMask need = 0;
          const CapabilityMask* foot = footprint_[std::size_t(si)].data();
          for (std::uint32_t cell : path) need |= foot[cell];
          need &= caps_[ci];
          std::size_t use = ci;
          if (need != caps_[ci])
            for (std::size_t k = 0; k < caps_.size(); ++k)
              if (caps_[k] == need) use = k;
          if (use != ci) {
            const ClearanceGrid& cl2 = clearance_[use];
            int pc2 = std::numeric_limits<int>::max();
            for (std::size_t k = 0; k < path.size(); ++k) {
              pc2 = std::min(pc2, int(cl2[path[k]]));
              if (k > 0) {
                const int x0 = int(path[k - 1]) % w_, y0 = int(path[k - 1]) / w_;
                const int x1 = int(path[k]) % w_, y1 = int(path[k]) / w_;
                if (x0 != x1 && y0 != y1)
                  pc2 = std::min({pc2, int(cl2[std::size_t(y0 * w_ + x1)]),
                                  int(cl2[std::size_t(y1 * w_ + x0)])});
              }
            }
            if (pc2 >= s)
              pc = pc2;
            else
              use = ci;  // cannot happen (the footprints hold only `need`); kept safe
          }
          Edge e;
          e.a = mem[i];
          e.b = mem[j];
          e.capability = caps_[use];
          e.clearance = pc;
          e.weight = d;
          e.path_offset = std::uint32_t(out.cells.size());  // into out.cells until merged
          e.path_length = std::uint32_t(path.size());
          out.cells.insert(out.cells.end(), path.begin(), path.end());
          out.edges.push_back(e);
        }
      }
    }
  }
}

bool HaaAbstraction::intra_edges(const RunContext& ctx) {
  SearchObserver* obs = ctx.observer;
  if (obs) obs->phase("intra edges");
  std::vector<std::vector<std::uint32_t>> members(std::size_t(ncx_) * std::size_t(ncy_));
  for (std::uint32_t i = 0; i < nodes_.size(); ++i)
    members[std::size_t(nodes_[i].cluster)].push_back(i);
  const std::size_t nclusters = members.size();
  std::vector<ClusterEdges> out(nclusters);
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> stopped{false};
  auto work = [&] {
    LocalSearch search;
    for (;;) {
      const std::size_t c = next.fetch_add(1, std::memory_order_relaxed);
      if (c >= nclusters || stopped.load(std::memory_order_relaxed)) return;
      if (ctx.cancelled()) {
        stopped.store(true, std::memory_order_relaxed);
        return;
      }
      if (members[c].size() >= 2) cluster_intra_edges(c, members[c], search, out[c]);
      const std::size_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (ctx.progress && (d & 15) == 0)
        ctx.progress->store(0.05f + 0.85f * float(d) / float(nclusters),
                            std::memory_order_relaxed);
    }
  };
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  // Unless told, a thread per hardware thread, with at least 8 clusters each.
  const std::size_t nthreads =
      threads_ > 0 ? std::min<std::size_t>(std::size_t(threads_), nclusters)
                   : std::min<std::size_t>(hw, (nclusters + 7) / 8);
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < nthreads; ++t) pool.emplace_back(work);
    work();
  }
  if (stopped) return false;
  std::size_t total_edges = edges_.size(), total_cells = path_cells_.size();
  for (const ClusterEdges& o : out) {
    total_edges += o.edges.size();
    total_cells += o.cells.size();
  }
  edges_.reserve(total_edges);
  path_cells_.reserve(total_cells);
  for (std::size_t c = 0; c < nclusters; ++c) {
    ClusterEdges& o = out[c];
    stats_.searches += o.searches;
    stats_.expanded += o.expanded;
    const std::uint32_t offset = std::uint32_t(path_cells_.size());
    path_cells_.insert(path_cells_.end(), o.cells.begin(), o.cells.end());
    for (Edge e : o.edges) {
      e.path_offset += offset;
      if (obs) {
        Shape sh = Shape::segment(centre(nodes_[e.a].x, nodes_[e.a].y),
                                  centre(nodes_[e.b].x, nodes_[e.b].y));
        sh.tag = std::uint32_t(edges_.size());
        obs->mark(sh.require(e.capability, e.clearance), Role::Candidate);
      }
      edges_.push_back(e);
    }
    o = ClusterEdges();
    if (obs && members[c].size() >= 2) obs->frame();
  }
  return true;
}

// Theorem 6: between the same two nodes, an edge whose capability is a subset of another's,
// whose clearance is at least the other's and whose weight is equal makes the other redundant.
// Exact duplicates keep the first. The relation is a strict order, so whatever removes an edge
// survives or is itself removed by one that covers both.
void HaaAbstraction::strong_dominance(SearchObserver* obs) {
  if (obs) obs->phase("dominance (strong)");
  std::vector<std::uint32_t> order(edges_.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](std::uint32_t i) {
    const Edge& e = edges_[i];
    return std::pair{std::min(e.a, e.b), std::max(e.a, e.b)};
  };
  {
    // By node pair, then index (what a stable sort by pair gives), on precomputed keys.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(edges_.size());
    for (std::uint32_t i = 0; i < keyed.size(); ++i) {
      const auto [lo, hi] = key(i);
      keyed[i] = {std::uint64_t(lo) << 32 | hi, i};
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
  }
  auto dominates = [&](std::uint32_t ia, std::uint32_t ib) {
    const Edge& a = edges_[ia];
    const Edge& b = edges_[ib];
    if ((a.capability & ~b.capability) != 0 || a.clearance < b.clearance) return false;
    if (!same_weight(a.weight, b.weight) && a.weight > b.weight) return false;
    const bool strictly = a.capability != b.capability || a.clearance > b.clearance ||
                          !same_weight(a.weight, b.weight);
    return strictly || ia < ib;
  };
  for (std::size_t g0 = 0; g0 < order.size();) {
    std::size_t g1 = g0 + 1;
    while (g1 < order.size() && key(order[g1]) == key(order[g0])) ++g1;
    for (std::size_t i = g0; i < g1; ++i)
      for (std::size_t j = g0; j < g1; ++j) {
        if (i == j || !dominates(order[j], order[i])) continue;
        Edge& e = edges_[order[i]];
        e.alive = false;
        ++stats_.removed_strong;
        if (obs)
          obs->test(Shape::segment(centre(nodes_[e.a].x, nodes_[e.a].y),
                                   centre(nodes_[e.b].x, nodes_[e.b].y))
                        .require(e.capability, e.clearance),
                    false);
        break;
      }
    g0 = g1;
  }
  if (obs) obs->frame();
}

// Theorem 7 and Corollary 8 (after truncating clearances to the largest size): between two
// adjacent clusters, inter-edge w-x makes inter-edge y-z redundant when its capability is a subset
// of y-z's, its clearance is at least y-z's, and intra-edges w-y and x-z exist (or the nodes
// coincide) that every agent able to use y-z may use. Candidates are tried weakest first
// (most terrains, then least clearance) against every inter-edge still present; nodes left
// without inter-edges are then removed with their intra-edges.
void HaaAbstraction::weak_dominance(SearchObserver* obs) {
  if (obs) obs->phase("dominance (weak)");
  std::vector<std::vector<std::uint32_t>> adj(nodes_.size());
  for (std::uint32_t i = 0; i < edges_.size(); ++i)
    if (edges_[i].alive && !edges_[i].inter) {
      adj[edges_[i].a].push_back(i);
      adj[edges_[i].b].push_back(i);
    }
  auto joined = [&](std::uint32_t u, std::uint32_t v, CapabilityMask cap, int cv) {
    if (u == v) return true;
    for (std::uint32_t ei : adj[u]) {
      const Edge& e = edges_[ei];
      if (!e.alive || (e.a != v && e.b != v)) continue;
      if ((e.capability & ~cap) == 0 && e.clearance >= cv) return true;
    }
    return false;
  };
  // Inter-edges by cluster pair, each oriented so that `a` lies in the first cluster.
  std::vector<std::uint32_t> inter;
  for (std::uint32_t i = 0; i < edges_.size(); ++i)
    if (edges_[i].alive && edges_[i].inter) {
      Edge& e = edges_[i];
      if (nodes_[e.a].cluster > nodes_[e.b].cluster) {
        std::swap(e.a, e.b);
        std::swap(path_cells_[e.path_offset], path_cells_[e.path_offset + 1]);
      }
      inter.push_back(i);
    }
  auto pair_key = [&](std::uint32_t i) {
    return std::pair{nodes_[edges_[i].a].cluster, nodes_[edges_[i].b].cluster};
  };
  // Twice the distance of an inter-edge from the middle of its border: among equals, the
  // transitions far from the middle go first, so the survivors cost agents the least detour.
  auto off_centre = [&](const Edge& e) {
    const Node& na = nodes_[e.a];
    const Node& nb = nodes_[e.b];
    int x0, y0, x1, y1;
    cluster_rect(na.cluster, x0, y0, x1, y1);
    return na.y == nb.y ? std::abs(2 * na.y + 1 - (y0 + y1)) : std::abs(2 * na.x + 1 - (x0 + x1));
  };
  auto weaker = [&](std::uint32_t a, std::uint32_t b) {
    const Edge& x = edges_[a];
    const Edge& y = edges_[b];
    if (std::popcount(x.capability) != std::popcount(y.capability))
      return std::popcount(x.capability) > std::popcount(y.capability);
    if (x.clearance != y.clearance) return x.clearance < y.clearance;
    if (off_centre(x) != off_centre(y)) return off_centre(x) > off_centre(y);
    return a > b;
  };
  std::sort(inter.begin(), inter.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (pair_key(a) != pair_key(b)) return pair_key(a) < pair_key(b);
    return weaker(a, b);
  });
  for (std::size_t g0 = 0; g0 < inter.size();) {
    std::size_t g1 = g0 + 1;
    while (g1 < inter.size() && pair_key(inter[g1]) == pair_key(inter[g0])) ++g1;
    for (std::size_t i = g0; i < g1; ++i) {
      Edge& yz = edges_[inter[i]];
      for (std::size_t j = g0; j < g1; ++j) {
        if (i == j) continue;
        const Edge& wx = edges_[inter[j]];
        if (!wx.alive || (wx.capability & ~yz.capability) != 0 || wx.clearance < yz.clearance)
          continue;
        if (!joined(wx.a, yz.a, yz.capability, yz.clearance) ||
            !joined(wx.b, yz.b, yz.capability, yz.clearance))
          continue;
        yz.alive = false;
        ++stats_.removed_weak;
        if (obs)
          obs->test(Shape::segment(centre(nodes_[yz.a].x, nodes_[yz.a].y),
                                   centre(nodes_[yz.b].x, nodes_[yz.b].y))
                        .require(yz.capability, yz.clearance),
                    false);
        break;
      }
    }
    g0 = g1;
  }
  // Corollary 8: a node no inter-edge uses any more goes, with its intra-edges.
  std::vector<std::uint8_t> used(nodes_.size(), 0);
  for (const Edge& e : edges_)
    if (e.alive && e.inter) used[e.a] = used[e.b] = 1;
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    if (used[n] || !nodes_[n].alive) continue;
    nodes_[n].alive = false;
    ++stats_.removed_nodes;
    node_of_cell_[std::size_t(nodes_[n].y) * std::size_t(w_) + std::size_t(nodes_[n].x)] = -1;
    if (obs) obs->test(Shape::point(centre(nodes_[n].x, nodes_[n].y)), false);
  }
  for (Edge& e : edges_)
    if (e.alive && (!nodes_[e.a].alive || !nodes_[e.b].alive)) e.alive = false;
  if (obs) obs->frame();
}

void HaaAbstraction::finish(SearchObserver* obs) {
  // Drop removed edges and their cached paths: after dominance most of the initial edges are
  // gone, and their paths are most of the memory.
  {
    std::vector<std::uint32_t> remap(edges_.size(), kNoNode);
    std::vector<Edge> kept;
    std::vector<std::uint32_t> cells;
    for (std::uint32_t i = 0; i < edges_.size(); ++i) {
      Edge e = edges_[i];
      if (!e.alive) continue;
      remap[i] = std::uint32_t(kept.size());
      const std::uint32_t off = std::uint32_t(cells.size());
      cells.insert(cells.end(), path_cells_.begin() + e.path_offset,
                   path_cells_.begin() + e.path_offset + e.path_length);
      e.path_offset = off;
      kept.push_back(e);
    }
    edges_ = std::move(kept);
    path_cells_ = std::move(cells);
    for (Entrance& en : entrances_) {
      std::vector<std::uint32_t> t;
      for (std::uint32_t ei : en.transitions)
        if (remap[ei] != kNoNode) t.push_back(remap[ei]);
      en.transitions = std::move(t);
    }
  }
  cluster_nodes_.assign(std::size_t(ncx_) * std::size_t(ncy_), {});
  for (std::uint32_t n = 0; n < nodes_.size(); ++n)
    if (nodes_[n].alive) {
      cluster_nodes_[std::size_t(nodes_[n].cluster)].push_back(n);
      ++stats_.nodes;
    }
  // Arcs by node (a counting sort, so each node's arcs stay in edge order).
  arc_begin_.assign(nodes_.size() + 1, 0);
  for (const Edge& e : edges_) {
    if (!e.alive) continue;
    ++arc_begin_[e.a + 1];
    ++arc_begin_[e.b + 1];
    ++stats_.edges;
    ++(e.inter ? stats_.inter_edges : stats_.intra_edges);
  }
  for (std::size_t n = 0; n < nodes_.size(); ++n) arc_begin_[n + 1] += arc_begin_[n];
  arcs_.resize(arc_begin_.back());
  std::vector<std::uint32_t> next(arc_begin_.begin(), arc_begin_.end() - 1);
  for (std::uint32_t i = 0; i < edges_.size(); ++i) {
    const Edge& e = edges_[i];
    if (!e.alive) continue;
    arcs_[next[e.a]++] = {e.weight, e.b, i, e.capability, e.clearance};
    arcs_[next[e.b]++] = {e.weight, e.a, i, e.capability, e.clearance};
  }
  if (obs) {
    obs->phase("abstraction");
    obs->counter("abstract nodes", double(stats_.nodes));
    obs->counter("abstract edges", double(stats_.edges));
    obs->frame();
  }
}

}  // namespace pl

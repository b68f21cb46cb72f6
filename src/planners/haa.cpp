// HAA* abstraction: entrances, transitions, intra-edges and dominance (see haa.hpp).
#include "planners/haa.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <thread>
#include <type_traits>

#include "core/error.hpp"

namespace pl {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Below this many edges per thread the assembly's copies are not worth a thread.
constexpr std::size_t kEdgesPerThread = 1 << 16;
// Below this many cells the footprints are not worth a thread of their own.
constexpr std::size_t kCellsPerThread = 1 << 16;
constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

bool same_weight(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

Vec2 centre(int x, int y) {
  return {x + 0.5, y + 0.5};
}

// Runs part(k) for k in [0, parts), part 0 on the calling thread and each other on its own.
template <class F>
void run_parts(std::size_t parts, const F& part) {
  std::vector<std::jthread> pool;
  for (std::size_t k = 1; k < parts; ++k) pool.emplace_back([&part, k] { part(k); });
  part(0);
}

// The first index of each of `parts` ranges of [0, n) whose weights (prefix sums `at`, at[i] =
// weight before item i, at[n] = total) are about equal; bounds[parts] = n.
std::vector<std::size_t> split_by_weight(const std::vector<std::size_t>& at, std::size_t parts) {
  const std::size_t n = at.size() - 1;
  std::vector<std::size_t> bounds(parts + 1, n);
  for (std::size_t k = 0; k < parts; ++k)
    bounds[k] =
        std::size_t(std::lower_bound(at.begin(), at.end() - 1, at[n] * k / parts) - at.begin());
  return bounds;
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
  moves_.assign(n, 0);
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
  // Each free cell's moves, once per area instead of once per expansion (an area serves many
  // searches): E, S, W, N, SE, SW, NW, NE, one bit each; a diagonal needs both of its cardinal
  // side cells (no corner cutting). The padding keeps every read inside the area.
  const std::size_t p = std::size_t(pw_);
  for (int ly = 0; ly < ah; ++ly)
    for (std::size_t i = std::size_t(ly + 1) * p + 1, end = i + std::size_t(aw); i < end; ++i) {
      if (!pass_[i]) continue;
      const std::uint8_t* pc = pass_.data() + i;
      const std::ptrdiff_t up = -std::ptrdiff_t(p);
      const unsigned ea = pc[1], so = pc[p], we = pc[-1], no = pc[up];
      moves_[i] = std::uint8_t(ea | so << 1 | we << 2 | no << 3 | (pc[p + 1] & ea & so) << 4 |
                               (pc[p - 1] & we & so) << 5 | (pc[up - 1] & we & no) << 6 |
                               (pc[up + 1] & ea & no) << 7);
    }
}

std::size_t LocalSearch::memory_bytes() const {
  return pass_.capacity() + moves_.capacity() + wanted_.capacity() +
         cost_.capacity() * sizeof(float) + pool_.memory_bytes() + open_.memory_bytes() +
         dijkstra_open_.memory_bytes();
}

// The prepared area as a problem of the search machinery: ids are padded area indices, observers
// see cells of the map. Moves are octile without corner cutting; g is the double sum of
// terrain_step_cost along the path from the source, the same sum the query's path_cost makes of
// a refined path.
// kCosts: the area has per-cell move costs (else every move costs its length).
template <bool kAStar, bool kCosts>
struct LocalSearch::Problem {
  using Cost = double;
  // The Dijkstra's h is always 0, so TieLargerG's key (f, h, node) orders as HaaOrder does (f,
  // then node), with an integer compare instead of double compares and parity checks.
  using Order = std::conditional_t<kAStar, HaaOrder, TieLargerG>;
  static constexpr bool kAStarSearch = kAStar;
  // A*: a successor whose f is not above its parent's is the next pop (consistent heuristic);
  // Dijkstra: successors always lie above their parent.
  static constexpr bool kFastSlot = kAStar;
  static constexpr bool kGrowing = false;
  // Dijkstra pops in order of g and moves cost >= 0, so a later path to a closed node is never
  // shorter (floating-point addition is monotone): the g comparison alone rejects it, and the
  // closed test can go. (A*'s heuristic is consistent only up to rounding: it keeps the test.)
  static constexpr bool kClosedFinal = !kAStar;

  const std::uint8_t* moves;   // per cell: the moves prepare() found
  const float* cost;           // kCosts: per-cell cost multipliers
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
    unsigned m = moves[cur];
    while (m) {
      const int d = __builtin_ctz(m);
      m &= m - 1;
      const std::uint32_t nb = std::uint32_t(std::int64_t(cur) + off[d]);
      double step = d < 4 ? 1.0 : kSqrt2;
      if constexpr (kCosts) step = terrain_step_cost(step, double(cost[cur]), double(cost[nb]));
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
  if (cost_.empty())
    run<Problem<kAStar, false>>(sx, sy, tx, ty, wanted, obs);
  else
    run<Problem<kAStar, true>>(sx, sy, tx, ty, wanted, obs);
}

template <class P>
void LocalSearch::run(int sx, int sy, int tx, int ty, std::size_t wanted, SearchObserver* obs) {
  constexpr bool kAStar = P::kAStarSearch;
  P p{};
  p.moves = moves_.data();
  p.cost = cost_.data();
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

int LocalSearch::path_moves(int x, int y, std::vector<std::uint8_t>& moves,
                            const std::uint16_t* clearance, const CapabilityMask* foot,
                            CapabilityMask& terrains) const {
  const std::size_t first = moves.size();
  if (!std::isfinite(distance(x, y))) return 0;
  // As path_to() below, and in the same walk the annotation: the minimum is taken over the
  // same cells in another order (a diagonal move's side cells seen from either end are the
  // same two cells). The walk goes from (x, y) to the source, so each move is the reverse of
  // the step taken, and the moves are reversed at the end.
  std::int64_t cell = std::int64_t(y) * map_w_ + x;
  std::uint32_t n = local(x, y);
  int pc = clearance[cell];
  CapabilityMask under = foot[cell];
  for (;;) {
    const std::uint32_t p = pool_.parent(n);
    if (p == kNoNode) break;
    const std::int64_t d = std::int64_t(p) - std::int64_t(n);
    const std::int64_t dy = d > 1 ? 1 : (d < -1 ? -1 : 0), dx = d - dy * pw_;
    moves.push_back(HaaAbstraction::move_code(int(-dx), int(-dy)));
    if (dx != 0 && dy != 0)
      pc = std::min({pc, int(clearance[cell + dx]), int(clearance[cell + dy * map_w_])});
    cell += dy * map_w_ + dx;
    pc = std::min(pc, int(clearance[cell]));
    under |= foot[cell];
    n = p;
  }
  std::reverse(moves.begin() + std::ptrdiff_t(first), moves.end());
  terrains = under;
  return pc;
}

double LocalSearch::distance(int x, int y) const {
  if (!inside(x, y)) return kInf;
  const std::uint32_t n = local(x, y);
  return pool_.seen(n) ? pool_.g(n) : kInf;
}

void LocalSearch::path_to(int x, int y, std::vector<std::uint32_t>& out) const {
  out.clear();
  if (!std::isfinite(distance(x, y))) return;
  // Each parent is one octile move away: its padded difference (+-1, +-pw, +-pw +-1) becomes the
  // map's (+-1, +-w, +-w +-1) without a division per cell.
  std::int64_t cell = std::int64_t(y) * map_w_ + x;
  std::uint32_t n = local(x, y);
  for (;;) {
    out.push_back(std::uint32_t(cell));
    const std::uint32_t p = pool_.parent(n);
    if (p == kNoNode) break;
    const std::int64_t d = std::int64_t(p) - std::int64_t(n);
    const std::int64_t dy = d > 1 ? 1 : (d < -1 ? -1 : 0);
    cell += dy * map_w_ + (d - dy * pw_);
    n = p;
  }
  std::reverse(out.begin(), out.end());
}

void LocalSearch::parent_directions(std::uint8_t* out) const {
  const int aw = area_.x1 - area_.x0, ah = area_.y1 - area_.y0;
  std::int64_t off[8];
  for (int d = 0; d < 8; ++d) off[d] = std::int64_t(kDy[d]) * pw_ + kDx[d];
  for (int ly = 0; ly < ah; ++ly)
    for (int lx = 0; lx < aw; ++lx, ++out) {
      const std::uint32_t n = std::uint32_t((ly + 1) * pw_ + lx + 1);
      if (!pool_.seen(n)) {
        *out = kUnreached;
        continue;
      }
      const std::uint32_t parent = pool_.parent(n);
      std::uint8_t d = kSourceDir;
      if (parent != kNoNode)
        for (d = 0; d < 8 && std::int64_t(parent) - std::int64_t(n) != off[d]; ++d) {
        }
      *out = d;
    }
}

double LocalSearch::walk(const std::uint8_t* dirs, int x0, int y0, int aw, int map_width, int x,
                         int y, const std::vector<float>& costs,
                         std::vector<std::uint32_t>* cells) {
  std::uint8_t d = dirs[(y - y0) * aw + (x - x0)];
  if (d == kUnreached) return kInf;
  std::size_t cell = std::size_t(y) * std::size_t(map_width) + std::size_t(x);
  if (cells) cells->push_back(std::uint32_t(cell));
  // Summed from (x, y) on, as the search from there would sum its g.
  double len = 0;
  while (d != kSourceDir) {
    x += kDx[d];
    y += kDy[d];
    const std::size_t next = std::size_t(y) * std::size_t(map_width) + std::size_t(x);
    const double step = d < 4 ? 1.0 : kSqrt2;
    len += costs.empty() ? step : terrain_step_cost(step, double(costs[cell]), double(costs[next]));
    cell = next;
    if (cells) cells->push_back(std::uint32_t(cell));
    d = dirs[(y - y0) * aw + (x - x0)];
  }
  return len;
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
                  cost_.capacity() * sizeof(float);
  for (auto& c : clearance_) b += c.capacity() * sizeof(std::uint16_t);
  b += arc_begin_.capacity() * sizeof(std::uint32_t) + arcs_.capacity() * sizeof(Arc);
  for (auto& a : cluster_nodes_) b += a.capacity() * sizeof(std::uint32_t);
  for (auto& f : footprint_) b += f.capacity() * sizeof(CapabilityMask);
  b += cells_.capacity() + refs_.capacity() * sizeof(std::uint32_t);
  for (const std::vector<Unit>* units : {&segments_, &clusters_})
    for (const Unit& u : *units) {
      b += sizeof(Unit) + u.edges.capacity() * sizeof(Edge) + u.moves.capacity() +
           u.nodes.capacity() * sizeof(std::uint32_t) + u.removed.capacity() * sizeof(Edge) +
           u.entrances.capacity() * sizeof(Entrance);
      for (const Entrance& en : u.entrances) b += en.transitions.capacity() * sizeof(std::uint32_t);
    }
  return b;
}

namespace {
// Takes over a vector's buffer, emptied.
template <class T, class A>
void reuse(std::vector<T, A>& to, std::vector<T, A>& from) {
  to = std::move(from);
  to.clear();
}
}  // namespace

bool HaaAbstraction::build(const GridMap& map, const HaaParams& params, const RunContext& ctx) {
  const Stopwatch clock;
  // A rebuild writes into the buffers of the abstraction it replaces: their pages are mapped
  // already, where a fresh 512x512 abstraction faulted about 150 MB in, most of it in the
  // single-threaded assembly (a good part of the build's wall time).
  HaaAbstraction old = std::move(*this);
  *this = HaaAbstraction();
  threads_ = old.threads_;
  reuse(cells_, old.cells_);
  reuse(node_of_cell_, old.node_of_cell_);
  reuse(refs_, old.refs_);
  reuse(cost_, old.cost_);
  reuse(nodes_, old.nodes_);
  reuse(edges_, old.edges_);
  reuse(arc_begin_, old.arc_begin_);
  reuse(arcs_, old.arcs_);
  footprint_ = std::move(old.footprint_);  // resized and filled below
  // Assembly overwrites these element by element, keeping their inner vectors.
  entrances_ = std::move(old.entrances_);
  cluster_nodes_ = std::move(old.cluster_nodes_);
  segments_ = std::move(old.segments_);
  clusters_ = std::move(old.clusters_);
  params_ = params;
  if (params_.cluster_size < 2) throw InputError("cluster size must be at least 2");
  if (params_.sizes.empty()) params_.sizes = {1};
  std::sort(params_.sizes.begin(), params_.sizes.end());
  w_ = map.width();
  h_ = map.height();
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) move_step_[move_code(dx, dy)] = dy * w_ + dx;
  const int cs = params_.cluster_size;
  ncx_ = (w_ + cs - 1) / cs;
  ncy_ = (h_ + cs - 1) / cs;
  stats_.clusters = std::size_t(ncx_) * std::size_t(ncy_);
  caps_ = params_.capabilities.empty() ? haa_default_capabilities(map) : params_.capabilities;
  cells_ = map.cells();
  palette_ = map.palette();
  terrain_count_.assign(256, 0);
  for (TerrainId t : cells_) ++terrain_count_[t];
  for (TerrainId t : cells_) present_ |= CapabilityMask(1) << t;
  present_ &= map.palette().all_passable();
  const Palette& pal = map.palette();
  if (!pal.uniform_costs()) {
    cost_.resize(cells_.size());
    for (std::size_t i = 0; i < cost_.size(); ++i) cost_[i] = float(pal[cells_[i]].cost);
    min_cost_ = pal.min_cost(present_ ? present_ : pal.all_passable());
  }
  for (CapabilityMask c : caps_) clearance_.push_back(true_clearance(map, c));
  footprint_.resize(params_.sizes.size());
  node_of_cell_.assign(cells_.size(), -1);
  refs_.assign(cells_.size(), 0);
  count_base(0, 0, w_, h_, 1);

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
  watched_ = obs != nullptr;
  // Only the clusters' work reads the footprints: on a large map they are made beside the
  // border scan, which would otherwise run alone.
  auto footprints = [this] {
    for (std::vector<CapabilityMask>& f : footprint_) f.assign(cells_.size(), 0);
    make_footprint(0, 0, w_, h_);
  };
  {
    std::jthread beside;
    if (thread_count(cells_.size(), kCellsPerThread) > 1)
      beside = std::jthread(footprints);
    else
      footprints();
    segments_.resize(segment_count());
    for (Unit& u : segments_) u.clear();
    for (std::size_t s = 0; s < segments_.size(); ++s) scan_segment(s, segments_[s]);
  }
  if (ctx.progress) ctx.progress->store(0.05f, std::memory_order_relaxed);
  clusters_.resize(stats_.clusters);
  std::vector<std::uint32_t> all(stats_.clusters);
  for (std::uint32_t c = 0; c < all.size(); ++c) all[c] = c;
  if (!make_clusters(all, ctx)) {
    *this = HaaAbstraction();
    threads_ = old.threads_;
    return false;
  }
  stats_.rescanned_borders = segments_.size();
  stats_.rebuilt_clusters = clusters_.size();
  assemble(obs);
  watched_ = false;
  stats_.build_ms = clock.ms();
  if (ctx.progress) ctx.progress->store(1.0f, std::memory_order_relaxed);
  return true;
}

bool HaaAbstraction::made_from(const GridMap& map) const {
  return w_ > 0 && map.width() == w_ && map.height() == h_ && map.palette() == palette_ &&
         map.cells() == cells_;
}

// What an edit of the cells in E = [ex0, ex1) x [ey0, ey1) can change:
//   - true clearance looks right and down, so it changes only at cells up and left of E, and
//     update_clearance() recomputes exactly the cells whose clearance may change, row by row
//     from E's bottom up, stopping where nothing changed (in open areas that can be far);
//   - the terrains under a size-s agent's footprint change at most s - 1 cells up and left;
//   - D, the bounding box of E and of every cell whose clearance or footprint changed, holds
//     everything a unit reads that changed: a border segment is re-scanned when its cells meet
//     D, a cluster is rebuilt when its cells meet D or one of its border segments was
//     re-scanned (its nodes may have changed);
//   - node re-use (the Middle placement) lets a horizontal border see the nodes that vertical
//     borders put at its two corner cells, so it is re-scanned when one of those was.
bool HaaAbstraction::update(const GridMap& map, const RunContext& ctx, std::size_t max_changed) {
  const Stopwatch clock;
  if (w_ == 0 || map.width() != w_ || map.height() != h_ || !(map.palette() == palette_))
    return build(map, params_, ctx);
  const std::vector<TerrainId>& now = map.cells();
  if (max_changed == 0) max_changed = std::max<std::size_t>(64, cells_.size() / 32);
  int ex0 = w_, ey0 = h_, ex1 = 0, ey1 = 0;
  std::size_t changed = 0;
  std::vector<std::uint32_t> count = terrain_count_;
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (now[i] == cells_[i]) continue;
    if (++changed > max_changed) return build(map, params_, ctx);
    const int x = int(i % std::size_t(w_)), y = int(i / std::size_t(w_));
    ex0 = std::min(ex0, x);
    ey0 = std::min(ey0, y);
    ex1 = std::max(ex1, x + 1);
    ey1 = std::max(ey1, y + 1);
    --count[cells_[i]];
    ++count[now[i]];
  }
  stats_.incremental = true;
  stats_.rescanned_borders = stats_.rebuilt_clusters = 0;
  if (changed == 0) {
    stats_.build_ms = clock.ms();
    return true;
  }
  // The capabilities, the heuristic's scale and what agents may use depend on the terrains
  // present: a change there is a new abstraction.
  CapabilityMask present = 0;
  for (std::size_t t = 0; t < count.size(); ++t)
    if (count[t]) present |= CapabilityMask(1) << t;
  if ((present & palette_.all_passable()) != present_) return build(map, params_, ctx);
  terrain_count_ = std::move(count);
  // The base graph's counts: an adjacency is counted at its upper (then left) cell.
  const int bx0 = std::max(0, ex0 - 1), by0 = std::max(0, ey0 - 1), bx1 = std::min(w_, ex1 + 1);
  count_base(bx0, by0, bx1, ey1, -1);
  for (int y = ey0; y < ey1; ++y)
    for (int x = ex0; x < ex1; ++x) {
      const std::size_t i = std::size_t(y) * std::size_t(w_) + std::size_t(x);
      cells_[i] = now[i];
      if (!cost_.empty()) cost_[i] = float(palette_[now[i]].cost);
    }
  count_base(bx0, by0, bx1, ey1, 1);
  const int reach = params_.sizes.back() - 1;
  int dx0 = std::max(0, ex0 - reach), dy0 = std::max(0, ey0 - reach);
  make_footprint(dx0, dy0, ex1, ey1);
  for (std::size_t ci = 0; ci < caps_.size(); ++ci) {
    int mx = dx0, my = dy0;
    update_clearance(ci, ex0, ey0, ex1, ey1, mx, my);
    dx0 = std::min(dx0, mx);
    dy0 = std::min(dy0, my);
  }
  // D = [dx0, ex1) x [dy0, ey1).
  const int cs = params_.cluster_size;
  const std::size_t nv = vertical_segments();
  std::vector<std::uint8_t> dirty(segments_.size(), 0);
  auto meets = [&](int x0, int y0, int x1, int y1) {  // [x0, x1) x [y0, y1) meets D
    return x0 < ex1 && dx0 < x1 && y0 < ey1 && dy0 < y1;
  };
  for (int k = 1; k < ncx_; ++k)
    for (int sg = dy0 / cs; sg <= (ey1 - 1) / cs; ++sg)
      if (meets(k * cs - 1, sg * cs, k * cs + 1, sg * cs + cs)) {
        dirty[std::size_t(k - 1) * std::size_t(ncy_) + std::size_t(sg)] = 1;
        for (int kh : {sg, sg + 1})
          for (int sh : {k - 1, k})
            if (kh >= 1 && kh < ncy_ && sh < ncx_)
              dirty[nv + std::size_t(kh - 1) * std::size_t(ncx_) + std::size_t(sh)] = 1;
      }
  for (int k = 1; k < ncy_; ++k)
    for (int sg = dx0 / cs; sg <= (ex1 - 1) / cs; ++sg)
      if (meets(sg * cs, k * cs - 1, sg * cs + cs, k * cs + 1))
        dirty[nv + std::size_t(k - 1) * std::size_t(ncx_) + std::size_t(sg)] = 1;
  std::vector<std::uint8_t> rebuild(clusters_.size(), 0);
  for (int cy = dy0 / cs; cy <= (ey1 - 1) / cs; ++cy)
    for (int cx = dx0 / cs; cx <= (ex1 - 1) / cs; ++cx) rebuild[std::size_t(cy * ncx_ + cx)] = 1;
  // Vertical segments first: the horizontal ones see their nodes.
  for (std::size_t s = 0; s < segments_.size(); ++s) {
    if (!dirty[s]) continue;
    scan_segment(s, segments_[s]);
    ++stats_.rescanned_borders;
    const Entrance probe = segment_clusters(s);
    rebuild[std::size_t(probe.cluster_a)] = rebuild[std::size_t(probe.cluster_b)] = 1;
  }
  std::vector<std::uint32_t> which;
  for (std::uint32_t c = 0; c < rebuild.size(); ++c)
    if (rebuild[c]) which.push_back(c);
  stats_.rebuilt_clusters = which.size();
  watched_ = ctx.observer != nullptr;
  if (!make_clusters(which, ctx)) {
    const int threads = threads_;
    *this = HaaAbstraction();
    threads_ = threads;
    return false;
  }
  assemble(ctx.observer);
  watched_ = false;
  stats_.build_ms = clock.ms();
  return true;
}

// Recomputes clearance(x, y) = 1 + min(right, down, down-right) (0 outside the capability)
// bottom-up and right to left from E's bottom-right corner. Row y needs work from E's right
// edge down to the leftmost of: E's left edge (rows of E), one left of the leftmost change in
// the row below, and any cell whose right neighbour just changed. Returns (through min_x,
// min_y) the top-left corner of the changes.
void HaaAbstraction::update_clearance(std::size_t ci, int ex0, int ey0, int ex1, int ey1,
                                      int& min_x, int& min_y) {
  ClearanceGrid& cl = clearance_[ci];
  const CapabilityMask cap = caps_[ci];
  constexpr int kNone = std::numeric_limits<int>::max();
  int lo_below = kNone;  // leftmost change in the row below
  for (int y = ey1 - 1; y >= 0; --y) {
    const bool in_edit = y >= ey0;
    if (!in_edit && lo_below == kNone) break;
    const int start = std::min(in_edit ? ex0 : kNone, lo_below == kNone ? kNone : lo_below - 1);
    int lo = kNone;
    bool prev_changed = false;
    for (int x = ex1 - 1; x >= 0; --x) {
      if (x < start && !prev_changed) break;
      const std::size_t i = std::size_t(y) * std::size_t(w_) + std::size_t(x);
      std::uint16_t v = 0;
      if (cap >> cells_[i] & 1u)
        v = (y == h_ - 1 || x == w_ - 1)
                ? 1
                : std::uint16_t(
                      std::min({cl[i + 1], cl[i + std::size_t(w_)], cl[i + std::size_t(w_) + 1]}) +
                      1);
      prev_changed = v != cl[i];
      if (prev_changed) {
        cl[i] = v;
        lo = x;
      }
    }
    lo_below = lo;
    if (lo != kNone) {
      min_x = std::min(min_x, lo);
      min_y = std::min(min_y, y);
    }
  }
}

// The terrains under a size-s agent standing at each cell of [x0, x1) x [y0, y1) (its s x s
// square, clipped to the map), for the intra-edges' capability annotation.
void HaaAbstraction::make_footprint(int x0, int y0, int x1, int y1) {
  const int rw = x1 - x0;
  std::vector<CapabilityMask> rows;  // terrains of cells x..x+s-1
  for (std::size_t si = 0; si < params_.sizes.size(); ++si) {
    const int s = params_.sizes[si];
    const int ry1 = std::min(h_, y1 + s - 1);
    rows.assign(std::size_t(rw) * std::size_t(ry1 - y0), 0);
    for (int y = y0; y < ry1; ++y)
      for (int x = x0; x < x1; ++x) {
        CapabilityMask m = 0;
        for (int fx = x; fx < std::min(w_, x + s); ++fx)
          m |= CapabilityMask(1) << cells_[std::size_t(y) * std::size_t(w_) + std::size_t(fx)];
        rows[std::size_t(y - y0) * std::size_t(rw) + std::size_t(x - x0)] = m;
      }
    std::vector<CapabilityMask>& f = footprint_[si];
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        CapabilityMask m = 0;
        for (int fy = y; fy < std::min(ry1, y + s); ++fy)
          m |= rows[std::size_t(fy - y0) * std::size_t(rw) + std::size_t(x - x0)];
        f[std::size_t(y) * std::size_t(w_) + std::size_t(x)] = m;
      }
  }
}

// The base graph: traversable cells (any passable terrain) and their octile adjacencies
// without corner cutting, each counted at its upper (or left) cell; adds (sign 1) or removes
// (sign -1) the counts of the cells of [x0, x1) x [y0, y1).
void HaaAbstraction::count_base(int x0, int y0, int x1, int y1, int sign) {
  const CapabilityMask all = palette_.all_passable();
  auto free_at = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < w_ && y < h_ &&
           (all >> cells_[std::size_t(y) * std::size_t(w_) + std::size_t(x)] & 1u);
  };
  std::size_t nodes = 0, edges = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      if (!free_at(x, y)) continue;
      ++nodes;
      edges += free_at(x + 1, y) + free_at(x, y + 1);
      edges += free_at(x + 1, y + 1) && free_at(x + 1, y) && free_at(x, y + 1);
      edges += free_at(x - 1, y + 1) && free_at(x - 1, y) && free_at(x, y + 1);
    }
  if (sign > 0) {
    stats_.base_nodes += nodes;
    stats_.base_edges += edges;
  } else {
    stats_.base_nodes -= nodes;
    stats_.base_edges -= edges;
  }
}

// The two clusters of a border segment (in an Entrance's fields), and its first pair.
HaaAbstraction::Entrance HaaAbstraction::segment_clusters(std::size_t seg) const {
  const int cs = params_.cluster_size;
  Entrance en;
  en.vertical = seg < vertical_segments();
  if (en.vertical) {
    const int k = int(seg / std::size_t(ncy_)) + 1, sg = int(seg % std::size_t(ncy_));
    en.x = k * cs - 1;
    en.y = sg * cs;
    en.cluster_a = sg * ncx_ + k - 1;
    en.cluster_b = en.cluster_a + 1;
    en.length = std::min(h_, en.y + cs) - en.y;
  } else {
    const std::size_t s2 = seg - vertical_segments();
    const int k = int(s2 / std::size_t(ncx_)) + 1, sg = int(s2 % std::size_t(ncx_));
    en.x = sg * cs;
    en.y = k * cs - 1;
    en.cluster_a = (k - 1) * ncx_ + sg;
    en.cluster_b = en.cluster_a + ncx_;
    en.length = std::min(w_, en.x + cs) - en.x;
  }
  return en;
}

// Scans one border segment once per capability. A run of pairs ends at the segment's end (so a
// run touching a cluster corner is closed there, not dropped), at a pair with a cell outside
// the capability (the scan then restarts at the next free pair), and where the clearance of
// either side rises (a new entrance starts at that pair). Re-scanning first withdraws the
// segment's old transitions from refs_.
void HaaAbstraction::scan_segment(std::size_t seg, Unit& out) {
  const Entrance where = segment_clusters(seg);
  const bool vertical = where.vertical;
  const std::uint32_t mine = vertical ? 1u : 1u << 16;
  // A vertical border sees only nodes of vertical borders (made before any horizontal one).
  const std::uint32_t visible = vertical ? 0xffffu : 0xffffffffu;
  for (std::uint32_t cell : out.nodes) refs_[cell] -= mine;
  out.clear();
  struct Pair {
    std::uint32_t a, b;  // cells
  };
  std::vector<Pair> pairs(std::size_t(where.length));
  for (int i = 0; i < where.length; ++i) {
    const int ax = vertical ? where.x : where.x + i, ay = vertical ? where.y + i : where.y;
    const std::uint32_t a = std::uint32_t(ay * w_ + ax);
    pairs[std::size_t(i)] = {a, vertical ? a + 1 : a + std::uint32_t(w_)};
  }
  std::vector<int> m;
  auto close_run = [&](std::size_t ci, int i0, int i1) {
    const ClearanceGrid& cl = clearance_[ci];
    Entrance en = where;
    en.capability = caps_[ci];
    en.x = int(pairs[std::size_t(i0)].a % std::uint32_t(w_));
    en.y = int(pairs[std::size_t(i0)].a / std::uint32_t(w_));
    en.length = i1 - i0;
    m.resize(std::size_t(i1 - i0));
    for (int i = i0; i < i1; ++i) {
      const Pair& p = pairs[std::size_t(i)];
      m[std::size_t(i - i0)] = std::min(int(cl[p.a]), int(cl[p.b]));
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
        const bool reused = (refs_[p.a] & visible) != 0 && (refs_[p.b] & visible) != 0;
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
        if (en.length >= std::max(3, params_.cluster_size / 2) && en.length - 1 != chosen[0])
          chosen.push_back(en.length - 1);
        break;
    }
    for (int k : chosen) {
      const Pair& p = pairs[std::size_t(i0 + k)];
      Edge e;
      e.a = p.a;
      e.b = p.b;
      e.capability = caps_[ci];
      e.clearance = std::uint16_t(m[std::size_t(k)]);
      e.weight = 1.0;
      if (!cost_.empty()) e.weight = terrain_step_cost(1.0, cost_[p.a], cost_[p.b]);
      e.inter = true;
      e.path_length = 2;
      refs_[p.a] += mine;
      refs_[p.b] += mine;
      out.nodes.push_back(p.a);
      out.nodes.push_back(p.b);
      en.transitions.push_back(std::uint32_t(out.edges.size()));
      out.edges.push_back(e);
      ++out.transitions;
    }
    out.entrances.push_back(std::move(en));
  };
  for (std::size_t ci = 0; ci < caps_.size(); ++ci) {
    const ClearanceGrid& cl = clearance_[ci];
    int start = -1, prev_a = 0, prev_b = 0;
    for (int i = 0; i < int(pairs.size()); ++i) {
      const Pair& p = pairs[std::size_t(i)];
      const int ca = cl[p.a], cb = cl[p.b];
      if (ca == 0 || cb == 0) {
        if (start >= 0) close_run(ci, start, i);
        start = -1;
      } else if (start < 0) {
        start = i;
      } else if (ca > prev_a || cb > prev_b) {
        close_run(ci, start, i);
        start = i;
      }
      prev_a = ca;
      prev_b = cb;
    }
    if (start >= 0) close_run(ci, start, int(pairs.size()));
  }
  Scratch scratch;
  unit_dominance(out, scratch);
}

// The clearance a path offers: the smallest of its cells' and of the side cells of its
// diagonal moves (which must be free for the agent as well). The path starts at cell `from`.
int HaaAbstraction::path_clearance(const ClearanceGrid& cl, std::uint32_t from,
                                   std::span<const std::uint8_t> moves) const {
  std::int64_t cell = from;
  int pc = cl[std::size_t(cell)];
  for (const std::uint8_t m : moves) {
    const int dx = m % 3 - 1, dy = m / 3 - 1;
    if (dx != 0 && dy != 0)
      pc = std::min({pc, int(cl[std::size_t(cell + dx)]), int(cl[std::size_t(cell + dy * w_)])});
    cell += move_step_[m];
    pc = std::min(pc, int(cl[std::size_t(cell)]));
  }
  return pc;
}

void HaaAbstraction::append_path(const Edge& e, bool from_b,
                                 std::vector<std::uint32_t>& out) const {
  const Node& na = nodes_[e.a];
  const Node& nb = nodes_[e.b];
  if (e.inter) {
    const Node& to = from_b ? na : nb;
    out.push_back(std::uint32_t(to.y * w_ + to.x));
    return;
  }
  const std::uint8_t* m = clusters_[std::size_t(na.cluster)].moves.data() + e.path_offset;
  const std::size_t at = out.size(), n = e.path_length - 1;
  out.resize(at + n);
  std::uint32_t* o = out.data() + at;
  if (!from_b) {
    std::uint32_t cell = std::uint32_t(na.y * w_ + na.x);
    for (std::size_t k = 0; k < n; ++k)
      o[k] = cell = std::uint32_t(std::int64_t(cell) + move_step_[m[k]]);
  } else {
    // Backwards: each move undone, from the last.
    std::uint32_t cell = std::uint32_t(nb.y * w_ + nb.x);
    for (std::size_t k = 0; k < n; ++k)
      o[k] = cell = std::uint32_t(std::int64_t(cell) - move_step_[m[n - 1 - k]]);
  }
}

void HaaAbstraction::path_of(const Edge& e, std::vector<std::uint32_t>& out) const {
  out.assign(1, std::uint32_t(nodes_[e.a].y * w_ + nodes_[e.a].x));
  append_path(e, false, out);
}

// One Dijkstra inside the cluster per (abstract node, capability, size): it yields the optimal
// lengths to every other node of the cluster at once, where one A* per pair would expand the
// cluster's cells over and over. The Dijkstra from the i-th node stops once the later nodes the
// agent can stand on are settled (their distances and parents are then final, so the edges are
// those of a full search). The nodes are the cluster's cells that carry transitions, by cell
// index.
void HaaAbstraction::cluster_unit(std::size_t c, LocalSearch& search, Scratch& scratch,
                                  Unit& result) const {
  Unit& out = scratch.unit;
  out.clear();
  std::vector<std::uint32_t>& wanted = scratch.wanted;
  LocalSearch::Area area;
  cluster_rect(int(c), area.x0, area.y0, area.x1, area.y1);
  std::vector<std::uint32_t>& mem = out.nodes;
  for (int y = area.y0; y < area.y1; ++y) {
    const bool edge_row = y == area.y0 || y == area.y1 - 1;
    for (int x = area.x0; x < area.x1; x = (edge_row || x == area.x1 - 1) ? x + 1 : area.x1 - 1) {
      const std::uint32_t cell = std::uint32_t(y * w_ + x);
      if (refs_[cell]) mem.push_back(cell);
    }
  }
  for (std::size_t ci = 0; ci < caps_.size() && mem.size() >= 2; ++ci) {
    const ClearanceGrid& cl = clearance_[ci];
    auto at = [&](std::uint32_t cell) { return int(cl[cell]); };
    for (std::size_t si = 0; si < params_.sizes.size(); ++si) {
      const int s = params_.sizes[si];
      bool prepared = false;  // the area for (c, s), made when the first source needs it
      for (std::size_t i = 0; i + 1 < mem.size(); ++i) {
        const int sx = int(mem[i]) % w_, sy = int(mem[i]) / w_;
        if (at(mem[i]) < s) continue;
        wanted.clear();
        for (std::size_t j = i + 1; j < mem.size(); ++j)
          if (at(mem[j]) >= s) wanted.push_back(mem[j]);
        if (wanted.empty()) continue;
        if (!prepared) search.prepare(area, w_, h_, cl.data(), s, cost_, min_cost_);
        prepared = true;
        search.dijkstra(sx, sy, wanted);
        ++out.searches;
        out.expanded += search.expanded();
        for (std::size_t j = i + 1; j < mem.size(); ++j) {
          const int tx = int(mem[j]) % w_, ty = int(mem[j]) / w_;
          const double d = search.distance(tx, ty);
          if (!std::isfinite(d)) continue;
          // The clearance the whole path offers: its cells and the side cells of its diagonal
          // moves (which must be free for the agent as well).
          // Beyond the paper: the capability the path really needs is the set of terrains
          // under the agent's footprint along it. When the abstraction holds that smaller
          // capability, the edge is annotated with it (and its clearance along the path):
          // the same path found by searches for several capabilities then collapses into one
          // edge under strong dominance, and agents lacking unused terrains may use it.
          CapabilityMask need = 0;
          const std::size_t at0 = out.moves.size();  // the path goes straight into the unit
          int pc = search.path_moves(tx, ty, out.moves, cl.data(), footprint_[si].data(), need);
          const std::span<const std::uint8_t> path(out.moves.data() + at0, out.moves.size() - at0);
          need &= caps_[ci];
          std::size_t use = ci;
          if (need != caps_[ci])
            for (std::size_t k = 0; k < caps_.size(); ++k)
              if (caps_[k] == need) use = k;
          if (use != ci) {
            const int pc2 = path_clearance(clearance_[use], mem[i], path);
            if (pc2 >= s)
              pc = pc2;
            else
              use = ci;  // cannot happen (the footprints hold only `need`); kept safe
          }
          Edge e;
          e.a = mem[i];
          e.b = mem[j];
          e.capability = caps_[use];
          e.clearance = std::uint16_t(pc);
          e.weight = d;
          e.path_offset = std::uint32_t(at0);
          e.path_length = std::uint32_t(path.size() + 1);
          out.edges.push_back(e);
        }
      }
    }
  }
  unit_dominance(out, scratch);
  result.copy_from(out);
}

void HaaAbstraction::Unit::copy_from(const Unit& from) {
  edges.assign(from.edges.begin(), from.edges.end());
  moves.assign(from.moves.begin(), from.moves.end());
  entrances.assign(from.entrances.begin(), from.entrances.end());
  nodes.assign(from.nodes.begin(), from.nodes.end());
  removed.assign(from.removed.begin(), from.removed.end());
  transitions = from.transitions;
  removed_strong = from.removed_strong;
  searches = from.searches;
  expanded = from.expanded;
}

// Makes the intra-edges of the clusters `which`. Clusters are independent: they are shared out
// among threads, each with its own LocalSearch, and each writes only its own unit, so the
// abstraction is the same whatever the number of threads.
bool HaaAbstraction::make_clusters(const std::vector<std::uint32_t>& which, const RunContext& ctx) {
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> stopped{false};
  const std::size_t n = which.size();
  auto work = [&] {
    LocalSearch search;
    Scratch scratch;
    for (;;) {
      const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= n || stopped.load(std::memory_order_relaxed)) return;
      if (ctx.cancelled()) {
        stopped.store(true, std::memory_order_relaxed);
        return;
      }
      cluster_unit(which[k], search, scratch, clusters_[which[k]]);
      const std::size_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (ctx.progress && (d & 15) == 0)
        ctx.progress->store(0.05f + 0.85f * float(d) / float(n), std::memory_order_relaxed);
    }
  };
  run_parts(thread_count(n, 8), [&](std::size_t) { work(); });
  return !stopped;
}

std::size_t HaaAbstraction::thread_count(std::size_t n, std::size_t per_thread) const {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  // Unless told, a thread per hardware thread, with at least `per_thread` items each.
  const std::size_t wanted = threads_ > 0 ? std::size_t(threads_) : hw;
  return std::max<std::size_t>(1, std::min(wanted, (n + per_thread - 1) / per_thread));
}

// Within one unit: Low quality truncates clearances to the largest size; then Theorem 6
// (unless Initial): between the same two nodes, an edge whose capability is a subset of
// another's, whose clearance is at least the other's and whose weight is equal makes the other
// redundant. Exact duplicates keep the first. The relation is a strict order, so whatever
// removes an edge survives or is itself removed by one that covers both. Removed edges are
// dropped (with their paths) and the entrances' transitions renumbered.
void HaaAbstraction::unit_dominance(Unit& u, Scratch& scratch) const {
  if (params_.quality == HaaQuality::Low) {
    const int smax = params_.sizes.back();
    for (Edge& e : u.edges) e.clearance = std::uint16_t(std::min(int(e.clearance), smax));
  }
  if (params_.quality == HaaQuality::Initial || u.edges.size() < 2) return;
  // By node pair, then index, on precomputed keys.
  std::vector<std::pair<std::uint64_t, std::uint32_t>>& keyed = scratch.keyed;
  keyed.resize(u.edges.size());
  for (std::uint32_t i = 0; i < keyed.size(); ++i) {
    const Edge& e = u.edges[i];
    keyed[i] = {std::uint64_t(std::min(e.a, e.b)) << 32 | std::max(e.a, e.b), i};
  }
  std::sort(keyed.begin(), keyed.end());
  auto dominates = [&](std::uint32_t ia, std::uint32_t ib) {
    const Edge& a = u.edges[ia];
    const Edge& b = u.edges[ib];
    if ((a.capability & ~b.capability) != 0 || a.clearance < b.clearance) return false;
    if (!same_weight(a.weight, b.weight) && a.weight > b.weight) return false;
    const bool strictly = a.capability != b.capability || a.clearance > b.clearance ||
                          !same_weight(a.weight, b.weight);
    return strictly || ia < ib;
  };
  std::size_t removed = 0;
  for (std::size_t g0 = 0; g0 < keyed.size();) {
    std::size_t g1 = g0 + 1;
    while (g1 < keyed.size() && keyed[g1].first == keyed[g0].first) ++g1;
    for (std::size_t i = g0; i < g1; ++i)
      for (std::size_t j = g0; j < g1; ++j) {
        if (i == j || !dominates(keyed[j].second, keyed[i].second)) continue;
        u.edges[keyed[i].second].alive = false;
        ++removed;
        break;
      }
    g0 = g1;
  }
  if (removed == 0) return;
  u.removed_strong = removed;
  std::vector<std::uint32_t>& remap = scratch.remap;
  remap.assign(u.edges.size(), kNoNode);
  // Compacted in place: the paths lie in edge order, so every kept one moves left (or stays).
  std::uint32_t kept = 0, moves = 0;
  for (std::uint32_t i = 0; i < u.edges.size(); ++i) {
    Edge e = u.edges[i];
    if (!e.alive) {
      if (watched_) u.removed.push_back(e);
      continue;
    }
    remap[i] = kept;
    if (!e.inter) {
      const std::uint32_t n = e.path_length - 1;
      std::copy(u.moves.begin() + e.path_offset, u.moves.begin() + e.path_offset + n,
                u.moves.begin() + moves);
      e.path_offset = moves;
      moves += n;
    }
    u.edges[kept++] = e;
  }
  u.edges.resize(kept);
  u.moves.resize(moves);
  for (Entrance& en : u.entrances) {
    std::size_t n = 0;
    for (std::uint32_t ei : en.transitions)
      if (remap[ei] != kNoNode) en.transitions[n++] = remap[ei];
    en.transitions.resize(n);
  }
}

// Lays the units out: nodes by cluster, then cell; the borders' inter-edges in scan order, then
// the clusters' intra-edges in cluster order; then weak dominance (Low) and the arcs.
void HaaAbstraction::assemble(SearchObserver* obs) {
  for (const Node& n : nodes_)
    node_of_cell_[std::size_t(n.y) * std::size_t(w_) + std::size_t(n.x)] = -1;
  nodes_.clear();
  stats_.entrances = stats_.transitions = stats_.removed_strong = 0;
  stats_.removed_weak = stats_.removed_nodes = 0;
  stats_.nodes = stats_.edges = stats_.inter_edges = stats_.intra_edges = 0;
  stats_.searches = stats_.expanded = 0;
  std::size_t total_edges = 0, total_nodes = 0, total_entrances = 0;
  for (const Unit& u : segments_) {
    total_edges += u.edges.size();
    total_entrances += u.entrances.size();
  }
  for (const Unit& u : clusters_) {
    total_edges += u.edges.size();
    total_nodes += u.nodes.size();
  }
  nodes_.reserve(total_nodes);
  for (std::size_t c = 0; c < clusters_.size(); ++c)
    for (std::uint32_t cell : clusters_[c].nodes) {
      node_of_cell_[cell] = std::int32_t(nodes_.size());
      nodes_.push_back(
          {int(cell % std::uint32_t(w_)), int(cell / std::uint32_t(w_)), int(c), true});
    }
  edges_.resize(total_edges);
  // Element-wise assignment keeps the entrances' transition vectors (no allocation per
  // entrance after the first assembly).
  entrances_.resize(total_entrances);
  std::size_t ne = 0, nen = 0;
  for (Unit& u : segments_) {
    const std::uint32_t base = std::uint32_t(ne);
    for (const Edge& e : u.edges) {
      Edge& g = edges_[ne++];
      g = e;
      g.a = std::uint32_t(node_of_cell_[e.a]);
      g.b = std::uint32_t(node_of_cell_[e.b]);
    }
    for (const Entrance& en : u.entrances) {
      Entrance& g = entrances_[nen++];
      g = en;
      for (std::uint32_t& t : g.transitions) t += base;
    }
    stats_.entrances += u.entrances.size();
    stats_.transitions += u.transitions;
    stats_.removed_strong += u.removed_strong;
  }
  // The clusters' edges, shared among threads by ranges of clusters of about equal edge
  // counts (their first write faults in most of edges_). An intra-edge's path stays in its
  // cluster's unit (path_of() finds it there).
  std::vector<std::size_t> edge_at(clusters_.size() + 1, ne);
  for (std::size_t c = 0; c < clusters_.size(); ++c) {
    const Unit& u = clusters_[c];
    edge_at[c + 1] = edge_at[c] + u.edges.size();
    stats_.removed_strong += u.removed_strong;
    stats_.searches += u.searches;
    stats_.expanded += u.expanded;
  }
  const std::size_t parts = thread_count(total_edges, kEdgesPerThread);
  const std::vector<std::size_t> bounds = split_by_weight(edge_at, parts);
  run_parts(parts, [&](std::size_t k) {
    for (std::size_t c = bounds[k]; c < bounds[k + 1]; ++c) {
      Edge* g = edges_.data() + edge_at[c];
      for (const Edge& e : clusters_[c].edges) {
        *g = e;
        g->a = std::uint32_t(node_of_cell_[e.a]);
        g->b = std::uint32_t(node_of_cell_[e.b]);
        ++g;
      }
    }
  });
  if (obs) report_units(obs);
  if (params_.quality == HaaQuality::Low) weak_dominance(obs);
  finish(obs);
}

// What a watched build shows, phase by phase: entrances (a frame per border segment), the
// transitions, the intra-edges (a frame per cluster, the dominated ones included) and what
// strong dominance removed.
void HaaAbstraction::report_units(SearchObserver* obs) const {
  auto segment_of = [&](const Edge& e) {
    return Shape::segment(centre(int(e.a) % w_, int(e.a) / w_),
                          centre(int(e.b) % w_, int(e.b) / w_));
  };
  obs->phase("scan entrances");
  std::uint32_t ei = 0;
  for (const Unit& u : segments_) {
    for (const Entrance& en : u.entrances) {
      Shape s = en.vertical ? Shape::segment({double(en.x + 1), double(en.y)},
                                             {double(en.x + 1), double(en.y + en.length)})
                            : Shape::segment({double(en.x), double(en.y + 1)},
                                             {double(en.x + en.length), double(en.y + 1)});
      s.tag = ei++;
      obs->mark(s.require(en.capability, en.clearance), Role::Entrance);
    }
    obs->frame();
  }
  obs->phase("choose transitions");
  for (std::uint32_t i = 0; i < edges_.size(); ++i) {
    const Edge& e = edges_[i];
    if (!e.inter) continue;
    Shape s =
        Shape::segment(centre(nodes_[e.a].x, nodes_[e.a].y), centre(nodes_[e.b].x, nodes_[e.b].y));
    s.tag = i;
    obs->mark(s.require(e.capability, e.clearance), Role::Transition);
  }
  obs->frame();
  obs->phase("intra edges");
  std::uint32_t next = 0;
  while (next < edges_.size() && edges_[next].inter) ++next;
  for (const Unit& u : clusters_) {
    for (std::size_t k = 0; k < u.edges.size(); ++k, ++next) {
      const Edge& e = edges_[next];
      Shape sh = Shape::segment(centre(nodes_[e.a].x, nodes_[e.a].y),
                                centre(nodes_[e.b].x, nodes_[e.b].y));
      sh.tag = next;
      obs->mark(sh.require(e.capability, e.clearance), Role::Candidate);
    }
    for (const Edge& e : u.removed)
      obs->mark(segment_of(e).require(e.capability, e.clearance), Role::Candidate);
    if (u.nodes.size() >= 2) obs->frame();
  }
  if (params_.quality == HaaQuality::Initial) return;
  obs->phase("dominance (strong)");
  for (const std::vector<Unit>* units : {&segments_, &clusters_})
    for (const Unit& u : *units)
      for (const Edge& e : u.removed)
        obs->test(segment_of(e).require(e.capability, e.clearance), false);
  obs->frame();
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
      if (nodes_[e.a].cluster > nodes_[e.b].cluster) std::swap(e.a, e.b);
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
  // Drop the edges weak dominance removed (strong dominance already dropped its own, with their
  // paths, inside the units).
  if (std::any_of(edges_.begin(), edges_.end(), [](const Edge& e) { return !e.alive; })) {
    std::vector<std::uint32_t> remap(edges_.size(), kNoNode);
    // Their paths stay in the units (kept whole for later updates).
    Edges kept;
    for (std::uint32_t i = 0; i < edges_.size(); ++i) {
      if (!edges_[i].alive) continue;
      remap[i] = std::uint32_t(kept.size());
      kept.push_back(edges_[i]);
    }
    edges_ = std::move(kept);
    for (Entrance& en : entrances_) {
      std::vector<std::uint32_t> t;
      for (std::uint32_t ei : en.transitions)
        if (remap[ei] != kNoNode) t.push_back(remap[ei]);
      en.transitions = std::move(t);
    }
  }
  cluster_nodes_.resize(std::size_t(ncx_) * std::size_t(ncy_));
  for (auto& members : cluster_nodes_) members.clear();
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
  // Shared among threads by ranges of nodes with about equal arc counts: each reads every edge
  // and writes only its own nodes' arcs, so every node's arcs are still in edge order.
  const std::size_t parts = thread_count(edges_.size(), kEdgesPerThread);
  const std::vector<std::size_t> bounds =
      split_by_weight(std::vector<std::size_t>(arc_begin_.begin(), arc_begin_.end()), parts);
  run_parts(parts, [&](std::size_t k) {
    const std::uint32_t lo = std::uint32_t(bounds[k]), hi = std::uint32_t(bounds[k + 1]);
    for (std::uint32_t i = 0; i < edges_.size(); ++i) {
      const Edge& e = edges_[i];
      if (!e.alive) continue;
      if (e.a >= lo && e.a < hi) arcs_[next[e.a]++] = {e.b, i};
      if (e.b >= lo && e.b < hi) arcs_[next[e.b]++] = {e.a, i};
    }
  });
  if (obs) {
    obs->phase("abstraction");
    obs->counter("abstract nodes", double(stats_.nodes));
    obs->counter("abstract edges", double(stats_.edges));
    obs->frame();
  }
}

}  // namespace pl

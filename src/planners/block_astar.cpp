#include "planners/block_astar.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/grid_query.hpp"
#include "planners/anyangle.hpp"
#include "planners/corner_world.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {

constexpr int kB = BlockAStarSearch::kB;
constexpr int kC = BlockAStarSearch::kC;
constexpr int kN = kC * kC;  // local corners of a block
constexpr int kBoundary = BlockAStarSearch::kBoundary;
constexpr double kInf = std::numeric_limits<double>::infinity();

double dist(double ax, double ay, double bx, double by) {
  const double dx = bx - ax, dy = by - ay;
  return std::sqrt(dx * dx + dy * dy);
}

// The boundary corners of a block, clockwise from its top-left corner, and the boundary index of
// each local corner (-1 inside).
struct BoundaryTable {
  int x[kBoundary], y[kBoundary];
  int index[kN];
  BoundaryTable() {
    std::fill(std::begin(index), std::end(index), -1);
    int k = 0;
    const auto add = [&](int lx, int ly) {
      x[k] = lx;
      y[k] = ly;
      index[ly * kC + lx] = k++;
    };
    for (int lx = 0; lx < kB; ++lx) add(lx, 0);
    for (int ly = 0; ly < kB; ++ly) add(kB, ly);
    for (int lx = kB; lx > 0; --lx) add(lx, kB);
    for (int ly = kB; ly > 0; --ly) add(0, ly);
  }
};
const BoundaryTable kBound;

// Index of the pair i != j in the upper triangle.
int tri(int i, int j) {
  if (i > j) std::swap(i, j);
  return i * (2 * kBoundary - i - 1) / 2 + (j - i - 1);
}

}  // namespace

BlockAStarSearch::Local::Local(std::uint32_t pattern) {
  std::uint8_t mask[kB * kB];
  for (int i = 0; i < kB * kB; ++i) mask[i] = std::uint8_t((pattern >> i) & 1u);
  grid = CornerGrid(kB, kB, mask);
  for (int i = 0; i < kN; ++i)
    for (int j = i + 1; j < kN; ++j)
      if (grid.visible(i % kC, i / kC, j % kC, j / kC)) {
        vis[std::size_t(i)] |= std::uint64_t(1) << j;
        vis[std::size_t(j)] |= std::uint64_t(1) << i;
      }
}

void BlockAStarSearch::Local::shortest(int src, double* d, int* parent) const {
  bool done[kN] = {};
  for (int i = 0; i < kN; ++i) d[i] = kInf, parent[i] = -1;
  d[src] = 0;
  for (;;) {
    int c = -1;
    for (int i = 0; i < kN; ++i)
      if (!done[i] && d[i] < kInf && (c < 0 || d[i] < d[c])) c = i;
    if (c < 0) return;
    done[c] = true;
    if (c != src && grid.pinch(c % kC, c / kC)) continue;  // an endpoint only
    for (std::uint64_t bits = vis[std::size_t(c)]; bits; bits &= bits - 1) {
      const int j = __builtin_ctzll(bits);
      if (done[j]) continue;
      const double nd = d[c] + dist(c % kC, c / kC, j % kC, j / kC);
      if (nd < d[j]) d[j] = nd, parent[j] = c;
    }
  }
}

std::size_t BlockAStarSearch::memory_bytes() const {
  return grid_.memory_bytes() + pool_.memory_bytes() + open_.memory_bytes() +
         (block_entry_.capacity() + block_pattern_.capacity()) * sizeof(std::uint32_t) +
         lddb_.capacity() * sizeof(Entry) +
         lddb_index_.size() * (sizeof(std::uint32_t) * 2 + 2 * sizeof(void*));
}

// The last row and column of blocks reach past the map when its sides are not multiples of the
// block size; those cells count as blocked, like the map's border (CornerGrid::blocked answers
// only for one cell beyond each side).
bool BlockAStarSearch::blocked_or_outside(int x, int y) const {
  return x >= grid_.width() || y >= grid_.height() || grid_.blocked(x, y);
}

std::uint32_t BlockAStarSearch::pattern(int bx, int by) const {
  std::uint32_t p = 0;
  for (int ly = 0; ly < kB; ++ly)
    for (int lx = 0; lx < kB; ++lx)
      if (blocked_or_outside(bx * kB + lx, by * kB + ly)) p |= 1u << (ly * kB + lx);
  return p;
}

bool BlockAStarSearch::prepare(const GridMap& map, CapabilityMask cap, PlanResult& r) {
  const Stopwatch clock;
  grid_ = CornerGrid(map, cap);
  bw_ = (map.width() + kB - 1) / kB;
  bh_ = (map.height() + kB - 1) / kB;
  block_entry_.assign(std::size_t(bw_) * std::size_t(bh_), 0);
  block_pattern_.assign(block_entry_.size(), 0);
  refused_.clear();
  std::size_t fresh = 0;
  for (int by = 0; by < bh_; ++by)
    for (int bx = 0; bx < bw_; ++bx) {
      const std::uint32_t p = pattern(bx, by);
      const std::size_t b = std::size_t(by) * std::size_t(bw_) + std::size_t(bx);
      block_pattern_[b] = p;
      auto it = lddb_index_.find(p);
      if (it == lddb_index_.end()) {
        if (lddb_.size() >= kMaxPatterns && fresh < lddb_.size()) {
          // Full of other maps' patterns: start the database afresh for this map.
          lddb_.clear();
          lddb_index_.clear();
          return prepare(map, cap, r);
        }
        if (lddb_.size() >= kMaxPatterns) {  // this map alone has more patterns than that
          char buf[160];
          std::snprintf(buf, sizeof buf,
                        "the map has more than %zu distinct 5x5 block patterns, the local "
                        "distance database's limit", kMaxPatterns);
          refused_ = buf;
          return false;
        }
        // A new pattern: its LDDB entry, once for every map after this one.
        const Local local(p);
        Entry e;
        double d[kN];
        int parent[kN];
        for (int i = 0; i < kBoundary; ++i) {
          local.shortest(kBound.y[i] * kC + kBound.x[i], d, parent);
          for (int j = i + 1; j < kBoundary; ++j) e.dist[std::size_t(tri(i, j))] = d[kBound.y[j] * kC + kBound.x[j]];
          for (int k = 0; k < kN; ++k) e.parent[std::size_t(i)][std::size_t(k)] = std::int8_t(parent[k]);
        }
        it = lddb_index_.emplace(p, std::uint32_t(lddb_.size())).first;
        if (lddb_.size() == lddb_.capacity())  // grow by doubling, never past the limit
          lddb_.reserve(std::min(kMaxPatterns, std::max<std::size_t>(64, 2 * lddb_.capacity())));
        lddb_.push_back(e);
        ++fresh;
      }
      block_entry_[b] = it->second;
    }
  r.prepare_ms = clock.ms();
  r.stats.push_back({"new block patterns", double(fresh)});
  return true;
}

struct BlockAStarSearch::Problem : CornerNodes<BlockAStarSearch::Problem> {
  using Cost = double;
  using Order = TieLargerG;
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = false;

  BlockAStarSearch* ba = nullptr;
  const CornerGrid* grid = nullptr;
  int w = 0, h = 0;
  std::uint32_t starts[4] = {0, 0, 0, 0};
  int nstarts = 0;
  // Goal targets: the goal corner, or the goal cell's four corners with their legs. A target
  // inside a block carries its local distances to every corner of that block.
  struct Target {
    std::uint32_t node = 0;
    double leg = 0;
    int block = -1;  // inside this block, or -1 on a boundary
    double d[kN];
  };
  Target targets[4];
  int ntargets = 0;

  std::uint32_t block_pattern(int bx, int by) const {
    return ba->block_pattern_[std::size_t(by) * std::size_t(ba->bw_) + std::size_t(bx)];
  }
  // The blocks a corner lies on (1, 2 or 4), as bx, by pairs.
  int blocks_of(int x, int y, int* bx, int* by) const {
    int xs[2], ys[2], nx = 0, ny = 0;
    if (x % kB == 0 && x / kB - 1 >= 0) xs[nx++] = x / kB - 1;
    if (x / kB < ba->bw_) xs[nx++] = x / kB;
    if (y % kB == 0 && y / kB - 1 >= 0) ys[ny++] = y / kB - 1;
    if (y / kB < ba->bh_) ys[ny++] = y / kB;
    int n = 0;
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j) bx[n] = xs[i], by[n] = ys[j], ++n;
    return n;
  }
  double heuristic(double x, double y) const { return dist(x, y, g.px, g.py); }

  template <class Out>
  void reach_corner(Out& out, int x, int y, double gv) {
    if (x > w || y > h) return;  // a padded block's corner beyond the map
    out.reach(std::uint32_t(y * w1 + x), gv, x, y);
  }

  template <class Out>
  void expand(std::uint32_t n, const double& gn, Out& out) {
    if (n == goal_node) return;
    if (n >= ncorners) {  // the start point: legs to the corners of its cell
      for (int k = 0; k < nstarts; ++k) {
        const int cx = int(starts[k] % std::uint32_t(w1)), cy = int(starts[k] / std::uint32_t(w1));
        out.reach(starts[k], gn + dist(s.px, s.py, cx, cy), cx, cy);
      }
      if (!g.corner && g.x == s.x && g.y == s.y)
        out.reach(goal_node, gn + dist(s.px, s.py, g.px, g.py));
      return;
    }
    const int x = int(n % std::uint32_t(w1)), y = int(n / std::uint32_t(w1));
    if (n != start_node && grid->pinch(x, y)) return;
    if (!g.corner)
      for (int k = 0; k < ntargets; ++k)
        if (n == targets[k].node) out.reach(goal_node, gn + targets[k].leg);
    int bx[4], by[4];
    const int nb = blocks_of(x, y, bx, by);
    for (int b = 0; b < nb; ++b) {
      const int ox = bx[b] * kB, oy = by[b] * kB, lx = x - ox, ly = y - oy;
      const int i = kBound.index[ly * kC + lx];
      const int block = by[b] * ba->bw_ + bx[b];
      if (i >= 0) {
        const Entry& e = ba->lddb_[ba->block_entry_[std::size_t(block)]];
        for (int j = 0; j < kBoundary; ++j) {
          if (j == i) continue;
          const double d = e.dist[std::size_t(tri(i, j))];
          if (d < kInf) reach_corner(out, ox + kBound.x[j], oy + kBound.y[j], gn + d);
        }
        for (int k = 0; k < ntargets; ++k)
          if (targets[k].block == block && targets[k].d[ly * kC + lx] < kInf)
            out.reach(targets[k].node, gn + targets[k].d[ly * kC + lx]);
      } else {  // inside its block (a start corner): a local search to the block's boundary
        const Local local(block_pattern(bx[b], by[b]));
        double d[kN];
        int parent[kN];
        local.shortest(ly * kC + lx, d, parent);
        for (int j = 0; j < kBoundary; ++j) {
          const double dj = d[kBound.y[j] * kC + kBound.x[j]];
          if (dj < kInf) reach_corner(out, ox + kBound.x[j], oy + kBound.y[j], gn + dj);
        }
        for (int k = 0; k < ntargets; ++k)
          if (targets[k].block == block) {
            const std::uint32_t t = targets[k].node;
            const int tl = (int(t / std::uint32_t(w1)) - oy) * kC + (int(t % std::uint32_t(w1)) - ox);
            if (d[tl] < kInf) out.reach(t, gn + d[tl]);
          }
      }
    }
  }

  // The corners of the block-local shortest path from corner a to corner b (a excluded, b
  // included), through the shared block where it is shortest.
  void local_path(std::uint32_t a, std::uint32_t b, std::vector<Vec2>& out) const {
    const int ax = int(a % std::uint32_t(w1)), ay = int(a / std::uint32_t(w1));
    const int bxg = int(b % std::uint32_t(w1)), byg = int(b / std::uint32_t(w1));
    int bx[4], by[4];
    const int nb = blocks_of(ax, ay, bx, by);
    double best = kInf;
    std::vector<Vec2> best_pts;
    for (int k = 0; k < nb; ++k) {
      const int ox = bx[k] * kB, oy = by[k] * kB;
      const int lbx = bxg - ox, lby = byg - oy;
      if (lbx < 0 || lby < 0 || lbx > kB || lby > kB) continue;
      const int la = (ay - oy) * kC + (ax - ox), lb = lby * kC + lbx;
      const int ia = kBound.index[la], ib = kBound.index[lb];
      double d[kN];
      int parent[kN];
      double dab;
      if (ia >= 0 && ib >= 0) {  // both on the boundary: the LDDB
        const Entry& e = ba->lddb_[ba->block_entry_[std::size_t(by[k] * ba->bw_ + bx[k])]];
        dab = e.dist[std::size_t(tri(ia, ib))];
        for (int c = 0; c < kN; ++c) parent[c] = e.parent[std::size_t(ia)][std::size_t(c)];
      } else {
        Local(block_pattern(bx[k], by[k])).shortest(la, d, parent);
        dab = d[lb];
      }
      if (!(dab < best)) continue;
      best = dab;
      best_pts.clear();
      for (int c = lb; c != la && c >= 0; c = parent[c]) best_pts.push_back({double(ox + c % kC), double(oy + c / kC)});
      std::reverse(best_pts.begin(), best_pts.end());
    }
    out.insert(out.end(), best_pts.begin(), best_pts.end());
  }

};

PlanResult BlockAStarSearch::run(const GridMap& map, const Query& query, bool smooth,
                                 const RunContext& ctx) {
  const Stopwatch clock;
  PlanResult r;
  CapabilityMask cap = query.capability;
  if (cap == 0) cap = map.palette().movingai_default_capability();
  const int w = map.width(), h = map.height();
  Endpoint ep[2];
  if (!corner_endpoints(map, query, ep, r)) {
    r.time_ms = clock.ms();
    return r;
  }
  if (map.uid() != map_uid_ || map.version() != map_version_ || cap != cap_) {
    if (ctx.observer) ctx.observer->phase("local distance database");
    if (prepare(map, cap, r)) {
      map_uid_ = map.uid();
      map_version_ = map.version();
      cap_ = cap;
      pool_.reset(std::size_t(grid_.corner_count()) + 2);
    } else {
      map_version_ = ~std::uint64_t(0);
    }
  }
  const double prepare_ms = r.prepare_ms;
  r.stats.push_back({"block patterns in the LDDB", double(lddb_.size())});
  r.stats.push_back({"LDDB memory bytes", double(lddb_.capacity() * sizeof(Entry))});
  if (!refused_.empty()) {
    r.message = "no path: " + refused_;
    r.time_ms = clock.ms();
    return r;
  }
  if (!corner_endpoints_free(map, cap, grid_, ep, r, ctx.observer)) {
    r.time_ms = clock.ms();
    r.memory_bytes = memory_bytes();
    return r;
  }
  if (ep[0].px == ep[1].px && ep[0].py == ep[1].py) {
    r.found = true;
    r.points.push_back(query.start);
    r.time_ms = clock.ms();
    r.memory_bytes = memory_bytes();
    return r;
  }

  Problem p;
  p.ba = this;
  p.grid = &grid_;
  p.w = w;
  p.h = h;
  p.set_endpoints(grid_, ep[0], ep[1]);
  if (p.s.corner) p.starts[p.nstarts++] = p.start_node;
  else
    for (int k = 0; k < 4; ++k) p.starts[p.nstarts++] = grid_.corner_id(p.s.x + (k & 1), p.s.y + (k >> 1));
  const auto add_target = [&](int cx, int cy, double leg) {
    Problem::Target& t = p.targets[p.ntargets++];
    t.node = grid_.corner_id(cx, cy);
    t.leg = leg;
    if (cx % kB != 0 && cy % kB != 0) {  // inside a block: its local distances
      const int bx = cx / kB, by = cy / kB;
      t.block = by * bw_ + bx;
      int parent[kN];
      Local(p.block_pattern(bx, by)).shortest((cy - by * kB) * kC + (cx - bx * kB), t.d, parent);
    }
  };
  if (p.g.corner) add_target(p.g.x, p.g.y, 0);
  else
    for (int k = 0; k < 4; ++k) {
      const int cx = p.g.x + (k & 1), cy = p.g.y + (k >> 1);
      add_target(cx, cy, dist(cx, cy, p.g.px, p.g.py));
    }
  p.h0 = std::max(p.heuristic(p.s.px, p.s.py), 1e-9);
  const bool points = !p.s.corner || !p.g.corner;
  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(NodeSpace::corners(w, h));
      if (points) l.observer()->space(NodeSpace::points(2, p.ncorners, "query points"));
      l.observer()->phase("search");
    }
    return best_first(p, pool_, open_, l, ctx);
  });
  if (take_outcome(out, r)) {
    // The corners between consecutive search nodes, from the LDDB's (or a local search's) paths.
    std::vector<Vec2> pts;
    const std::vector<std::uint32_t> chain = pool_.chain(out.last);
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const std::uint32_t n = chain[i];
      if (i > 0 && n < p.ncorners && chain[i - 1] < p.ncorners) {
        p.local_path(chain[i - 1], n, pts);
        continue;
      }
      double x, y;
      p.point(n, x, y);
      pts.push_back({x, y});
    }
    // Collinear runs (a straight line across block boundaries) become one piece.
    std::vector<Vec2> merged;
    for (const Vec2& q : pts) {
      if (merged.size() >= 2) {
        const Vec2 a = merged[merged.size() - 2], b = merged.back();
        if ((b.x - a.x) * (q.y - b.y) == (b.y - a.y) * (q.x - b.x) &&
            (b.x - a.x) * (q.x - b.x) + (b.y - a.y) * (q.y - b.y) > 0) {
          merged.back() = q;
          continue;
        }
      }
      merged.push_back(q);
    }
    double length = 0;
    for (std::size_t i = 0; i + 1 < merged.size(); ++i)
      length += dist(merged[i].x, merged[i].y, merged[i + 1].x, merged[i + 1].y);
    r.length = length;
    if (smooth) smooth_corner_path(grid_, merged, r, ctx.observer);
    fill_polyline_path(r, merged);
    show_found_path(r, ctx.observer);
  }
  r.prepare_ms = prepare_ms;
  r.memory_bytes = memory_bytes();
  r.time_ms = clock.ms();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Registry entry: block-astar.

namespace {

using BlockAStarPlanner = GridWorldPlanner<BlockAStarSearch, bool>;

void add_block_astar(Registry& r) {
  r.add({"block-astar", "any-angle",
         "Block A* (Yap et al. 2011): A* over the corners on the boundaries of 5x5-cell blocks, "
         "each block crossed at its exact any-angle distance from a local distance database "
         "computed once per block pattern. Start and goal are cell corners; any other point "
         "joins the corners of its cell.",
         false,
         {circles_param(),
          ParamDesc::boolean("smoothing",
                             "Post-smoothing (Daniel et al. 2010, Algorithm 2): drop every path "
                             "vertex the last kept one can see past; its time counts in the "
                             "planner's",
                             "false")
              .labelled("post-smoothing")},
         [](const ParamSet& ps) {
           return std::make_unique<BlockAStarPlanner>(GridWorld(ps), ps.get_bool("smoothing"));
         },
         AgentInputs(AgentInput::Capability), QueryCoordinates::Corners});
  r.set_reference("block-astar", "visibility");
}

const PlannerRegistration kRegistration(42, add_block_astar);

}  // namespace

}  // namespace pl

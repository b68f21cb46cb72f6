#include "planners/jps.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/grid_query.hpp"
#include "planners/grid_world.hpp"

namespace pl {

struct JumpPointSearch::Problem {
  using Cost = OctileCost;
  using Order = TieLargerG;
  // Jumps are paths and octile h is consistent: a successor's f is never below its parent's.
  static constexpr bool kFastSlot = true;
  static constexpr bool kGrowing = false;
  // Exact move counts and a consistent heuristic: a closed node's g is final.
  static constexpr bool kClosedFinal = true;

  const std::uint8_t* f = nullptr;  // padded free bytes
  const NodePool<OctileCost>* pool = nullptr;
  // The same cells as bits, a line per padded row (rows) and per padded column (cols), each
  // line with a zero word before and after it (see JumpPointSearch::rows_).
  const std::uint64_t* rows = nullptr;
  const std::uint64_t* cols = nullptr;
  std::size_t rs = 0, cs = 0;  // words from one line to the next
  int pw = 0, w = 0;
  int gx = 0, gy = 0;
  std::uint32_t start_node = 0, goal_node = 0;
  std::size_t bound = 0;
  double h0 = 1;
  std::uint64_t jumps = 0;

  std::uint32_t at(int x, int y) const { return std::uint32_t((y + 1) * pw + x + 1); }
  void xy(std::uint32_t n, int& x, int& y) const {
    y = int(n) / pw - 1;
    x = int(n) % pw - 1;
  }
  const std::uint64_t* row(int py) const { return rows + std::size_t(py) * rs; }
  const std::uint64_t* col(int px) const { return cols + std::size_t(px) * cs; }

  // Along line L (bit i: position i free) from position s, upwards (Up) or downwards, with the
  // lines A and B on its two sides: the first position past s that is blocked or has a forced
  // side -- a free side cell whose counterpart beside the previous position is blocked, so it
  // cannot be reached from there diagonally. 64 positions a step: bit c of `a & ~prev(a)` is
  // A[c] & !A[c - 1] (upwards; A[c + 1] downwards). The line's padding cells are blocked, so
  // the scan ends inside it.
  template <bool Up>
  static int scan(const std::uint64_t* L, const std::uint64_t* A, const std::uint64_t* B, int s) {
    if constexpr (Up) {
      std::ptrdiff_t k = (s + 1) >> 6;
      std::uint64_t mask = ~std::uint64_t(0) << ((s + 1) & 63);
      for (;; ++k, mask = ~std::uint64_t(0)) {
        const std::uint64_t a = A[k], b = B[k];
        const std::uint64_t ap = a << 1 | A[k - 1] >> 63, bp = b << 1 | B[k - 1] >> 63;
        const std::uint64_t stop = (~L[k] | (a & ~ap) | (b & ~bp)) & mask;
        if (stop) return int(k * 64) + std::countr_zero(stop);
      }
    } else {
      std::ptrdiff_t k = (s - 1) >> 6;
      std::uint64_t mask = ~std::uint64_t(0) >> (63 - ((s - 1) & 63));
      for (;; --k, mask = ~std::uint64_t(0)) {
        const std::uint64_t a = A[k], b = B[k];
        const std::uint64_t an = a >> 1 | A[k + 1] << 63, bn = b >> 1 | B[k + 1] << 63;
        const std::uint64_t stop = (~L[k] | (a & ~an) | (b & ~bn)) & mask;
        if (stop) return int(k * 64) + 63 - std::countl_zero(stop);
      }
    }
  }
  // From padded cell (px, py), straight along x (dy = 0) or y (dx = 0) by one step of +-1: the
  // first cell that is the goal or has a forced side; 0 when the walk hits a blocked cell
  // first. The goal is looked for only on the scanned line, between the start and the stop.
  std::uint32_t jump_straight(int px, int py, int dx, int dy) const {
    // In the line's own terms: along a row (dy = 0) or a column, the position on it, which
    // line it is, and the goal's two coordinates the same way round.
    const bool along_x = dy == 0;
    const int d = along_x ? dx : dy, pos = along_x ? px : py, at = along_x ? py : px;
    const int gpos = (along_x ? gx : gy) + 1, gat = (along_x ? gy : gx) + 1;
    const auto line = [&](int i) { return along_x ? row(i) : col(i); };
    const std::uint64_t *L = line(at), *A = line(at - 1), *B = line(at + 1);
    const int c = d > 0 ? scan<true>(L, A, B, pos) : scan<false>(L, A, B, pos);
    if (gat == at && (d > 0 ? gpos > pos && gpos <= c : gpos < pos && gpos >= c)) return goal_node;
    if (!(L[c >> 6] >> (c & 63) & 1)) return 0;
    return std::uint32_t(along_x ? py * pw + c : c * pw + px);
  }
  // From padded cell (px, py), diagonally by (dx, dy) (each move needs both side cells): the
  // first cell that is the goal or from which a straight jump along one of the two components
  // finds a jump point.
  std::uint32_t jump_diagonal(int px, int py, int dx, int dy) const {
    const std::ptrdiff_t sx = dx, sy = std::ptrdiff_t(dy) * pw;
    const std::uint8_t* p = f + std::ptrdiff_t(py) * pw + px;
    for (;;) {
      if (!(p[sx] & p[sy] & p[sx + sy])) return 0;
      p += sx + sy;
      px += dx;
      py += dy;
      const std::uint32_t c = std::uint32_t(p - f);
      if (c == goal_node || jump_straight(px, py, dx, 0) || jump_straight(px, py, 0, dy)) return c;
    }
  }

  OctileCost h_counts(int x, int y) const {
    const int dx = std::abs(x - gx), dy = std::abs(y - gy);
    const int mn = std::min(dx, dy);
    return {std::uint32_t(std::max(dx, dy) - mn), std::uint32_t(mn)};
  }
  std::uint32_t start() const { return start_node; }
  std::size_t node_bound() const { return bound; }
  bool stop(std::uint32_t n) const { return n == goal_node; }
  float progress(const OpenEntry& top) const {
    return float(std::clamp(1.0 - double(top.h) / h0, 0.0, 1.0));
  }
  void evaluate(std::uint32_t, const OctileCost& g, double& fv, double& h, int x, int y) const {
    const OctileCost hc = h_counts(x, y);
    fv = (g + hc).value();
    h = hc.value();
  }
  void evaluate(std::uint32_t n, const OctileCost& g, double& fv, double& h) const {
    int x, y;
    xy(n, x, y);
    evaluate(n, g, fv, h, x, y);
  }

  template <class Out>
  void expand(std::uint32_t n, const OctileCost& g, Out& out) {
    using L = std::decay_t<decltype(out.listener())>;
    int x, y;
    xy(n, x, y);
    // Directions to jump in: all eight from the start, else pruned by the arriving direction.
    int dirs[8][2];
    int nd = 0;
    const std::uint32_t par = pool->parent(n);
    if (par == kNoNode) {
      static constexpr int kAll[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1},
                                         {1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
      for (const auto& d : kAll) dirs[nd][0] = d[0], dirs[nd][1] = d[1], ++nd;
    } else {
      int px, py;
      xy(par, px, py);
      const int dx = (x > px) - (x < px), dy = (y > py) - (y < py);
      if (dx && dy) {
        dirs[nd][0] = dx, dirs[nd][1] = 0, ++nd;
        dirs[nd][0] = 0, dirs[nd][1] = dy, ++nd;
        dirs[nd][0] = dx, dirs[nd][1] = dy, ++nd;
      } else {
        dirs[nd][0] = dx, dirs[nd][1] = dy, ++nd;
        // Forced sides: free beside n, blocked beside the previous cell.
        for (int s = -1; s <= 1; s += 2) {
          const int ox = dx ? 0 : s, oy = dx ? s : 0;  // the side offset
          if (f[at(x + ox, y + oy)] && !f[at(x - dx + ox, y - dy + oy)]) {
            dirs[nd][0] = ox, dirs[nd][1] = oy, ++nd;
            dirs[nd][0] = dx + ox, dirs[nd][1] = dy + oy, ++nd;
            if constexpr (L::kActive) out.listener().mark(Shape::cell(x + ox, y + oy), Role::Highlight);
          }
        }
      }
    }
    for (int i = 0; i < nd; ++i) {
      const int dx = dirs[i][0], dy = dirs[i][1];
      const std::uint32_t j = dx && dy ? jump_diagonal(x + 1, y + 1, dx, dy)
                                       : jump_straight(x + 1, y + 1, dx, dy);
      if (!j) continue;
      ++jumps;
      int jx, jy;
      xy(j, jx, jy);
      const int ax = std::abs(jx - x), ay = std::abs(jy - y);
      const int mn = std::min(ax, ay);
      out.reach(j, g + OctileCost{std::uint32_t(std::max(ax, ay) - mn), std::uint32_t(mn)}, jx, jy);
      if constexpr (L::kActive)
        out.listener().mark(Shape::segment({x + 0.5, y + 0.5}, {jx + 0.5, jy + 0.5}), Role::Candidate);
    }
  }

  std::uint32_t id(std::uint32_t, int x, int y) const { return std::uint32_t(y * w + x); }
  std::uint32_t id(std::uint32_t n) const {
    int x, y;
    xy(n, x, y);
    return id(n, x, y);
  }
  // No desc(): cells are reported by id; the declared Cells space places them.
};

PlanResult JumpPointSearch::run(const GridMap& map, const Query& query, const RunContext& ctx) {
  const Stopwatch clock;
  PlanResult r;
  CapabilityMask cap = query.capability;
  if (cap == 0) cap = map.palette().movingai_default_capability();
  const auto s = cell_of(map, query.start), g = cell_of(map, query.goal);
  if (!s || !g) {
    r.message = outside_reason(map, query.start, query.goal);
    r.bad_query = true;
    r.time_ms = clock.ms();
    return r;
  }
  if (!map.palette().uniform_costs()) {
    r.message = "jps needs uniform terrain costs (this palette gives terrains different costs; use astar)";
    r.time_ms = clock.ms();
    return r;
  }
  const int w = map.width(), h = map.height();
  if (map.uid() != map_uid_ || map.version() != map_version_ || cap != cap_) {
    const Stopwatch prep;
    pw_ = w + 2;
    free_.assign(std::size_t(pw_) * std::size_t(h + 2), 0);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        free_[std::size_t(y + 1) * std::size_t(pw_) + std::size_t(x + 1)] = map.passable(x, y, cap) ? 1 : 0;
    // The bit lines: row py holds bit px of cell (px, py), column px bit py; each line has a
    // zero word before and after it, so a scan may read one word past either end.
    rs_ = std::size_t(pw_ + 63) / 64 + 2;
    cs_ = std::size_t(h + 2 + 63) / 64 + 2;
    rows_.assign(rs_ * std::size_t(h + 2), 0);
    cols_.assign(cs_ * std::size_t(pw_), 0);
    for (int py = 0; py < h + 2; ++py)
      for (int px = 0; px < pw_; ++px)
        if (free_[std::size_t(py) * std::size_t(pw_) + std::size_t(px)]) {
          rows_[std::size_t(py) * rs_ + 1 + std::size_t(px >> 6)] |= std::uint64_t(1) << (px & 63);
          cols_[std::size_t(px) * cs_ + 1 + std::size_t(py >> 6)] |= std::uint64_t(1) << (py & 63);
        }
    pool_.reset(free_.size());
    map_uid_ = map.uid();
    map_version_ = map.version();
    cap_ = cap;
    r.prepare_ms = prep.ms();
  }
  Problem p;
  p.f = free_.data();
  p.rows = rows_.data() + 1;
  p.cols = cols_.data() + 1;
  p.rs = rs_;
  p.cs = cs_;
  p.pool = &pool_;
  p.pw = pw_;
  p.w = w;
  p.gx = g->x;
  p.gy = g->y;
  p.start_node = p.at(s->x, s->y);
  p.goal_node = p.at(g->x, g->y);
  p.bound = free_.size();
  const bool start_ok = free_[p.start_node] != 0, goal_ok = free_[p.goal_node] != 0;
  if (!start_ok || !goal_ok) {
    r.message = blocked_reason(map, cap, 1, false, start_ok ? "goal" : "start", start_ok ? *g : *s);
    if (ctx.observer) {
      ctx.observer->phase("check endpoints");
      ctx.observer->test(Shape::cell(s->x, s->y), start_ok);
      ctx.observer->test(Shape::cell(g->x, g->y), goal_ok);
      ctx.observer->frame();
    }
    r.memory_bytes = memory_bytes();
    r.time_ms = clock.ms();
    return r;
  }
  p.h0 = std::max(p.h_counts(s->x, s->y).value(), 1e-9);
  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(NodeSpace::cells(w, h));
      l.observer()->role_name(Role::Candidate, "jump");
      l.observer()->role_name(Role::Highlight, "forced neighbour");
      l.observer()->phase("search");
    }
    return best_first(p, pool_, open_, l, ctx);
  });
  r.stats.push_back({"jumps", double(p.jumps)});
  if (take_outcome(out, r)) {
    r.length = pool_.g_value(out.last);
    std::vector<Vec2> pts;
    for (std::uint32_t n : pool_.chain(out.last)) {
      int x, y;
      p.xy(n, x, y);
      pts.push_back({x + 0.5, y + 0.5});
    }
    fill_polyline_path(r, pts);
    show_found_path(r, ctx.observer, {{"jumps", double(p.jumps)}});
  }
  r.memory_bytes = memory_bytes();
  r.time_ms = clock.ms();
  return r;
}

namespace {

using JpsPlanner = GridWorldPlanner<JumpPointSearch>;

void add_jps(Registry& r) {
  r.add({"jps", "grid search",
         "Jump point search (Harabor & Grastien 2011), online, 8-connected without corner "
         "cutting: the lengths of astar with far fewer expansions; jumps shown as segments. "
         "Uniform terrain costs only",
         true, {circles_param()}, [](const ParamSet& ps) {
           return std::make_unique<JpsPlanner>(GridWorld(ps));
         },
         AgentInputs(AgentInput::Capability)});
}

const PlannerRegistration kRegistration(41, add_jps);

}  // namespace

}  // namespace pl

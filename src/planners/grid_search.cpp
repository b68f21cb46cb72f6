#include "planners/grid_search.hpp"

#include "core/grid_query.hpp"
#include "planners/grid_world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <string>

namespace pl {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Division of node ids by their row width without a divide instruction (about 25 cycles, once
// per expansion): q = (n * m) >> 45 with
// m = floor(2^45 / d) + 1 is exact for n < 2^30 and d < 2^15, because the error n (m - 2^45/d)
// / 2^45 < 2^-15 stays below the smallest gap 1/d between n/d and the next integer.
struct WidthDivider {
  std::uint64_t m = 0;
  std::uint32_t d = 1;
  explicit WidthDivider(std::uint32_t divisor = 1)
      : m((std::uint64_t(1) << 45) / divisor + 1), d(divisor) {}
  std::uint32_t quotient(std::uint32_t n) const { return std::uint32_t((std::uint64_t(n) * m) >> 45); }
};
static_assert(std::uint64_t(kMaxMapSide + 2) < (1u << 15) &&
                  std::uint64_t(kMaxMapSide + 2) * (kMaxMapSide + 2) < (1u << 30),
              "WidthDivider's exactness bounds");

// Neighbour order: 4 cardinals first (E, S, W, N), then diagonals (SE, SW, NW, NE).
constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

}  // namespace

size_t GridSearch::memory_bytes() const {
  return exact_pool_.memory_bytes() + weighted_pool_.memory_bytes() + open_.memory_bytes() +
         pass_.capacity() + cost_.capacity() * sizeof(float) + clearance_.memory_bytes();
}

bool GridSearch::prepare(const GridMap& map, const Query& q, const Options& opt) {
  const int size = opt.annotated ? q.size : 1;
  if (map.uid() == map_uid_ && map.version() == map_version_ && q.capability == cap_ &&
      size == size_ && opt.annotated == annotated_ && opt.metric == metric_)
    return false;
  map_uid_ = map.uid();
  map_version_ = map.version();
  cap_ = q.capability;
  size_ = size;
  annotated_ = opt.annotated;
  metric_ = opt.metric;
  const int w = map.width(), h = map.height();
  pw_ = w + 2;
  ph_ = h + 2;
  pass_.assign(size_t(pw_) * ph_, 0);
  const auto& cells = map.cells();
  if (opt.annotated) {
    const ClearanceGrid& cl = clearance_.get(map, q.capability, opt.metric);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        pass_[size_t(y + 1) * pw_ + x + 1] = cl[size_t(y) * w + x] >= size;
  } else {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        pass_[size_t(y + 1) * pw_ + x + 1] = (q.capability >> cells[size_t(y) * w + x]) & 1u;
  }
  const Palette& pal = map.palette();
  uniform_ = pal.uniform_costs();
  min_cost_ = uniform_ ? 1.0 : pal.min_cost(q.capability);
  cost_.clear();
  if (!uniform_) {
    cost_.assign(size_t(pw_) * ph_, 1.0f);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        cost_[size_t(y + 1) * pw_ + x + 1] = static_cast<float>(pal[cells[size_t(y) * w + x]].cost);
  }
  return true;
}

PlanResult GridSearch::run(const GridMap& map, const Query& query, const Options& opt,
                           const RunContext& ctx) {
  const Stopwatch clock;
  Query q = query;
  if (q.capability == 0) q.capability = map.palette().movingai_default_capability();
  if (q.size < 1) q.size = 1;
  PlanResult r;
  const auto s = cell_of(map, q.start), g = cell_of(map, q.goal);
  if (!s || !g) {
    r.message = outside_reason(map, q.start, q.goal);
    r.bad_query = true;
    r.time_ms = clock.ms();
    return r;
  }
  {
    const Stopwatch prep;
    if (prepare(map, q, opt)) r.prepare_ms = prep.ms();
  }
  const auto pad = [&](CellXY c) { return size_t(c.y + 1) * pw_ + c.x + 1; };
  const bool start_ok = pass_[pad(*s)] != 0, goal_ok = pass_[pad(*g)] != 0;
  if (!start_ok || !goal_ok) {
    r.message = blocked_reason(map, q.capability, q.size, opt.annotated,
                               start_ok ? "goal" : "start", start_ok ? *g : *s);
    if (ctx.observer) {  // show the user which endpoint is unusable
      ctx.observer->phase("check endpoints");
      ctx.observer->test(Shape::cell(s->x, s->y), start_ok);
      ctx.observer->test(Shape::cell(g->x, g->y), goal_ok);
      ctx.observer->frame();
    }
  } else {
    const double prepare_ms = r.prepare_ms;
    const bool watched = ctx.observer != nullptr;
    if (uniform_)
      r = watched ? search<true, true>(map, opt, *s, *g, ctx) : search<true, false>(map, opt, *s, *g, ctx);
    else
      r = watched ? search<false, true>(map, opt, *s, *g, ctx) : search<false, false>(map, opt, *s, *g, ctx);
    r.prepare_ms = prepare_ms;
  }
  r.memory_bytes = memory_bytes();
  r.time_ms = clock.ms();
  return r;
}

// The grid as a problem of the search machinery, with node ids in one of two forms:
//   kCellIds   the map's cell ids y * w + x, the ids of its Cells space: a watched search
//              reports them as they are (no conversion per event); the passability bytes of
//              cell n sit at n + 2y + pw + 1 in the padded grid;
//   otherwise  padded indices (y + 1) * pw + x + 1: the passability bytes sit at the id itself,
//              so the neighbour reads of an unwatched search do not wait on the division that
//              gives y (measured: about 5% of the time on dao).
template <bool kUniform, bool kCellIds>
struct GridSearch::Problem {
  using Cost = std::conditional_t<kUniform, OctileCost, double>;
  using Order = TieLargerG;
  // At most eight successors and nothing else reported: a watched step checks its buffer once.
  static constexpr std::size_t kMaxSuccessors = 8;
  // Every successor has f >= its parent's f (consistent heuristic), so the slot holds the next
  // pop exactly: entries left in the heap have f >= the popped f and, at equal f, h >= the
  // popped h, which is larger than the successor's.
  static constexpr bool kFastSlot = true;
  static constexpr bool kGrowing = false;
  // Uniform costs are exact move counts: a closed cell's g is final (the loop skips the test).
  static constexpr bool kClosedFinal = kUniform;

  const std::uint8_t* pass;
  const float* cost;  // non-uniform only: per padded index
  int w, pw;
  bool eight, use_h;
  int gx, gy;
  std::uint32_t start_node, goal_node;
  std::size_t bound;
  double hscale;  // the cheapest terrain cost of the capability (non-uniform only)
  double h0;      // h of the start, for progress
  int off[8];   // successor id offsets
  int poff[8];  // the same moves in the padded grid
  WidthDivider div;  // by the width of a row of ids: w or pw

  // The cell (x, y) of id n.
  void cell_xy(std::uint32_t n, int& x, int& y) const {
    const std::uint32_t q = div.quotient(n);
    if constexpr (kCellIds) {
      y = int(q);
      x = int(n - q * std::uint32_t(w));
    } else {
      y = int(q) - 1;
      x = int(n - q * std::uint32_t(pw)) - 1;
    }
  }
  // The padded index of id n on row y.
  std::size_t padded(std::uint32_t n, int y) const {
    if constexpr (kCellIds)
      return std::size_t(n) + std::size_t(2 * y + pw + 1);
    else
      return n;
  }
  std::uint32_t node_of(CellXY c) const {
    return kCellIds ? std::uint32_t(c.y * w + c.x) : std::uint32_t((c.y + 1) * pw + c.x + 1);
  }

  std::uint32_t start() const { return start_node; }
  std::size_t node_bound() const { return bound; }
  bool stop(std::uint32_t n) const { return n == goal_node; }
  float progress(const OpenEntry& top) const {
    return use_h ? float(std::clamp(1.0 - double(top.h) / h0, 0.0, 1.0)) : -1.0f;
  }

  // h as exact counts of straight and diagonal moves to the goal.
  OctileCost h_counts(int x, int y) const {
    if (!use_h) return {};
    const int dx = std::abs(x - gx), dy = std::abs(y - gy);
    if (!eight) return {std::uint32_t(dx + dy), 0};
    const int mn = std::min(dx, dy);
    return {std::uint32_t(std::max(dx, dy) - mn), std::uint32_t(mn)};
  }
  void evaluate(std::uint32_t, const Cost& g, double& f, double& h, int x, int y) const {
    const OctileCost hc = h_counts(x, y);
    if constexpr (kUniform) {
      f = (g + hc).value();
      h = hc.value();
    } else {
      h = hscale * hc.value();
      f = g + h;
    }
  }
  void evaluate(std::uint32_t n, const Cost& g, double& f, double& h) const {
    int x, y;
    cell_xy(n, x, y);
    evaluate(n, g, f, h, x, y);
  }

  template <class Out>
  void expand(std::uint32_t cur, const Cost& g, Out& out) const {
    int cx, cy;
    cell_xy(cur, cx, cy);
    // Moves allowed from here, one bit per direction (no corner cutting: a diagonal needs both
    // cardinal side cells), computed branch-free from the padded passability bytes.
    const std::size_t pcur = padded(cur, cy);
    const std::uint8_t* pc = pass + pcur;
    const unsigned e = pc[1], so = pc[pw], we = pc[-1], no = pc[-pw];
    unsigned moves = e | so << 1 | we << 2 | no << 3;
    if (eight) {
      moves |= (pc[pw + 1] & e & so) << 4 | (pc[pw - 1] & we & so) << 5 |
               (pc[-pw - 1] & we & no) << 6 | (pc[-pw + 1] & e & no) << 7;
    }
    while (moves) {
      const int d = __builtin_ctz(moves);
      moves &= moves - 1;
      const std::uint32_t nb = std::uint32_t(int(cur) + off[d]);
      Cost ng;
      if constexpr (kUniform)
        ng = g + OctileCost{std::uint32_t(d < 4), std::uint32_t(d >= 4)};
      else
        ng = g + terrain_step_cost(d < 4 ? 1.0 : kSqrt2, cost[pcur], cost[pcur + poff[d]]);
      out.reach(nb, ng, cx + kDx[d], cy + kDy[d]);
    }
  }

  // Watched runs use cell ids, the Cells space's own. No desc(): the space says where each
  // cell is.
  std::uint32_t id(std::uint32_t n) const {
    if constexpr (kCellIds) {
      return n;
    } else {
      int x, y;
      cell_xy(n, x, y);
      return std::uint32_t(y * w + x);
    }
  }
};

template <bool kUniform, bool kCellIds>
PlanResult GridSearch::search(const GridMap& map, const Options& opt, CellXY s,
                              CellXY g, const RunContext& ctx) {
  using P = Problem<kUniform, kCellIds>;
  P p;
  p.pass = pass_.data();
  p.cost = kUniform ? nullptr : cost_.data();
  p.w = map.width();
  p.pw = pw_;
  p.eight = opt.eight_connected;
  p.use_h = opt.heuristic;
  p.gx = g.x;
  p.gy = g.y;
  p.start_node = p.node_of(s);
  p.goal_node = p.node_of(g);
  p.bound = kCellIds ? std::size_t(map.width()) * std::size_t(map.height()) : pass_.size();
  p.hscale = min_cost_;
  for (int d = 0; d < 8; ++d) {
    p.poff[d] = kDy[d] * pw_ + kDx[d];
    p.off[d] = kCellIds ? kDy[d] * p.w + kDx[d] : p.poff[d];
  }
  p.div = WidthDivider(std::uint32_t(kCellIds ? p.w : pw_));
  {
    double f;
    p.h0 = 1;
    p.evaluate(p.start_node, typename P::Cost{}, f, p.h0);
    p.h0 = std::max(p.h0, 1e-9);
  }
  auto& pool = [&]() -> auto& {
    if constexpr (kUniform) return exact_pool_;
    else return weighted_pool_;
  }();
  if (pool.size() != p.bound) pool.reset(p.bound);

  PlanResult r;
  // The id form follows who watches (run() chose it), so each form has one listener.
  const SearchOutcome out = [&] {
    if constexpr (kCellIds) {
      ctx.observer->space(NodeSpace::cells(map.width(), map.height()));
      ctx.observer->phase("search");
      Watched l(ctx.observer);
      return best_first(p, pool, open_, l, ctx);
    } else {
      Unwatched l;
      return best_first(p, pool, open_, l, ctx);
    }
  }();
  r.expanded = out.expanded;
  r.generated = out.generated;
  r.found = out.stopped;
  if (out.cancelled) {
    r.cancelled = true;
    r.message = "cancelled";
  }
  if (r.found) {
    r.length = pool.g_value(out.last);
    std::vector<Vec2> cells;
    for (std::uint32_t n : pool.chain(out.last)) {
      int x, y;
      p.cell_xy(n, x, y);
      cells.push_back({x + 0.5, y + 0.5});
    }
    fill_cell_path(r, cells);
    show_found_path(r, ctx.observer);
  } else if (!r.cancelled) {
    r.message = "no path: the goal is not reachable for this agent";
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
PlanResult textbook_astar(const GridMap& map, const Query& query, bool eight_connected,
                          SearchObserver* obs) {
  const Stopwatch clock;
  PlanResult r;
  const CapabilityMask cap =
      query.capability ? query.capability : map.palette().movingai_default_capability();
  const auto sc = cell_of(map, query.start), gc = cell_of(map, query.goal);
  if (!sc || !gc || !map.passable(sc->x, sc->y, cap) || !map.passable(gc->x, gc->y, cap)) {
    r.message = "start or goal is outside the map or blocked";
    r.bad_query = !sc || !gc;
    r.time_ms = clock.ms();
    return r;
  }
  const int sx = sc->x, sy = sc->y, gx = gc->x, gy = gc->y;
  const int w = map.width(), h = map.height();
  const size_t n = size_t(w) * h;
  std::vector<double> g(n, kInf);
  std::vector<int> parent(n, -1);
  std::vector<char> closed(n, 0);
  using Item = std::pair<double, int>;  // (f, cell)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  auto hfun = [&](int x, int y) {
    double dx = std::abs(x - gx), dy = std::abs(y - gy);
    return eight_connected ? octile_distance(dx, dy) : dx + dy;
  };
  const int start = sy * w + sx, goal = gy * w + gx;
  auto desc = [&](int c) {
    NodeDesc d;
    d.id = std::uint32_t(c);
    d.x = float(c % w + 0.5);
    d.y = float(c / w + 0.5);
    return d;
  };
  g[size_t(start)] = 0;
  open.push({hfun(sx, sy), start});
  r.generated = 1;
  if (obs) {
    obs->space(NodeSpace::cells(w, h));
    obs->phase("search");
    obs->open(desc(start), kNoNode, 0.0, hfun(sx, sy));
    obs->frame();
  }
  const int ndirs = eight_connected ? 8 : 4;
  while (!open.empty()) {
    auto [f, c] = open.top();
    open.pop();
    if (closed[size_t(c)]) continue;  // stale entry (lazy deletion)
    closed[size_t(c)] = 1;
    ++r.expanded;
    if (obs) obs->close(std::uint32_t(c));
    if (c == goal) {
      r.found = true;
      break;
    }
    const int cx = c % w, cy = c / w;
    for (int d = 0; d < ndirs; ++d) {
      const int nx = cx + kDx[d], ny = cy + kDy[d];
      if (!map.passable(nx, ny, cap)) continue;
      if (d >= 4 && (!map.passable(cx + kDx[d], cy, cap) || !map.passable(cx, cy + kDy[d], cap)))
        continue;
      const int nb = ny * w + nx;
      const double ng = g[size_t(c)] + (d < 4 ? 1.0 : kSqrt2);
      if (ng < g[size_t(nb)]) {
        const bool fresh = g[size_t(nb)] == kInf;
        g[size_t(nb)] = ng;
        parent[size_t(nb)] = c;
        open.push({ng + hfun(nx, ny), nb});
        if (fresh) ++r.generated;
        if (obs) {
          if (fresh)
            obs->open(desc(nb), std::uint32_t(c), ng, hfun(nx, ny));
          else
            obs->relax(std::uint32_t(nb), std::uint32_t(c), ng);
        }
      }
    }
    if (obs) obs->frame();
  }
  if (r.found) {
    r.length = g[size_t(goal)];
    std::vector<Vec2> cells;
    for (int p = goal; p != -1; p = parent[size_t(p)])
      cells.push_back({p % w + 0.5, p / w + 0.5});
    std::reverse(cells.begin(), cells.end());
    fill_cell_path(r, cells);
    if (obs) {
      obs->counter("expanded", double(r.expanded));
      obs->path(r.pieces);
      obs->frame();
    }
  } else {
    r.message = "no path: the goal is not reachable for this agent";
  }
  r.memory_bytes = n * (sizeof(double) + sizeof(int) + 1) + open.size() * sizeof(Item);
  r.time_ms = clock.ms();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Registry entries: astar, dijkstra, annotated-astar, astar-textbook.

namespace {

using GridPlanner = GridWorldPlanner<GridSearch, GridSearch::Options>;

ParamDesc connectivity_param() {
  return ParamDesc::choice(
      "connectivity",
      "8: octile moves (cost sqrt 2 diagonally, no corner cutting); 4: cardinal only", {"8", "4"},
      "8");
}

class TextbookPlanner final : public Planner {
 public:
  TextbookPlanner(bool eight, GridWorld world) : eight_(eight), world_(std::move(world)) {}
  PlanResult plan(const Scene& scene, const Query& q, const RunContext& ctx) override {
    world_.report_blocked(scene, ctx.observer);
    return textbook_astar(world_.map(scene), q, eight_, ctx.observer);
  }

 private:
  bool eight_;
  GridWorld world_;
};

GridSearch::Options options_from(const ParamSet& ps) {
  GridSearch::Options o;
  o.eight_connected = ps.get("connectivity") == "8";
  return o;
}

void add_grid_planners(Registry& r) {
  r.add({"astar", "grid search",
         "A* with the octile (or Manhattan) heuristic, ties toward larger g; the agent's "
         "capability decides which terrains are free, its size is ignored",
         true, {connectivity_param(), circles_param()}, [](const ParamSet& ps) {
           return std::make_unique<GridPlanner>(GridWorld(ps), options_from(ps));
         },
         AgentInputs(AgentInput::Capability)});
  r.add({"dijkstra", "grid search", "Dijkstra's algorithm (A* with h = 0)", true,
         {connectivity_param(), circles_param()}, [](const ParamSet& ps) {
           auto o = options_from(ps);
           o.heuristic = false;
           return std::make_unique<GridPlanner>(GridWorld(ps), o);
         },
         AgentInputs(AgentInput::Capability)});
  const ParamDesc metric = ParamDesc::choice(
      "clearance",
      "true: true clearance (exact, the HAA* paper); brushfire: minimum obstacle distance, "
      "which wrongly blocks large agents in bottlenecks (for comparison)",
      {"true", "brushfire"}, "true")
      .labelled("clearance measure");
  r.add({"annotated-astar", "multi-size",
         "Annotated A* (Harabor & Botea 2008): A* for an agent of size s and a terrain "
         "capability; a cell is free iff its clearance for the capability is at least s",
         true, {connectivity_param(), metric, circles_param()}, [](const ParamSet& ps) {
           auto o = options_from(ps);
           o.annotated = true;
           o.metric = ps.get("clearance") == "true" ? ClearanceMetric::True : ClearanceMetric::Brushfire;
           return std::make_unique<GridPlanner>(GridWorld(ps), o);
         },
         AgentInput::Capability | AgentInput::Size});
  r.add({"astar-textbook", "grid search (reference)",
         "Plain textbook A*: std::priority_queue with lazy deletion, arrays reset per query. "
         "The baseline the benchmarks compare against",
         true, {connectivity_param(), circles_param()}, [](const ParamSet& ps) {
           return std::make_unique<TextbookPlanner>(ps.get("connectivity") == "8", GridWorld(ps));
         },
         AgentInputs(AgentInput::Capability)});
}

const PlannerRegistration kRegistration(10, add_grid_planners);

}  // namespace

}  // namespace pl

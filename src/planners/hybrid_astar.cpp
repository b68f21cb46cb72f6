// Hybrid A* on the shared search machinery: local node ids (0 = the start) for the bins
// cells x headings that the search reaches, a hash from bin to local id, and side arrays with
// each node's continuous pose and the motion primitive that reached it. The ids reported to an
// observer are the bins' CellHeadings ids. See hybrid_astar.hpp and docs/hybrid_astar.md.
#include "planners/hybrid_astar.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clearance.hpp"
#include "core/curves.hpp"
#include "core/footprint.hpp"
#include "core/footprint_arc.hpp"
#include "core/grid_query.hpp"
#include "core/node_space.hpp"
#include "core/search.hpp"

namespace pl {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The obstacle-aware half of the heuristic: shortest 8-connected distances from the goal's cell
// over the cells the agent's centre may stand in, computed lazily as the search asks (a reverse
// resumable A* ordered toward the start cell, Silver 2005: a closed cell's distance is exact
// because the octile distance to the start is consistent). A cell outside the goal's component
// answers infinity, which is also the fail-fast "no path" test.
class GridDistance {
 public:
  void reset(const std::vector<std::uint8_t>* free, int w, int h, int gx, int gy, int sx, int sy) {
    free_ = free;
    w_ = w;
    h_ = h;
    sx_ = sx;
    sy_ = sy;
    dist_.assign(std::size_t(w) * std::size_t(h), kInf);
    closed_.assign(std::size_t(w) * std::size_t(h), 0);
    heap_.clear();
    settled_ = 0;
    const int g = gy * w + gx;
    if ((*free_)[std::size_t(g)]) {
      dist_[std::size_t(g)] = 0;
      push(octile_distance(gx - sx, gy - sy), g);
    }
  }
  // The distance of cell index c from the goal's cell (infinity: not connected).
  double get(int c) {
    if (closed_[std::size_t(c)]) return dist_[std::size_t(c)];
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), Greater{});
      const Entry e = heap_.back();
      heap_.pop_back();
      if (closed_[std::size_t(e.cell)]) continue;
      closed_[std::size_t(e.cell)] = 1;
      ++settled_;
      const int x = e.cell % w_, y = e.cell / w_;
      const double d = dist_[std::size_t(e.cell)];
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0) continue;
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w_ || ny >= h_) continue;
          const int n = ny * w_ + nx;
          if (!(*free_)[std::size_t(n)] || closed_[std::size_t(n)]) continue;
          const double nd = d + (dx != 0 && dy != 0 ? kSqrt2 : 1.0);
          if (nd < dist_[std::size_t(n)]) {
            dist_[std::size_t(n)] = nd;
            push(nd + octile_distance(nx - sx_, ny - sy_), n);
          }
        }
      if (e.cell == c) return d;
    }
    return kInf;
  }
  std::uint64_t settled() const { return settled_; }
  std::size_t memory_bytes() const {
    return dist_.capacity() * sizeof(double) + closed_.capacity() + heap_.capacity() * sizeof(Entry);
  }

 private:
  struct Entry {
    double f;
    int cell;
  };
  struct Greater {
    bool operator()(const Entry& a, const Entry& b) const { return a.f > b.f; }
  };
  void push(double f, int c) {
    heap_.push_back({f, c});
    std::push_heap(heap_.begin(), heap_.end(), Greater{});
  }
  const std::vector<std::uint8_t>* free_ = nullptr;
  int w_ = 0, h_ = 0, sx_ = 0, sy_ = 0;
  std::vector<double> dist_;
  std::vector<std::uint8_t> closed_;
  std::vector<Entry> heap_;
  std::uint64_t settled_ = 0;
};

// A successor before it is reached: what evaluate() and the side arrays need.
struct Cand {
  Pose pose;
  double h = 0, hc = 0;
};

Shape shape_of(const PathPiece& p) {
  return p.kind == PathPiece::Kind::Line ? Shape::segment(p.line.a, p.line.b) : Shape::arc(p.arc);
}

}  // namespace

struct HybridAStarPlanner::Impl {
  HybridAStarParams prm;

  // Per map, capability and agent radius.
  std::uint64_t map_uid = 0, map_version = 0;
  CapabilityMask cap = 0;
  double fp_radius = -1;
  int w = 0, h = 0;
  std::vector<std::uint8_t> blocked, free2d;
  // Brushfire clearance b per cell: every blocked cell and the map's outside lie at least b - 1
  // map units from any point of the cell, so a move shorter than b - 1 - radius needs no test.
  ClearanceGrid room;
  std::function<bool(int, int)> blocked_fn;

  GridDistance grid;
  NodePool<double> pool;
  OpenList<TieLargerG> open;

  // Per node of the current query (local id).
  struct Via {
    Steer steer = Steer::Straight;
    double length = 0;  // signed: < 0 = reverse
  };
  std::vector<std::uint32_t> key;
  std::vector<Pose> pose;
  std::vector<double> hval, hcurve;
  std::vector<Via> via;
  std::vector<std::uint8_t> gear;  // 0 forward, 1 reverse, 2 none (the start)
  std::unordered_map<std::uint32_t, std::uint32_t> index;

  // The current query.
  Pose goal;
  double turn = 1, step = 1.5, near = 0;
  bool reverse = false, use_curve = true, use_grid = true;
  int k = 72;
  Footprint fp;
  std::vector<PathPiece> shot, tmp;
  std::uint64_t closed = 0, shots = 0, shots_blocked = 0, rejected = 0;
  bool gave_up = false;  // the expansion budget ran out

  std::uint32_t bin(const Pose& p) const {
    const int cx = std::clamp(int(std::floor(p.x)), 0, w - 1);
    const int cy = std::clamp(int(std::floor(p.y)), 0, h - 1);
    int hi = int(std::floor(normalize_angle(p.heading) / (kTwoPi / k) + 0.5));
    if (hi >= k) hi -= k;
    return (std::uint32_t(cy) * std::uint32_t(w) + std::uint32_t(cx)) * std::uint32_t(k) +
           std::uint32_t(hi);
  }
  Curve to_goal(const Pose& p) const {
    return reverse ? reeds_shepp(p, goal, turn) : dubins(p, goal, turn);
  }
  // h of a pose; false when the goal cannot be reached from its cell.
  bool heuristic(const Pose& p, double& hv, double& hc) {
    hc = 0;
    double hg = 0;
    if (use_curve) {
      const Curve c = to_goal(p);
      hc = c.ok() ? c.length : 0;
    }
    if (use_grid) {
      const int cx = std::clamp(int(std::floor(p.x)), 0, w - 1);
      const int cy = std::clamp(int(std::floor(p.y)), 0, h - 1);
      hg = grid.get(cy * w + cx);
      if (hg == kInf) return false;
    }
    hv = std::max(hc, hg);
    if (!use_curve) hc = hg;
    return true;
  }
  bool clear(const PathPiece& piece) const {
    return piece_walkable(w, h, blocked_fn, piece, fp, prm.tolerance);
  }

  void add_node(std::uint32_t k_, const Pose& p) {
    key.push_back(k_);
    pose.push_back(p);
    hval.push_back(0);
    hcurve.push_back(0);
    via.push_back({});
    gear.push_back(2);
  }

  template <class L>
  bool try_goal(std::uint32_t n, L& l) {
    ++closed;
    if (closed > std::uint64_t(prm.max_expansions)) {
      gave_up = true;
      return true;
    }
    if (!(n == 0 || hcurve[n] <= near || closed % std::uint64_t(prm.shot_every) == 0)) return false;
    const Curve c = to_goal(pose[n]);
    if (!c.ok()) return false;
    ++shots;
    shot.clear();
    c.append_pieces(shot);
    for (const PathPiece& piece : shot) {
      const bool ok = clear(piece);
      if constexpr (L::kActive) l.test(shape_of(piece), ok);
      if (!ok) {
        ++shots_blocked;
        return false;
      }
    }
    return true;
  }

  template <class Out, class L>
  void expand(std::uint32_t n, double g, Out& out, L& l) {
    const Pose from = pose[n];
    const std::uint8_t was = gear[n];
    const std::uint32_t here = key[n];
    const double room_here = double(room[here / std::uint32_t(k)]) - 1.0;
    const int dirs = reverse ? 2 : 1;
    for (int d = 0; d < dirs; ++d) {
      for (const Steer steer : {Steer::Left, Steer::Straight, Steer::Right}) {
        Curve c;
        c.status = CurveStatus::Ok;
        c.start = from;
        c.radius = turn;
        c.segments[0] = {steer, d == 0 ? step : -step};
        c.count = 1;
        c.length = step;
        const Pose e = c.end();
        if (!(e.x > 0 && e.y > 0 && e.x < w && e.y < h)) continue;
        const std::uint32_t kk = bin(e);
        if (kk == here) continue;
        tmp.clear();
        c.append_pieces(tmp);
        const bool ok = room_here >= step + fp.size || clear(tmp[0]);
        if constexpr (L::kActive) l.test(shape_of(tmp[0]), ok);
        if (!ok) {
          ++rejected;
          continue;
        }
        double cost = step * (d == 1 ? prm.reverse_cost : 1.0);
        if (was != 2 && was != std::uint8_t(d)) cost += prm.gear_penalty;
        if (steer != Steer::Straight) cost += prm.turn_penalty;
        if (n != 0 && steer != via[n].steer) cost += prm.steer_change_penalty;
        const double ng = g + cost;
        const auto it = index.find(kk);
        std::uint32_t id;
        if (it != index.end()) {
          id = it->second;
          if (pool.seen(id) &&
              (pool.positions()[id] == NodePool<double>::kClosed || !(ng < pool.g_value(id))))
            continue;
        }
        Cand cd{e, 0, 0};
        if (!heuristic(e, cd.h, cd.hc)) continue;
        if (it == index.end()) {
          id = std::uint32_t(key.size());
          add_node(kk, e);
          index.emplace(kk, id);
        }
        if (out.reach(id, ng, cd)) {
          pose[id] = e;
          via[id] = {steer, c.segments[0].length};
          gear[id] = std::uint8_t(d);
          hval[id] = cd.h;
          hcurve[id] = cd.hc;
        }
      }
    }
  }

  // The problem best_first() runs: the hooks forward to the planner state.
  template <class L>
  struct Problem {
    using Cost = double;
    using Order = TieLargerG;
    static constexpr bool kFastSlot = false;
    static constexpr bool kGrowing = true;
    Impl& s;
    L& l;

    std::uint32_t start() const { return 0; }
    std::size_t node_bound() const { return 1024; }
    void evaluate(std::uint32_t n, const double& g, double& f, double& h) const {
      h = s.hval[n];
      f = g + h;
    }
    void evaluate(std::uint32_t, const double& g, double& f, double& h, const Cand& c) const {
      h = c.h;
      f = g + h;
    }
    bool stop(std::uint32_t n) { return s.try_goal(n, l); }
    template <class Out>
    void expand(std::uint32_t n, const double& g, Out& out) {
      s.expand(n, g, out, l);
    }
    float progress(const OpenEntry&) const { return -1.f; }
    std::uint32_t id(std::uint32_t n) const { return s.key[n]; }
  };
};

HybridAStarPlanner::HybridAStarPlanner(HybridAStarParams p) : impl_(std::make_unique<Impl>()) {
  impl_->prm = p;
}
HybridAStarPlanner::~HybridAStarPlanner() = default;

size_t HybridAStarPlanner::memory_bytes() const {
  const Impl& s = *impl_;
  return s.pool.memory_bytes() + s.open.memory_bytes() + s.grid.memory_bytes() +
         s.blocked.capacity() + s.free2d.capacity() + s.room.capacity() * sizeof(std::uint16_t) +
         s.key.capacity() * (sizeof(std::uint32_t) + sizeof(Pose) + 2 * sizeof(double) +
                             sizeof(Impl::Via) + 1) +
         s.index.size() * 32;
}

PlanResult HybridAStarPlanner::plan(const Scene& scene, const Query& q, const RunContext& ctx) {
  const Stopwatch clock;
  Impl& s = *impl_;
  const GridMap& map = scene.map;
  PlanResult r;
  auto done = [&]() -> PlanResult {
    r.time_ms = clock.ms();
    r.memory_bytes = memory_bytes();
    return r;
  };
  if (std::string why = outside_reason(map, q.start, q.goal); !why.empty()) {
    r.message = why;
    r.bad_query = true;
    return done();
  }
  if (!std::isfinite(q.start.heading) || !std::isfinite(q.goal.heading)) {
    r.message = "hybrid-astar: start and goal headings must be finite";
    r.bad_query = true;
    return done();
  }
  if (!(q.turning_radius > 0) || !std::isfinite(q.turning_radius)) {
    r.message = "hybrid-astar needs a turning radius > 0 (--turning-radius)";
    r.bad_query = true;
    return done();
  }
  if (!std::isfinite(q.radius) || q.radius < 0) {
    r.message = "hybrid-astar: the agent radius must be a finite number >= 0";
    r.bad_query = true;
    return done();
  }
  const int w = map.width(), h = map.height(), k = s.prm.headings;
  if (double(w) * double(h) * double(k) >= 4294967295.0) {
    r.message = "hybrid-astar: map cells x headings exceed 2^32 node ids";
    r.bad_query = true;
    return done();
  }
  CapabilityMask cap = q.capability;
  if (cap == 0) cap = map.palette().movingai_default_capability();
  const double radius = std::max(q.radius, 1e-6);

  // Per map, capability and radius: blocked cells, and the cells the agent's centre may stand in
  // (a relaxation: the disc shrunk by half a cell diagonal fits at the centre, so every cell that
  // holds a legal position is free here and the 2D distance never calls a reachable goal walled off).
  if (map.uid() != s.map_uid || map.version() != s.map_version || cap != s.cap ||
      radius != s.fp_radius || w != s.w || h != s.h) {
    const Stopwatch prep;
    s.w = w;
    s.h = h;
    s.blocked.assign(std::size_t(w) * std::size_t(h), 0);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        s.blocked[std::size_t(y) * std::size_t(w) + std::size_t(x)] = !map.passable(x, y, cap);
    const std::uint8_t* b = s.blocked.data();
    s.blocked_fn = [b, w](int x, int y) { return b[std::size_t(y) * std::size_t(w) + std::size_t(x)] != 0; };
    s.room = brushfire_clearance(map, cap);
    s.free2d.assign(s.blocked.size(), 0);
    const double shrunk = radius - std::sqrt(0.5);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * std::size_t(w) + std::size_t(x);
        if (b[i]) continue;
        const Vec2 c{x + 0.5, y + 0.5};
        s.free2d[i] = shrunk <= 0 || walkable(w, h, s.blocked_fn, c, c, Footprint::disc(shrunk));
      }
    s.map_uid = map.uid();
    s.map_version = map.version();
    s.cap = cap;
    s.fp_radius = radius;
    s.pool.reset(1024);
    r.prepare_ms = prep.ms();
  }

  s.fp = Footprint::disc(radius);
  s.goal = q.goal;
  s.goal.heading = normalize_angle(q.goal.heading);
  s.turn = q.turning_radius;
  s.k = k;
  s.reverse = s.prm.reverse || q.can_reverse;
  s.use_curve = s.prm.heuristic != HybridAStarParams::Heuristic::Grid;
  s.use_grid = s.prm.heuristic != HybridAStarParams::Heuristic::Curve;
  s.step = std::max(1.5, s.turn * kTwoPi / k);
  s.near = 10 * s.step;
  s.closed = s.shots = s.shots_blocked = s.rejected = 0;
  s.gave_up = false;
  s.key.clear();
  s.pose.clear();
  s.hval.clear();
  s.hcurve.clear();
  s.via.clear();
  s.gear.clear();
  s.index.clear();

  Pose start = q.start;
  start.heading = normalize_angle(start.heading);
  const char* which[2] = {"start", "goal"};
  const Pose* ends[2] = {&start, &s.goal};
  for (int i = 0; i < 2; ++i) {
    const Vec2 p = ends[i]->position();
    if (!walkable(w, h, s.blocked_fn, p, p, s.fp)) {
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "%s (%g,%g): the agent (radius %g) overlaps a blocked cell or the map's border",
                    which[i], p.x, p.y, q.radius);
      r.message = buf;
      if (ctx.observer) {
        ctx.observer->phase("check endpoints");
        ctx.observer->test(Shape::circle(p, radius), false);
        ctx.observer->frame();
      }
      return done();
    }
  }

  const int sx = std::clamp(int(std::floor(start.x)), 0, w - 1), sy = std::clamp(int(std::floor(start.y)), 0, h - 1);
  const int gx = std::clamp(int(std::floor(s.goal.x)), 0, w - 1), gy = std::clamp(int(std::floor(s.goal.y)), 0, h - 1);

  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    using L = std::decay_t<decltype(l)>;
    if constexpr (L::kActive) {
      l.observer()->space(NodeSpace::cell_headings(w, h, k));
      l.observer()->phase(s.use_grid ? "heuristic: 2D distance from the goal" : "heuristic: curve length");
    }
    s.grid.reset(&s.free2d, w, h, gx, gy, sx, sy);
    s.add_node(s.bin(start), start);
    s.index.emplace(s.key[0], 0u);
    double hv = 0, hc = 0;
    if (!s.heuristic(start, hv, hc)) {
      if constexpr (L::kActive) {
        l.observer()->counter("heuristic cells", double(s.grid.settled()));
        l.observer()->test(Shape::cell(gx, gy), false);
        l.observer()->frame();
      }
      return SearchOutcome{};
    }
    s.hval[0] = hv;
    s.hcurve[0] = hc;
    if constexpr (L::kActive) {
      l.observer()->counter("heuristic cells", double(s.grid.settled()));
      l.observer()->phase("search with analytic shots");
    }
    Impl::Problem<L> p{s, l};
    SearchOutcome o = best_first(p, s.pool, s.open, l, ctx);
    if constexpr (L::kActive) {
      l.observer()->counter("analytic shots", double(s.shots));
      l.observer()->counter("heuristic cells", double(s.grid.settled()));
    }
    return o;
  });

  r.expanded = out.expanded;
  r.generated = out.generated;
  r.stats = {{"analytic shots", double(s.shots)},
             {"shots blocked", double(s.shots_blocked)},
             {"primitives rejected", double(s.rejected)},
             {"heuristic cells", double(s.grid.settled())}};
  if (out.cancelled) {
    r.cancelled = true;
    r.message = "cancelled";
    return done();
  }
  if (s.gave_up) {
    r.message = "no path found within " + std::to_string(s.prm.max_expansions) +
                " expansions (max_expansions)";
    return done();
  }
  if (!out.stopped) {
    r.message = s.key.size() <= 1 && out.expanded == 0
                    ? "no path: the goal is walled off for this agent (no cell path for its centre)"
                    : "no path: the search ran out of poses";
    return done();
  }
  const std::vector<std::uint32_t> chain = s.pool.chain(out.last);
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const std::uint32_t n = chain[i];
    r.points.push_back(s.pose[n]);
    if (i == 0) continue;
    Curve c;
    c.status = CurveStatus::Ok;
    c.start = s.pose[chain[i - 1]];
    c.radius = s.turn;
    c.segments[0] = {s.via[n].steer, s.via[n].length};
    c.count = 1;
    c.length = std::abs(s.via[n].length);
    c.append_pieces(r.pieces);
  }
  r.pieces.insert(r.pieces.end(), s.shot.begin(), s.shot.end());
  if (r.points.empty() || !(r.points.back() == s.goal)) r.points.push_back(s.goal);
  r.length = path_length(r.pieces);
  r.found = true;
  // Legal by construction (every primitive and shot swept against the map): for the compare
  // table's illegal-turn column, beside the post-processing methods that do make them.
  r.stats.push_back({"illegal turns", 0});
  if (ctx.observer) ctx.observer->path(r.pieces);
  return done();
}

namespace {

void add_hybrid_astar(Registry& reg) {
  reg.add({"hybrid-astar", "turning radius",
           "Hybrid A* (Dolgov et al. 2008): continuous poses binned into cells x headings, arcs "
           "at the turning radius as moves, a Dubins / Reeds-Shepp shot to the goal, heuristic "
           "max(curve length, 2D distance)",
           /*optimal=*/false,
           {ParamDesc::integer("headings", "heading bins per cell", 8, 360, "72"),
            ParamDesc::boolean("reverse",
                               "may drive backwards (also on when the agent can reverse)",
                               "false"),
            ParamDesc::choice("heuristic",
                              "max: the larger of the obstacle-free curve length and the "
                              "obstacle-aware 2D distance; curve or grid: one alone",
                              {"max", "curve", "grid"}, "max"),
            ParamDesc::integer("shot_every",
                               "an analytic shot to the goal every this many expansions (and at "
                               "every expansion near the goal)",
                               1, 1000, "8")
                .labelled("shot every"),
            ParamDesc::integer("max_expansions",
                               "give up (no path) after this many expansions", 1000, 1000000,
                               "200000")
                .labelled("max expansions"),
            ParamDesc::real("turn_penalty", "cost added to every arc (map units)", 0, 100, "0.05")
                .labelled("turn penalty"),
            ParamDesc::real("steer_change_penalty",
                            "cost added when the steering differs from the previous move", 0, 100,
                            "0")
                .labelled("steer change penalty"),
            ParamDesc::real("reverse_cost", "cost factor of driving backwards", 1, 100, "2")
                .labelled("reverse cost"),
            ParamDesc::real("gear_penalty", "cost added at each change of direction", 0, 1000,
                            "2")
                .labelled("gear penalty")},
           [](const ParamSet& ps) {
             HybridAStarParams p;
             p.headings = ps.get_int("headings");
             p.reverse = ps.get_bool("reverse");
             const std::string& hh = ps.get("heuristic");
             p.heuristic = hh == "curve"  ? HybridAStarParams::Heuristic::Curve
                           : hh == "grid" ? HybridAStarParams::Heuristic::Grid
                                          : HybridAStarParams::Heuristic::Max;
             p.shot_every = ps.get_int("shot_every");
             p.max_expansions = ps.get_int("max_expansions");
             p.turn_penalty = ps.get_double("turn_penalty");
             p.steer_change_penalty = ps.get_double("steer_change_penalty");
             p.reverse_cost = ps.get_double("reverse_cost");
             p.gear_penalty = ps.get_double("gear_penalty");
             return std::make_unique<HybridAStarPlanner>(p);
           },
           AgentInput::Capability | AgentInput::Radius | AgentInput::TurningRadius |
               AgentInput::Headings | AgentInput::Reverse});
}
const PlannerRegistration kRegistration(50, add_hybrid_astar);

}  // namespace
}  // namespace pl

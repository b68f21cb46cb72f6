#include "planners/anyangle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/grid_query.hpp"
#include "core/smoothing.hpp"
#include "planners/corner_world.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {

// Neighbour order as the grid planners: E, S, W, N, then SE, SW, NW, NE.
constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

double dist(double ax, double ay, double bx, double by) {
  const double dx = bx - ax, dy = by - ay;
  return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

void smooth_corner_path(const CornerGrid& grid, std::vector<Vec2>& pts, PlanResult& r,
                        SearchObserver* observer) {
  // The corners of the path are pts[first .. last] (a query point that is not a corner stays
  // joined to its corner by its leg). Vertices are only dropped, so every kept interior vertex
  // was one before: never a pinch corner.
  std::size_t first = 0, last = pts.size();
  const auto is_corner = [](Vec2 p) { return p.x == std::floor(p.x) && p.y == std::floor(p.y); };
  while (first < last && !is_corner(pts[first])) ++first;
  while (last > first && !is_corner(pts[last - 1])) --last;
  if (last - first < 3) {
    r.stats.push_back({"smoothing line-of-sight tests", 0});
    return;
  }
  std::size_t tests = 0;
  const std::vector<Vec2> kept = greedy_smooth<Vec2>(
      std::span<const Vec2>(pts.data() + first, last - first),
      [&](Vec2 a, Vec2 b) { return grid.visible(int(a.x), int(a.y), int(b.x), int(b.y)); },
      &tests);
  std::vector<Vec2> out(pts.begin(), pts.begin() + std::ptrdiff_t(first));
  out.insert(out.end(), kept.begin(), kept.end());
  out.insert(out.end(), pts.begin() + std::ptrdiff_t(last), pts.end());
  double length = 0;
  for (std::size_t i = 0; i + 1 < out.size(); ++i)
    length += dist(out[i].x, out[i].y, out[i + 1].x, out[i + 1].y);
  r.stats.push_back({"length before smoothing", r.length});
  r.stats.push_back({"smoothing line-of-sight tests", double(tests)});
  if (observer) {
    observer->phase("post-smoothing");
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
      observer->test(Shape::segment(out[i], out[i + 1]), true);
  }
  r.length = length;
  pts = std::move(out);
}

template <AnyAngleSearch::Mode M>
struct AnyAngleSearch::Problem : CornerNodes<AnyAngleSearch::Problem<M>> {
  using Base = CornerNodes<Problem>;
  using Base::g;
  using Base::goal_node;
  using Base::h0;
  using Base::ncorners;
  using Base::point;
  using Base::s;
  using Base::start_node;
  using Base::w1;
  using Cost = double;
  using Order = TieLargerG;
  // Octile h on 8-connected corners is consistent: the next-pop slot is exact. Theta*'s f is not
  // monotone along its shortcuts, so the any-angle modes use the heap only.
  static constexpr bool kFastSlot = M == Mode::CornerAStar;
  static constexpr bool kGrowing = false;
  static constexpr bool kAnyAngle = M != Mode::CornerAStar;

  const CornerGrid* grid = nullptr;
  NodePool<double>* pool = nullptr;
  std::uint64_t los_tests = 0;
  // Lazy Theta*: the parent check done when the node was last closed, reported when it expands
  // (or after the search, for the goal).
  struct Check {
    bool pending = false, ok = false;
    std::uint32_t node = 0, old_parent = 0, new_parent = 0;
    double g = 0;
  } check;

  double heuristic(double x, double y) const {
    const double dx = std::abs(x - g.px), dy = std::abs(y - g.py);
    if constexpr (kAnyAngle) return std::sqrt(dx * dx + dy * dy);
    else return octile_distance(dx, dy);
  }
  bool closed(std::uint32_t n) const {
    return pool->seen(n) && pool->positions()[n] == NodePool<double>::kClosed;
  }

  bool stop(std::uint32_t n) {
    if constexpr (M == Mode::LazyTheta) set_vertex(n);
    return n == goal_node;
  }

  // Lazy Theta*'s SetVertex: n was given its parent's parent without a line-of-sight test; now
  // that n is closed, test it, and when it fails hang n from its best closed neighbour.
  void set_vertex(std::uint32_t n) {
    if (n >= ncorners) return;  // query points hang from their cell's corners by exact legs
    const std::uint32_t pp = pool->parent(n);
    if (pp == kNoNode || pp >= ncorners) return;
    const int x = int(n % std::uint32_t(w1)), y = int(n / std::uint32_t(w1));
    const int px = int(pp % std::uint32_t(w1)), py = int(pp / std::uint32_t(w1));
    ++los_tests;
    check = {true, grid->visible(px, py, x, y), n, pp, pp, pool->g_value(n)};
    if (check.ok) return;
    double best = std::numeric_limits<double>::infinity();
    std::uint32_t bp = kNoNode;
    for (int d = 0; d < 8; ++d) {
      const int nx = x + kDx[d], ny = y + kDy[d];
      if (!grid->in_corners(nx, ny) || !grid->step_ok(x, y, kDx[d], kDy[d])) continue;
      const std::uint32_t c = std::uint32_t(ny * w1 + nx);
      if (!closed(c) || (c != start_node && grid->pinch(nx, ny))) continue;
      const double cand = pool->g_value(c) + (d < 4 ? 1.0 : kSqrt2);
      if (cand < best) best = cand, bp = c;
    }
    if (!s.corner && closed(ncorners) && x - s.x >= 0 && x - s.x <= 1 && y - s.y >= 0 &&
        y - s.y <= 1) {
      const double cand = pool->g_value(ncorners) + dist(s.px, s.py, x, y);
      if (cand < best) best = cand, bp = ncorners;
    }
    if (bp == kNoNode) return;  // cannot happen: the node that generated n is such a neighbour
    typename NodePool<double>::Node& node = pool->nodes()[n];
    node.g = best;
    node.parent = bp;
    check.new_parent = bp;
    check.g = best;
  }
  template <class L>
  void report_check(L& l) {
    if (!check.pending) return;
    check.pending = false;
    double ax, ay, bx, by;
    point(check.old_parent, ax, ay);
    point(check.node, bx, by);
    l.test(Shape::segment({ax, ay}, {bx, by}), check.ok);
    if (!check.ok) l.relax(check.node, check.new_parent, check.g);
  }

  template <class Out>
  void expand(std::uint32_t n, const double& gn, Out& out) {
    using L = std::decay_t<decltype(out.listener())>;
    if constexpr (M == Mode::LazyTheta && L::kActive) report_check(out.listener());
    if (n == goal_node) return;
    if (n >= ncorners) {  // the start point: legs to the corners of its cell
      for (int k = 0; k < 4; ++k) {
        const int cx = s.x + (k & 1), cy = s.y + (k >> 1);
        out.reach(std::uint32_t(cy * w1 + cx), gn + dist(s.px, s.py, cx, cy), cx, cy);
      }
      if (!g.corner && g.x == s.x && g.y == s.y)  // both in one open cell: the straight leg
        out.reach(goal_node, gn + dist(s.px, s.py, g.px, g.py));
      return;
    }
    const int x = int(n % std::uint32_t(w1)), y = int(n / std::uint32_t(w1));
    if (n != start_node && grid->pinch(x, y)) return;  // a path may not pass through it
    std::uint32_t pp = kNoNode;
    int px = 0, py = 0;
    double gpp = 0;
    if constexpr (kAnyAngle) {
      pp = pool->parent(n);
      if (pp != kNoNode && pp < ncorners) {
        px = int(pp % std::uint32_t(w1));
        py = int(pp / std::uint32_t(w1));
        gpp = pool->g_value(pp);
      } else {
        pp = kNoNode;  // the start, or hanging from the start point: plain edges
      }
    }
    for (int d = 0; d < 8; ++d) {
      const int nx = x + kDx[d], ny = y + kDy[d];
      if (!grid->in_corners(nx, ny) || !grid->step_ok(x, y, kDx[d], kDy[d])) continue;
      const std::uint32_t nb = std::uint32_t(ny * w1 + nx);
      const double step = d < 4 ? 1.0 : kSqrt2;
      if constexpr (kAnyAngle) {
        if (closed(nb)) continue;
        if (pp != kNoNode) {
          const double via = gpp + dist(px, py, nx, ny);
          if constexpr (M == Mode::Theta) {
            // n hangs from pp, so g(n) = g(pp) + |pp n| and the plain edge costs at least `via`
            // (triangle inequality): when nb already has g <= via, neither can improve it and
            // the test is not worth making.
            if (pool->seen(nb) && pool->g_value(nb) <= via) continue;
            ++los_tests;
            const bool ok = grid->visible(px, py, nx, ny);
            if constexpr (L::kActive)
              out.listener().test(Shape::segment({double(px), double(py)}, {double(nx), double(ny)}), ok);
            if (ok) {
              out.reach_via(pp, pp, nb, via, nx, ny);
              continue;
            }
          } else {  // Lazy Theta*: assume the line of sight, test it when nb is closed
            out.reach_via(pp, pp, nb, via, nx, ny);
            continue;
          }
        }
      }
      out.reach(nb, gn + step, nx, ny);
    }
    if (!g.corner && x - g.x >= 0 && x - g.x <= 1 && y - g.y >= 0 && y - g.y <= 1)
      out.reach(goal_node, gn + dist(x, y, g.px, g.py));
  }

};

template <AnyAngleSearch::Mode M>
PlanResult AnyAngleSearch::search(const Endpoint& s, const Endpoint& g, bool smooth,
                                  const RunContext& ctx) {
  Problem<M> p;
  p.grid = &grid_;
  p.pool = &pool_;
  p.set_endpoints(grid_, s, g);
  p.h0 = std::max(p.heuristic(s.px, s.py), 1e-9);
  const NodeSpace corners = NodeSpace::corners(grid_.width(), grid_.height());
  const bool points = !s.corner || !g.corner;

  PlanResult r;
  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(corners);
      if (points) l.observer()->space(NodeSpace::points(2, p.ncorners, "query points"));
      l.observer()->phase("search");
    }
    SearchOutcome o = best_first(p, pool_, open_, l, ctx);
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      if constexpr (M == Mode::LazyTheta) p.report_check(l);  // the goal's own check
      l.flush();
    }
    return o;
  });
  if (M != Mode::CornerAStar) r.stats.push_back({"line-of-sight tests", double(p.los_tests)});
  if (!take_outcome(out, r)) return r;
  r.length = pool_.g_value(out.last);
  std::vector<Vec2> pts;
  for (std::uint32_t n : pool_.chain(out.last)) {
    double x, y;
    p.point(n, x, y);
    // A* on corners: collinear unit steps merge into one straight piece.
    if (M == Mode::CornerAStar && pts.size() >= 2) {
      const Vec2 a = pts[pts.size() - 2], b = pts.back();
      if ((b.x - a.x) * (y - b.y) == (b.y - a.y) * (x - b.x) &&
          (b.x - a.x) * (x - b.x) + (b.y - a.y) * (y - b.y) > 0) {
        pts.back() = {x, y};
        continue;
      }
    }
    pts.push_back({x, y});
  }
  if (smooth) smooth_corner_path(grid_, pts, r, ctx.observer);
  fill_polyline_path(r, pts);
  if (M == Mode::CornerAStar)
    show_found_path(r, ctx.observer);
  else
    show_found_path(r, ctx.observer, {{"line-of-sight tests", double(p.los_tests)}});
  return r;
}

PlanResult AnyAngleSearch::run(const GridMap& map, const Query& query, Mode mode, bool smooth,
                               const RunContext& ctx) {
  const Stopwatch clock;
  PlanResult r;
  CapabilityMask cap = query.capability;
  if (cap == 0) cap = map.palette().movingai_default_capability();
  // The endpoints: corners as they are, other points inside the map by their cell.
  Endpoint ep[2];
  if (!corner_endpoints(map, query, ep, r)) {
    r.time_ms = clock.ms();
    return r;
  }
  if (map.uid() != map_uid_ || map.version() != map_version_ || cap != cap_) {
    const Stopwatch prep;
    grid_ = CornerGrid(map, cap);
    map_uid_ = map.uid();
    map_version_ = map.version();
    cap_ = cap;
    pool_.reset(std::size_t(grid_.corner_count()) + 2);
    r.prepare_ms = prep.ms();
  }
  if (!corner_endpoints_free(map, cap, grid_, ep, r, ctx.observer)) {
    r.time_ms = clock.ms();
    r.memory_bytes = memory_bytes();
    return r;
  }
  const double prepare_ms = r.prepare_ms;
  if (ep[0].px == ep[1].px && ep[0].py == ep[1].py) {  // the empty path
    r.found = true;
    r.points.push_back(query.start);
  } else {
    switch (mode) {
      case Mode::CornerAStar: r = search<Mode::CornerAStar>(ep[0], ep[1], smooth, ctx); break;
      case Mode::Theta: r = search<Mode::Theta>(ep[0], ep[1], smooth, ctx); break;
      case Mode::LazyTheta: r = search<Mode::LazyTheta>(ep[0], ep[1], smooth, ctx); break;
    }
  }
  r.prepare_ms = prepare_ms;
  r.memory_bytes = memory_bytes();
  r.time_ms = clock.ms();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Registry entries: corner-astar, theta, lazy-theta.

namespace {

ParamDesc smoothing_param() {
  return ParamDesc::boolean("smoothing",
                            "Post-smoothing (Daniel et al. 2010, Algorithm 2): drop every path "
                            "vertex the last kept one can see past; its time counts in the "
                            "planner's",
                            "false")
      .labelled("post-smoothing");
}

using AnyAnglePlanner = GridWorldPlanner<AnyAngleSearch, AnyAngleSearch::Mode, bool>;

void add_anyangle_planners(Registry& r) {
  const auto make = [](AnyAngleSearch::Mode m) {
    return [m](const ParamSet& ps) {
      return std::make_unique<AnyAnglePlanner>(GridWorld(ps), m, ps.get_bool("smoothing"));
    };
  };
  const char* points =
      " Start and goal are cell corners (integer points); any other point joins the corners of "
      "its cell.";
  r.add({"corner-astar", "any-angle",
         std::string("A* on the cell corners, 8-connected (a straight move needs an open cell "
                     "beside it, a diagonal one an open cell to cross), octile heuristic: the "
                     "shortest corner-graph path, not the shortest any-angle one.") + points,
         false, {circles_param(), smoothing_param()}, make(AnyAngleSearch::Mode::CornerAStar),
         AgentInputs(AgentInput::Capability), QueryCoordinates::Corners});
  r.add({"theta", "any-angle",
         std::string("Theta* (Nash et al. 2007): A* on the corners where a successor takes its "
                     "parent's parent when that corner sees it (exact line of sight); near "
                     "optimal any-angle paths.") + points,
         false, {circles_param(), smoothing_param()}, make(AnyAngleSearch::Mode::Theta),
         AgentInputs(AgentInput::Capability), QueryCoordinates::Corners});
  r.add({"lazy-theta", "any-angle",
         std::string("Lazy Theta* (Nash et al. 2010): Theta* that assumes line of sight when it "
                     "generates a node and tests it once, when the node is expanded.") + points,
         false, {circles_param(), smoothing_param()}, make(AnyAngleSearch::Mode::LazyTheta),
         AgentInputs(AgentInput::Capability), QueryCoordinates::Corners});
  // The exact any-angle planner (planners/visibility.cpp) is the optimum viewers measure these
  // against ("% over optimal" in the compare table).
  for (const char* name : {"corner-astar", "theta", "lazy-theta"}) r.set_reference(name, "visibility");
}

const PlannerRegistration kRegistration(40, add_anyangle_planners);

}  // namespace

}  // namespace pl

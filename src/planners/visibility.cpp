#include "planners/visibility.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/grid_query.hpp"
#include "planners/corner_world.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {

double dist(double ax, double ay, double bx, double by) {
  const double dx = bx - ax, dy = by - ay;
  return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

std::size_t VisibilityGraphSearch::memory_bytes() const {
  return grid_.memory_bytes() + pool_.memory_bytes() + open_.memory_bytes() +
         (vx_.capacity() + vy_.capacity() + index_.capacity()) * sizeof(std::int32_t) +
         quad_.capacity() + (offsets_.capacity() + targets_.capacity()) * sizeof(std::uint32_t) +
         goal_stamp_.capacity() * sizeof(std::uint32_t) + goal_bits_.capacity();
}

bool VisibilityGraphSearch::build(const RunContext& ctx) {
  const Stopwatch clock;
  const int w = grid_.width(), h = grid_.height();
  vx_.clear();
  vy_.clear();
  quad_.clear();
  offsets_.clear();
  targets_.clear();
  index_.assign(grid_.corner_count(), -1);
  refused_.clear();
  for (int y = 0; y <= h; ++y)
    for (int x = 0; x <= w; ++x) {
      const bool nw = grid_.blocked(x - 1, y - 1), ne = grid_.blocked(x, y - 1);
      const bool sw = grid_.blocked(x - 1, y), se = grid_.blocked(x, y);
      if (int(nw) + int(ne) + int(sw) + int(se) != 1) continue;
      const int qx = (ne || se) ? 1 : -1, qy = (sw || se) ? 1 : -1;
      index_[grid_.corner_id(x, y)] = std::int32_t(vx_.size());
      vx_.push_back(x);
      vy_.push_back(y);
      quad_.push_back(std::int8_t(qx * qy));
    }
  const std::size_t n = vx_.size();
  if (n > kMaxConvex) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "the map has %zu convex corners, more than the visibility graph's limit of %zu",
                  n, kMaxConvex);
    refused_ = buf;
    return false;
  }
  // Taut edges between mutually visible convex corners, tangent at both ends.
  std::vector<std::vector<std::uint32_t>> adj(n);
  std::size_t edges = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if ((i & 63) == 0) {
      if (ctx.cancelled()) return false;
      ctx.report_progress(float(double(i) / double(n)));
    }
    const int xi = vx_[i], yi = vy_[i], qi = quad_[i];
    for (std::size_t j = i + 1; j < n; ++j) {
      const long long s = (long long)(vx_[j] - xi) * (long long)(vy_[j] - yi);
      if (s * qi > 0 || s * quad_[j] > 0) continue;
      if (!grid_.visible(xi, yi, vx_[j], vy_[j])) continue;
      adj[i].push_back(std::uint32_t(j));
      adj[j].push_back(std::uint32_t(i));
      edges += 2;
    }
    if (edges > kMaxEdges) {
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "the visibility graph has more than %zu edges (%zu convex corners), over its "
                    "memory limit",
                    kMaxEdges, n);
      refused_ = buf;
      return false;
    }
  }
  offsets_.reserve(n + 1);
  targets_.reserve(edges);
  offsets_.push_back(0);
  for (auto& a : adj) {
    targets_.insert(targets_.end(), a.begin(), a.end());
    offsets_.push_back(std::uint32_t(targets_.size()));
    std::vector<std::uint32_t>().swap(a);
  }
  goal_stamp_.assign(n, 0);
  goal_bits_.assign(n, 0);
  stamp_ = 0;
  build_ms_ = clock.ms();
  return true;
}

struct VisibilityGraphSearch::Problem : CornerNodes<VisibilityGraphSearch::Problem> {
  using Cost = double;
  using Order = TieLargerG;
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = false;

  VisibilityGraphSearch* vg = nullptr;
  const CornerGrid* grid = nullptr;
  // The corners a search leaves from (the start corner, or the start cell's four) and the goal
  // targets (the goal corner, or the goal cell's four, each with its leg to the goal point).
  std::uint32_t starts[4] = {0, 0, 0, 0};
  int nstarts = 0;
  std::uint32_t targets[4] = {0, 0, 0, 0};
  double legs[4] = {0, 0, 0, 0};
  int ntargets = 0;
  std::uint64_t los_tests = 0;

  double heuristic(double x, double y) const { return dist(x, y, g.px, g.py); }

  // Before the search: which convex corners see which goal target (tangent at the corner).
  template <class L>
  void mark_goal_targets(L& l) {
    if (++vg->stamp_ == 0) {
      std::fill(vg->goal_stamp_.begin(), vg->goal_stamp_.end(), 0u);
      vg->stamp_ = 1;
    }
    const std::size_t n = vg->vx_.size();
    for (int k = 0; k < ntargets; ++k) {
      const int tx = int(targets[k] % std::uint32_t(w1)), ty = int(targets[k] / std::uint32_t(w1));
      for (std::size_t i = 0; i < n; ++i) {
        const int x = vg->vx_[i], y = vg->vy_[i];
        const long long sgn = (long long)(tx - x) * (long long)(ty - y);
        if (sgn * vg->quad_[i] > 0 || (x == tx && y == ty)) continue;
        ++los_tests;
        if (!grid->visible(x, y, tx, ty)) continue;
        if constexpr (L::kActive) l.test(Shape::segment({double(x), double(y)}, {double(tx), double(ty)}), true);
        if (vg->goal_stamp_[i] != vg->stamp_) {
          vg->goal_stamp_[i] = vg->stamp_;
          vg->goal_bits_[i] = 0;
        }
        vg->goal_bits_[i] = std::uint8_t(vg->goal_bits_[i] | (1u << k));
      }
    }
  }

  template <class Out>
  void expand(std::uint32_t n, const double& gn, Out& out) {
    using L = std::decay_t<decltype(out.listener())>;
    if (n == goal_node) return;
    if (n >= ncorners) {  // the start point: legs to the corners of its cell
      for (int k = 0; k < nstarts; ++k) {
        const int cx = int(starts[k] % std::uint32_t(w1)), cy = int(starts[k] / std::uint32_t(w1));
        out.reach(starts[k], gn + dist(s.px, s.py, cx, cy), cx, cy);
      }
      if (!g.corner && g.x == s.x && g.y == s.y)  // both in one open cell: the straight leg
        out.reach(goal_node, gn + dist(s.px, s.py, g.px, g.py));
      return;
    }
    const int x = int(n % std::uint32_t(w1)), y = int(n / std::uint32_t(w1));
    if (n != start_node && grid->pinch(x, y)) return;  // a path may not pass through it
    if (!g.corner)
      for (int k = 0; k < ntargets; ++k)
        if (n == targets[k]) out.reach(goal_node, gn + legs[k]);
    bool from_start = false;
    for (int k = 0; k < nstarts; ++k) from_start |= n == starts[k];
    if (from_start) {
      // Every convex corner it sees (tangent there), and the goal targets it sees.
      const std::size_t nc = vg->vx_.size();
      for (std::size_t i = 0; i < nc; ++i) {
        const int vx = vg->vx_[i], vy = vg->vy_[i];
        const long long sgn = (long long)(vx - x) * (long long)(vy - y);
        if (sgn * vg->quad_[i] > 0 || (vx == x && vy == y)) continue;
        ++los_tests;
        if (!grid->visible(x, y, vx, vy)) continue;
        if constexpr (L::kActive) out.listener().test(Shape::segment({double(x), double(y)}, {double(vx), double(vy)}), true);
        out.reach(std::uint32_t(vy * w1 + vx), gn + dist(x, y, vx, vy), vx, vy);
      }
      for (int k = 0; k < ntargets; ++k) {
        if (targets[k] == n) continue;
        const int tx = int(targets[k] % std::uint32_t(w1)), ty = int(targets[k] / std::uint32_t(w1));
        ++los_tests;
        if (grid->visible(x, y, tx, ty)) out.reach(targets[k], gn + dist(x, y, tx, ty), tx, ty);
      }
      return;
    }
    const std::int32_t ci = vg->index_[n];
    if (ci < 0) return;  // a goal target that is not convex: only its leg to the goal point
    const std::uint32_t* t = vg->targets_.data();
    for (std::uint32_t e = vg->offsets_[std::size_t(ci)]; e < vg->offsets_[std::size_t(ci) + 1]; ++e) {
      const int vx = vg->vx_[t[e]], vy = vg->vy_[t[e]];
      out.reach(std::uint32_t(vy * w1 + vx), gn + dist(x, y, vx, vy), vx, vy);
    }
    if (vg->goal_stamp_[std::size_t(ci)] == vg->stamp_) {
      const unsigned bits = vg->goal_bits_[std::size_t(ci)];
      for (int k = 0; k < ntargets; ++k)
        if (bits & (1u << k)) {
          const int tx = int(targets[k] % std::uint32_t(w1)), ty = int(targets[k] / std::uint32_t(w1));
          out.reach(targets[k], gn + dist(x, y, tx, ty), tx, ty);
        }
    }
  }

};

PlanResult VisibilityGraphSearch::run(const GridMap& map, const Query& query, const RunContext& ctx) {
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
  if (!built_ || map.uid() != map_uid_ || map.version() != map_version_ || cap != cap_) {
    const Stopwatch prep;
    grid_ = CornerGrid(map, cap);
    if (ctx.observer) ctx.observer->phase("visibility graph");
    built_ = build(ctx);
    r.prepare_ms = prep.ms();
    if (!built_ && refused_.empty()) {  // cancelled: built again next time
      r.cancelled = true;
      r.message = "cancelled";
      r.time_ms = clock.ms();
      return r;
    }
    map_uid_ = map.uid();
    map_version_ = map.version();
    cap_ = cap;
    pool_.reset(std::size_t(grid_.corner_count()) + 2);
    if (ctx.observer) {
      ctx.observer->counter("convex corners", double(vx_.size()));
      ctx.observer->counter("visibility graph edges", double(targets_.size() / 2));
    }
  }
  if (!refused_.empty()) {
    r.message = "no path: " + refused_ + " (use theta or lazy-theta)";
    r.time_ms = clock.ms();
    r.memory_bytes = memory_bytes();
    return r;
  }
  if (!corner_endpoints_free(map, cap, grid_, ep, r, ctx.observer)) {
    r.time_ms = clock.ms();
    r.memory_bytes = memory_bytes();
    return r;
  }
  const double prepare_ms = r.prepare_ms;
  r.stats = {{"convex corners", double(vx_.size())},
             {"graph edges", double(targets_.size() / 2)},
             {"graph build ms", build_ms_},
             {"graph memory bytes", double(memory_bytes())}};
  if (ep[0].px == ep[1].px && ep[0].py == ep[1].py) {  // the empty path
    r.found = true;
    r.points.push_back(query.start);
    r.prepare_ms = prepare_ms;
    r.memory_bytes = memory_bytes();
    r.time_ms = clock.ms();
    return r;
  }

  Problem p;
  p.vg = this;
  p.grid = &grid_;
  p.set_endpoints(grid_, ep[0], ep[1]);
  if (p.s.corner) {
    p.starts[p.nstarts++] = p.start_node;
  } else {
    for (int k = 0; k < 4; ++k) p.starts[p.nstarts++] = grid_.corner_id(p.s.x + (k & 1), p.s.y + (k >> 1));
  }
  if (p.g.corner) {
    p.targets[p.ntargets++] = p.goal_node;
  } else {
    for (int k = 0; k < 4; ++k) {
      const int cx = p.g.x + (k & 1), cy = p.g.y + (k >> 1);
      p.legs[p.ntargets] = dist(cx, cy, p.g.px, p.g.py);
      p.targets[p.ntargets++] = grid_.corner_id(cx, cy);
    }
  }
  p.h0 = std::max(p.heuristic(p.s.px, p.s.py), 1e-9);
  const bool points = !p.s.corner || !p.g.corner;
  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(NodeSpace::corners(w, h));
      if (points) l.observer()->space(NodeSpace::points(2, p.ncorners, "query points"));
      l.observer()->phase("goal connections");
    }
    p.mark_goal_targets(l);
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.flush();
      l.observer()->phase("search");
    }
    return best_first(p, pool_, open_, l, ctx);
  });
  r.stats.push_back({"line-of-sight tests", double(p.los_tests)});
  if (take_outcome(out, r)) {
    r.length = pool_.g_value(out.last);
    std::vector<Vec2> pts;
    for (std::uint32_t n : pool_.chain(out.last)) {
      double x, y;
      p.point(n, x, y);
      pts.push_back({x, y});
    }
    fill_polyline_path(r, pts);
    show_found_path(r, ctx.observer, {{"line-of-sight tests", double(p.los_tests)}});
  }
  r.prepare_ms = prepare_ms;
  r.memory_bytes = memory_bytes();
  r.time_ms = clock.ms();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Registry entry: visibility.

namespace {

using VisibilityPlanner = GridWorldPlanner<VisibilityGraphSearch>;

void add_visibility_planner(Registry& r) {
  r.add({"visibility", "any-angle",
         "Exact any-angle paths: A* (Euclidean heuristic) on the visibility graph of the convex "
         "corners (taut edges only), built once per map and cached; start and goal join every "
         "convex corner they see. Start and goal are cell corners; any other point joins the "
         "corners of its cell.",
         true, {circles_param()},
         [](const ParamSet& ps) { return std::make_unique<VisibilityPlanner>(GridWorld(ps)); },
         AgentInputs(AgentInput::Capability), QueryCoordinates::Corners});
}

const PlannerRegistration kRegistration(41, add_visibility_planner);

}  // namespace

}  // namespace pl

// astar-turns: grid A* with a turn penalty, Listing 1 smoothing with the footprint, and Pinter's
// post-processing turn methods (curved, tighter, recalc). See turn_postprocess.hpp.
#include "planners/turn_postprocess.hpp"

#include <algorithm>
#include <cmath>

#include "core/curves.hpp"
#include "core/fixed_angle.hpp"
#include "core/grid_query.hpp"
#include "core/roads.hpp"
#include "core/smoothing.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {

// Directions in heading order (0 = east, clockwise on screen): E, SE, S, SW, W, NW, N, NE.
constexpr int kDx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kDy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kNoDir = 8;  // the start: arrived from nowhere
constexpr std::uint64_t kMaxNodes = std::uint64_t(1) << 24;  // cells x 9 directions (~24 bytes each)
constexpr int kMaxRecalc = 64;

}  // namespace

struct TurnPostprocess::Problem {
  using Cost = double;
  using Order = TieLargerG;
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = false;

  const GridMap* map;
  CapabilityMask cap;
  const std::uint8_t* forbidden;
  std::uint16_t* fits;  // see TurnPostprocess::fits_
  const Footprint* fp;
  Vec2 start_pos;
  int w, h, gx, gy;
  bool eight;
  double penalty, hscale;
  CapabilityMask road = 0;  // road terrains, 0 = no preference
  double offroad = 1;       // cost multiplier onto a cell outside `road`
  std::uint32_t start_node;

  std::uint32_t start() const { return start_node; }
  std::size_t node_bound() const { return std::size_t(w) * std::size_t(h) * 9; }
  bool stop(std::uint32_t n) const { return int(n / 9) == gy * w + gx; }
  float progress(const OpenEntry&) const { return -1.0f; }
  bool free_cell(int x, int y) const { return map->passable(x, y, cap); }
  void evaluate(std::uint32_t n, double g, double& f, double& hv) const {
    const int c = int(n / 9), x = c % w, y = c / w;
    const double dx = std::abs(x - gx), dy = std::abs(y - gy);
    hv = hscale * (eight ? octile_distance(dx, dy) : dx + dy);
    f = g + hv;
  }
  std::uint16_t moves_that_fit(int c, bool from_start) const {
    if (fits[c] & 0x100u) return fits[c];
    const int x = c % w, y = c / w;
    const Vec2 a = from_start ? start_pos : Vec2{x + 0.5, y + 0.5};
    std::uint16_t m = 0x100u;
    for (int d = 0; d < 8; d += eight ? 1 : 2) {
      const int nx = x + kDx[d], ny = y + kDy[d];
      if (!free_cell(nx, ny)) continue;
      if ((d & 1) && (!free_cell(nx, y) || !free_cell(x, ny))) continue;
      // A disc narrower than half a cell (a point too) needs no more than the passable cells
      // and no corner cutting checked above: every other cell lies at least 0.5 from a move
      // between centres. Skipping walkable() there keeps the common case as fast as before.
      const bool thin = !(fp->size > 0) || (fp->shape == Footprint::Shape::Disc && fp->size < 0.5 && !from_start);
      if (thin || walkable(*map, cap, a, {nx + 0.5, ny + 0.5}, *fp)) m |= std::uint16_t(1u << d);
    }
    fits[c] = m;
    return m;
  }
  template <class Out>
  void expand(std::uint32_t n, double g, Out& out) const {
    const int c = int(n / 9), pd = int(n % 9), x = c % w, y = c / w;
    const double cost_here = map->palette()[map->at(x, y)].cost;
    const std::uint16_t fit = moves_that_fit(c, n == start_node);
    for (int d = 0; d < 8; d += eight ? 1 : 2) {
      if (forbidden[c] >> d & 1u) continue;
      if (!(fit >> d & 1u)) continue;
      const int nx = x + kDx[d], ny = y + kDy[d];
      int turn = 0;
      if (pd != kNoDir) {
        turn = std::abs(d - pd);
        turn = std::min(turn, 8 - turn);
      }
      double step = terrain_step_cost(d & 1 ? kSqrt2 : 1.0, cost_here,
                                      map->palette()[map->at(nx, ny)].cost);
      if (road && !(road >> map->at(nx, ny) & 1u)) step *= offroad;
      out.reach(std::uint32_t((ny * w + nx) * 9 + d), g + step + penalty * turn);
    }
  }
  // Reported in the cells x 8 headings space: the arrival direction is the heading.
  std::uint32_t id(std::uint32_t n) const { return (n / 9) * 8 + (n % 9) % 8; }
};

std::vector<CellXY> TurnPostprocess::astar(const GridMap& map, CapabilityMask cap, CellXY s,
                                           CellXY g, Vec2 start, const Footprint& fp,
                                           const Options& opt, const RunContext& ctx,
                                           std::uint64_t& expanded) {
  Problem p;
  p.map = &map;
  p.cap = cap;
  p.forbidden = forbidden_.data();
  p.fits = fits_.data();
  p.fp = &fp;
  p.start_pos = start;
  p.w = map.width();
  p.h = map.height();
  p.gx = g.x;
  p.gy = g.y;
  p.eight = opt.eight_connected;
  p.penalty = opt.turn_penalty;
  if (opt.road == Options::Road::Prefer || opt.road == Options::Road::Cones) {
    p.road = CapabilityMask(1) << *road_terrain(map.palette());
    p.offroad = opt.offroad_cost;
  }
  const Palette& pal = map.palette();
  p.hscale = pal.uniform_costs() ? 1.0 : pal.min_cost(cap);
  p.start_node = std::uint32_t((s.y * p.w + s.x) * 9 + kNoDir);
  if (pool_.size() != p.node_bound()) pool_.reset(p.node_bound());
  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(NodeSpace::cell_headings(p.w, p.h, 8));
      l.observer()->phase("search");
    }
    return best_first(p, pool_, open_, l, ctx);
  });
  expanded += out.expanded;
  std::vector<CellXY> cells;
  if (!out.stopped) return cells;
  for (std::uint32_t n : pool_.chain(out.last)) cells.push_back({int(n / 9) % p.w, int(n / 9) / p.w});
  return cells;
}

PlanResult TurnPostprocess::run(const GridMap& map, const Query& query, const Options& opt,
                                const RunContext& ctx) {
  const Stopwatch clock;
  Query q = query;
  if (q.capability == 0) q.capability = map.palette().movingai_default_capability();
  PlanResult res;
  const auto fail = [&](std::string msg, bool bad) {
    res.message = std::move(msg);
    res.bad_query = bad;
    res.time_ms = clock.ms();
    return res;
  };
  const auto sc = cell_of(map, q.start), gc = cell_of(map, q.goal);
  if (!sc || !gc) return fail(outside_reason(map, q.start, q.goal), true);
  if (!(q.turning_radius > 0) && opt.turns != Turns::None)
    return fail("astar-turns needs a turning radius > 0 (--turning-radius)", true);
  if (opt.road != Options::Road::Off) {
    const auto road = road_terrain(map.palette());
    if (!road) return fail("road methods need a terrain named 'road' in the palette", true);
    if (opt.road == Options::Road::Only) q.capability = CapabilityMask(1) << *road;
  }
  const Footprint fp = opt.square ? Footprint::square(double(std::max(1, q.size))) : Footprint::disc(q.radius);
  if (!(fp.size > 0) && !opt.allow_point)
    return fail("astar-turns needs a footprint of positive size (--radius)", true);
  const int w = map.width(), h = map.height();
  if (std::uint64_t(w) * std::uint64_t(h) * 9 > kMaxNodes)
    return fail("map too large for astar-turns (cells x 9 directions over 2^24 nodes)", false);
  const bool start_ok = map.passable(sc->x, sc->y, q.capability);
  if (!start_ok || !map.passable(gc->x, gc->y, q.capability))
    return fail(blocked_reason(map, q.capability, 1, false, start_ok ? "goal" : "start",
                               start_ok ? *gc : *sc),
                false);
  forbidden_.assign(std::size_t(w) * std::size_t(h), 0);
  fits_.assign(std::size_t(w) * std::size_t(h), 0);
  const GridMap* stage = &map;  // what smoothing and curves avoid: the map, or it with cones
  const auto blocked = [&](int x, int y) { return !stage->passable(x, y, q.capability); };
  const auto walk = [&](Vec2 a, Vec2 b) { return walkable(*stage, q.capability, a, b, fp); };

  struct Turn {
    Curve curve;
    std::vector<CellXY> hits;  // blocked cells the footprint overlaps
    std::size_t from = 0;      // waypoint index it leaves
  };
  // The curved path through the waypoints from the start pose, with each turn's blocked cells;
  // `tighter` shrinks the radius of a colliding turn until it is legal.
  double tightest = q.turning_radius;
  const auto curve_through = [&](const std::vector<Vec2>& wps, bool tighten) {
    std::vector<Turn> turns;
    Pose pose = {q.start.x, q.start.y, normalize_angle(q.start.heading)};
    for (std::size_t i = 1; i < wps.size(); ++i) {
      if (distance(pose.position(), wps[i]) < 1e-12) continue;
      double r = q.turning_radius;
      Turn t;
      t.from = i - 1;
      for (;;) {
        t.curve = pose_to_point(pose, wps[i], r);
        t.hits.clear();
        if (t.curve.ok())
          for (CellXY c : swept_cells(t.curve.pieces(), fp))
            if (blocked(c.x, c.y)) t.hits.push_back(c);
        if (!tighten || (t.curve.ok() && t.hits.empty()) || r < 1e-3) break;
        r *= 0.8;
      }
      if (!t.curve.ok()) {  // inside both circles: only a degenerate radius does this
        t.curve = pose_to_point(pose, wps[i], 1e-3);
      }
      tightest = std::min(tightest, t.curve.radius);
      pose = t.curve.end();
      turns.push_back(std::move(t));
    }
    return turns;
  };

  std::uint64_t expanded = 0;
  int recalcs = 0;
  std::vector<Vec2> wps;
  std::vector<Turn> turns;
  std::size_t raw_cells = 0, tests = 0, cones = 0;
  for (;;) {
    const std::vector<CellXY> cells = astar(map, q.capability, *sc, *gc, q.start.position(), fp, opt, ctx, expanded);
    if (cells.empty()) {
      res.expanded = expanded;
      return fail(recalcs ? "no path: every route left after forbidding " + std::to_string(recalcs) +
                                " moves has an illegal turn"
                          : "no path: the goal is not reachable for this agent",
                  false);
    }
    raw_cells = cells.size();
    stage = &stage_map(map, q, opt, cells, ctx, cones);
    if (opt.presmooth48) {
      res.expanded = expanded;
      res = presmoothed(*stage, q, opt, cells, ctx, std::move(res));
      if (opt.road == Options::Road::Cones) res.stats.push_back({"cones", double(cones)});
      fixed_angle(res, *stage, q, opt, fp, ctx);
      res.time_ms = clock.ms();
      return res;
    }
    std::vector<Vec2> pts;
    pts.push_back(q.start.position());
    for (std::size_t i = 1; i < cells.size(); ++i) pts.push_back({cells[i].x + 0.5, cells[i].y + 0.5});
    if (opt.smooth) {
      if (ctx.observer) ctx.observer->phase("smooth");
      wps = greedy_smooth(std::span<const Vec2>(pts), walk, &tests);
    } else {
      wps = pts;
    }
    if (opt.turns == Turns::None) break;
    if (ctx.observer) ctx.observer->phase("turns");
    turns = curve_through(wps, opt.turns == Turns::Tighter);
    if (opt.turns != Turns::Recalc) break;
    const auto bad = std::find_if(turns.begin(), turns.end(), [](const Turn& t) { return !t.hits.empty(); });
    if (bad == turns.end()) break;
    if (recalcs == kMaxRecalc) {
      res.expanded = expanded;
      return fail("no path: still an illegal turn after " + std::to_string(kMaxRecalc) +
                      " recalculations",
                  false);
    }
    // Forbid the A* move that leaves the illegal turn's start waypoint along the path.
    const Vec2 a = wps[bad->from];
    const CellXY ac{int(std::floor(a.x)), int(std::floor(a.y))};
    std::size_t k = 0;
    while (k + 1 < cells.size() && !(cells[k] == ac)) ++k;
    if (k + 1 >= cells.size()) break;  // cannot happen: waypoints are path cells
    const int dx = cells[k + 1].x - cells[k].x, dy = cells[k + 1].y - cells[k].y;
    for (int d = 0; d < 8; ++d)
      if (kDx[d] == dx && kDy[d] == dy)
        forbidden_[std::size_t(cells[k].y) * std::size_t(w) + std::size_t(cells[k].x)] |= std::uint8_t(1u << d);
    ++recalcs;
  }

  int illegal = 0;
  double length = 0;
  res.points.push_back({q.start.x, q.start.y, normalize_angle(q.start.heading)});
  if (opt.turns == Turns::None) {
    // Straight lines between the waypoints. Every change of direction (the start heading
    // included) is a turn of radius 0, which no turning radius allows: counted as illegal.
    double heading = normalize_angle(q.start.heading);
    for (std::size_t i = 1; i < wps.size(); ++i) {
      if (distance(wps[i - 1], wps[i]) < 1e-12) continue;
      const double dir = std::atan2(wps[i].y - wps[i - 1].y, wps[i].x - wps[i - 1].x);
      illegal += std::abs(normalize_angle(dir - heading + kPi) - kPi) > 1e-9;
      heading = dir;
      PathPiece piece;
      piece.line = {wps[i - 1], wps[i]};
      res.pieces.push_back(piece);
      length += piece.length();
      res.points.push_back({wps[i].x, wps[i].y, normalize_angle(dir)});
    }
    tightest = 0;
  }
  for (const Turn& t : turns) {
    t.curve.append_pieces(res.pieces);
    length += t.curve.length;
    res.points.push_back(t.curve.end());
    illegal += !t.hits.empty();
    if (SearchObserver* o = ctx.observer) {
      for (const PathPiece& p : t.curve.pieces())
        o->test(p.kind == PathPiece::Kind::Arc ? Shape::arc(p.arc) : Shape::segment(p.line.a, p.line.b),
                t.hits.empty());
      for (CellXY c : t.hits) o->mark(Shape::cell(c.x, c.y), Role::Rejected);
    }
  }
  res.found = true;
  res.length = length;
  res.expanded = expanded;
  res.stats = {{"illegal turns", double(illegal)},
               {"tightest radius", tightest},
               {"recalculations", double(recalcs)},
               {"A* path cells", double(raw_cells)},
               {"waypoints", double(wps.size())},
               {"walkable tests", double(tests)}};
  if (opt.road == Options::Road::Cones) res.stats.push_back({"cones", double(cones)});
  if (illegal)
    res.message = std::to_string(illegal) + (opt.turns == Turns::None
                                                 ? " corner(s) turned on the spot (turns=none ignores the turning radius)"
                                                 : " turn(s) overlap blocked cells (curved turns ignore obstacles)");
  if (SearchObserver* o = ctx.observer) {
    o->counter("illegal turns", illegal);
    o->path(res.pieces);
    o->frame();
  }
  fixed_angle(res, *stage, q, opt, fp, ctx);
  res.memory_bytes = memory_bytes();
  res.time_ms = clock.ms();
  return res;
}

const GridMap& TurnPostprocess::stage_map(const GridMap& map, const Query& q, const Options& opt,
                                          const std::vector<CellXY>& cells, const RunContext& ctx,
                                          std::size_t& cones) {
  cones = 0;
  if (opt.road != Options::Road::Cones) return map;
  const CapabilityMask road = CapabilityMask(1) << *road_terrain(map.palette());
  // The tiles a turn takes: a quarter turn of radius r ends r tiles past the corner.
  const int turn_cells = std::max(1, int(std::ceil(q.turning_radius - 1e-9)));
  const std::vector<CellXY> placed = place_cones(
      cells, turn_cells, [&](int x, int y) { return map.in_bounds(x, y) && (road >> map.at(x, y) & 1u); },
      [&](int x, int y) { return map.passable(x, y, q.capability); });
  cones = placed.size();
  coned_ = map;
  const TerrainId hard = map.palette().default_obstacle();
  for (CellXY c : placed) coned_.set(c.x, c.y, hard);
  if (SearchObserver* o = ctx.observer) {
    o->phase("cones");
    for (CellXY c : placed) o->mark(Shape::cell(c.x, c.y), Role::Obstacle);
    o->counter("cones", double(placed.size()));
    o->frame();
  }
  return coned_;
}

void TurnPostprocess::fixed_angle(PlanResult& res, const GridMap& stage, const Query& q,
                                  const Options& opt, const Footprint& fp, const RunContext& ctx) const {
  if (!opt.art || !res.found) return;
  SearchObserver* o = ctx.observer;
  if (o) o->phase("fixed-angle art");
  std::size_t tests = 0;
  const auto clear = [&](Vec2 a, Vec2 b) {
    const bool ok = walkable(stage, q.capability, a, b, fp);
    ++tests;
    if (o) o->test(Shape::segment(a, b), ok);
    return ok;
  };
  FixedAngleOptions fo;
  fo.headings = opt.art;
  fo.max_deviation = opt.art_deviation;
  const FixedAngleResult fa = fixed_angle_path(res.pieces, fo, clear);
  res.stats.push_back({"art tests", double(tests)});
  if (!fa.ok) {
    res.found = false;
    res.message = "no path: fixed-angle art (" + std::to_string(opt.art) + " headings): " + fa.message;
    res.pieces.clear();
    res.points.clear();
    return;
  }
  res.pieces = fa.pieces;
  res.points.clear();
  double length = 0;
  for (const PathPiece& p : res.pieces) {
    const Vec2 d = p.line.b - p.line.a;
    res.points.push_back({p.line.a.x, p.line.a.y, normalize_angle(std::atan2(d.y, d.x) + (p.reverse ? kPi : 0))});
    length += p.length();
  }
  if (!res.pieces.empty()) {
    const Pose last = res.points.back();
    res.points.push_back({res.pieces.back().line.b.x, res.pieces.back().line.b.y, last.heading});
  }
  res.length = length;
  res.stats.push_back({"art pieces", double(res.pieces.size())});
  res.stats.push_back({"art deviation bound", fa.deviation_bound});
  if (o) {
    o->path(res.pieces);
    o->frame();
  }
}

PlanResult TurnPostprocess::presmoothed(const GridMap& map, const Query& q, const Options& opt,
                                        const std::vector<CellXY>& cells, const RunContext& ctx,
                                        PlanResult res) {
  const DirectionalSearch::AlongResult a =
      directional_.along(map, q, opt.square, cells, q.start.heading, std::nan(""), ctx);
  res.expanded += a.expanded;
  res.stats = {{"A* path cells", double(cells.size())},
               {"Smoothing-48 farthest point", double(a.farthest)}};
  if (!a.found) {
    res.message = "no path: " + a.message;
    return res;
  }
  if (ctx.observer) ctx.observer->phase("smooth");
  std::size_t tests = 0;
  const std::vector<Pose> kept = greedy_smooth(
      std::span<const Pose>(a.poses),
      [&](const Pose& x, const Pose& y) { return directional_.curve_clear(x, y); }, &tests);
  res.points = kept;
  double length = 0;
  for (std::size_t i = 0; i + 1 < kept.size(); ++i) {
    const Curve c = dubins(kept[i], kept[i + 1], q.turning_radius);
    c.append_pieces(res.pieces);
    length += c.length;
  }
  res.found = true;
  res.length = length;
  res.stats.push_back({"waypoints", double(kept.size())});
  res.stats.push_back({"curve tests", double(tests)});
  res.stats.push_back({"illegal turns", 0});
  if (SearchObserver* o = ctx.observer) {
    o->path(res.pieces);
    o->frame();
  }
  res.memory_bytes = memory_bytes();
  return res;
}

namespace {

using TurnPlanner = GridWorldPlanner<TurnPostprocess, TurnPostprocess::Options>;

void add(Registry& r) {
  r.add({"astar-turns", "turning radius",
         "Grid A* with a turn penalty, smoothed with the footprint (Pinter's Listing 1), then "
         "curved turns (Pinter 2001's post-processing): curved ignores obstacles and reports the "
         "cells it hits, tighter shrinks the radius until legal, recalc forbids the move and "
         "searches again",
         false,
         {ParamDesc::choice("connectivity", "8 or 4 neighbours (the article's tighter turns use 4)",
                            {"8", "4"}, "8"),
          ParamDesc::choice("smoothing",
                            "simple: Listing 1 with Walkable(A, B) for the footprint; presmooth48: "
                            "Pinter's Smoothing-48 along the A* path, then simple smoothing with "
                            "curves (legal or no path; turns unused); none",
                            {"simple", "presmooth48", "none"}, "simple"),
          ParamDesc::choice("turns",
                            "curved: arc then line to each waypoint, obstacles ignored; tighter: "
                            "radius shrinks until legal; recalc: forbid the move and search again; "
                            "none: straight lines between the waypoints, each corner an illegal "
                            "turn on the spot (Pinter's Figure 1b: A* + smoothing)",
                            {"curved", "tighter", "recalc", "none"}, "curved"),
          ParamDesc::real("turn_penalty", "A* cost per 45 degrees of direction change", 0, 100, "0")
              .labelled("turn penalty"),
          ParamDesc::choice("footprint", "disc of the agent's radius, or square of its size",
                            {"disc", "square"}, "disc"),
          ParamDesc::choice("road",
                            "Pinter's road methods: prefer: A* pays offroad_cost off the road; "
                            "only: off-road cells forbidden; cones: prefer, then cones placed "
                            "beyond every turn keep the curves on the road",
                            {"off", "prefer", "only", "cones"}, "off"),
          ParamDesc::real("offroad_cost", "A* cost multiplier off the road (road=prefer, cones)", 1, 100, "4")
              .labelled("off-road cost"),
          ParamDesc::choice("art",
                            "fixed-angle character art: the path rewritten with 8 or 16 legal "
                            "headings (arcs followed from just outside, lines as two legal segments)",
                            {"off", "8", "16"}, "off"),
          ParamDesc::real("art_deviation", "fixed-angle art: farthest a line's corner may stray (cells)",
                          0.05, 10, "0.5")
              .labelled("art deviation"),
          circles_param()},
         [](const ParamSet& ps) {
           TurnPostprocess::Options o;
           o.eight_connected = ps.get("connectivity") == "8";
           o.smooth = ps.get("smoothing") == "simple";
           o.presmooth48 = ps.get("smoothing") == "presmooth48";
           const std::string& t = ps.get("turns");
           o.turns = t == "tighter" ? TurnPostprocess::Turns::Tighter
                     : t == "recalc" ? TurnPostprocess::Turns::Recalc
                     : t == "none"   ? TurnPostprocess::Turns::None
                                     : TurnPostprocess::Turns::Curved;
           o.turn_penalty = ps.get_double("turn_penalty");
           o.square = ps.get("footprint") == "square";
           const std::string& road = ps.get("road");
           using Road = TurnPostprocess::Options::Road;
           o.road = road == "prefer" ? Road::Prefer : road == "only" ? Road::Only : road == "cones" ? Road::Cones : Road::Off;
           o.offroad_cost = ps.get_double("offroad_cost");
           o.art = ps.get("art") == "off" ? 0 : std::stoi(ps.get("art"));
           o.art_deviation = ps.get_double("art_deviation");
           return std::make_unique<TurnPlanner>(GridWorld(ps), o);
         },
         AgentInput::Capability | AgentInput::Size | AgentInput::Radius |
             AgentInput::TurningRadius | AgentInput::Headings});
}

const PlannerRegistration kRegistration(61, add);

}  // namespace

}  // namespace pl

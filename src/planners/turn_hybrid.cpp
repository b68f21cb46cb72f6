// The hybrid planner: 4-connected A*, Smoothing-48 both ways, Directional-8 on the failing
// section, final curved smoothing. See turn_hybrid.hpp.
#include "planners/turn_hybrid.hpp"

#include <algorithm>
#include <cmath>

#include "core/curves.hpp"
#include "core/grid_query.hpp"
#include "core/smoothing.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {
// How many Smoothing-48 poses (1-3 cells each) before the one it stopped at an alternating
// section starts (measured on the every-16th dao + random512 problems: from the stopped pose
// 83 of about 300 sections fail, and 74 of those succeed from two poses back; backing off
// further never helped).
constexpr std::size_t kBackOff = 2;
}  // namespace

const std::vector<std::int32_t>& TurnHybrid::components(const GridMap& map, CapabilityMask cap) {
  if (map.uid() == uid_ && map.version() == version_ && cap == cap_) return labels_;
  uid_ = map.uid();
  version_ = map.version();
  cap_ = cap;
  const int w = map.width(), h = map.height();
  labels_.assign(std::size_t(w) * std::size_t(h), -1);
  std::vector<std::int32_t> stack;
  std::int32_t next = 0;
  for (int c0 = 0; c0 < w * h; ++c0) {
    if (labels_[std::size_t(c0)] >= 0 || !map.passable(c0 % w, c0 / w, cap)) continue;
    labels_[std::size_t(c0)] = next;
    stack.push_back(c0);
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      const int x = c % w, y = c / w;
      const int nx[4] = {x + 1, x - 1, x, x}, ny[4] = {y, y, y + 1, y - 1};
      for (int d = 0; d < 4; ++d) {
        if (!map.passable(nx[d], ny[d], cap)) continue;
        const std::size_t n = std::size_t(ny[d]) * std::size_t(w) + std::size_t(nx[d]);
        if (labels_[n] >= 0) continue;
        labels_[n] = next;
        stack.push_back(int(n));
      }
    }
    ++next;
  }
  return labels_;
}

PlanResult TurnHybrid::run(const GridMap& map, const Query& query, const Options& opt,
                           const RunContext& ctx) {
  const Stopwatch clock;
  Query q = query;
  if (q.capability == 0) q.capability = map.palette().movingai_default_capability();
  PlanResult res;
  const auto fail = [&](std::string msg, bool bad) {
    res.found = false;
    res.pieces.clear();
    res.points.clear();
    res.message = std::move(msg);
    res.bad_query = bad;
    // The stages report their paths as they go (the 4-connected A*'s first): a failed run ends
    // on no path, so a viewer does not show a stage's path as the answer.
    if (SearchObserver* o = ctx.observer) {
      o->path({});
      o->frame();
    }
    res.time_ms = clock.ms();
    return res;
  };
  const auto sc = cell_of(map, q.start), gc = cell_of(map, q.goal);
  if (!sc || !gc) return fail(outside_reason(map, q.start, q.goal), true);
  if (!(q.turning_radius > 0) || q.turning_radius > 32)
    return fail("hybrid needs a turning radius in (0, 32] (--turning-radius)", true);
  const bool start_ok = map.passable(sc->x, sc->y, q.capability);
  if (!start_ok || !map.passable(gc->x, gc->y, q.capability))
    return fail(blocked_reason(map, q.capability, 1, false, start_ok ? "goal" : "start",
                               start_ok ? *gc : *sc),
                false);
  // 0. Fail fast.
  {
    const Stopwatch prep;
    const auto& lab = components(map, q.capability);
    res.prepare_ms = prep.ms();
    const int w = map.width();
    if (lab[std::size_t(sc->y * w + sc->x)] != lab[std::size_t(gc->y * w + gc->x)])
      return fail("no path: start and goal are in different regions (fail fast, no search)", false);
  }
  // 1. 4-connected A*.
  // Only moves the footprint fits along: on passable cells alone the path hugs walls a disc
  // wider than half a cell does not fit beside, Smoothing-48 gives up along them from both
  // ends, and the failing section is too long to repair (the Figure 1 scene's block).
  TurnPostprocess::Options go;
  go.eight_connected = false;
  go.smooth = false;
  go.turns = TurnPostprocess::Turns::None;
  go.square = opt.square;
  go.allow_point = true;
  if (ctx.observer) ctx.observer->phase("4-connected A*");
  const PlanResult grid = grid_.run(map, q, go, ctx);
  res.expanded = grid.expanded;
  if (!grid.found) return fail("no path: " + grid.message, false);
  std::vector<CellXY> cells;
  for (const Pose& p : grid.points) cells.push_back({int(std::floor(p.x)), int(std::floor(p.y))});
  const std::size_t n = cells.size();
  const double step = kTwoPi / 8;
  const auto round8 = [&](double hd) { return std::lround(normalize_angle(hd) / step) % 8 * step; };
  const double start_h = round8(q.start.heading);
  // The heading the goal is reached with: fixed, or for a free goal the last step's direction.
  double goal_h = round8(q.goal.heading);
  if (opt.goal_heading_free && n > 1)
    goal_h = round8(std::atan2(cells[n - 1].y - cells[n - 2].y, cells[n - 1].x - cells[n - 2].x));
  const bool square = opt.square;

  const auto cell_pose = [](CellXY c, double h) { return Pose{c.x + 0.5, c.y + 0.5, h}; };
  std::size_t backed_off = 0;  // alternating sections started before Smoothing-48's last pose
  std::size_t sections = 0,
              sections_poses = 0;  // alternating sections and their Directional-8 poses

  // 2. Smoothing-48 forward.
  std::vector<Pose> fwd, mid, bwd;  // the three parts, as forward poses
  // Per pose of fwd and mid: 1 when the edge into it is driven backwards (only a repair that
  // could not go forwards reverses); `bwd_reversed`: the edge into bwd.front().
  std::vector<std::uint8_t> fwd_gear, mid_gear;
  bool bwd_reversed = false;
  std::size_t reversed_repairs = 0;
  const DirectionalSearch::AlongResult f = directional_.along(
      map, q, square, cells, start_h, opt.goal_heading_free ? std::nan("") : goal_h, ctx);
  res.expanded += f.expanded;
  std::size_t fa = f.farthest, fb = n - 1;
  if (f.found) {
    fwd = f.poses;
  } else {
    // 3. Smoothing-48 backward: the reversed path, from the goal facing back.
    std::vector<CellXY> rev(cells.rbegin(), cells.rend());
    const DirectionalSearch::AlongResult b =
        directional_.along(map, q, square, rev, goal_h + kPi, start_h + kPi, ctx);
    res.expanded += b.expanded;
    if (b.found) {  // the backward pass alone made it
      for (auto it = b.poses.rbegin(); it != b.poses.rend(); ++it)
        bwd.push_back({it->x, it->y, normalize_angle(it->heading + kPi)});
    } else {
      // 4. The failing section between the farthest points, at most `window` cells across.
      if (f.poses.empty() || b.poses.empty())
        return fail("no path: Smoothing-48 could not leave " + std::string(f.poses.empty() ? "the start" : "the goal"), false);
      std::size_t ia = f.poses.size() - 1, ib = b.poses.size() - 1;
      const auto apart = [&](const Pose& a, const Pose& c) {
        return std::max(std::abs(a.x - c.x), std::abs(a.y - c.y));
      };
      // When the two passes overlap (the backward one got past where the forward one
      // failed), their failure points can lie far apart although every part of the path is
      // covered: the section to repair is where the forward pass stopped. Keep the backward
      // poses beyond it only; the rule below then grows that section to about `window`.
      if (n - 1 - b.indices[ib] <= f.indices[ia]) {
        while (ia > 0 && f.indices[ia] >= n - 1) --ia;
        while (ib > 0 && n - 1 - b.indices[ib] <= f.indices[ia]) --ib;
      }
      fa = f.indices[ia];
      fb = n - 1 - b.indices[ib];
      // Directional-8 between two poses, or the reason it failed.
      // `reverse`: edges may also be driven backwards (at twice the cost), the last resort of a
      // section no forward search could repair, e.g. a start facing a wall with no room to
      // turn (a scenario's start faces east whatever lies ahead).
      const auto repair = [&](const Pose& from, const Pose& to, bool reverse) {
        Query dq = q;
        dq.start = from;
        dq.goal = to;
        DirectionalSearch::Options dopt;
        dopt.neighbours = 8;
        dopt.headings = 8;
        dopt.square = square;
        dopt.box = opt.window;  // one section: room to turn round it, not the whole map
        dopt.reverse = reverse || q.can_reverse ? DirectionalSearch::Options::Reverse::Yes
                                                : DirectionalSearch::Options::Reverse::No;
        if (ctx.observer)
          ctx.observer->phase(reverse ? "Directional-8 repair, reversing" : "Directional-8 repair");
        PlanResult d = repair_.run(map, dq, dopt, ctx);
        res.expanded += d.expanded;
        return d;
      };
      // The forward chain: Smoothing-48's poses and, while the failing section is wider than
      // `window` (where the article gives up), alternating sections as it suggests:
      // Directional-8 from the chain's last pose to the farthest path cell within `window` of
      // it, facing along the path there, then Smoothing-48 forward again from that cell. Every
      // section moves the chain's path index on, so this ends.
      std::vector<Pose> chain(f.poses.begin(), f.poses.begin() + std::ptrdiff_t(ia) + 1);
      std::vector<std::uint8_t> chain_gear(chain.size(), 0);
      std::size_t at = fa;   // the path index of the pose Smoothing-48 last reached
      bool reached = false;  // a forward pass got to the goal
      // Whether the chain is to meet the backward pass. A chain that got past the backward
      // pass's last pose without coming within `window` of it (the backward pass stopped in
      // a place the chain went round) alternates on to the goal instead.
      bool meet_backward = true;
      while (!reached && (!meet_backward || apart(chain.back(), b.poses[ib]) > opt.window)) {
        if (at + 1 >= fb) {
          if (!meet_backward || at + 1 >= n - 1)
            return fail("no path: alternating sections stopped at path point " +
                            std::to_string(at) + " short of the goal",
                        false);
          meet_backward = false;
          fb = n - 1;
        }
        std::size_t j = at + 1;
        while (j + 1 <= fb && apart(chain.back(), cell_pose(cells[j + 1], 0)) <= opt.window) ++j;
        const double hj =
            j + 1 < n ? round8(std::atan2(cells[j + 1].y - cells[j].y, cells[j + 1].x - cells[j].x))
                      : goal_h;
        // Smoothing-48 stopped at chain.back() because nothing legal leads on from it along
        // the path, and often nothing at all does (facing a wall with no room to turn), and a
        // search from there fails only after trying every pose in its box. So the section
        // starts kBackOff poses further back on the chain, with room to turn; failing that,
        // from chain.back() itself; failing that, from the earlier pose with reversing.
        const std::size_t early = chain.size() - 1 - std::min(chain.size() - 1, kBackOff);
        std::size_t from = early;
        PlanResult d = repair(chain[from], cell_pose(cells[j], hj), false);
        if (!d.found && early + 1 < chain.size()) {
          from = chain.size() - 1;
          d = repair(chain[from], cell_pose(cells[j], hj), false);
        }
        if (!d.found) {
          from = early;
          d = repair(chain[from], cell_pose(cells[j], hj), true);
          reversed_repairs += d.found;
        }
        if (from + 1 < chain.size()) ++backed_off;
        chain.resize(from + 1);
        chain_gear.resize(from + 1);
        if (!d.found)
          return fail("no path: Directional-8 found no way between path points " +
                          std::to_string(at) + " and " + std::to_string(j) +
                          " (alternating section " + std::to_string(sections + 1) + ")",
                      false);
        ++sections;
        sections_poses += d.points.size() - 1;
        chain.insert(chain.end(), d.points.begin() + 1, d.points.end());
        chain_gear.insert(chain_gear.end(), repair_.last_gears().begin() + 1,
                          repair_.last_gears().end());
        const std::vector<CellXY> rest(cells.begin() + std::ptrdiff_t(j), cells.end());
        const DirectionalSearch::AlongResult g = directional_.along(
            map, q, square, rest, hj, opt.goal_heading_free ? std::nan("") : goal_h, ctx);
        res.expanded += g.expanded;
        reached = g.found;
        if (g.poses.size() > 1) chain.insert(chain.end(), g.poses.begin() + 1, g.poses.end());
        chain_gear.resize(chain.size(), 0);
        at = j + (g.indices.empty() ? 0 : g.indices.back());
      }
      if (reached) {
        fwd = std::move(chain);
        fwd_gear = std::move(chain_gear);
      } else {
        ia = chain.size() - 1;
        for (bool moved = true; moved;) {
          moved = false;
          if (ia > 0 && apart(chain[ia - 1], b.poses[ib]) <= opt.window) {
            --ia;
            moved = true;
          }
          if (ib > 0 && apart(chain[ia], b.poses[ib - 1]) <= opt.window) {
            --ib;
            moved = true;
          }
        }
        fwd.assign(chain.begin(), chain.begin() + std::ptrdiff_t(ia) + 1);
        fwd_gear.assign(chain_gear.begin(), chain_gear.begin() + std::ptrdiff_t(ia) + 1);
        for (std::size_t i = ib + 1; i-- > 0;)
          bwd.push_back({b.poses[i].x, b.poses[i].y, normalize_angle(b.poses[i].heading + kPi)});
        // 5. Directional-8 between the two poses.
        PlanResult d = repair(fwd.back(), bwd.front(), false);
        if (!d.found) {
          d = repair(fwd.back(), bwd.front(), true);
          reversed_repairs += d.found;
        }
        if (!d.found)
          return fail("no path: Directional-8 found no way between path points " +
                          std::to_string(sections ? at : f.indices[ia]) + " and " +
                          std::to_string(n - 1 - b.indices[ib]),
                      false);
        if (d.points.size() >= 2) {
          mid.assign(d.points.begin() + 1, d.points.end() - 1);
          const std::span<const std::uint8_t> gears = repair_.last_gears();
          mid_gear.assign(gears.begin() + 1, gears.end() - 1);
          bwd_reversed = gears.back() != 0;
        }
      }
    }
  }
  // The joined poses.
  std::vector<Pose> poses = fwd;
  poses.insert(poses.end(), mid.begin(), mid.end());
  std::vector<std::uint8_t> gear = fwd_gear;  // per pose: the edge into it driven backwards
  gear.resize(fwd.size(), 0);
  gear.insert(gear.end(), mid_gear.begin(), mid_gear.end());
  if (!bwd.empty()) {
    const bool joined = !poses.empty() && distance(poses.back().position(), bwd.front().position()) < 1e-9;
    poses.insert(poses.end(), bwd.begin() + (joined ? 1 : 0), bwd.end());
    if (!joined) gear.push_back(bwd_reversed);
  }
  gear.resize(poses.size(), 0);
  if (SearchObserver* o = ctx.observer) {
    o->role_name(Role::Highlight, "sections joined (forward, middle, backward)");
    const std::vector<Pose>* parts[3] = {&fwd, &mid, &bwd};
    for (std::uint32_t s = 0; s < 3; ++s) {
      std::vector<Vec2> pts;
      for (const Pose& p : *parts[s]) pts.push_back(p.position());
      if (pts.size() < 2 && s != 1) continue;
      Shape sh = Shape::polyline(std::move(pts));
      sh.tag = s;
      o->mark(sh, Role::Highlight);
    }
  }
  // 6. Final smoothing with curved Walkable, every kept curve checked again. It smooths only
  // past the last edge driven backwards (a forward curve cannot replace a reversing one); the
  // poses up to it are kept as the repair found them.
  if (ctx.observer) ctx.observer->phase("smooth");
  std::size_t tests = 0;
  const auto clear = [&](const Pose& a, const Pose& b) { return directional_.curve_clear(a, b); };
  std::size_t last_reverse = 0;
  for (std::size_t i = 0; i < gear.size(); ++i)
    if (gear[i]) last_reverse = i;
  std::vector<Pose> kept(poses.begin(), poses.begin() + std::ptrdiff_t(last_reverse));
  std::vector<std::uint8_t> kept_gear(gear.begin(), gear.begin() + std::ptrdiff_t(last_reverse));
  const std::vector<Pose> smoothed =
      greedy_smooth(std::span<const Pose>(poses).subspan(last_reverse), clear, &tests);
  kept.insert(kept.end(), smoothed.begin(), smoothed.end());
  kept_gear.resize(kept.size(), 0);
  if (last_reverse > 0) kept_gear[last_reverse] = 1;
  const auto turned = [](const Pose& p) { return Pose{p.x, p.y, p.heading + kPi}; };
  double length = 0;
  std::size_t reversed = 0;
  for (std::size_t i = 0; i + 1 < kept.size(); ++i) {
    // A reversed edge is the forward curve between the turned-round poses, driven backwards.
    const bool back = kept_gear[i + 1] != 0;
    const Pose a = back ? turned(kept[i]) : kept[i], b = back ? turned(kept[i + 1]) : kept[i + 1];
    if (!clear(a, b))
      return fail("no path: the joined path has an illegal curve at pose " + std::to_string(i), false);
    const Curve c = dubins(a, b, q.turning_radius);
    const std::size_t first = res.pieces.size();
    c.append_pieces(res.pieces);
    for (std::size_t k = first; k < res.pieces.size(); ++k) res.pieces[k].reverse = back;
    length += c.length;
    reversed += back;
  }
  res.points = kept;
  res.found = true;
  res.length = length;
  res.stats = {{"A* path cells", double(n)},
               {"forward poses", double(fwd.size())},
               {"directional poses", double(mid.size() + sections_poses)},
               {"alternating sections", double(sections)},
               {"sections started further back", double(backed_off)},
               {"backward poses", double(bwd.size())},
               {"Smoothing-48 forward reached", double(fa)},
               {"curve tests", double(tests)},
               {"waypoints", double(kept.size())},
               {"reversed edges", double(reversed)},
               {"reversing repairs", double(reversed_repairs)},
               {"illegal turns", 0}};  // every kept curve was checked again above
  const std::string alternating =
      sections
          ? ", " + std::to_string(sections) + " alternating Directional-8 / Smoothing-48 sections"
          : "";
  res.message = sections && bwd.empty() ? "Smoothing-48 forward to path point " +
                                              std::to_string(fa) + alternating + " to the goal"
                : mid.empty() && bwd.empty() ? "Smoothing-48 forward made the whole path"
                : mid.empty()
                    ? "Smoothing-48 backward made the whole path"
                    : "Smoothing-48 forward to path point " + std::to_string(fa) + alternating +
                          ", Directional-8 repair, Smoothing-48 backward from path point " +
                          std::to_string(fb);
  if (reversed > 0) res.message += " (" + std::to_string(reversed) + " edges driven backwards)";
  if (SearchObserver* o = ctx.observer) {
    o->path(res.pieces);
    o->frame();
  }
  res.memory_bytes = memory_bytes();
  res.time_ms = clock.ms();
  return res;
}

namespace {

using HybridPlanner = GridWorldPlanner<TurnHybrid, TurnHybrid::Options>;

void add(Registry& r) {
  r.add({"hybrid", "turning radius",
         "Pinter's hybrid: 4-connected A*, Smoothing-48 forward and backward, Directional-8 on "
         "the failing section (alternating with Smoothing-48 where it is over 12 cells across; "
         "reversing where no forward curve does), final curved smoothing; a legal path or "
         "failure; start and goal in different regions fail before any search",
         false,
         {ParamDesc::choice("goal_heading", "fixed: arrive facing the goal heading (nearest of 8); free: any",
                            {"fixed", "free"}, "fixed")
              .labelled("goal heading"),
          ParamDesc::choice("footprint", "disc of the agent's radius, or square of its size",
                            {"disc", "square"}, "disc"),
          circles_param()},
         [](const ParamSet& ps) {
           TurnHybrid::Options o;
           o.goal_heading_free = ps.get("goal_heading") == "free";
           o.square = ps.get("footprint") == "square";
           return std::make_unique<HybridPlanner>(GridWorld(ps), o);
         },
         AgentInput::Capability | AgentInput::Size | AgentInput::Radius |
             AgentInput::TurningRadius | AgentInput::Headings});
}

const PlannerRegistration kRegistration(62, add);

}  // namespace

}  // namespace pl

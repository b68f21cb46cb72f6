// Grid A* with Pinter's post-processing turn methods (Pinter 2001, "Legal Turns: The Basic
// Methods"; issue 11 items 2 and 3), registered as the planner `astar-turns`:
//
//   search     A* over cells x arrival direction (8- or 4-connected, no corner cutting) with a
//              turn penalty per 45 degrees of direction change ("A* with a turn penalty"),
//              taking only moves along which the agent's footprint fits (Walkable between the
//              cell centres), so the path it hands on can be made legal;
//   smoothing  none, or simple: Pinter's Listing 1 (core/smoothing.hpp's greedy_smooth) with
//              Walkable(A, B) for the agent's footprint (core/footprint.hpp); or presmooth48:
//              Pinter's Smoothing-48 along the A* path (DirectionalSearch::along) followed by
//              the simple pass with Walkable(A, directionA, B, directionB) on Dubins curves: the
//              result is legal (footprint and turning radius) or the planner reports failure,
//              and `turns` is not used;
//   turns      curved:  from each waypoint the shortest arc-then-line to the next (Figures 5-6,
//                       core/curves.hpp pose_to_point), ignoring obstacles (Figure 1c): the
//                       path is returned as it is, and every blocked cell a curve's footprint
//                       overlaps is reported to the hook (Role::Rejected) and counted;
//              tighter: the same, but a turn that collides gets a smaller radius (x0.8 per try)
//                       until it is legal (Figure 7a; the article searches 4-connected, so use
//                       connectivity=4); the smallest radius used is reported;
//              recalc:  path recalculation with forbidden moves: the first illegal curve forbids
//                       the A* move that leaves its start waypoint that way, and the search runs
//                       again (at most 64 times).
//              none:    no curves: straight lines between the waypoints (Figure 1b, A* +
//                       smoothing); every corner is a turn on the spot, counted as illegal.
// Which promise each keeps: curved none (illegal turns are reported, not avoided); tighter
// keeps the footprint clear but not the turning radius; recalc keeps both, or fails.
//
// Pinter's road methods and fixed-angle art (issue 11 item 7, docs/roads-and-art.md):
//   road       off; prefer: A* moves onto a cell that is not the palette's "road" cost
//              `offroad_cost` times more (methods 1 and 3: the search keeps to the road, the
//              later stages may cut corners); only: off-road cells are forbidden (method 2);
//              cones: prefer, and then cones (core/roads.hpp, method 4) are placed beyond every
//              turn of the A* path as temporary blocked cells for smoothing and curves, each
//              reported to the hook as a mark (Role::Obstacle);
//   art        off, 8 or 16: the finished path is rewritten for a sprite with that many
//              headings (core/fixed_angle.hpp), every candidate segment tested with the
//              footprint and reported as a test; when no clear rewrite exists the planner
//              reports failure.
#pragma once

#include <cstdint>
#include <vector>

#include "core/footprint.hpp"
#include "core/search.hpp"
#include "planners/directional.hpp"
#include "planners/planner.hpp"

namespace pl {

class TurnPostprocess {
 public:
  // None: the (smoothed) polyline itself, every corner a turn on the spot (Pinter's Figure 1b).
  enum class Turns : std::uint8_t { Curved, Tighter, Recalc, None };
  struct Options {
    bool eight_connected = true;
    bool smooth = true;
    bool presmooth48 = false;  // Smoothing-48, then simple smoothing with curves (turns unused)
    Turns turns = Turns::Curved;
    double turn_penalty = 0;  // per 45 degrees of direction change
    bool square = false;      // footprint: square of the agent's size, else disc of its radius
    // A footprint of size 0 (a point agent) is refused unless set (the hybrid planner's search
    // accepts it: its moves are then those of plain grid A*).
    bool allow_point = false;
    enum class Road : std::uint8_t { Off, Prefer, Only, Cones } road = Road::Off;
    double offroad_cost = 4;  // A* cost multiplier off the road (prefer, cones)
    int art = 0;              // fixed-angle art: 0 = off, else 8 or 16 headings
    double art_deviation = 0.5;
  };

  PlanResult run(const GridMap& map, const Query& q, const Options& opt, const RunContext& ctx);
  size_t memory_bytes() const {
    return pool_.memory_bytes() + open_.memory_bytes() + forbidden_.capacity() +
           fits_.capacity() * sizeof(std::uint16_t) + coned_.cells().capacity() +
           directional_.memory_bytes();
  }

 private:
  struct Problem;
  // Grid A* with arrival directions and forbidden moves; the path's cells, empty when none.
  std::vector<CellXY> astar(const GridMap& map, CapabilityMask cap, CellXY s, CellXY g, Vec2 start,
                            const Footprint& fp, const Options& opt, const RunContext& ctx,
                            std::uint64_t& expanded);

  // The map the stages after A* see: `map`, or a copy with cones beyond the path's turns.
  const GridMap& stage_map(const GridMap& map, const Query& q, const Options& opt,
                           const std::vector<CellXY>& cells, const RunContext& ctx, std::size_t& cones);
  // Rewrites a found path for fixed-angle art (opt.art headings); a failure clears `found`.
  void fixed_angle(PlanResult& res, const GridMap& stage, const Query& q, const Options& opt,
                   const Footprint& fp, const RunContext& ctx) const;

  PlanResult presmoothed(const GridMap& map, const Query& q, const Options& opt,
                         const std::vector<CellXY>& cells, const RunContext& ctx, PlanResult res);

  GridMap coned_;                  // the map with cones (road=cones)
  DirectionalSearch directional_;  // Smoothing-48's tables and padded map
  std::vector<std::uint8_t> forbidden_;  // per cell: bit d = the move in direction d is forbidden
  // Per cell, filled as A* expands it: bit d = the footprint fits along the move in direction
  // d (walkable between the cell centres; from the start pose for the start cell); bit 8 =
  // computed. Without it A* hugs walls the agent does not fit along, and neither smoothing
  // nor any turn method can make that path legal.
  std::vector<std::uint16_t> fits_;
  NodePool<double> pool_;
  OpenList<> open_;
};

}  // namespace pl

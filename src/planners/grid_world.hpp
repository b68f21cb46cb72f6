// The grid a grid planner searches: the scene's map with its circles rasterised as hard
// obstacles (issue 5's mixed worlds), so every grid planner respects the circles a user places.
// One parameter, "circles", chooses the rule: centre (a cell is blocked when a circle covers its
// centre), touch (when a circle touches any part of it) or ignore. Scenes without circles use
// their map as it is, at no cost.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/circle_raster.hpp"
#include "core/search.hpp"
#include "planners/planner.hpp"

namespace pl {

// The "circles" parameter every grid planner shares.
ParamDesc circles_param();

// Path vertices -> PlanResult points (each heading toward the next vertex, the last along the
// final step) and one straight piece per segment (JPS's jump points, any-angle corners).
void fill_polyline_path(PlanResult& r, const std::vector<Vec2>& vertices);
// Cell centres -> the same points, with collinear steps merged into one piece (grid paths).
void fill_cell_path(PlanResult& r, const std::vector<Vec2>& cells);
// A grid path as straight runs from cell (x0, y0): `count` unit steps of (dx, dy) each. Fills r
// exactly as fill_cell_path() does for the cells the runs visit (the same points and headings,
// one piece per maximal straight run), without listing the cells first: planners whose paths
// come in runs (subgoal graphs refine every edge into at most two) skip a pass over every cell.
struct CellRun {
  int dx = 0, dy = 0;
  std::uint32_t count = 0;
};
void fill_cell_runs(PlanResult& r, int x0, int y0, const std::vector<CellRun>& runs);

// A best_first outcome into r: expanded, generated and found, and when the goal was not reached
// r.cancelled and r.message ("cancelled", or the goal is not reachable). True when r holds a
// path to fill in.
bool take_outcome(const SearchOutcome& out, PlanResult& r);

// The last frame of a found path for a watching observer (nothing when it is null): the
// "expanded" counter, then `counters` (name, value) in order, then r's pieces, then the frame.
void show_found_path(const PlanResult& r, SearchObserver* observer,
                     std::initializer_list<std::pair<const char*, double>> counters = {});

class GridWorld {
 public:
  // From the "circles" parameter of a checked ParamSet.
  explicit GridWorld(const ParamSet& ps);
  explicit GridWorld(std::optional<CircleRasterRule> rule) : rule_(rule) {}
  // The map to search: scene.map itself when there is nothing to rasterise, else a cached copy
  // with the circles' cells blocked (rebuilt only when the map or the circles change).
  const GridMap& map(const Scene& scene);
  std::optional<CircleRasterRule> rule() const { return rule_; }
  // Tells a watching observer which cells the circles block (one Role::Obstacle cell mark each,
  // in a phase "circles as obstacles"), so viewers draw what the planner used without knowing
  // the parameter. Nothing when no observer, no circles or the rule is ignore.
  void report_blocked(const Scene& scene, SearchObserver* observer) const;

 private:
  std::optional<CircleRasterRule> rule_;  // nullopt: circles ignored
  CircleRasterCache cache_;
};

// A planner over the scene's grid: reports the cells circles block, then answers with
// Search::run(map, query, args..., ctx). Search keeps its pools across queries and has
// memory_bytes(). The grid, JPS and any-angle planners are this with their own Search.
template <class Search, class... Args>
class GridWorldPlanner final : public Planner {
 public:
  explicit GridWorldPlanner(GridWorld world, Args... args)
      : world_(std::move(world)), args_(std::move(args)...) {}
  PlanResult plan(const Scene& scene, const Query& q, const RunContext& ctx) override {
    world_.report_blocked(scene, ctx.observer);
    const GridMap& map = world_.map(scene);
    return std::apply([&](const Args&... a) { return search_.run(map, q, a..., ctx); }, args_);
  }
  size_t memory_bytes() const override { return search_.memory_bytes(); }

 private:
  GridWorld world_;
  std::tuple<Args...> args_;
  Search search_;
};

}  // namespace pl

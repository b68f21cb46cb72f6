// Registry entries for the grid planners.
#include "core/circle_raster.hpp"
#include "planners/grid_search.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {

ParamDesc connectivity_param() {
  return ParamDesc::choice(
      "connectivity",
      "8: octile moves (cost sqrt 2 diagonally, no corner cutting); 4: cardinal only", {"8", "4"},
      "8");
}

class GridPlanner final : public Planner {
 public:
  GridPlanner(GridSearch::Options opt, GridWorld world) : opt_(opt), world_(std::move(world)) {}
  PlanResult plan(const Scene& scene, const Query& q, const RunContext& ctx) override {
    world_.report_blocked(scene, ctx.observer);
    return search_.run(world_.map(scene), q, opt_, ctx);
  }
  size_t memory_bytes() const override { return search_.memory_bytes(); }

 private:
  GridSearch::Options opt_;
  GridWorld world_;
  GridSearch search_;
};

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
           return std::make_unique<GridPlanner>(options_from(ps), GridWorld(ps));
         }});
  r.add({"dijkstra", "grid search", "Dijkstra's algorithm (A* with h = 0)", true,
         {connectivity_param(), circles_param()}, [](const ParamSet& ps) {
           auto o = options_from(ps);
           o.heuristic = false;
           return std::make_unique<GridPlanner>(o, GridWorld(ps));
         }});
  const ParamDesc metric = ParamDesc::choice(
      "clearance",
      "true: true clearance (exact, the HAA* paper); brushfire: minimum obstacle distance, "
      "which wrongly blocks large agents in bottlenecks (for comparison)",
      {"true", "brushfire"}, "true");
  r.add({"annotated-astar", "multi-size",
         "Annotated A* (Harabor & Botea 2008): A* for an agent of size s and a terrain "
         "capability; a cell is free iff its clearance for the capability is at least s",
         true, {connectivity_param(), metric, circles_param()}, [](const ParamSet& ps) {
           auto o = options_from(ps);
           o.annotated = true;
           o.metric = ps.get("clearance") == "true" ? ClearanceMetric::True : ClearanceMetric::Brushfire;
           return std::make_unique<GridPlanner>(o, GridWorld(ps));
         }});
  r.add({"astar-textbook", "grid search (reference)",
         "Plain textbook A*: std::priority_queue with lazy deletion, arrays reset per query. "
         "The baseline the benchmarks compare against",
         true, {connectivity_param(), circles_param()}, [](const ParamSet& ps) {
           return std::make_unique<TextbookPlanner>(ps.get("connectivity") == "8", GridWorld(ps));
         }});
}

const PlannerRegistration kRegistration(10, add_grid_planners);

}  // namespace

}  // namespace pl

// Registers the planner among circles (issue 5) with the registry.
#include "planners/circles.hpp"

namespace pl {

namespace {

void add_circles(Registry& r) {
  r.add({"circles",
         "continuous",
         "A* among circular obstacles grown by the agent's radius: bitangent surfing edges and "
         "hugging arcs (Red Blob Games), cw/ccw nodes; exact lengths. The circles are the whole "
         "world: grid terrain and the map border are ignored",
         true,
         {ParamDesc::choice(
              "mode",
              "lazy: a circle's surfing edges are computed when the search first reaches it; "
              "eager: the whole graph is built before the search (same path, for comparison)",
              {"lazy", "eager"}, "lazy"),
          ParamDesc::real("arc_step",
                          "Largest distance between the path's sampled points along an arc (map "
                          "units)",
                          0.001, 1000, "0.25"),
          ParamDesc::boolean("mark_searched",
                             "When watched, mark every edge the search touched (role candidate) "
                             "beside the tested graph",
                             "true")},
         [](const ParamSet& ps) {
           CirclePlanOptions o;
           o.mode = ps.get("mode") == "eager" ? CircleGraphMode::Eager : CircleGraphMode::Lazy;
           o.arc_step = ps.get_double("arc_step");
           o.mark_searched_edges = ps.get_bool("mark_searched");
           return std::make_unique<CirclesPlanner>(o);
         }});
}

const PlannerRegistration kRegistration(30, add_circles);

}  // namespace

}  // namespace pl

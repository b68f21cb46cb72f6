// Registers the planner among circles (issue 5) with the registry.
#include "planners/circles.hpp"

namespace pl {

void register_circle_planners(Registry& r) {
  ParamDesc mode;
  mode.name = "mode";
  mode.type = ParamDesc::Type::Enum;
  mode.description =
      "lazy: a circle's surfing edges are computed when the search first reaches it; eager: the "
      "whole graph is built before the search (same path, for comparison)";
  mode.choices = {"lazy", "eager"};
  mode.default_value = "lazy";
  ParamDesc step;
  step.name = "arc_step";
  step.type = ParamDesc::Type::Double;
  step.description = "Largest distance between the path's sampled points along an arc (map units)";
  step.min = 0.001;
  step.max = 1000;
  step.default_value = "0.25";
  ParamDesc marks;
  marks.name = "mark_searched";
  marks.type = ParamDesc::Type::Bool;
  marks.description =
      "When watched, mark every edge the search touched (role candidate) beside the tested graph";
  marks.default_value = "true";
  r.add({"circles",
         "continuous",
         "A* among circular obstacles grown by the agent's radius: bitangent surfing edges and "
         "hugging arcs (Red Blob Games), cw/ccw nodes; exact lengths. The circles are the whole "
         "world: grid terrain and the map border are ignored",
         true,
         {mode, step, marks},
         [](const ParamSet& ps) {
           CirclePlanOptions o;
           o.mode = ps.get("mode") == "eager" ? CircleGraphMode::Eager : CircleGraphMode::Lazy;
           o.arc_step = ps.get_double("arc_step");
           o.mark_searched_edges = ps.get_bool("mark_searched");
           return std::make_unique<CirclesPlanner>(o);
         }});
}

}  // namespace pl

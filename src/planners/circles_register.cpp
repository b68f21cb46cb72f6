// Registers the planner among circles with the registry (issue 5). Nothing yet: the planner
// lands with its issue.
#include "planners/planner.hpp"

namespace pl {

void register_circle_planners(Registry& /*r*/) {}

}  // namespace pl

// Registers HAA* with the registry (issue 4). Nothing yet: the planner lands with its issue.
#include "planners/planner.hpp"

namespace pl {

void register_haa_planners(Registry& /*r*/) {}

}  // namespace pl

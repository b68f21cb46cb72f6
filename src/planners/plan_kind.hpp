// What kind of length a run's path has, for those who hold it to an optimum (`scen`, the app's
// compare table).
#pragma once

#include "planners/planner.hpp"

namespace pl {

// Whether a run promises the optimum of its kind of path: its metric when it says (Grid8Optimal:
// the 8-connected optimum; AnyAngle: none), else its planner's registry flag (`info` may be
// null: no promise). `scen` holds such runs to the scenario's optima; the compare table takes
// them as the optimum.
inline bool promises_optimum(const PlanResult& r, const PlannerInfo* info) {
  if (r.metric != PlanResult::Metric::Unknown) return r.metric == PlanResult::Metric::Grid8Optimal;
  return info && info->optimal;
}

// Whether a run's path is any-angle (may join any two points, so shorter than an 8-connected
// optimum): its metric when it says, else whether its planner is of the any-angle family.
inline bool any_angle_length(const PlanResult& r, const PlannerInfo* info) {
  if (r.metric != PlanResult::Metric::Unknown) return r.metric == PlanResult::Metric::AnyAngle;
  return info && info->family == "any-angle";
}

}  // namespace pl

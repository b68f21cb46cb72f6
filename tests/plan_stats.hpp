// Reading a planner's reported figures (PlanResult::stats) by name in a test.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "planners/planner.hpp"

namespace pl::test {

// The figure called `name`; a missing one fails the test and reads as 0.
inline double plan_stat(const PlanResult& r, const std::string& name) {
  for (const auto& [k, v] : r.stats)
    if (k == name) return v;
  ADD_FAILURE() << "no stat " << name;
  return 0;
}

}  // namespace pl::test

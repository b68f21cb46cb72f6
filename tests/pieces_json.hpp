// A path's pieces in the JSON form `pathlab-cli validate` reads (the "pieces" of `path --json`),
// for the tests that hand a planner's path to the validator.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "planners/planner.hpp"

namespace pl::test {

inline nlohmann::json pieces_json(const std::vector<PathPiece>& pieces) {
  nlohmann::json out = nlohmann::json::array();
  for (const PathPiece& p : pieces) {
    nlohmann::json j;
    if (p.kind == PathPiece::Kind::Line)
      j = {{"line", {p.line.a.x, p.line.a.y, p.line.b.x, p.line.b.y}}};
    else
      j = {{"arc", {{"center", {p.arc.center.x, p.arc.center.y}},
                    {"radius", p.arc.radius},
                    {"start", p.arc.start_angle},
                    {"sweep", p.arc.sweep}}}};
    if (p.reverse) j["reverse"] = true;
    out.push_back(j);
  }
  return out;
}

}  // namespace pl::test

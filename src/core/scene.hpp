// The scene: everything a session needs. A grid map with its palette, circular obstacles,
// agents, and the planner set-up of each view. Files: see core/io.hpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/geometry.hpp"
#include "core/grid.hpp"

namespace pl {

struct Circle {
  double x = 0, y = 0, r = 1;
  Vec2 center() const { return {x, y}; }
  bool operator==(const Circle&) const = default;
};

struct Agent {
  std::string name = "agent";
  int size = 1;                    // HAA*: occupies size x size cells, upper-left is its cell
  CapabilityMask capability = 0;   // 0 = the palette's MovingAI default ({ground, swamp})
  double radius = 0.5;             // for continuous planners (circles)
  double turning_radius = 0.0;     // for planners with curved turns; 0 = turns in place
  bool can_reverse = false;
  Pose start{0.5, 0.5, 0.0};
  Pose goal{0.5, 0.5, 0.0};
  bool operator==(const Agent&) const = default;
};

// One view's planner and its parameters (values as text, checked against the registry).
struct ViewSetup {
  std::string planner = "astar";
  std::map<std::string, std::string> params;
  int agent = 0;
  bool operator==(const ViewSetup&) const = default;
};

struct Scene {
  GridMap map;
  // Set when the map came from (and is saved as a reference to) a MovingAI .map file,
  // relative to the scene file.
  std::optional<std::string> map_file;
  std::vector<Circle> circles;
  std::vector<Agent> agents;
  std::vector<ViewSetup> views;
  // Camera and display settings: kept as JSON text so core stays ignorant of the app.
  std::string view_json;
  // Top-level fields this version does not know, kept as JSON text and written back.
  std::map<std::string, std::string> unknown_fields;

  CapabilityMask capability_of(const Agent& a) const {
    return a.capability ? a.capability : map.palette().movingai_default_capability();
  }
};

}  // namespace pl

#include "planners/grid_world.hpp"

namespace pl {

ParamDesc circles_param() {
  ParamDesc p;
  p.name = "circles";
  p.type = ParamDesc::Type::Enum;
  p.description =
      "The scene's circles as obstacles: centre = a cell is blocked when a circle covers its "
      "centre; touch = when a circle touches any part of it; ignore = circles are not obstacles";
  p.choices = {"centre", "touch", "ignore"};
  p.default_value = "centre";
  return p;
}

GridWorld::GridWorld(const ParamSet& ps) {
  const std::string& v = ps.get("circles");
  if (v == "centre") rule_ = CircleRasterRule::Centre;
  else if (v == "touch") rule_ = CircleRasterRule::Touch;
}

const GridMap& GridWorld::map(const Scene& scene) {
  if (!rule_ || scene.circles.empty()) return scene.map;
  CircleRasterOptions o;
  o.rule = *rule_;
  return cache_.get(scene.map, scene.circles, o);
}

}  // namespace pl

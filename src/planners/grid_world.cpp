#include "planners/grid_world.hpp"

namespace pl {

ParamDesc circles_param() {
  return ParamDesc::choice(
      "circles",
      "The scene's circles as obstacles: centre = a cell is blocked when a circle covers its "
      "centre; touch = when a circle touches any part of it; ignore = circles are not obstacles",
      {"centre", "touch", "ignore"}, "centre")
      .labelled("circles as obstacles");
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

void GridWorld::report_blocked(const Scene& scene, SearchObserver* observer) const {
  if (!observer || !rule_ || scene.circles.empty()) return;
  CircleRasterOptions o;
  o.rule = *rule_;
  const int w = scene.map.width(), h = scene.map.height();
  const std::vector<std::uint8_t> mask = circle_cell_mask(w, h, scene.circles, o);
  observer->phase("circles as obstacles");
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (mask[std::size_t(y) * std::size_t(w) + std::size_t(x)])
        observer->mark(Shape::cell(x, y), Role::Obstacle);
}

}  // namespace pl

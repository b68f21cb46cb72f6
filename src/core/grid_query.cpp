#include "core/grid_query.hpp"

#include <cmath>

namespace pl {

std::optional<CellXY> cell_of(const GridMap& map, const Pose& p) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return std::nullopt;
  const double fx = std::floor(p.x), fy = std::floor(p.y);
  if (fx < 0 || fy < 0 || fx >= map.width() || fy >= map.height()) return std::nullopt;
  return CellXY{int(fx), int(fy)};
}

std::string cell_text(int x, int y) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + ")";
}

std::string blocked_reason(const GridMap& map, CapabilityMask capability, int size,
                           bool size_limited, const char* which, CellXY c) {
  std::string s = std::string(which) + " " + cell_text(c.x, c.y) + " is not traversable: ";
  const TerrainId t = map.at(c.x, c.y);
  if (!(capability >> t & 1u))
    return s + "terrain '" + map.palette()[t].name + "' is outside the capability";
  if (size_limited) return s + "clearance is below the agent size " + std::to_string(size);
  return s + "blocked";
}

std::string outside_reason(const GridMap& map, const Pose& start, const Pose& goal) {
  if (!cell_of(map, start)) return "start is outside the map";
  if (!cell_of(map, goal)) return "goal is outside the map";
  return {};
}

}  // namespace pl

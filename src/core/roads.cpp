// Cones beyond turns (Pinter 2001, "The Road Problem", method 4). See roads.hpp.
#include "core/roads.hpp"

#include <algorithm>

namespace pl {

std::optional<TerrainId> road_terrain(const Palette& palette) {
  return palette.find_name("road");
}

std::vector<CellXY> place_cones(std::span<const CellXY> path, int turn_cells,
                                const std::function<bool(int, int)>& road,
                                const std::function<bool(int, int)>& free) {
  constexpr int kGate = 2;      // tiles of cones on each side
  constexpr int kMaxSide = 16;  // widest road looked across
  std::vector<CellXY> cones;
  const auto on_path = [&](CellXY c) {
    return std::find(path.begin(), path.end(), c) != path.end();
  };
  const auto dir = [&](std::size_t i) {
    return CellXY{path[i + 1].x - path[i].x, path[i + 1].y - path[i].y};
  };
  for (std::size_t i = 1; i + 1 < path.size(); ++i) {
    const CellXY d = dir(i);
    if (d == dir(i - 1)) continue;  // not a turn
    for (std::size_t j = i + 1; j < path.size() && j <= i + std::size_t(turn_cells) + kGate - 1;
         ++j) {
      if (j + 1 < path.size() && !(dir(j) == d)) break;  // the next turn: its own cones
      if (j < i + std::size_t(std::max(1, turn_cells))) continue;
      // Both sides, perpendicular to the leg (for a diagonal leg, the perpendicular diagonals).
      for (const CellXY side : {CellXY{-d.y, d.x}, CellXY{d.y, -d.x}}) {
        CellXY c = path[j];
        for (int s = 0; s < kMaxSide && road(c.x, c.y); ++s) c = {c.x + side.x, c.y + side.y};
        if (!road(c.x, c.y) && free(c.x, c.y) && !on_path(c) &&
            std::find(cones.begin(), cones.end(), c) == cones.end())
          cones.push_back(c);
      }
    }
  }
  return cones;
}

}  // namespace pl

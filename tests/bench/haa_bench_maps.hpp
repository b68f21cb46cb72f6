// The HAA* benchmarks' shared map.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "core/io.hpp"

namespace pl::bench {

// random512-10-0 with trees as hard obstacles and 20% of the ground turned into swamp: two
// passable terrains, as in the paper's soft-obstacle maps (and `pathlab-cli abstraction
// --movingai-obstacles --soft 20`). Loaded once.
inline const GridMap& two_terrain_512() {
  static const GridMap m = [] {
    GridMap map = load_map(std::string(PATHLAB_SHARED_DIR) + "/data/random/random512-10-0.map");
    std::vector<TerrainId> cells = map.cells();
    std::mt19937 rng(1);
    const TerrainId swamp = *map.palette().find_name("swamp");
    const CapabilityMask keep = map.palette().movingai_default_capability();
    for (TerrainId& c : cells) {
      if (!(keep >> c & 1u))
        c = map.palette().default_obstacle();
      else if (c == 0 && rng() % 100 < 20)
        c = swamp;
    }
    map.assign(cells);
    return map;
  }();
  return m;
}

}  // namespace pl::bench

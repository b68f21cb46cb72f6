#include "core/clearance.hpp"

#include <algorithm>

namespace pl {

ClearanceGrid true_clearance(const GridMap& map, CapabilityMask cap) {
  const int w = map.width(), h = map.height();
  ClearanceGrid cl(size_t(w) * size_t(h), 0);
  const auto& cells = map.cells();
  for (int y = h - 1; y >= 0; --y) {
    const bool last_row = (y == h - 1);
    for (int x = w - 1; x >= 0; --x) {
      const size_t i = size_t(y) * w + x;
      if (!(cap >> cells[i] & 1u)) continue;
      if (last_row || x == w - 1) {
        cl[i] = 1;
        continue;
      }
      const std::uint16_t m = std::min({cl[i + 1], cl[i + w], cl[i + w + 1]});
      cl[i] = static_cast<std::uint16_t>(m + 1);
    }
  }
  return cl;
}

ClearanceGrid brushfire_clearance(const GridMap& map, CapabilityMask cap) {
  const int w = map.width(), h = map.height();
  ClearanceGrid cl(size_t(w) * size_t(h), 0);
  const auto& cells = map.cells();
  auto free_at = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h && (cap >> cells[size_t(y) * w + x] & 1u); };
  std::vector<int> frontier, next;
  // Seed: free cells with an obstacle (or the map edge) among their 8 neighbours.
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (!free_at(x, y)) continue;
      bool seed = false;
      for (int dy = -1; dy <= 1 && !seed; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx || dy) && !free_at(x + dx, y + dy)) {
            seed = true;
            break;
          }
      if (seed) {
        cl[size_t(y) * w + x] = 1;
        frontier.push_back(y * w + x);
      }
    }
  std::uint16_t level = 1;
  while (!frontier.empty()) {
    ++level;
    next.clear();
    for (int i : frontier) {
      const int x = i % w, y = i / w;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = x + dx, ny = y + dy;
          if (!free_at(nx, ny)) continue;
          auto& c = cl[size_t(ny) * w + nx];
          if (c == 0) {
            c = level;
            next.push_back(ny * w + nx);
          }
        }
    }
    frontier.swap(next);
  }
  return cl;
}

ClearanceGrid compute_clearance(const GridMap& map, CapabilityMask cap, ClearanceMetric metric) {
  return metric == ClearanceMetric::True ? true_clearance(map, cap) : brushfire_clearance(map, cap);
}

const ClearanceGrid& ClearanceCache::get(const GridMap& map, CapabilityMask cap,
                                         ClearanceMetric metric) {
  if (map.uid() != uid_ || map.version() != version_) {
    grids_.clear();
    uid_ = map.uid();
    version_ = map.version();
  }
  auto key = std::make_pair(cap, static_cast<int>(metric));
  auto it = grids_.find(key);
  if (it == grids_.end()) it = grids_.emplace(key, compute_clearance(map, cap, metric)).first;
  return it->second;
}

size_t ClearanceCache::memory_bytes() const {
  size_t total = 0;
  for (auto& [k, g] : grids_) total += g.size() * sizeof(std::uint16_t);
  return total;
}

}  // namespace pl

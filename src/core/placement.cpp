#include "core/placement.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace pl {
namespace {

// A breadth-first sweep over the passable 4-connected region of `from`, one frontier at a
// time. Marks what it reaches in `seen`; returns the number of cells reached, the last
// frontier's first cell in row-major order (the farthest from `from`), and its depth.
struct Sweep {
  long cells = 0;
  int far = 0;
  long depth = 0;
};

Sweep sweep(const GridMap& map, CapabilityMask cap, int from, std::vector<bool>& seen) {
  const int w = map.width(), h = map.height();
  std::vector<int> frontier{from}, next;
  seen[std::size_t(from)] = true;
  Sweep s;
  s.cells = 1;
  s.far = from;
  while (true) {
    next.clear();
    for (int i : frontier) {
      const int x = i % w, y = i / w;
      const int nb[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
      for (const auto& n : nb) {
        if (n[0] < 0 || n[1] < 0 || n[0] >= w || n[1] >= h) continue;
        const int j = n[1] * w + n[0];
        if (seen[std::size_t(j)] || !map.passable(n[0], n[1], cap)) continue;
        seen[std::size_t(j)] = true;
        next.push_back(j);
      }
    }
    if (next.empty()) break;
    ++s.depth;
    s.cells += long(next.size());
    int first = next.front();
    for (int j : next) first = std::min(first, j);
    s.far = first;
    std::swap(frontier, next);
  }
  return s;
}

// The largest region: one sweep per region, remembering the first cell of the biggest (-1 when
// no cell is passable) and its size. `seen` is left marking every passable cell.
struct Largest {
  int first = -1;
  long cells = 0;
};

Largest largest_region(const GridMap& map, CapabilityMask cap, std::vector<bool>& seen) {
  const int w = map.width(), h = map.height();
  Largest best;
  if (w <= 0 || h <= 0) return best;
  const std::size_t n = std::size_t(w) * std::size_t(h);
  seen.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (seen[i] || !map.passable(int(i % std::size_t(w)), int(i / std::size_t(w)), cap)) continue;
    const Sweep s = sweep(map, cap, int(i), seen);
    if (s.cells > best.cells) best = {int(i), s.cells};
  }
  return best;
}

}  // namespace

std::optional<FarApart> place_far_apart(const GridMap& map, CapabilityMask cap) {
  const int w = map.width();
  std::vector<bool> seen;
  const Largest largest = largest_region(map, cap, seen);
  const int best = largest.first;
  const long best_cells = largest.cells;
  if (best < 0) return std::nullopt;
  // Two sweeps inside it: farthest from its first cell, then farthest from that.
  std::fill(seen.begin(), seen.end(), false);
  const int a = sweep(map, cap, best, seen).far;
  std::fill(seen.begin(), seen.end(), false);
  const Sweep b = sweep(map, cap, a, seen);
  FarApart r;
  r.start = {a % w, a / w};
  r.goal = {b.far % w, b.far / w};
  r.region_cells = best_cells;
  r.steps = b.depth;
  return r;
}

std::vector<std::uint32_t> largest_region_cells(const GridMap& map, CapabilityMask cap) {
  std::vector<bool> seen;
  const Largest largest = largest_region(map, cap, seen);
  std::vector<std::uint32_t> cells;
  if (largest.first < 0) return cells;
  std::fill(seen.begin(), seen.end(), false);
  sweep(map, cap, largest.first, seen);
  cells.reserve(std::size_t(largest.cells));
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (seen[i]) cells.push_back(std::uint32_t(i));
  return cells;
}

}  // namespace pl

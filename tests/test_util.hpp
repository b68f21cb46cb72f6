// Helpers shared by the tests: random maps, data paths, brute-force reference searches.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/grid.hpp"

namespace pl::test {

inline std::string shared_data(const std::string& rel) {
  return std::string(PATHLAB_SHARED_DIR) + "/data/" + rel;
}

// Every .scen file under ../shared/data, sorted.
inline std::vector<std::string> all_scen_files() {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::recursive_directory_iterator(shared_data("")))
    if (e.path().extension() == ".scen") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A map from rows of MovingAI symbols ('.' ground, '@' blocked, ...), row 0 at the top.
inline GridMap from_rows(const std::vector<std::string>& rows) {
  GridMap m(int(rows[0].size()), int(rows.size()));
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x) {
      const char c = rows[size_t(y)][size_t(x)];
      const auto t = m.palette().find_symbol(c);
      if (!t) throw std::invalid_argument(std::string("from_rows: no terrain has the symbol ") + c);
      m.set(x, y, *t);
    }
  return m;
}

// A random map whose cells are drawn from `terrains` (ids of Palette::movingai()) with weights.
inline GridMap random_map(std::mt19937& rng, int w, int h, const std::vector<TerrainId>& terrains,
                          const std::vector<double>& weights) {
  GridMap m(w, h);
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  std::vector<TerrainId> cells(size_t(w) * h);
  for (auto& c : cells) c = terrains[size_t(pick(rng))];
  m.assign(cells);
  return m;
}

// Reference: Dijkstra on an explicit "free" predicate with 8-connected octile moves (no corner
// cutting) and optional per-cell costs (step = base * (c(a) + c(b)) / 2). Returns the distance
// (infinity if unreachable).
template <class Free, class Cost>
double reference_dijkstra(int w, int h, Free free, Cost cost, int sx, int sy, int gx, int gy,
                          bool eight = true) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!free(sx, sy) || !free(gx, gy)) return inf;
  std::vector<double> dist(size_t(w) * h, inf);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  dist[size_t(sy) * w + sx] = 0;
  pq.push({0, sy * w + sx});
  const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  auto ok = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h && free(x, y); };
  while (!pq.empty()) {
    auto [d, c] = pq.top();
    pq.pop();
    if (d > dist[size_t(c)]) continue;
    const int x = c % w, y = c / w;
    if (x == gx && y == gy) return d;
    for (int k = 0; k < (eight ? 8 : 4); ++k) {
      const int nx = x + dx[k], ny = y + dy[k];
      if (!ok(nx, ny)) continue;
      if (k >= 4 && (!ok(x + dx[k], y) || !ok(x, y + dy[k]))) continue;
      const double step = (k < 4 ? 1.0 : std::sqrt(2.0)) * 0.5 * (cost(x, y) + cost(nx, ny));
      const int n = ny * w + nx;
      if (d + step < dist[size_t(n)]) {
        dist[size_t(n)] = d + step;
        pq.push({d + step, n});
      }
    }
  }
  return dist[size_t(gy) * w + gx];
}

}  // namespace pl::test

#include "core/generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace pl {

namespace {

// Portable randomness from the raw 32-bit engine output (see the header for why).
class Rng {
 public:
  explicit Rng(std::uint32_t seed) : engine_(seed) {}

  // Threshold t such that `draw() < t` holds with probability p; 2^32 means always.
  static std::uint64_t threshold(double p) {
    return static_cast<std::uint64_t>(std::llround(p * 4294967296.0));
  }
  bool chance(std::uint64_t threshold) { return std::uint64_t(engine_()) < threshold; }

  // Uniform in [0, n) by rejection, so no residue class is favoured. n >= 1.
  std::uint32_t below(std::uint32_t n) {
    const std::uint64_t range = std::uint64_t(1) << 32;
    const std::uint64_t limit = range - range % n;
    for (;;) {
      const std::uint64_t v = engine_();
      if (v < limit) return static_cast<std::uint32_t>(v % n);
    }
  }

 private:
  std::mt19937 engine_;
};

void check_probability(double p) {
  if (!(p >= 0.0 && p <= 1.0))
    throw InputError("generator: probability " + std::to_string(p) + " is outside [0, 1]");
}

void check_at_least_one(int v, const char* what) {
  if (v < 1) throw InputError(std::string("generator: ") + what + " must be at least 1");
}

void check_soft_terrain(const GridMap& map, int terrain) {
  const Palette& pal = map.palette();
  if (terrain < 0 || terrain >= pal.size())
    throw InputError("generator: terrain " + std::to_string(terrain) + " is not in the palette");
  if (terrain == pal.default_ground())
    throw InputError("generator: the soft terrain must differ from ground");
  if (pal[TerrainId(terrain)].obstacle)
    throw InputError("generator: the soft terrain '" + pal[TerrainId(terrain)].name +
                     "' is a hard obstacle (use random obstacles)");
}

}  // namespace

std::string_view generator_name(GeneratorKind kind) {
  switch (kind) {
    case GeneratorKind::RandomObstacles:
      return "random";
    case GeneratorKind::SoftObstacles:
      return "soft";
    case GeneratorKind::Rooms:
      return "rooms";
    case GeneratorKind::Maze:
      return "maze";
  }
  return "?";
}

GeneratorKind parse_generator_kind(std::string_view name) {
  for (auto k : {GeneratorKind::RandomObstacles, GeneratorKind::SoftObstacles, GeneratorKind::Rooms,
                 GeneratorKind::Maze})
    if (generator_name(k) == name) return k;
  throw InputError("unknown generator '" + std::string(name) +
                   "' (expected random, soft, rooms or maze)");
}

TerrainId default_soft_terrain(const Palette& palette) {
  if (auto swamp = palette.find_name("swamp")) return *swamp;
  return palette.size() > 1 ? TerrainId(1) : TerrainId(0);
}

void check_generator(const GridMap& map, const GeneratorParams& p) {
  switch (p.kind) {
    case GeneratorKind::RandomObstacles:
      check_probability(p.probability);
      break;
    case GeneratorKind::SoftObstacles:
      check_probability(p.probability);
      check_soft_terrain(map, p.terrain < 0 ? default_soft_terrain(map.palette()) : p.terrain);
      break;
    case GeneratorKind::Rooms:
      check_at_least_one(p.room_size, "room size");
      check_at_least_one(p.door_width, "door width");
      break;
    case GeneratorKind::Maze:
      check_at_least_one(p.corridor_width, "corridor width");
      check_at_least_one(p.wall_width, "wall width");
      if (map.width() < p.corridor_width || map.height() < p.corridor_width)
        throw InputError("generator: a " + std::to_string(map.width()) + "x" +
                         std::to_string(map.height()) + " map cannot hold a corridor " +
                         std::to_string(p.corridor_width) + " wide");
      break;
  }
}

void apply_generator(GridMap& map, const GeneratorParams& p) {
  check_generator(map, p);
  switch (p.kind) {
    case GeneratorKind::RandomObstacles:
      generate_random_obstacles(map, p.probability, p.seed);
      break;
    case GeneratorKind::SoftObstacles:
      generate_soft_obstacles(
          map, p.probability,
          p.terrain < 0 ? default_soft_terrain(map.palette()) : TerrainId(p.terrain), p.seed);
      break;
    case GeneratorKind::Rooms:
      generate_rooms(map, p.room_size, p.door_width, p.seed);
      break;
    case GeneratorKind::Maze:
      generate_maze(map, p.corridor_width, p.wall_width, p.seed);
      break;
  }
}

void generate_random_obstacles(GridMap& map, double p, std::uint32_t seed) {
  check_probability(p);
  Rng rng(seed);
  const std::uint64_t t = Rng::threshold(p);
  const TerrainId hard = map.palette().default_obstacle(), ground = map.palette().default_ground();
  std::vector<TerrainId> cells(map.cells().size());
  for (auto& c : cells) c = rng.chance(t) ? hard : ground;
  map.assign(std::move(cells));
}

void generate_soft_obstacles(GridMap& map, double p, TerrainId terrain, std::uint32_t seed) {
  check_probability(p);
  check_soft_terrain(map, terrain);
  Rng rng(seed);
  const std::uint64_t t = Rng::threshold(p);
  const TerrainId ground = map.palette().default_ground();
  std::vector<TerrainId> cells = map.cells();
  // One draw per cell, ground or not, so the pattern on ground cells does not depend on where
  // the other terrains are: two maps that differ elsewhere get the same soft cells.
  for (auto& c : cells) {
    const bool hit = rng.chance(t);
    if (hit && c == ground) c = terrain;
  }
  map.assign(std::move(cells));
}

void generate_rooms(GridMap& map, int room_size, int door_width, std::uint32_t seed) {
  check_at_least_one(room_size, "room size");
  check_at_least_one(door_width, "door width");
  Rng rng(seed);
  const int w = map.width(), h = map.height(), pitch = room_size + 1;
  const TerrainId hard = map.palette().default_obstacle(), ground = map.palette().default_ground();
  std::vector<TerrainId> cells(map.cells().size(), ground);
  auto at = [&](int x, int y) -> TerrainId& { return cells[size_t(y) * size_t(w) + size_t(x)]; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (x % pitch == room_size || y % pitch == room_size) at(x, y) = hard;

  // A door of min(door_width, length) cells somewhere along a wall of `length` cells.
  auto door = [&](int length) {
    const int d = std::min(door_width, length);
    return std::pair{int(rng.below(std::uint32_t(length - d + 1))), d};
  };
  // Fixed visiting order (row of rooms by row, vertical wall then horizontal wall of each room)
  // so the draws, and thus the map, are the same everywhere.
  for (int ry = 0; ry * pitch < h; ++ry)
    for (int rx = 0; rx * pitch < w; ++rx) {
      const int x0 = rx * pitch, y0 = ry * pitch;
      const int wall_x = x0 + room_size, wall_y = y0 + room_size;
      // Wall to the right, when there is a room beyond it.
      if (wall_x + 1 < w) {
        const int length = std::min(room_size, h - y0);
        auto [off, d] = door(length);
        for (int k = 0; k < d; ++k) at(wall_x, y0 + off + k) = ground;
      }
      // Wall below.
      if (wall_y + 1 < h) {
        const int length = std::min(room_size, w - x0);
        auto [off, d] = door(length);
        for (int k = 0; k < d; ++k) at(x0 + off + k, wall_y) = ground;
      }
    }
  map.assign(std::move(cells));
}

void generate_maze(GridMap& map, int corridor_width, int wall_width, std::uint32_t seed) {
  check_at_least_one(corridor_width, "corridor width");
  check_at_least_one(wall_width, "wall width");
  const int w = map.width(), h = map.height();
  if (w < corridor_width || h < corridor_width)
    throw InputError("generator: the map is smaller than one corridor");
  Rng rng(seed);
  const int pitch = corridor_width + wall_width;
  // Maze cells that fit whole; the last one needs no wall after it.
  const int nx = (w + wall_width) / pitch, ny = (h + wall_width) / pitch;
  const TerrainId hard = map.palette().default_obstacle(), ground = map.palette().default_ground();
  std::vector<TerrainId> cells(map.cells().size(), hard);
  auto carve = [&](int x0, int y0, int cw, int ch) {
    for (int y = y0; y < y0 + ch; ++y)
      for (int x = x0; x < x0 + cw; ++x) cells[size_t(y) * size_t(w) + size_t(x)] = ground;
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) carve(i * pitch, j * pitch, corridor_width, corridor_width);

  // Iterative depth-first search (recursive backtracker): long corridors, few dead ends, and no
  // recursion depth problem on 1024x1024 mazes.
  std::vector<char> visited(size_t(nx) * size_t(ny), 0);
  std::vector<int> stack = {0};
  visited[0] = 1;
  const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  while (!stack.empty()) {
    const int cur = stack.back(), cx = cur % nx, cy = cur / nx;
    int options[4], n = 0;
    for (int k = 0; k < 4; ++k) {
      const int ax = cx + dx[k], ay = cy + dy[k];
      if (ax >= 0 && ay >= 0 && ax < nx && ay < ny && !visited[size_t(ay) * nx + ax])
        options[n++] = k;
    }
    if (n == 0) {
      stack.pop_back();
      continue;
    }
    const int k = options[rng.below(std::uint32_t(n))];
    const int ax = cx + dx[k], ay = cy + dy[k];
    // The wall between the two cells: to the right of / below the smaller one.
    const int mx = std::min(cx, ax), my = std::min(cy, ay);
    if (dx[k] != 0)
      carve(mx * pitch + corridor_width, my * pitch, wall_width, corridor_width);
    else
      carve(mx * pitch, my * pitch + corridor_width, corridor_width, wall_width);
    visited[size_t(ay) * nx + ax] = 1;
    stack.push_back(ay * nx + ax);
  }
  map.assign(std::move(cells));
}

}  // namespace pl

namespace pl {

void generate_road_network(GridMap& map, int spacing, int road_width, double obstacles,
                           std::uint32_t seed) {
  const Palette& pal = map.palette();
  const auto road = pal.find_name("road");
  if (!road) throw InputError("generator: the palette has no terrain named 'road'");
  check_at_least_one(spacing, "road spacing");
  check_at_least_one(road_width, "road width");
  check_probability(obstacles);
  const int w = map.width(), h = map.height();
  const int margin = spacing / 2;
  // Crossings inside the map only, so the network is joined through the map itself.
  const int nx = std::max(1, (w - 1 - margin) / spacing + 1), ny = std::max(1, (h - 1 - margin) / spacing + 1);
  const auto cx = [&](int i) { return margin + i * spacing; };
  // Stretches between neighbouring crossings (crossing id = j * nx + i).
  struct Edge {
    int a, b;
    std::uint32_t key;
  };
  Rng rng(seed);
  std::vector<Edge> edges;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (i + 1 < nx) edges.push_back({j * nx + i, j * nx + i + 1, rng.below(1u << 30)});
      if (j + 1 < ny) edges.push_back({j * nx + i, (j + 1) * nx + i, rng.below(1u << 30)});
    }
  // Kruskal on random keys: a random spanning tree stays, the other stretches stay with
  // probability 1/2.
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.key < y.key; });
  std::vector<int> parent(std::size_t(nx * ny));
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = int(i);
  const auto root = [&](int v) {
    while (parent[std::size_t(v)] != v) v = parent[std::size_t(v)] = parent[std::size_t(parent[std::size_t(v)])];
    return v;
  };
  std::vector<TerrainId> cells(std::size_t(w) * std::size_t(h), pal.default_ground());
  const auto paint = [&](int x0, int y0, int x1, int y1) {
    for (int y = std::max(0, y0); y <= std::min(h - 1, y1); ++y)
      for (int x = std::max(0, x0); x <= std::min(w - 1, x1); ++x) cells[std::size_t(y) * std::size_t(w) + std::size_t(x)] = *road;
  };
  const int lo = -(road_width / 2), hi = lo + road_width - 1;  // band around a crossing's line
  const std::uint64_t half = Rng::threshold(0.5);
  for (const Edge& e : edges) {
    const int ra = root(e.a), rb = root(e.b);
    const bool tree = ra != rb;
    if (tree) parent[std::size_t(ra)] = rb;
    if (!tree && !rng.chance(half)) continue;
    const int ia = e.a % nx, ja = e.a / nx, ib = e.b % nx, jb = e.b / nx;
    paint(cx(ia) + lo, cx(ja) + lo, cx(ib) + hi, cx(jb) + hi);
  }
  const std::uint64_t t = Rng::threshold(obstacles);
  const TerrainId hard = pal.default_obstacle();
  for (TerrainId& c : cells)
    if (c != *road && rng.chance(t)) c = hard;
  map.assign(std::move(cells));
}

}  // namespace pl

#include "core/grid.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace pl {

namespace {

std::atomic<std::uint64_t> g_max_cells{0};  // 0 = not read yet

std::uint64_t next_uid() {
  static std::atomic<std::uint64_t> counter{1};
  return counter.fetch_add(1);
}
}  // namespace

std::uint64_t max_map_cells() {
  std::uint64_t v = g_max_cells.load(std::memory_order_relaxed);
  if (v != 0) return v;
  v = kDefaultMaxMapCells;
  if (const char* env = std::getenv("PATHLAB_MAX_CELLS")) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(env, &end, 10);
    if (errno == 0 && end != env && *end == '\0' && n > 0) v = n;
  }
  std::uint64_t expected = 0;
  g_max_cells.compare_exchange_strong(expected, v, std::memory_order_relaxed);
  return g_max_cells.load(std::memory_order_relaxed);
}

void set_max_map_cells(std::uint64_t cells) {
  g_max_cells.store(cells == 0 ? kDefaultMaxMapCells : cells, std::memory_order_relaxed);
}

void check_map_cells(long long width, long long height, const std::string& name, long line) {
  const auto cells = static_cast<unsigned long long>(width) * static_cast<unsigned long long>(height);
  const std::uint64_t limit = max_map_cells();
  if (width < 0 || height < 0 || cells <= limit) return;
  throw ResourceError(name, line,
                   "map is " + std::to_string(width) + " x " + std::to_string(height) + " = " +
                       std::to_string(cells) + " cells, more than the limit of " +
                       std::to_string(limit) +
                       " (set PATHLAB_MAX_CELLS to load larger maps; see docs/memory.md)");
}

GridMap::GridMap() : palette_(Palette::movingai()), uid_(next_uid()) {}

GridMap::GridMap(int width, int height, TerrainId fill, Palette palette)
    : width_(width), height_(height), palette_(std::move(palette)), uid_(next_uid()) {
  if (width < 0 || height < 0 || width > kMaxMapSide || height > kMaxMapSide)
    throw InputError("map size " + std::to_string(width) + "x" + std::to_string(height) +
                     " is outside 0.." + std::to_string(kMaxMapSide));
  if (fill >= palette_.size()) throw InputError("fill terrain is not in the palette");
  cells_.assign(size_t(width) * size_t(height), fill);
}

void GridMap::assign(std::vector<TerrainId> cells) {
  if (cells.size() != cells_.size()) throw InputError("cell count does not match the map size");
  cells_ = std::move(cells);
  ++version_;
}

void GridMap::set_palette(Palette p) {
  for (TerrainId t : cells_)
    if (t >= p.size()) throw InputError("palette has fewer terrains than the map uses");
  palette_ = std::move(p);
  ++version_;
}

GridMap::GridMap(const GridMap& o)
    : width_(o.width_), height_(o.height_), cells_(o.cells_), palette_(o.palette_),
      version_(0), uid_(next_uid()) {}

GridMap& GridMap::operator=(const GridMap& o) {
  if (this != &o) {
    width_ = o.width_;
    height_ = o.height_;
    cells_ = o.cells_;
    palette_ = o.palette_;
    ++version_;
  }
  return *this;
}

GridMap::GridMap(GridMap&& o) noexcept
    : width_(o.width_), height_(o.height_), cells_(std::move(o.cells_)),
      palette_(std::move(o.palette_)), version_(o.version_), uid_(o.uid_) {
  o.uid_ = next_uid();
  o.width_ = o.height_ = 0;
}

GridMap& GridMap::operator=(GridMap&& o) noexcept {
  if (this != &o) {
    width_ = o.width_;
    height_ = o.height_;
    cells_ = std::move(o.cells_);
    palette_ = std::move(o.palette_);
    ++version_;
    o.uid_ = next_uid();
    o.width_ = o.height_ = 0;
    o.cells_.clear();
  }
  return *this;
}

}  // namespace pl

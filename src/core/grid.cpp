#include "core/grid.hpp"

#include <atomic>
#include <string>

#include "core/error.hpp"

namespace pl {

namespace {
std::uint64_t next_uid() {
  static std::atomic<std::uint64_t> counter{1};
  return counter.fetch_add(1);
}
}  // namespace

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

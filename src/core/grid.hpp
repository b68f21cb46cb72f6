// The grid map: width x height cells, each holding a terrain id of a palette.
// Cell (x, y) is column x, row y, origin top-left; it spans [x, x+1] x [y, y+1] in map units.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/terrain.hpp"

namespace pl {

// Largest side a map may have. Readers reject bigger headers before allocating anything.
inline constexpr int kMaxMapSide = 16384;

// The most cells a map read from a file may have (docs/memory.md). A side may reach
// kMaxMapSide, but a 60-byte scene ({"width": 16384, "height": 16384}) or a 55 KB one-bit PNG
// can declare 2^28 cells, and loading and searching such a map costs gigabytes. The default,
// 2^24 cells (4096 x 4096, 16 times the largest MovingAI benchmark map), keeps a loaded map and
// one search on it to a few hundred megabytes. The PATHLAB_MAX_CELLS environment variable
// (read once, a whole number) changes it for a process; set_max_map_cells() for a program.
inline constexpr std::uint64_t kDefaultMaxMapCells = std::uint64_t(1) << 24;
std::uint64_t max_map_cells();
void set_max_map_cells(std::uint64_t cells);
// Throws InputError("name:line: map is W x H = N cells, more than the limit of M ...") when a
// file declares a map over max_map_cells(); readers call it before allocating anything.
void check_map_cells(long long width, long long height, const std::string& name, long line);

// A cell by column and row (shared by the circle rasteriser, overlays and images).
struct CellXY {
  int x = 0, y = 0;
  bool operator==(const CellXY&) const = default;
};

class GridMap {
 public:
  GridMap();
  GridMap(int width, int height, TerrainId fill = 0, Palette palette = Palette::movingai());

  int width() const { return width_; }
  int height() const { return height_; }
  long cell_count() const { return long(width_) * height_; }
  bool in_bounds(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  int index(int x, int y) const { return y * width_ + x; }

  TerrainId at(int x, int y) const { return cells_[index(x, y)]; }
  void set(int x, int y, TerrainId t) {
    cells_[index(x, y)] = t;
    ++version_;
  }
  const std::vector<TerrainId>& cells() const { return cells_; }
  // Replaces every cell at once (size must match).
  void assign(std::vector<TerrainId> cells);

  // True when the cell's terrain is in the capability (false outside the map).
  bool passable(int x, int y, CapabilityMask cap) const {
    return in_bounds(x, y) && (cap >> at(x, y) & 1u);
  }

  const Palette& palette() const { return palette_; }
  void set_palette(Palette p);

  // Changes on every edit; caches (clearance, passability) compare it with (uid, version).
  std::uint64_t version() const { return version_; }
  // Distinct for every map object ever made, so a cache never mistakes one map for another.
  std::uint64_t uid() const { return uid_; }

  // Same size, palette and cells.
  bool same_content(const GridMap& o) const {
    return width_ == o.width_ && height_ == o.height_ && cells_ == o.cells_ && palette_ == o.palette_;
  }

  GridMap(const GridMap& o);
  GridMap& operator=(const GridMap& o);
  GridMap(GridMap&& o) noexcept;
  GridMap& operator=(GridMap&& o) noexcept;

 private:
  int width_ = 0, height_ = 0;
  std::vector<TerrainId> cells_;
  Palette palette_;
  std::uint64_t version_ = 0;
  std::uint64_t uid_ = 0;
};

}  // namespace pl

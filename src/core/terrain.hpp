// Terrain palette: the kinds of cell a grid holds (MovingAI characters by default), their
// colours and optional move costs, and capabilities (sets of terrains an agent may enter).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pl {

using TerrainId = std::uint8_t;
// Bit t set = terrain t may be entered. Obstacle terrains are never part of a capability.
using CapabilityMask = std::uint32_t;

inline constexpr int kMaxTerrains = 32;

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

struct Terrain {
  std::string name;     // "ground"; used in capability lists
  char symbol = '.';    // written to .map files
  std::string aliases;  // further characters read as this terrain ("G" for ground)
  Rgb colour;
  double cost = 1.0;      // move-cost multiplier; 1 everywhere gives the benchmark's lengths
  bool obstacle = false;  // hard obstacle: no agent may ever enter
  bool operator==(const Terrain&) const = default;
};

class Palette {
 public:
  Palette() = default;
  explicit Palette(std::vector<Terrain> terrains);

  // ground '.'/'G', swamp 'S', trees 'T', water 'W', out of bounds '@'/'O', and road 'R' (not
  // MovingAI's: their maps never use it).
  static const Palette& movingai();

  const std::vector<Terrain>& terrains() const { return terrains_; }
  int size() const { return static_cast<int>(terrains_.size()); }
  const Terrain& operator[](TerrainId t) const { return terrains_[t]; }

  std::optional<TerrainId> find_symbol(char c) const;
  std::optional<TerrainId> find_name(std::string_view name) const;
  // Terrain of the nearest colour (squared RGB distance); first wins on ties.
  TerrainId nearest_colour(Rgb c) const;
  // First obstacle terrain, used by generators and erasers; falls back to the last terrain.
  TerrainId default_obstacle() const;
  TerrainId default_ground() const { return 0; }

  // Every non-obstacle terrain.
  CapabilityMask all_passable() const;
  // {ground, swamp, road} where present: the capability that reproduces MovingAI's optimal
  // lengths (their maps hold no road).
  CapabilityMask movingai_default_capability() const;
  // Parses "ground,swamp" (names or symbols, comma separated). Throws InputError.
  CapabilityMask parse_capability(std::string_view list) const;
  std::vector<std::string> capability_names(CapabilityMask mask) const;
  std::string capability_string(CapabilityMask mask) const;  // "ground,swamp"
  // True when every passable terrain costs exactly 1.
  bool uniform_costs() const;
  // Smallest cost among the terrains of `mask` (for an admissible heuristic).
  double min_cost(CapabilityMask mask) const;

  bool operator==(const Palette&) const = default;

 private:
  std::vector<Terrain> terrains_;
  std::int16_t by_symbol_[256] = {};
  void index();
};

}  // namespace pl

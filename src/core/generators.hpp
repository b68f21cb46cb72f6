// Seeded map generators: random hard obstacles, soft obstacles (the HAA* paper's experiment:
// each ground cell becomes a second terrain with probability p), a grid of rooms joined by
// doors, and a maze with wide corridors. Used by the editor ("apply a generator") and by the
// CLI's experiments.
//
// Reproducibility is the point: the same parameters and seed give the same map on every
// platform and standard library. So every random choice is derived from the raw output of
// std::mt19937 (whose sequence the standard fixes), never from std::uniform_*_distribution or
// std::shuffle, whose results are implementation-defined.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/grid.hpp"

namespace pl {

enum class GeneratorKind { RandomObstacles, SoftObstacles, Rooms, Maze };

// "random", "soft", "rooms", "maze" (for the CLI and the app's combo box).
std::string_view generator_name(GeneratorKind kind);
// Throws InputError on an unknown name.
GeneratorKind parse_generator_kind(std::string_view name);

// One description for every generator, so a caller (an undo step, a CLI flag set, a settings
// file) can hold "what was generated" as a value. Fields a kind does not use are ignored.
struct GeneratorParams {
  GeneratorKind kind = GeneratorKind::RandomObstacles;
  std::uint32_t seed = 1;
  // RandomObstacles: probability that a cell is hard (every cell is redrawn).
  // SoftObstacles: probability that a ground cell becomes `terrain` (other cells are kept).
  double probability = 0.2;
  // SoftObstacles: the second terrain. -1 = the palette's "swamp" if it has one, else terrain 1.
  int terrain = -1;
  // Rooms: interior side of a room in cells (walls are one cell thick).
  int room_size = 16;
  // Rooms: width of the one door in every wall between two neighbouring rooms.
  int door_width = 2;
  // Maze: width of corridors, and of the walls between them.
  int corridor_width = 1;
  int wall_width = 1;
  bool operator==(const GeneratorParams&) const = default;
};

// Throws InputError when a parameter is out of range for `map` (probability outside [0, 1],
// sizes below 1, a soft terrain that is not in the palette, is ground or is an obstacle).
void check_generator(const GridMap& map, const GeneratorParams& p);

// Applies the generator to `map` in place, keeping its size and palette. RandomObstacles,
// Rooms and Maze redraw every cell; SoftObstacles only turns ground cells into the terrain.
void apply_generator(GridMap& map, const GeneratorParams& p);

// The individual generators (same rules as apply_generator).
// Every cell becomes the palette's default obstacle with probability `p`, else ground.
void generate_random_obstacles(GridMap& map, double p, std::uint32_t seed);
// Each ground cell (terrain default_ground()) becomes `terrain` with probability `p`.
void generate_soft_obstacles(GridMap& map, double p, TerrainId terrain, std::uint32_t seed);
// Rooms of room_size x room_size cells separated by one-cell walls, starting at the top-left
// corner; rooms cut by the right or bottom edge are kept. Every wall between two rooms has one
// door of door_width cells (the whole wall when it is shorter) at a random place, so every
// free cell is reachable from every other (4-connected).
void generate_rooms(GridMap& map, int room_size, int door_width, std::uint32_t seed);
// A perfect maze (a spanning tree: exactly one route between two places) carved by a
// depth-first search. Corridors are corridor_width wide, walls wall_width thick; the strip
// left at the right or bottom edge when the size is not a whole number of corridors is wall.
// Every free cell is reachable from every other (4-connected).
void generate_maze(GridMap& map, int corridor_width, int wall_width, std::uint32_t seed);

// The terrain SoftObstacles uses for p.terrain == -1 on this palette.
TerrainId default_soft_terrain(const Palette& palette);

// Roads (Pinter's road problem, core/roads.hpp): a road network on `map` (its palette must
// have "road"): ground everywhere, roads `road_width` cells wide every `spacing` cells in both directions with about a third of the stretches
// between crossings left out (the network stays connected: a stretch is only dropped when the
// crossings stay joined), and hard obstacles off the road with probability `obstacles`.
// Throws InputError when the palette has no road or a size is below 1.
void generate_road_network(GridMap& map, int spacing, int road_width, double obstacles,
                           std::uint32_t seed);

}  // namespace pl

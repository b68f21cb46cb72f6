// File formats: MovingAI .map and .scen (both dialects), the JSON scene file, PNG import.
// Every reader throws InputError("file:line: problem") on bad input, never crashes and never
// allocates more than the input justifies (sizes are checked before any allocation).
// Writers are atomic: they write a temporary file next to the target and rename it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/scene.hpp"

namespace pl {

// ---- MovingAI .map ("type octile / height H / width W / map" then H rows of W characters)
// `name` is used in error messages only.
GridMap parse_map(std::string_view text, const std::string& name,
                  const Palette& palette = Palette::movingai());
std::string format_map(const GridMap& map);
GridMap load_map(const std::string& path, const Palette& palette = Palette::movingai());
void save_map(const GridMap& map, const std::string& path);

// ---- MovingAI .scen
struct ScenProblem {
  int bucket = 0;
  std::string map_path;  // column 2 as written
  int map_width = 0, map_height = 0;
  int start_x = 0, start_y = 0, goal_x = 0, goal_y = 0;
  double optimal = 0;
  bool operator==(const ScenProblem&) const = default;
};

struct Scenario {
  enum class Dialect { V1Tabs, V1_0Spaces } dialect = Dialect::V1Tabs;
  std::vector<ScenProblem> problems;
  // Line of each problem in the text it was parsed from (for messages); empty when built in
  // code. Not compared: two scenarios with the same problems are the same scenario.
  std::vector<long> lines;
  // Digits printed after the decimal point in each problem's optimal length (-1 = unknown, e.g.
  // exponent notation); empty when built in code. Not compared.
  std::vector<int> optimal_decimals;

  // How far a length may be from problem i's optimum and still match: half a unit of the last
  // digit the file printed (the bg512 set prints two decimals), and at least 1e-5 relative
  // (DESIGN.md section 4) where more digits are printed.
  double tolerance(std::size_t i) const;
  // "half a unit of the last printed digit (2 decimals), at least 1e-5 relative": which rule the
  // file's problems use, for summaries.
  std::string tolerance_rule() const;
};

// `corners`: start and goal are cell corners (any-angle scenarios), so x may equal the width and
// y the height.
Scenario parse_scen(std::string_view text, const std::string& name, bool corners = false);
std::string format_scen(const Scenario& scen);
Scenario load_scen(const std::string& path, bool corners = false);
void save_scen(const Scenario& scen, const std::string& path);
// Finds the map of a scenario: the basename of column 2 next to the scen file.
std::string resolve_scen_map(const std::string& scen_path, const ScenProblem& p);
// The map of a loaded scenario (its first problem's), checked to exist: throws InputError naming
// the scen file and the line when it does not.
std::string find_scen_map(const Scenario& scen, const std::string& scen_path);
// Checks every problem lies inside `map` and matches its size; throws InputError. With
// `corners`, start and goal are cell corners (any-angle scenarios): x in [0, w], y in [0, h].
void check_scen_against_map(const Scenario& scen, const GridMap& map, const std::string& name,
                            bool corners = false);

// ---- JSON scene file (pathlab_scene version 1)
inline constexpr int kSceneVersion = 1;
// `base_dir` resolves "map": {"file": ...}; `name` is used in error messages, which read
// "name:line: json.path: problem" (the line of the offending value). Unknown top-level fields
// are kept in Scene::unknown_fields and written back; unknown fields inside known objects are
// rejected (they are typos more often than data). A file of a newer version is rejected.
// {"width": W, "height": H} with no rows is all ground: up to kMaxMapSide^2 cells from a few
// bytes, the one allocation not proportional to the input.
Scene parse_scene(std::string_view text, const std::string& name, const std::string& base_dir);
// Writes the map inline unless scene.map_file is set (then the map is referenced; the caller
// saves the .map itself).
std::string format_scene(const Scene& scene);
Scene load_scene(const std::string& path);
void save_scene(const Scene& scene, const std::string& path);

// ---- PNG import: each pixel becomes the palette terrain of the nearest colour.
GridMap parse_png(const unsigned char* data, size_t size, const std::string& name,
                  const Palette& palette = Palette::movingai());
GridMap load_png(const std::string& path, const Palette& palette = Palette::movingai());
// Writes the map's terrain colours, one pixel per cell (for round trips and quick looks).
void save_png(const GridMap& map, const std::string& path);

// ---- Helpers shared by readers and writers
// Reads a whole file; throws InputError("path: cannot read ...") on failure or when the file
// is larger than `max_bytes`.
std::string read_file(const std::string& path, size_t max_bytes = size_t(1) << 30);
// Writes `path` atomically (temporary file + rename); throws InputError on failure.
void write_file_atomic(const std::string& path, std::string_view content);
// Opens a map, scene or PNG by extension: .json/.scene -> scene, .png -> PNG, else .map.
// A .map opens with map_file set to its basename, so a scene saved next to it references it;
// a PNG's map is inline.
Scene load_any(const std::string& path);

}  // namespace pl

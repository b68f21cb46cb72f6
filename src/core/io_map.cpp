// MovingAI .map files: a header ("type octile", "height H", "width W" in any order, then
// "map") and H rows of W terrain characters.
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "core/io_detail.hpp"

namespace pl {

using detail::LineReader;

namespace {

// First whitespace-separated word of `s` and the trimmed rest.
std::pair<std::string_view, std::string_view> split_key(std::string_view s) {
  s = detail::trim(s);
  size_t i = 0;
  while (i < s.size() && !detail::is_blank(s[i])) ++i;
  return {s.substr(0, i), detail::trim(s.substr(i))};
}

}  // namespace

GridMap parse_map(std::string_view text, const std::string& name, const Palette& palette) {
  LineReader in(text);
  std::string_view line;
  std::optional<long long> width, height;
  bool type_seen = false, map_seen = false, any_text = false;

  // Header. MovingAI's own readers accept the three header lines in any order; so do we, but
  // each at most once, and nothing else before "map".
  while (in.next(line)) {
    if (detail::all_blank(line)) continue;
    any_text = true;
    auto [key, value] = split_key(line);
    const long ln = in.line_no();
    if (key == "map") {
      if (!value.empty()) throw InputError(name, ln, "unexpected text after 'map'");
      map_seen = true;
      break;
    }
    if (key == "type") {
      if (type_seen) throw InputError(name, ln, "duplicate 'type' line");
      if (value != "octile")
        throw InputError(name, ln,
                         "unsupported map type '" + detail::printable(value) + "' (expected octile)");
      type_seen = true;
    } else if (key == "height" || key == "width") {
      auto& slot = key == "height" ? height : width;
      if (slot) throw InputError(name, ln, "duplicate '" + std::string(key) + "' line");
      slot = detail::parse_int(value, 0, kMaxMapSide);
      if (!slot) {
        throw InputError(name, ln,
                         "bad " + std::string(key) + " '" + detail::printable(value) +
                             "' (expected a whole number in 0.." + std::to_string(kMaxMapSide) + ")");
      }
    } else if (ln == 1 && !type_seen) {
      throw InputError(name, ln, "not a MovingAI map: expected 'type octile', found '" +
                                     detail::printable(line) + "'");
    } else {
      throw InputError(name, ln, "unexpected header line '" + detail::printable(line) + "'");
    }
  }
  if (!map_seen) {
    if (!any_text) throw InputError(name, 0, "empty file: not a MovingAI map");
    throw InputError(name, in.line_no(), "truncated header: no 'map' line");
  }
  if (!type_seen) throw InputError(name, in.line_no(), "missing 'type octile' line");
  if (!height) throw InputError(name, in.line_no(), "missing 'height' line");
  if (!width) throw InputError(name, in.line_no(), "missing 'width' line");

  const int w = static_cast<int>(*width), h = static_cast<int>(*height);
  // Every cell needs a byte of input: a header that claims more than the file holds fails
  // here, before anything is allocated.
  if (static_cast<unsigned long long>(w) * static_cast<unsigned long long>(h) > in.remaining()) {
    throw InputError(name, in.line_no(),
                     "truncated: the header says " + std::to_string(w) + "x" + std::to_string(h) +
                         " but the file holds only " + std::to_string(in.remaining()) +
                         " more bytes");
  }

  check_map_cells(w, h, name, in.line_no());

  std::vector<TerrainId> cells = building(
      name, "the map's cells (" + std::to_string(w) + " x " + std::to_string(h) + ")",
      [&] { return std::vector<TerrainId>(static_cast<size_t>(w) * static_cast<size_t>(h)); });
  for (int y = 0; y < h; ++y) {
    if (!in.next(line)) {
      throw InputError(name, in.line_no(),
                       "truncated: expected " + std::to_string(h) + " rows, found " +
                           std::to_string(y));
    }
    const long ln = in.line_no();
    // A row is its first W characters; trailing blanks after them are tolerated (editors add
    // them), anything else is a row that is too long.
    if (line.size() < static_cast<size_t>(w)) {
      throw InputError(name, ln,
                       "row " + std::to_string(y) + " is too short: " +
                           std::to_string(line.size()) + " characters, expected " +
                           std::to_string(w));
    }
    if (!detail::all_blank(line.substr(static_cast<size_t>(w)))) {
      throw InputError(name, ln,
                       "row " + std::to_string(y) + " is too long: expected " + std::to_string(w) +
                           " characters");
    }
    TerrainId* row = cells.data() + static_cast<size_t>(y) * static_cast<size_t>(w);
    for (int x = 0; x < w; ++x) {
      auto t = palette.find_symbol(line[static_cast<size_t>(x)]);
      if (!t) {
        throw InputError(name, ln,
                         "column " + std::to_string(x + 1) + ": unknown terrain character " +
                             detail::quote_char(line[static_cast<size_t>(x)]));
      }
      row[x] = *t;
    }
  }
  while (in.next(line)) {
    if (!detail::all_blank(line)) {
      throw InputError(name, in.line_no(),
                       "extra text after the " + std::to_string(h) + " rows of the map");
    }
  }

  return building(name, "the map (" + std::to_string(w) + " x " + std::to_string(h) + ")", [&] {
    GridMap map(w, h, 0, palette);
    map.assign(std::move(cells));
    return map;
  });
}

std::string format_map(const GridMap& map) {
  const Palette& pal = map.palette();
  std::string out = "type octile\nheight " + std::to_string(map.height()) + "\nwidth " +
                    std::to_string(map.width()) + "\nmap\n";
  out.reserve(out.size() + static_cast<size_t>(map.cell_count()) + static_cast<size_t>(map.height()));
  const auto& cells = map.cells();
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) out += pal[cells[static_cast<size_t>(map.index(x, y))]].symbol;
    out += '\n';
  }
  return out;
}

GridMap load_map(const std::string& path, const Palette& palette) {
  // The largest legal map with CRLF rows and some slack for the header and trailing blanks.
  constexpr size_t kLimit = size_t(kMaxMapSide) * (kMaxMapSide + 2) + (size_t(1) << 20);
  return parse_map(read_file(path, kLimit), path, palette);
}

void save_map(const GridMap& map, const std::string& path) { write_file_atomic(path, format_map(map)); }

}  // namespace pl

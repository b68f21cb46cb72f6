// MovingAI .scen files, both dialects:
//   "version 1"    columns separated by tabs (the map path may contain spaces);
//   "version 1.0"  columns separated by any run of blanks.
// Columns: bucket, map path, map width, map height, start x, start y, goal x, goal y, optimal.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "core/io_detail.hpp"

namespace pl {

namespace {

constexpr int kColumns = 9;

// Splits on single tabs (an empty field stays a field).
int split_tabs(std::string_view s, std::string_view* out) {
  int n = 0;
  size_t pos = 0;
  while (true) {
    size_t end = s.find('\t', pos);
    std::string_view f = s.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (n == kColumns) return n + 1;  // too many; the count is all the caller needs now
    out[n++] = f;
    if (end == std::string_view::npos) return n;
    pos = end + 1;
  }
}

// Splits on runs of blanks.
int split_blanks(std::string_view s, std::string_view* out) {
  int n = 0;
  size_t i = 0;
  while (true) {
    while (i < s.size() && detail::is_blank(s[i])) ++i;
    if (i == s.size()) return n;
    size_t b = i;
    while (i < s.size() && !detail::is_blank(s[i])) ++i;
    if (n == kColumns) return n + 1;
    out[n++] = s.substr(b, i - b);
  }
}

}  // namespace

namespace {

// Digits after the decimal point of a number as printed ("244.95" -> 2, "12" -> 0); -1 when it
// has an exponent, whose last digit's weight is not worth guessing.
int printed_decimals(std::string_view text) {
  if (text.find_first_of("eE") != std::string_view::npos) return -1;
  const auto dot = text.find('.');
  return dot == std::string_view::npos ? 0 : int(text.size() - dot - 1);
}

}  // namespace

double Scenario::tolerance(std::size_t i) const {
  const double opt = problems[i].optimal;
  const double relative = 1e-5 * std::max(1.0, opt);
  const int d = i < optimal_decimals.size() ? optimal_decimals[i] : -1;
  if (d < 0) return relative;
  return std::max(relative, 0.5 * std::pow(10.0, -d));
}

std::string Scenario::tolerance_rule() const {
  int lo = 1 << 30, hi = -1;
  for (int d : optimal_decimals)
    if (d >= 0) lo = std::min(lo, d), hi = std::max(hi, d);
  if (hi < 0) return "1e-5 relative";
  const std::string digits =
      lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
  return "half a unit of the last printed digit (" + digits +
         " decimals), at least 1e-5 relative";
}

Scenario parse_scen(std::string_view text, const std::string& name, bool corners) {
  const int last = corners ? 0 : 1;  // the largest coordinate is width - last
  detail::LineReader in(text);
  std::string_view line;
  Scenario scen;
  bool have_content = false;
  while (in.next(line)) {
    if (detail::all_blank(line)) continue;
    have_content = true;
    std::string_view t = detail::trim(line);
    if (t.substr(0, 7) == "version" && (t.size() == 7 || detail::is_blank(t[7]))) {
      std::string_view v = detail::trim(t.substr(7));
      if (v == "1") {
        scen.dialect = Scenario::Dialect::V1Tabs;
      } else if (v == "1.0") {
        scen.dialect = Scenario::Dialect::V1_0Spaces;
      } else {
        throw InputError(name, in.line_no(),
                         "unsupported scenario version '" + detail::printable(v) +
                             "' (expected 1 or 1.0)");
      }
    } else {
      // The oldest MovingAI scenario files have no version line and the "version 1.0" columns:
      // read them as that dialect (and write them back with a "version 1.0" line).
      scen.dialect = Scenario::Dialect::V1_0Spaces;
      in = detail::LineReader(text);  // re-read this line as a problem
    }
    break;
  }
  if (!have_content)
    throw InputError(name, 0, "empty file: not a MovingAI scenario");

  std::string_view f[kColumns + 1];
  while (in.next(line)) {
    if (detail::all_blank(line)) continue;
    const long ln = in.line_no();
    // Version 1 separates with tabs; a version-1 line without any tab is read like 1.0 (hand
    // edits), trailing blanks are tolerated in both.
    std::string_view body = line;
    while (!body.empty() && detail::is_blank(body.back())) body.remove_suffix(1);
    while (!body.empty() && detail::is_blank(body.front())) body.remove_prefix(1);
    bool tabs = scen.dialect == Scenario::Dialect::V1Tabs && body.find('\t') != std::string_view::npos;
    int n = tabs ? split_tabs(body, f) : split_blanks(body, f);
    if (n != kColumns) {
      throw InputError(name, ln,
                       (n > kColumns ? std::string("more than 9") : std::to_string(n)) +
                           " columns, expected 9 (bucket, map, width, height, start x, start y, "
                           "goal x, goal y, optimal length)" +
                           (scen.dialect == Scenario::Dialect::V1Tabs ? " separated by tabs" : ""));
    }
    ScenProblem p;
    auto get_int = [&](int col, const char* what, long long lo, long long hi) {
      std::string_view s = detail::trim(f[col]);
      auto v = detail::parse_int(s, lo, hi);
      if (!v) {
        throw InputError(name, ln,
                         "column " + std::to_string(col + 1) + " (" + what + "): bad value '" +
                             detail::printable(s) + "' (expected a whole number in " +
                             std::to_string(lo) + ".." + std::to_string(hi) + ")");
      }
      return static_cast<int>(*v);
    };
    p.bucket = get_int(0, "bucket", 0, 1000000000);
    p.map_path = std::string(detail::trim(f[1]));
    if (p.map_path.empty()) throw InputError(name, ln, "column 2 (map): empty map path");
    for (char c : p.map_path)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        throw InputError(name, ln, "column 2 (map): control character " + detail::quote_char(c) + " in the map path");
    p.map_width = get_int(2, "map width", 1, kMaxMapSide);
    p.map_height = get_int(3, "map height", 1, kMaxMapSide);
    p.start_x = get_int(4, "start x", 0, p.map_width - last);
    p.start_y = get_int(5, "start y", 0, p.map_height - last);
    p.goal_x = get_int(6, "goal x", 0, p.map_width - last);
    p.goal_y = get_int(7, "goal y", 0, p.map_height - last);
    std::string_view o = detail::trim(f[8]);
    auto opt = detail::parse_double(o);
    if (!opt || *opt < 0) {
      throw InputError(name, ln,
                       "column 9 (optimal length): bad value '" + detail::printable(o) +
                           "' (expected a finite number >= 0)");
    }
    p.optimal = *opt;
    scen.problems.push_back(std::move(p));
    scen.lines.push_back(ln);
    scen.optimal_decimals.push_back(printed_decimals(o));
  }
  return scen;
}

std::string format_scen(const Scenario& scen) {
  const bool tabs = scen.dialect == Scenario::Dialect::V1Tabs;
  const char sep = tabs ? '\t' : ' ';
  std::string out = tabs ? "version 1\n" : "version 1.0\n";
  for (size_t i = 0; i < scen.problems.size(); ++i) {
    const ScenProblem& p = scen.problems[i];
    // A path that the dialect cannot hold would come back as different columns.
    for (char c : p.map_path) {
      if (c == '\n' || c == '\r' || c == '\t' || (!tabs && detail::is_blank(c)) || c == '\0')
        throw InputError("scenario problem " + std::to_string(i + 1) + ": map path '" +
                         detail::printable(p.map_path) + "' cannot be written in this dialect");
    }
    if (p.map_path.empty() || detail::trim(p.map_path).size() != p.map_path.size())
      throw InputError("scenario problem " + std::to_string(i + 1) +
                       ": map path is empty or starts or ends with blanks");
    out += std::to_string(p.bucket);
    out += sep;
    out += p.map_path;
    for (int v : {p.map_width, p.map_height, p.start_x, p.start_y, p.goal_x, p.goal_y}) {
      out += sep;
      out += std::to_string(v);
    }
    out += sep;
    // Shortest text that reads back exactly: the file's own "3.41421" is written unchanged.
    out += detail::format_double(p.optimal);
    out += '\n';
  }
  return out;
}

Scenario load_scen(const std::string& path, bool corners) {
  return parse_scen(read_file(path), path, corners);
}

void save_scen(const Scenario& scen, const std::string& path) {
  write_file_atomic(path, format_scen(scen));
}

std::string resolve_scen_map(const std::string& scen_path, const ScenProblem& p) {
  // Column 2 is the map's path in the MovingAI repository ("maps/dao/arena.map"), possibly
  // written on Windows: only its last component is meaningful here.
  std::string_view mp = p.map_path;
  size_t cut = mp.find_last_of("/\\");
  std::string_view base = cut == std::string_view::npos ? mp : mp.substr(cut + 1);
  if (base.empty() || base == "." || base == "..")
    throw InputError(scen_path + ": map path '" + detail::printable(mp) + "' names no file");
  std::filesystem::path dir = std::filesystem::path(scen_path).parent_path();
  return (dir / std::string(base)).string();
}

std::string find_scen_map(const Scenario& scen, const std::string& scen_path) {
  if (scen.problems.empty()) throw InputError(scen_path + ": no problems");
  const long line = scen.lines.empty() ? 0 : scen.lines[0];
  const ScenProblem& p = scen.problems[0];
  std::string path;
  try {
    path = resolve_scen_map(scen_path, p);
  } catch (const InputError&) {
    throw InputError(scen_path, line, "column 2 ('" + detail::printable(p.map_path) + "') names no file");
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(scen_path, line,
                     "column 2 names map '" + detail::printable(p.map_path) + "', but " + path +
                         " is not a file (put the map next to the scenario or give --map)");
  return path;
}

void check_scen_against_map(const Scenario& scen, const GridMap& map, const std::string& name,
                            bool corners) {
  const auto inside = [&](int x, int y) {
    return corners ? x >= 0 && y >= 0 && x <= map.width() && y <= map.height() : map.in_bounds(x, y);
  };
  for (size_t i = 0; i < scen.problems.size(); ++i) {
    const ScenProblem& p = scen.problems[i];
    // Lines are known when the scenario was parsed; otherwise the problem's number is given.
    const long ln = i < scen.lines.size() ? scen.lines[i] : 0;
    const std::string who = ln > 0 ? std::string() : "problem " + std::to_string(i + 1) + ": ";
    if (p.map_width != map.width() || p.map_height != map.height()) {
      throw InputError(name, ln,
                       who + "map size " + std::to_string(p.map_width) + "x" +
                           std::to_string(p.map_height) + " does not match the map's " +
                           std::to_string(map.width()) + "x" + std::to_string(map.height()));
    }
    if (!inside(p.start_x, p.start_y))
      throw InputError(name, ln,
                       who + "start (" + std::to_string(p.start_x) + "," + std::to_string(p.start_y) +
                           ") is outside the map" + (corners ? "'s corners" : ""));
    if (!inside(p.goal_x, p.goal_y))
      throw InputError(name, ln,
                       who + "goal (" + std::to_string(p.goal_x) + "," + std::to_string(p.goal_y) +
                           ") is outside the map" + (corners ? "'s corners" : ""));
  }
}

}  // namespace pl

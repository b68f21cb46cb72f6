// The JSON scene file (DESIGN.md section 5). Reading validates every field and reports
// "file:line: json.path: problem"; the line is found by walking the (already validated) text
// again only when something is wrong, so a good file costs one nlohmann parse.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "core/io_detail.hpp"

namespace pl {

namespace {

// Keeps the file's key order in "view" and unknown fields, and writes ours in a fixed order.
using Json = nlohmann::ordered_json;

// nlohmann parses iteratively, but copying and dumping recurse: bound the nesting first.
constexpr int kMaxDepth = 100;
// Most values (numbers, strings, arrays, objects...) a scene file may hold: 2^19, room for
// 100,000 circles besides a maximum-height map, and at most about 46 MB of parsed document
// (see check_depth).
constexpr size_t kMaxJsonValues = size_t(1) << 19;

constexpr std::string_view kBom = "\xEF\xBB\xBF";

long line_at(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  long line = 1;
  for (size_t i = 0; i < pos; ++i) line += text[i] == '\n';
  return line;
}

// One step of a JSON path: an object key or an array index.
struct PathElem {
  std::string key;
  long index = -1;  // >= 0: an array element
};

std::string path_string(const std::vector<PathElem>& path) {
  std::string s;
  for (const auto& e : path) {
    if (e.index >= 0) {
      s += "[" + std::to_string(e.index) + "]";
    } else {
      if (!s.empty()) s += '.';
      s += detail::printable(e.key, 40);
    }
  }
  return s;
}

// Finds where a value of a valid JSON text starts. Used for error messages only.
class Walker {
 public:
  explicit Walker(std::string_view t) : t_(t) {
    if (t_.substr(0, kBom.size()) == kBom) i_ = kBom.size();
  }

  // Offset of the value at `path`, or of its deepest existing ancestor.
  size_t find(const std::vector<PathElem>& path) {
    ws();
    size_t best = i_;
    for (const PathElem& e : path) {
      if (e.index < 0 ? !member(e.key) : !element(e.index)) break;
      best = i_;
    }
    return best;
  }

 private:
  std::string_view t_;
  size_t i_ = 0;

  char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
      ++i_;
  }
  // At '"': returns the string with simple escapes decoded (\u escapes become '\x01', so a
  // key written with them is not found and its parent's line is reported instead).
  std::string str() {
    std::string out;
    ++i_;
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] == '\\' && i_ + 1 < t_.size()) {
        char e = t_[i_ + 1];
        i_ += 2;
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u':
            out += '\x01';
            i_ = std::min(i_ + 4, t_.size());
            break;
          default: out += e;
        }
      } else {
        out += t_[i_++];
      }
    }
    if (i_ < t_.size()) ++i_;
    return out;
  }
  void skip_value(int depth = 0) {
    ws();
    char c = peek();
    if (c == '"') {
      str();
    } else if (c == '{' || c == '[') {
      if (depth > kMaxDepth) {  // cannot happen after the depth check; never recurse deeper
        i_ = t_.size();
        return;
      }
      const char close = c == '{' ? '}' : ']';
      ++i_;
      ws();
      if (peek() == close) {
        ++i_;
        return;
      }
      while (i_ < t_.size()) {
        if (c == '{') {
          ws();
          if (peek() != '"') break;
          str();
          ws();
          if (peek() == ':') ++i_;
        }
        skip_value(depth + 1);
        ws();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        if (peek() == close) ++i_;
        break;
      }
    } else {
      while (i_ < t_.size() && !std::strchr(",]}: \t\r\n", t_[i_])) ++i_;
    }
  }
  // At an object: moves to the value of the last member named `key` (nlohmann keeps the
  // last of duplicates).
  bool member(const std::string& key) {
    if (peek() != '{') return false;
    ++i_;
    size_t found = std::string::npos;
    while (i_ < t_.size()) {
      ws();
      if (peek() != '"') break;
      std::string k = str();
      ws();
      if (peek() == ':') ++i_;
      ws();
      if (k == key) found = i_;
      skip_value();
      ws();
      if (peek() != ',') break;
      ++i_;
    }
    if (found == std::string::npos) return false;
    i_ = found;
    return true;
  }
  bool element(long index) {
    if (peek() != '[') return false;
    ++i_;
    ws();
    if (peek() == ']') return false;
    for (long k = 0; i_ < t_.size(); ++k) {
      ws();
      if (k == index) return true;
      skip_value();
      ws();
      if (peek() != ',') return false;
      ++i_;
    }
    return false;
  }
};

// Rejects nesting deeper than kMaxDepth, and more than kMaxJsonValues values, before nlohmann
// sees the text. A parsed value costs 16 bytes plus, for arrays and objects, a heap block:
// ",[]" is 3 bytes of text and about 88 bytes parsed, so a text of small containers would
// expand some 30x in memory. Counting values bounds the parsed document whatever the text: a
// real scene has a value per map row and a few per circle and agent.
void check_depth(std::string_view text, const std::string& name) {
  int depth = 0;
  bool in_string = false;
  bool opened = false;  // just after '[' or '{': the next token says whether it is empty
  // Values: the root, one after every ',' and the first of every non-empty container.
  size_t values = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (opened && !detail::is_blank(c) && c != '\n') {
      opened = false;
      if (c != ']' && c != '}') ++values;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      opened = true;
      if (++depth > kMaxDepth)
        throw InputError(name, line_at(text, i),
                         "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ',') {
      ++values;
    } else {
      continue;
    }
    if (values > kMaxJsonValues)
      throw ResourceError(name, line_at(text, i),
                          "more than " + std::to_string(kMaxJsonValues) +
                              " JSON values; a scene holds a value per map row and a few per "
                              "circle and agent");
  }
}

std::string json_type(const Json& v) {
  if (v.is_number_integer()) return "an integer";
  if (v.is_number_float()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string dump(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }

class SceneReader {
 public:
  SceneReader(std::string_view text, const std::string& name, const std::string& base_dir)
      : text_(text), name_(name), base_dir_(base_dir) {}

  Scene read();

 private:
  std::string_view text_;
  const std::string& name_;
  std::string base_dir_;
  std::vector<PathElem> path_;
  Palette palette_ = Palette::movingai();

  // Pushes a path step for the lifetime of the scope.
  struct At {
    SceneReader& r;
    At(SceneReader& reader, std::string key) : r(reader) { r.path_.push_back({std::move(key), -1}); }
    At(SceneReader& reader, size_t index) : r(reader) { r.path_.push_back({{}, static_cast<long>(index)}); }
    ~At() { r.path_.pop_back(); }
    At(const At&) = delete;
    At& operator=(const At&) = delete;
  };

  // The line of the value at path_.
  long here() const { return line_at(text_, Walker(text_).find(path_)); }

  [[noreturn]] void fail(const std::string& problem) const {
    const long line = line_at(text_, Walker(text_).find(path_));
    std::string where = path_string(path_);
    throw InputError(name_, line, where.empty() ? problem : where + ": " + problem);
  }

  void need_object(const Json& v) const {
    if (!v.is_object()) fail("expected an object, found " + json_type(v));
  }
  void need_array(const Json& v) const {
    if (!v.is_array()) fail("expected an array, found " + json_type(v));
  }
  // Rejects members we do not know: inside an object a typo must not pass silently.
  void check_keys(const Json& obj, std::initializer_list<std::string_view> known) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = false;
      for (auto k : known) ok = ok || it.key() == k;
      if (!ok) {
        std::string list;
        for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        At at(*this, it.key());
        fail("unknown field (known here: " + list + ")");
      }
    }
  }
  long long get_int(const Json& v, long long lo, long long hi) const {
    const std::string range = " in " + std::to_string(lo) + ".." + std::to_string(hi);
    if (v.is_number_unsigned()) {
      auto u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(hi) || (lo > 0 && u < static_cast<std::uint64_t>(lo)))
        fail("must be a whole number" + range);
      return static_cast<long long>(u);
    }
    if (v.is_number_integer()) {
      auto s = v.get<std::int64_t>();
      if (s < lo || s > hi) fail("must be a whole number" + range);
      return s;
    }
    if (v.is_number_float()) {
      double d = v.get<double>();
      if (std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(lo) &&
          d <= static_cast<double>(hi))
        return static_cast<long long>(d);
      fail("must be a whole number" + range);
    }
    fail("expected a whole number, found " + json_type(v));
  }
  double get_number(const Json& v) const {
    if (!v.is_number()) fail("expected a number, found " + json_type(v));
    double d = v.get<double>();
    if (!std::isfinite(d)) fail("must be finite");
    return d;
  }
  std::string get_string(const Json& v) const {
    if (!v.is_string()) fail("expected a string, found " + json_type(v));
    return v.get<std::string>();
  }
  bool get_bool(const Json& v) const {
    if (!v.is_boolean()) fail("expected true or false, found " + json_type(v));
    return v.get<bool>();
  }
  const Json* find(const Json& obj, const char* key) const {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }
  const Json& require(const Json& obj, const char* key) const {
    const Json* v = find(obj, key);
    if (!v) fail(std::string("missing '") + key + "'");
    return *v;
  }

  void read_version(const Json& root);
  void read_palette(const Json& v);
  void read_map(const Json& v, Scene& scene);
  void read_circles(const Json& v, Scene& scene);
  void read_agents(const Json& v, Scene& scene);
  void read_views(const Json& v, Scene& scene);
  Pose read_pose(const Json& v);
};

void SceneReader::read_version(const Json& root) {
  const Json* v = find(root, "pathlab_scene");
  if (!v) fail("missing \"pathlab_scene\": 1 (not a pathlab scene file?)");
  At at(*this, "pathlab_scene");
  long long version = get_int(*v, 1, std::numeric_limits<int>::max());
  if (version > kSceneVersion) {
    fail("this is a version " + std::to_string(version) +
         " scene file; this pathlab reads versions up to " + std::to_string(kSceneVersion) +
         ": use a newer pathlab");
  }
}

void SceneReader::read_palette(const Json& v) {
  At at(*this, "palette");
  need_array(v);
  if (v.empty() || v.size() > static_cast<size_t>(kMaxTerrains))
    fail("needs 1 to " + std::to_string(kMaxTerrains) + " terrains, found " + std::to_string(v.size()));
  std::vector<Terrain> terrains;
  int owner[256];
  std::fill(std::begin(owner), std::end(owner), -1);
  for (size_t i = 0; i < v.size(); ++i) {
    At at_i(*this, i);
    const Json& t = v[i];
    need_object(t);
    check_keys(t, {"name", "symbol", "aliases", "colour", "cost", "obstacle"});
    Terrain ter;
    {
      At at_n(*this, "name");
      ter.name = get_string(require(t, "name"));
      // Names appear in comma-separated capability lists that are trimmed of spaces.
      if (ter.name.empty() || ter.name.size() > 64) fail("must be 1 to 64 characters");
      for (char c : ter.name)
        if (c == ',' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          fail("must not contain commas or control characters");
      if (ter.name.front() == ' ' || ter.name.back() == ' ') fail("must not start or end with a space");
      for (const auto& other : terrains)
        if (other.name == ter.name) fail("duplicate terrain name '" + detail::printable(ter.name) + "'");
    }
    // A symbol is a .map character: visible ASCII, owned by one terrain only.
    auto claim = [&](char c) {
      auto u = static_cast<unsigned char>(c);
      if (u < 0x21 || u > 0x7e) fail("map characters must be visible ASCII, found " + detail::quote_char(c));
      if (owner[u] == static_cast<int>(i)) fail("character " + detail::quote_char(c) + " given twice");
      if (owner[u] >= 0)
        fail("character " + detail::quote_char(c) + " already belongs to terrain '" +
             detail::printable(terrains[static_cast<size_t>(owner[u])].name) + "'");
      owner[u] = static_cast<int>(i);
    };
    {
      At at_s(*this, "symbol");
      std::string sym = get_string(require(t, "symbol"));
      if (sym.size() != 1) fail("must be exactly one character");
      ter.symbol = sym[0];
      claim(ter.symbol);
    }
    if (const Json* a = find(t, "aliases")) {
      At at_a(*this, "aliases");
      ter.aliases = get_string(*a);
      if (ter.aliases.size() > 94) fail("too many aliases");
      for (char c : ter.aliases) claim(c);
    }
    if (const Json* c = find(t, "colour")) {
      At at_c(*this, "colour");
      need_array(*c);
      if (c->size() != 3) fail("expected [r, g, b]");
      std::uint8_t rgb[3];
      for (size_t k = 0; k < 3; ++k) {
        At at_k(*this, k);
        rgb[k] = static_cast<std::uint8_t>(get_int((*c)[k], 0, 255));
      }
      ter.colour = {rgb[0], rgb[1], rgb[2]};
    } else {
      ter.colour = {128, 128, 128};
    }
    if (const Json* c = find(t, "cost")) {
      At at_c(*this, "cost");
      ter.cost = get_number(*c);
      if (!(ter.cost > 0) || ter.cost > 1e9) fail("must be > 0 and <= 1e9");
    }
    if (const Json* o = find(t, "obstacle")) {
      At at_o(*this, "obstacle");
      ter.obstacle = get_bool(*o);
    }
    terrains.push_back(std::move(ter));
  }
  palette_ = Palette(std::move(terrains));
}

void SceneReader::read_map(const Json& v, Scene& scene) {
  At at(*this, "map");
  need_object(v);
  check_keys(v, {"file", "width", "height", "rows"});
  const Json* file = find(v, "file");
  const Json* width = find(v, "width");
  const Json* height = find(v, "height");
  const Json* rows = find(v, "rows");
  std::optional<int> w, h;
  if (width) {
    At at_w(*this, "width");
    w = static_cast<int>(get_int(*width, 0, kMaxMapSide));
  }
  if (height) {
    At at_h(*this, "height");
    h = static_cast<int>(get_int(*height, 0, kMaxMapSide));
  }

  if (file) {
    At at_f(*this, "file");
    std::string rel = get_string(*file);
    if (rows) fail("give the map either as 'file' or as 'rows', not both");
    if (rel.empty()) fail("empty file name");
    if (rel.find('\0') != std::string::npos) fail("file name contains a NUL byte");
    std::filesystem::path p(rel);
    if (p.is_relative() && !base_dir_.empty()) p = std::filesystem::path(base_dir_) / p;
    try {
      scene.map = load_map(p.string(), palette_);
    } catch (const InputError& e) {
      fail(std::string("cannot load the map: ") + e.what());
    }
    if ((w && *w != scene.map.width()) || (h && *h != scene.map.height())) {
      fail("the map file is " + std::to_string(scene.map.width()) + "x" +
           std::to_string(scene.map.height()) + ", not the width and height given here");
    }
    scene.map_file = rel;
    return;
  }

  if (!w) fail("missing 'width' (or 'file')");
  if (!h) fail("missing 'height' (or 'file')");
  if (!rows) {
    // Only width and height: all ground, the one map not bounded by the input's size.
    check_map_cells(*w, *h, name_, here());
    scene.map = building(name_, "the map (" + std::to_string(*w) + " x " + std::to_string(*h) + ")",
                                 [&] { return GridMap(*w, *h, palette_.default_ground(), palette_); });
    return;
  }
  check_map_cells(*w, *h, name_, here());
  At at_r(*this, "rows");
  need_array(*rows);
  if (rows->size() != static_cast<size_t>(*h))
    fail(std::to_string(rows->size()) + " rows, but the height is " + std::to_string(*h));
  // Every row string was in the input, so the cells are bounded by the input size; the width
  // is not checked against the rows yet, so reserve no more than the input could hold.
  std::vector<TerrainId> cells;
  cells.reserve(std::min(static_cast<size_t>(*w) * static_cast<size_t>(*h), text_.size()));
  for (size_t y = 0; y < rows->size(); ++y) {
    At at_y(*this, y);
    const Json& row = (*rows)[y];
    if (!row.is_string()) fail("expected a string, found " + json_type(row));
    const std::string& s = row.get_ref<const std::string&>();
    if (s.size() != static_cast<size_t>(*w))
      fail("row has " + std::to_string(s.size()) + " characters, the width is " + std::to_string(*w));
    for (size_t x = 0; x < s.size(); ++x) {
      auto t = palette_.find_symbol(s[x]);
      if (!t)
        fail("column " + std::to_string(x + 1) + ": unknown terrain character " + detail::quote_char(s[x]));
      cells.push_back(*t);
    }
  }
  scene.map = GridMap(*w, *h, 0, palette_);
  scene.map.assign(std::move(cells));
}

void SceneReader::read_circles(const Json& v, Scene& scene) {
  At at(*this, "circles");
  need_array(v);
  for (size_t i = 0; i < v.size(); ++i) {
    At at_i(*this, i);
    const Json& c = v[i];
    need_object(c);
    check_keys(c, {"x", "y", "r"});
    Circle circle;
    double* dst[3] = {&circle.x, &circle.y, &circle.r};
    const char* keys[3] = {"x", "y", "r"};
    for (int k = 0; k < 3; ++k) {
      const Json& f = require(c, keys[k]);
      At at_k(*this, keys[k]);
      *dst[k] = get_number(f);
    }
    if (!(circle.r > 0)) {
      At at_r(*this, "r");
      fail("must be > 0");
    }
    scene.circles.push_back(circle);
  }
}

// Farthest a pose may lie from the origin, in map units: 60x the largest map side.
constexpr double kMaxCoordinate = 1e6;

Pose SceneReader::read_pose(const Json& v) {
  need_array(v);
  if (v.size() != 2 && v.size() != 3) fail("expected [x, y] or [x, y, heading]");
  double d[3] = {0, 0, 0};
  for (size_t k = 0; k < v.size(); ++k) {
    At at_k(*this, k);
    d[k] = get_number(v[k]);
  }
  return {d[0], d[1], d[2]};
}

void SceneReader::read_agents(const Json& v, Scene& scene) {
  At at(*this, "agents");
  need_array(v);
  for (size_t i = 0; i < v.size(); ++i) {
    At at_i(*this, i);
    const Json& a = v[i];
    need_object(a);
    check_keys(a, {"name", "size", "capability", "radius", "turning_radius", "can_reverse", "start", "goal"});
    Agent agent;
    if (const Json* f = find(a, "name")) {
      At at_f(*this, "name");
      agent.name = get_string(*f);
    }
    if (const Json* f = find(a, "size")) {
      At at_f(*this, "size");
      if (f->is_number() && f->get<double>() < 1) fail("must be >= 1");
      agent.size = static_cast<int>(get_int(*f, 1, kMaxMapSide));
    }
    if (const Json* f = find(a, "capability")) {
      At at_f(*this, "capability");
      need_array(*f);
      if (f->empty()) fail("must list at least one terrain (leave it out for the default)");
      for (size_t k = 0; k < f->size(); ++k) {
        At at_k(*this, k);
        std::string n = get_string((*f)[k]);
        auto t = palette_.find_name(n);
        if (!t) fail("unknown terrain '" + detail::printable(n) + "'");
        if (palette_[*t].obstacle) fail("terrain '" + detail::printable(n) + "' is a hard obstacle");
        agent.capability |= CapabilityMask(1) << *t;
      }
    }
    for (auto [key, dst] : {std::pair<const char*, double*>{"radius", &agent.radius},
                            {"turning_radius", &agent.turning_radius}}) {
      if (const Json* f = find(a, key)) {
        At at_f(*this, key);
        *dst = get_number(*f);
        if (*dst < 0) fail("must be >= 0");
      }
    }
    if (const Json* f = find(a, "can_reverse")) {
      At at_f(*this, "can_reverse");
      agent.can_reverse = get_bool(*f);
    }
    // Poses may leave the map (continuous planners ignore its border; DESIGN.md's minimal form
    // has such a goal), but not by absurd amounts; headings are angles.
    for (auto [key, dst] : {std::pair<const char*, Pose*>{"start", &agent.start}, {"goal", &agent.goal}}) {
      if (const Json* f = find(a, key)) {
        At at_f(*this, key);
        *dst = read_pose(*f);
        if (!(std::abs(dst->x) <= kMaxCoordinate && std::abs(dst->y) <= kMaxCoordinate))
          fail("position " + detail::format_double(dst->x) + ", " + detail::format_double(dst->y) +
               " is more than " + detail::format_double(kMaxCoordinate) +
               " map units from the origin");
        if (!(std::abs(dst->heading) <= kMaxCoordinate)) fail("heading must be an angle in radians");
      }
    }
    scene.agents.push_back(std::move(agent));
  }
}

void SceneReader::read_views(const Json& v, Scene& scene) {
  At at(*this, "views");
  need_array(v);
  for (size_t i = 0; i < v.size(); ++i) {
    At at_i(*this, i);
    const Json& o = v[i];
    need_object(o);
    check_keys(o, {"planner", "params", "agent"});
    ViewSetup view;
    if (const Json* f = find(o, "planner")) {
      At at_f(*this, "planner");
      view.planner = get_string(*f);
      if (view.planner.empty()) fail("empty planner name");
    }
    if (const Json* f = find(o, "params")) {
      At at_f(*this, "params");
      need_object(*f);
      for (auto it = f->begin(); it != f->end(); ++it) {
        At at_k(*this, it.key());
        const Json& val = it.value();
        // Values are text; the registry checks them against the planner's descriptions.
        if (val.is_string()) view.params[it.key()] = val.get<std::string>();
        else if (val.is_number() || val.is_boolean()) view.params[it.key()] = dump(val);
        else fail("expected a string, number or boolean, found " + json_type(val));
      }
    }
    if (const Json* f = find(o, "agent")) {
      At at_f(*this, "agent");
      long long hi = scene.agents.empty() ? 0 : static_cast<long long>(scene.agents.size()) - 1;
      view.agent = static_cast<int>(get_int(*f, 0, hi));
    }
    scene.views.push_back(std::move(view));
  }
}

Scene SceneReader::read() {
  check_depth(text_, name_);
  Json root;
  try {
    root = building(name_, "the JSON document (" + std::to_string(text_.size()) + " bytes of text)",
                            [&] { return Json::parse(text_.begin(), text_.end()); });
  } catch (const Json::parse_error& e) {
    // nlohmann gives a byte offset (1-based, the byte it stopped at) and a prefixed message.
    std::string msg = e.what();
    size_t p = msg.find("parse error");
    if (p != std::string::npos) {
      size_t colon = msg.find(": ", p);
      if (colon != std::string::npos) msg = msg.substr(colon + 2);
    }
    size_t at = e.byte > 0 ? e.byte - 1 : 0;
    throw InputError(name_, line_at(text_, at), "invalid JSON: " + detail::printable(msg, 160));
  } catch (const Json::exception& e) {
    // Number overflow and the like carry no position.
    std::string msg = e.what();
    size_t p = msg.find("] ");
    if (p != std::string::npos) msg = msg.substr(p + 2);
    throw InputError(name_, 0, "invalid JSON: " + detail::printable(msg, 160));
  }
  if (!root.is_object()) fail("a scene file is a JSON object, found " + json_type(root));
  read_version(root);

  Scene scene;
  if (const Json* p = find(root, "palette")) read_palette(*p);
  read_map(require(root, "map"), scene);
  if (const Json* c = find(root, "circles")) read_circles(*c, scene);
  if (const Json* a = find(root, "agents")) read_agents(*a, scene);
  if (const Json* v = find(root, "views")) read_views(*v, scene);
  if (const Json* v = find(root, "view")) {
    At at(*this, "view");
    need_object(*v);
    scene.view_json = dump(*v);
  }
  for (auto it = root.begin(); it != root.end(); ++it) {
    static constexpr const char* kKnown[] = {"pathlab_scene", "map",   "palette", "circles",
                                             "agents",        "views", "view"};
    bool known = false;
    for (const char* k : kKnown) known = known || it.key() == k;
    // Fields of later minor revisions or other tools: kept verbatim and written back.
    if (!known) scene.unknown_fields[it.key()] = dump(it.value());
  }
  return scene;
}

// ---- writing

void check_finite(double v, const std::string& what) {
  if (!std::isfinite(v)) throw InputError("scene: " + what + " is not a finite number");
}

Json pose_json(const Pose& p, const std::string& what) {
  check_finite(p.x, what);
  check_finite(p.y, what);
  check_finite(p.heading, what);
  return Json::array({p.x, p.y, p.heading});
}

// One line with a space after ':' and ',' (nlohmann's compact form has none).
void compact(const Json& v, std::string& out) {
  if (!v.is_structured() || v.empty()) {
    out += dump(v);
    return;
  }
  out += v.is_object() ? '{' : '[';
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += ", ";
    first = false;
    if (v.is_object()) {
      out += dump(Json(it.key()));
      out += ": ";
    }
    compact(it.value(), out);
  }
  out += v.is_object() ? '}' : ']';
}

// Containers near the top are spread over lines; deeper ones and lists of plain values stay
// on one line, except lists of strings (map rows), which read best one per line.
void pretty(const Json& v, int depth, std::string& out) {
  bool all_strings = v.is_array(), any_structured = false;
  if (v.is_array()) {
    for (const auto& e : v) {
      all_strings = all_strings && e.is_string();
      any_structured = any_structured || e.is_structured();
    }
  }
  const bool expand = !v.empty() && ((v.is_object() && depth <= 1) ||
                                     (v.is_array() && (all_strings || (depth <= 1 && any_structured))));
  if (!expand) {
    compact(v, out);
    return;
  }
  const std::string indent(static_cast<size_t>(2 * (depth + 1)), ' ');
  out += v.is_object() ? "{\n" : "[\n";
  size_t n = 0;
  for (auto it = v.begin(); it != v.end(); ++it, ++n) {
    out += indent;
    if (v.is_object()) {
      out += dump(Json(it.key()));
      out += ": ";
    }
    pretty(it.value(), depth + 1, out);
    if (n + 1 < v.size()) out += ',';
    out += '\n';
  }
  out += std::string(static_cast<size_t>(2 * depth), ' ');
  out += v.is_object() ? '}' : ']';
}

}  // namespace

Scene parse_scene(std::string_view text, const std::string& name, const std::string& base_dir) {
  return SceneReader(text, name, base_dir).read();
}

std::string format_scene(const Scene& scene) {
  const GridMap& map = scene.map;
  const Palette& pal = map.palette();
  Json root = Json::object();
  root["pathlab_scene"] = kSceneVersion;

  Json m = Json::object();
  if (scene.map_file) {
    m["file"] = *scene.map_file;
  } else {
    m["width"] = map.width();
    m["height"] = map.height();
    Json rows = Json::array();
    std::string row;
    for (int y = 0; y < map.height(); ++y) {
      row.clear();
      for (int x = 0; x < map.width(); ++x) row += pal[map.at(x, y)].symbol;
      rows.push_back(row);
    }
    m["rows"] = std::move(rows);
  }
  root["map"] = std::move(m);

  if (!(pal == Palette::movingai())) {
    Json p = Json::array();
    for (const Terrain& t : pal.terrains()) {
      check_finite(t.cost, "terrain cost");
      Json o = Json::object();
      o["name"] = t.name;
      o["symbol"] = std::string(1, t.symbol);
      if (!t.aliases.empty()) o["aliases"] = t.aliases;
      o["colour"] = Json::array({t.colour.r, t.colour.g, t.colour.b});
      o["cost"] = t.cost;
      o["obstacle"] = t.obstacle;
      p.push_back(std::move(o));
    }
    root["palette"] = std::move(p);
  }

  if (!scene.circles.empty()) {
    Json cs = Json::array();
    for (const Circle& c : scene.circles) {
      check_finite(c.x, "circle x");
      check_finite(c.y, "circle y");
      check_finite(c.r, "circle radius");
      cs.push_back(Json{{"x", c.x}, {"y", c.y}, {"r", c.r}});
    }
    root["circles"] = std::move(cs);
  }

  if (!scene.agents.empty()) {
    Json as = Json::array();
    for (const Agent& a : scene.agents) {
      Json o = Json::object();
      o["name"] = a.name;
      o["size"] = a.size;
      if (a.capability) o["capability"] = pal.capability_names(a.capability);
      check_finite(a.radius, "agent radius");
      check_finite(a.turning_radius, "agent turning radius");
      o["radius"] = a.radius;
      o["turning_radius"] = a.turning_radius;
      o["can_reverse"] = a.can_reverse;
      o["start"] = pose_json(a.start, "agent start");
      o["goal"] = pose_json(a.goal, "agent goal");
      as.push_back(std::move(o));
    }
    root["agents"] = std::move(as);
  }

  if (!scene.views.empty()) {
    Json vs = Json::array();
    for (const ViewSetup& v : scene.views) {
      Json o = Json::object();
      o["planner"] = v.planner;
      Json params = Json::object();
      for (const auto& [k, val] : v.params) params[k] = val;
      o["params"] = std::move(params);
      o["agent"] = v.agent;
      vs.push_back(std::move(o));
    }
    root["views"] = std::move(vs);
  }

  auto parse_kept = [](const std::string& text, const std::string& what) {
    Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded()) throw InputError("scene: " + what + " is not valid JSON");
    return j;
  };
  if (!scene.view_json.empty()) root["view"] = parse_kept(scene.view_json, "the view settings");
  for (const auto& [k, text] : scene.unknown_fields) {
    if (root.contains(k)) throw InputError("scene: kept field '" + k + "' clashes with a known field");
    root[k] = parse_kept(text, "kept field '" + k + "'");
  }

  std::string out;
  pretty(root, 0, out);
  out += '\n';
  return out;
}

Scene load_scene(const std::string& path) {
  // An inline map is a byte per cell plus a few a row; anything else a scene holds is small.
  const size_t limit = size_t(std::min<std::uint64_t>(max_map_cells(), std::uint64_t(1) << 32)) * 2 +
                       (size_t(64) << 20);
  return parse_scene(read_file(path, limit), path, detail::parent_dir(path));
}

void save_scene(const Scene& scene, const std::string& path) {
  write_file_atomic(path, format_scene(scene));
}

}  // namespace pl

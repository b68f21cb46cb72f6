#include "core/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace pl {

Palette::Palette(std::vector<Terrain> terrains) : terrains_(std::move(terrains)) {
  if (terrains_.empty() || terrains_.size() > static_cast<size_t>(kMaxTerrains))
    throw InputError("palette: needs 1 to 32 terrains");
  index();
}

void Palette::index() {
  std::fill(std::begin(by_symbol_), std::end(by_symbol_), -1);
  for (size_t i = 0; i < terrains_.size(); ++i) {
    auto set = [&](char c) {
      auto& slot = by_symbol_[static_cast<unsigned char>(c)];
      if (slot < 0) slot = static_cast<std::int16_t>(i);
    };
    set(terrains_[i].symbol);
    for (char c : terrains_[i].aliases) set(c);
  }
}

const Palette& Palette::movingai() {
  static const Palette p({
      {"ground", '.', "G", {222, 214, 190}, 1.0, false},
      {"swamp", 'S', "", {110, 150, 120}, 1.0, false},
      {"trees", 'T', "", {46, 110, 52}, 1.0, false},
      {"water", 'W', "", {64, 120, 200}, 1.0, false},
      {"hard", '@', "O", {30, 30, 34}, 1.0, true},
      // Not a MovingAI terrain: 'R' is a character their maps never use, so every benchmark map
      // reads as before. Last, so the ids of the five above do not move. Pinter's road methods
      // (astar-turns --set road=...) look it up by name.
      {"road", 'R', "", {168, 104, 64}, 1.0, false},
  });
  return p;
}

std::optional<TerrainId> Palette::find_symbol(char c) const {
  if (terrains_.empty()) return std::nullopt;
  auto v = by_symbol_[static_cast<unsigned char>(c)];
  if (v < 0) return std::nullopt;
  return static_cast<TerrainId>(v);
}

std::optional<TerrainId> Palette::find_name(std::string_view name) const {
  for (size_t i = 0; i < terrains_.size(); ++i)
    if (terrains_[i].name == name) return static_cast<TerrainId>(i);
  return std::nullopt;
}

TerrainId Palette::nearest_colour(Rgb c) const {
  long best = std::numeric_limits<long>::max();
  TerrainId best_t = 0;
  for (size_t i = 0; i < terrains_.size(); ++i) {
    const Rgb& p = terrains_[i].colour;
    long dr = long(p.r) - c.r, dg = long(p.g) - c.g, db = long(p.b) - c.b;
    long d = dr * dr + dg * dg + db * db;
    if (d < best) {
      best = d;
      best_t = static_cast<TerrainId>(i);
    }
  }
  return best_t;
}

TerrainId Palette::default_obstacle() const {
  for (size_t i = 0; i < terrains_.size(); ++i)
    if (terrains_[i].obstacle) return static_cast<TerrainId>(i);
  return static_cast<TerrainId>(terrains_.size() - 1);
}

CapabilityMask Palette::all_passable() const {
  CapabilityMask m = 0;
  for (size_t i = 0; i < terrains_.size(); ++i)
    if (!terrains_[i].obstacle) m |= CapabilityMask(1) << i;
  return m;
}

CapabilityMask Palette::movingai_default_capability() const {
  CapabilityMask m = 0;
  for (const char* n : {"ground", "swamp", "road"})
    if (auto t = find_name(n); t && !terrains_[*t].obstacle) m |= CapabilityMask(1) << *t;
  return m ? m : all_passable();
}

CapabilityMask Palette::parse_capability(std::string_view list) const {
  CapabilityMask m = 0;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(pos, end - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) {
      std::optional<TerrainId> t = find_name(item);
      if (!t && item.size() == 1) t = find_symbol(item[0]);
      if (!t) throw InputError("unknown terrain '" + std::string(item) + "' in capability");
      if (terrains_[*t].obstacle)
        throw InputError("terrain '" + std::string(item) + "' is a hard obstacle; no capability includes it");
      m |= CapabilityMask(1) << *t;
    }
    pos = end + 1;
  }
  if (m == 0) throw InputError("empty capability");
  return m;
}

std::vector<std::string> Palette::capability_names(CapabilityMask mask) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < terrains_.size(); ++i)
    if (mask & (CapabilityMask(1) << i)) out.push_back(terrains_[i].name);
  return out;
}

std::string Palette::capability_string(CapabilityMask mask) const {
  std::string s;
  for (auto& n : capability_names(mask)) s += (s.empty() ? "" : ",") + n;
  return s;
}

bool Palette::uniform_costs() const {
  return std::all_of(terrains_.begin(), terrains_.end(),
                     [](const Terrain& t) { return t.obstacle || t.cost == 1.0; });
}

double Palette::min_cost(CapabilityMask mask) const {
  double m = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < terrains_.size(); ++i)
    if (mask & (CapabilityMask(1) << i)) m = std::min(m, terrains_[i].cost);
  return std::isfinite(m) ? m : 1.0;
}

}  // namespace pl

#include "viz/style.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pl {

namespace {

Style make_standard() {
  Style s;
  auto set = [&](auto key, Rgba c, const char* label) { s.entry(StyleKey::of(key)) = {c, label}; };
  // Search state: translucent fills so the terrain stays readable under them.
  set(Role::Open, {70, 190, 230, 150}, "open");
  set(Role::Closed, {240, 130, 80, 140}, "closed (expanded)");
  set(Role::Current, {140, 0, 255, 255}, "current node");
  set(Role::Candidate, {245, 200, 40, 220}, "candidate");
  set(Role::Accepted, {40, 170, 80, 230}, "test passed");
  set(Role::Rejected, {150, 160, 190, 200}, "test failed");
  set(Role::Path, {235, 20, 170, 255}, "path");
  set(Role::AbstractNode, {120, 60, 200, 255}, "abstract node");
  set(Role::AbstractEdge, {140, 110, 210, 170}, "abstract edge");
  set(Role::AbstractPath, {255, 140, 0, 255}, "abstract path");
  set(Role::Cluster, {70, 70, 90, 180}, "cluster");
  set(Role::Entrance, {0, 160, 160, 220}, "entrance");
  set(Role::Transition, {0, 90, 230, 255}, "transition point");
  set(Role::Start, {20, 160, 40, 255}, "start");
  set(Role::Goal, {190, 20, 20, 255}, "goal");
  set(Role::Subgoal, {160, 90, 30, 255}, "subgoal");
  set(Role::Obstacle, {90, 80, 75, 230}, "obstacle");
  set(Role::Highlight, {255, 235, 0, 255}, "highlight");
  set(StyleItem::ParentArrow, {40, 40, 40, 160}, "parent");
  set(StyleItem::ThisFrame, {255, 255, 90, 230}, "new this frame");
  set(StyleItem::OnlyA, {20, 60, 200, 230}, "expanded by A only (/ hatch)");
  set(StyleItem::OnlyB, {0, 100, 50, 230}, "expanded by B only (\\ hatch)");
  set(StyleItem::GridLine, {0, 0, 0, 60}, "grid");
  set(StyleItem::ClearanceLabel, {20, 20, 20, 255}, "clearance");
  set(StyleItem::Agent, {30, 60, 160, 210}, "agent");
  set(StyleItem::TurningCircle, {30, 60, 160, 110}, "turning circle");
  set(StyleItem::Inflation, {90, 80, 75, 110}, "obstacle grown by agent radius");
  return s;
}

}  // namespace

const Style& Style::standard() {
  static const Style s = make_standard();
  return s;
}

Rgba heading_cell_tint(Rgba status) {
  return status.with_alpha(std::uint8_t(status.a / 3));
}

Rgba heading_wedge_colour(Rgba status) {
  return status.with_alpha(std::uint8_t(std::min(255, status.a + 80)));
}

Rgba blocked_cell_colour(const Style& style) {
  return style.colour(Role::Obstacle).with_alpha(110);
}

std::vector<LegendEntry> build_legend(const DrawList& list, const Style& style) {
  std::bitset<kStyleKeyCount> used;
  for (std::size_t l = 0; l < kLayerCount; ++l)
    if (list.enabled(Layer(l))) used |= list.batch(Layer(l)).used;
  std::vector<LegendEntry> out;
  for (std::size_t d = 0; d < kStyleKeyCount; ++d) {
    if (!used[d]) continue;
    const StyleKey k = StyleKey::from_dense(d);
    out.push_back({k, style.entry(k).colour, style.entry(k).label});
  }
  return out;
}

ColourMap::ColourMap(std::span<const Stop> stops) {
  if (stops.size() < 2 || stops.front().t != 0.0 || stops.back().t != 1.0)
    throw std::invalid_argument("ColourMap: stops must run from t = 0 to t = 1");
  std::size_t s = 0;
  for (std::size_t i = 0; i < table_.size(); ++i) {
    const double t = double(i) / double(table_.size() - 1);
    while (s + 2 < stops.size() && t > stops[s + 1].t) ++s;
    const Stop &a = stops[s], &b = stops[s + 1];
    if (!(b.t > a.t)) throw std::invalid_argument("ColourMap: stops must increase in t");
    const double u = std::clamp((t - a.t) / (b.t - a.t), 0.0, 1.0);
    auto mix = [u](std::uint8_t p, std::uint8_t q) {
      return std::uint8_t(std::lround(p + (double(q) - p) * u));
    };
    table_[i] = {mix(a.colour.r, b.colour.r), mix(a.colour.g, b.colour.g),
                 mix(a.colour.b, b.colour.b), mix(a.colour.a, b.colour.a)};
  }
}

const ColourMap& ColourMap::ordered() {
  // Control points picked for a steady rise in lightness with a turn of hue from blue to yellow.
  static const Stop stops[] = {{0.0, {40, 20, 70, 255}},
                               {0.3, {45, 85, 145, 255}},
                               {0.55, {30, 145, 135, 255}},
                               {0.8, {120, 200, 100, 255}},
                               {1.0, {250, 230, 80, 255}}};
  static const ColourMap m(stops);
  return m;
}

const ColourMap& ColourMap::thermal() {
  static const Stop stops[] = {{0.0, {40, 8, 20, 255}},
                               {0.3, {140, 25, 30, 255}},
                               {0.6, {225, 95, 25, 255}},
                               {0.85, {250, 200, 60, 255}},
                               {1.0, {255, 250, 215, 255}}};
  static const ColourMap m(stops);
  return m;
}

Rgba ColourMap::at(double t) const {
  if (!(t > 0)) return table_.front();  // also NaN
  if (t >= 1) return table_.back();
  return table_[std::size_t(std::lround(t * double(table_.size() - 1)))];
}

}  // namespace pl

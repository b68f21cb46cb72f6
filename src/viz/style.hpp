// Colours and words for what the overlays draw: a Style gives every planner Role
// (core/observer.hpp) and every overlay StyleItem (viz/draw.hpp) a colour and a legend label,
// build_legend() lists the entries a DrawList actually used, and ColourMap turns a value in
// [0, 1] into a colour for heat maps (clearance, g values).
//
// The app never picks a colour for a planner-specific thing: planners report roles, the Style
// colours them, so a new planner appears correctly coloured and in the legend without UI code.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "core/observer.hpp"
#include "viz/draw.hpp"
#include "viz/trace.hpp"

namespace pl {

struct StyleEntry {
  Rgba colour;
  std::string label;
};

// A value type: copy the standard style and change entries, e.g. label OnlyA / OnlyB with the
// names of the compared planners.
class Style {
 public:
  // Colours chosen to read on every MovingAI terrain colour; the difference pair is the
  // blue / orange that colour-blind viewers still tell apart.
  static const Style& standard();

  StyleEntry& entry(StyleKey k) { return entries_[k.dense()]; }
  const StyleEntry& entry(StyleKey k) const { return entries_[k.dense()]; }
  Rgba colour(Role r) const { return entry(StyleKey::of(r)).colour; }
  Rgba colour(StyleItem i) const { return entry(StyleKey::of(i)).colour; }
  // Search status shares the Role of the same name: an Open node looks like an Open mark.
  static Role role_of(NodeStatus s) { return s == NodeStatus::Closed ? Role::Closed : Role::Open; }

 private:
  std::array<StyleEntry, kStyleKeyCount> entries_;
};

struct LegendEntry {
  StyleKey key;
  Rgba colour;
  std::string label;
};

// Derived colours for node spaces and blocked cells, one rule for the overlays and the app's
// textures. A CellHeadings cell is tinted faintly in the status colour (closed when any of its
// headings is) and each heading node is a wedge in a more opaque version of it, so both read
// over the tint.
Rgba heading_cell_tint(Rgba status);
Rgba heading_wedge_colour(Rgba status);
// The shade of a cell a planner treated as blocked (Role::Obstacle cell marks): lighter than
// the obstacle colour, so the terrain beneath still shows.
Rgba blocked_cell_colour(const Style& style);

// One entry per key used on any enabled layer of `list`, in key order (roles in Role order,
// then overlay items), so the legend does not reshuffle from frame to frame.
std::vector<LegendEntry> build_legend(const DrawList& list, const Style& style);

// A colour ramp sampled into 256 entries (ready for a 1-D texture).
class ColourMap {
 public:
  struct Stop {
    double t;
    Rgba colour;
  };
  // Stops in increasing t, first at 0 and last at 1; linear in sRGB between stops.
  explicit ColourMap(std::span<const Stop> stops);

  // Perceptually ordered (lightness rises monotonically): indigo, blue, teal, green, yellow.
  // pathlab's own control points, in the spirit of viridis. The default for heat maps.
  static const ColourMap& ordered();
  // Dark red through orange to pale yellow, also with monotone lightness: for a second quantity
  // shown at the same time as the first.
  static const ColourMap& thermal();

  // t is clamped to [0, 1]; NaN gives the low end.
  Rgba at(double t) const;
  const std::array<Rgba, 256>& table() const { return table_; }

 private:
  std::array<Rgba, 256> table_;
};

}  // namespace pl

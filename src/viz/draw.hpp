// The draw vocabulary (DESIGN.md sections 2 and 8): what overlays say when they draw, and a
// batched recording of it. In the spirit of Recast's duDebugDraw, the headless code never knows
// how drawing happens: overlay builders (viz/overlays.hpp) talk to the abstract DrawSink, the app
// implements nothing but uploads a DrawList, and tests inspect the same DrawList.
//
// Units: every position and radius is in MAP units (cell (x, y) spans [x, x+1] x [y, y+1], y
// grows downward); line widths, point sizes, arrow heads and text sizes are in screen PIXELS, so
// a 1 px grid line stays 1 px at any zoom. Angles are radians, 0 = +x (east), growing clockwise on
// screen (toward +y), as everywhere in pathlab.
//
// Layers are drawn bottom to top in enum order; the caller switches each one on or off, and a
// DrawList drops whatever is sent to a layer that is off (builders ask wants() first so they can
// skip the work altogether).
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/geometry.hpp"
#include "core/observer.hpp"
#include "core/terrain.hpp"

namespace pl {

// 8 bits per channel, straight (not premultiplied) alpha.
struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  constexpr bool operator==(const Rgba&) const = default;
  static constexpr Rgba from(Rgb c, std::uint8_t alpha = 255) { return {c.r, c.g, c.b, alpha}; }
  constexpr Rgba with_alpha(std::uint8_t alpha) const { return {r, g, b, alpha}; }
  // Bytes r, g, b, a in memory order on a little-endian machine: what GL_RGBA / GL_UNSIGNED_BYTE
  // and ImGui's IM_COL32 expect, so a renderer can copy colours without reshuffling.
  constexpr std::uint32_t packed() const {
    return std::uint32_t(r) | std::uint32_t(g) << 8 | std::uint32_t(b) << 16 |
           std::uint32_t(a) << 24;
  }
};

enum class Layer : std::uint8_t {
  Terrain,      // the map itself: terrain texture, scene circles, cells planners report blocked
  Clearance,    // clearance heat map and numbers, grid lines
  Search,       // open / closed / current nodes, parent arrows, g heat, difference overlay
  Shapes,       // what planners test() and mark(): lines of sight, entrances, clusters...
  Path,         // the latest path
  Agents,       // footprints, radii, headings, start and goal markers
  ToolPreview,  // what an editing tool would do: brush outline, rubber band
  Count
};
inline constexpr std::size_t kLayerCount = std::size_t(Layer::Count);
const char* layer_name(Layer l);

// Legend items that are not a planner Role: things the overlays themselves introduce.
enum class StyleItem : std::uint8_t {
  ParentArrow,  // node -> parent
  ThisFrame,    // a shape first reported in the frame on screen
  OnlyA,        // difference overlay: expanded by view A only
  OnlyB,        // ... by view B only
  GridLine,
  ClearanceLabel,
  Agent,          // footprint, radius and heading of an agent
  TurningCircle,  // the circles an agent with a turning radius can follow at its start
  Inflation,      // scene circles grown by the agent's radius (what the circles planner avoids)
  Count
};

// One legend entry's identity: a planner Role (search status open / closed / current shares the
// Role of the same name, so "open" means one thing whoever drew it) or an overlay StyleItem.
struct StyleKey {
  enum class Kind : std::uint8_t { Role, Item };
  Kind kind = Kind::Role;
  std::uint8_t index = 0;

  static constexpr StyleKey of(Role r) { return {Kind::Role, std::uint8_t(r)}; }
  static constexpr StyleKey of(StyleItem i) { return {Kind::Item, std::uint8_t(i)}; }
  // Dense number in [0, kStyleKeyCount): roles first, then items.
  constexpr std::size_t dense() const {
    return kind == Kind::Role ? index : std::size_t(Role::Count) + index;
  }
  static constexpr StyleKey from_dense(std::size_t d) {
    return d < std::size_t(Role::Count) ? of(Role(d)) : of(StyleItem(d - std::size_t(Role::Count)));
  }
  constexpr bool operator==(const StyleKey&) const = default;
};
inline constexpr std::size_t kStyleKeyCount =
    std::size_t(Role::Count) + std::size_t(StyleItem::Count);

// An axis-aligned rectangle in map units, e.g. the part of the map a view shows.
struct MapRect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  static MapRect of_map(int width, int height) { return {0, 0, double(width), double(height)}; }
  bool contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
  // Closed-interval overlap: touching counts, so a shape on the border is kept.
  bool overlaps(double ax0, double ay0, double ax1, double ay1) const {
    return ax0 <= x1 && ax1 >= x0 && ay0 <= y1 && ay1 >= y0;
  }
  // Cells count when they share area with the rectangle: a view ending exactly on a cell
  // border does not pull in the next row of cells.
  bool overlaps_cell(int x, int y) const {
    return x + 1.0 > x0 && x < x1 && y + 1.0 > y0 && y < y1;
  }
};

// Which side of a label touches its anchor point. Left: the label's left edge is at the anchor,
// so the text extends to the right of it; Top: the label hangs below the anchor.
enum class TextAnchor : std::uint8_t { Center, Left, Right, Top, Bottom };

// ---- The interface --------------------------------------------------------------------------

class DrawSink {
 public:
  virtual ~DrawSink() = default;

  // Where the following primitives go. Builders set it themselves.
  void set_layer(Layer l) { layer_ = l; }
  Layer layer() const { return layer_; }
  // False when the caller switched `l` off: builders skip their work for it.
  virtual bool wants(Layer /*l*/) const { return true; }

  // A filled axis-aligned rectangle.
  virtual void rect(Vec2 min, Vec2 max, Rgba fill) = 0;
  // A filled triangle (e.g. a heading wedge inside a cell).
  virtual void triangle(Vec2 a, Vec2 b, Vec2 c, Rgba fill) = 0;
  virtual void line(Vec2 a, Vec2 b, Rgba colour, float width_px) = 0;
  // Consecutive points joined by lines; `closed` joins the last point to the first.
  virtual void polyline(std::span<const Vec2> points, Rgba colour, float width_px,
                        bool closed = false);
  // An arc of the circle (centre, radius) from `start` through `sweep` radians (positive =
  // clockwise on screen). |sweep| >= 2 pi is a full circle outline.
  virtual void arc(Vec2 centre, double radius, double start, double sweep, Rgba colour,
                   float width_px) = 0;
  virtual void circle(Vec2 centre, double radius, Rgba colour, float width_px) {
    arc(centre, radius, 0.0, kTwoPi, colour, width_px);
  }
  virtual void disc(Vec2 centre, double radius, Rgba fill) = 0;
  // A shaft from `from` to `to` with a head at `to` whose length is `head_px` pixels.
  virtual void arrow(Vec2 from, Vec2 to, Rgba colour, float width_px, float head_px) = 0;
  // A dot of constant screen size, for things that must stay visible when zoomed out.
  virtual void point(Vec2 p, Rgba colour, float size_px) = 0;
  // size_px = 0: the renderer's default font size.
  virtual void text(Vec2 anchor, std::string_view label, Rgba colour,
                    TextAnchor align = TextAnchor::Center, float size_px = 0) = 0;

  // Records that something drawn on the current layer stands for `key`, so a legend lists it.
  virtual void uses(StyleKey /*key*/) {}

  // Helpers built on the primitives.
  void cell(int x, int y, Rgba fill, double inset = 0) {
    rect({x + inset, y + inset}, {x + 1 - inset, y + 1 - inset}, fill);
  }
  void rect_outline(Vec2 min, Vec2 max, Rgba colour, float width_px);
  void path_piece(const PathPiece& piece, Rgba colour, float width_px);

 private:
  Layer layer_ = Layer::Terrain;
};

// ---- The recording --------------------------------------------------------------------------
// Plain structs of floats and a packed colour, laid out for instanced upload: one buffer per
// vector and layer, one draw call each. Map coordinates fit a float: at 16384 (the largest map
// side) a float still resolves 1/500 of a cell.

struct RectPrim {
  float x0, y0, x1, y1;
  Rgba colour;
};
struct TrianglePrim {
  float x0, y0, x1, y1, x2, y2;
  Rgba colour;
};
struct LinePrim {
  float x0, y0, x1, y1;
  float width_px;
  Rgba colour;
};
// Discs, circle outlines and arcs, so a renderer can draw them all with one distance-field quad
// shader, exact at every zoom. width_px = 0: filled disc (start and sweep then unused).
struct CirclePrim {
  float cx, cy, radius;
  float start, sweep;  // radians, sweep >= 2 pi = whole circle
  float width_px;
  Rgba colour;
  bool filled() const { return width_px == 0; }
};
struct ArrowPrim {
  float x0, y0, x1, y1;  // the head is at (x1, y1)
  float width_px, head_px;
  Rgba colour;
};
struct PointPrim {
  float x, y;
  float size_px;
  Rgba colour;
};
struct TextPrim {
  float x, y;
  std::uint32_t offset, length;  // into DrawBatch::chars
  float size_px;
  Rgba colour;
  TextAnchor anchor;
};

// Everything recorded on one layer. Within a vector, later primitives draw on top; the
// vectors draw in the order listed (rects, then triangles, then lines, ...).
struct DrawBatch {
  std::vector<RectPrim> rects;
  std::vector<TrianglePrim> triangles;
  std::vector<LinePrim> lines;  // polylines and rectangle outlines become lines
  std::vector<CirclePrim> circles;
  std::vector<ArrowPrim> arrows;
  std::vector<PointPrim> points;
  std::vector<TextPrim> texts;
  std::string chars;                 // every label's characters, back to back
  std::bitset<kStyleKeyCount> used;  // legend keys

  std::string_view label(const TextPrim& t) const { return {chars.data() + t.offset, t.length}; }
  std::size_t primitive_count() const {
    return rects.size() + triangles.size() + lines.size() + circles.size() + arrows.size() + points.size() +
           texts.size();
  }
  bool empty() const { return primitive_count() == 0 && used.none(); }
  void clear();
  std::size_t memory_bytes() const;
};

// A DrawSink that records into flat per-layer batches. Reuse one across frames: clear() keeps
// the vectors' capacity, so a steady view allocates nothing.
class DrawList final : public DrawSink {
 public:
  DrawList() { enabled_.fill(true); }

  void enable(Layer l, bool on) { enabled_[std::size_t(l)] = on; }
  bool enabled(Layer l) const { return enabled_[std::size_t(l)]; }
  bool wants(Layer l) const override { return enabled(l); }

  const DrawBatch& batch(Layer l) const { return batches_[std::size_t(l)]; }
  // Empties every layer; layer switches stay as they are.
  void clear();
  std::size_t primitive_count() const;
  std::size_t memory_bytes() const;

  void rect(Vec2 min, Vec2 max, Rgba fill) override;
  void triangle(Vec2 a, Vec2 b, Vec2 c, Rgba fill) override;
  void line(Vec2 a, Vec2 b, Rgba colour, float width_px) override;
  void arc(Vec2 centre, double radius, double start, double sweep, Rgba colour,
           float width_px) override;
  void disc(Vec2 centre, double radius, Rgba fill) override;
  void arrow(Vec2 from, Vec2 to, Rgba colour, float width_px, float head_px) override;
  void point(Vec2 p, Rgba colour, float size_px) override;
  void text(Vec2 anchor, std::string_view label, Rgba colour, TextAnchor align = TextAnchor::Center,
            float size_px = 0) override;
  void uses(StyleKey key) override;

 private:
  // The batch of the current layer, or nullptr when that layer is switched off.
  DrawBatch* target() {
    const std::size_t l = std::size_t(layer());
    return enabled_[l] ? &batches_[l] : nullptr;
  }
  std::array<DrawBatch, kLayerCount> batches_;
  std::array<bool, kLayerCount> enabled_{};
};

}  // namespace pl

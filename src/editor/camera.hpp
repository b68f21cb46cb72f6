// The maths of a map view's camera: where a map point appears in a viewport of pixels and back,
// pan, zoom about the cursor, fit to window, and what part of the map is visible (for culling
// the texture, grid lines, numbers and overlays). No GL here: the renderer turns the same
// numbers into a projection matrix, and tests check the invariants without a display.
//
// Screen coordinates are pixels relative to the viewport's top-left corner, y growing
// downward like ImGui's and like the map's own y, so no axis is flipped between the two.
// The transform is screen = offset + map * zoom, where zoom is pixels per map unit (per cell).
#pragma once

#include <optional>

#include "core/geometry.hpp"
#include "editor/cell.hpp"

namespace pl::editor {

// Axis-aligned rectangle in continuous coordinates: [x0, x1] x [y0, y1].
struct Rect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool operator==(const Rect&) const = default;
};

// Cells [x0, x1) x [y0, y1) (empty when x0 == x1 or y0 == y1).
struct CellRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x0 >= x1 || y0 >= y1; }
  bool operator==(const CellRect&) const = default;
};

class Camera {
 public:
  // Zoom range in pixels per cell: from a 16384-cell map in a small window up to a cell big
  // enough to print its g, h and f.
  static constexpr double kDefaultMinZoom = 1.0 / 128.0;
  static constexpr double kDefaultMaxZoom = 512.0;
  // Factor of one mouse-wheel notch.
  static constexpr double kWheelStep = 1.2;

  Camera() = default;
  Camera(double viewport_width, double viewport_height)
      : width_(viewport_width), height_(viewport_height) {}

  double viewport_width() const { return width_; }
  double viewport_height() const { return height_; }
  // A window resize keeps the map point at the viewport's centre where it was.
  void set_viewport(double width, double height);

  double zoom() const { return zoom_; }
  Vec2 offset() const { return offset_; }  // where map point (0, 0) is on screen
  double min_zoom() const { return min_zoom_; }
  double max_zoom() const { return max_zoom_; }
  // Sets the range (swapped if reversed; both must be > 0) and clamps the current zoom
  // about the viewport centre.
  void set_zoom_limits(double min_zoom, double max_zoom);
  // Sets zoom and offset directly (restoring a saved view, locking two views together);
  // the zoom is clamped.
  void set_view(double zoom, Vec2 offset);

  Vec2 map_to_screen(Vec2 m) const { return offset_ + m * zoom_; }
  Vec2 screen_to_map(Vec2 s) const {
    return {(s.x - offset_.x) / zoom_, (s.y - offset_.y) / zoom_};
  }
  double map_length_to_pixels(double d) const { return d * zoom_; }

  // Moves the picture by `pixels` (a drag moves the map with the mouse).
  void pan(Vec2 pixels) { offset_ = offset_ + pixels; }
  // Multiplies the zoom by `factor` (clamped to the range) keeping the map point under
  // `screen` where it is.
  void zoom_at(Vec2 screen, double factor) { set_zoom_at(screen, zoom_ * factor); }
  void set_zoom_at(Vec2 screen, double zoom);
  // Mouse wheel: `notches` > 0 zooms in by kWheelStep per notch.
  void zoom_wheel(Vec2 screen, double notches);
  // Largest zoom (within the range) showing the whole map_width x map_height map with
  // `margin` pixels free on every side, the map centred.
  void fit(double map_width, double map_height, double margin = 0);
  // Puts a map point at the viewport's centre, zoom unchanged.
  void center_on(Vec2 map_point);

  // The map-unit rectangle the viewport shows (may extend beyond the map).
  Rect visible_map_rect() const;
  // Cells at least partly visible, clipped to a map_width x map_height map.
  CellRect visible_cells(int map_width, int map_height) const;
  // The cell under a screen point, or nothing when it is off the map.
  std::optional<Cell> cell_at(Vec2 screen, int map_width, int map_height) const;

  bool operator==(const Camera&) const = default;

 private:
  double width_ = 1, height_ = 1;
  double zoom_ = 16;
  Vec2 offset_;
  double min_zoom_ = kDefaultMinZoom, max_zoom_ = kDefaultMaxZoom;

  double clamp_zoom(double z) const;
};

}  // namespace pl::editor

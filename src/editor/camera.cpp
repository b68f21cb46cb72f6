#include "editor/camera.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace pl::editor {

double Camera::clamp_zoom(double z) const {
  // A NaN or infinite request (a division by a zero-sized window upstream) keeps the zoom.
  if (!std::isfinite(z) || z <= 0) return zoom_;
  return std::clamp(z, min_zoom_, max_zoom_);
}

void Camera::set_viewport(double width, double height) {
  const Vec2 centre = screen_to_map({width_ / 2, height_ / 2});
  width_ = std::max(width, 1.0);
  height_ = std::max(height, 1.0);
  center_on(centre);
}

void Camera::set_zoom_limits(double min_zoom, double max_zoom) {
  if (!(min_zoom > 0) || !(max_zoom > 0) || !std::isfinite(min_zoom) || !std::isfinite(max_zoom))
    throw std::invalid_argument("zoom limits must be finite and positive");
  if (min_zoom > max_zoom) std::swap(min_zoom, max_zoom);
  min_zoom_ = min_zoom;
  max_zoom_ = max_zoom;
  set_zoom_at({width_ / 2, height_ / 2}, zoom_);
}

void Camera::set_view(double zoom, Vec2 offset) {
  zoom_ = clamp_zoom(zoom);
  offset_ = offset;
}

void Camera::set_zoom_at(Vec2 screen, double zoom) {
  const Vec2 anchor = screen_to_map(screen);
  zoom_ = clamp_zoom(zoom);
  // Solve screen = offset + anchor * zoom for the offset.
  offset_ = screen - anchor * zoom_;
}

void Camera::zoom_wheel(Vec2 screen, double notches) {
  zoom_at(screen, std::pow(kWheelStep, notches));
}

void Camera::fit(double map_width, double map_height, double margin) {
  const double avail_w = std::max(width_ - 2 * margin, 1.0);
  const double avail_h = std::max(height_ - 2 * margin, 1.0);
  if (map_width > 0 && map_height > 0)
    zoom_ = clamp_zoom(std::min(avail_w / map_width, avail_h / map_height));
  center_on({map_width / 2, map_height / 2});
}

void Camera::center_on(Vec2 map_point) {
  offset_ = Vec2{width_ / 2, height_ / 2} - map_point * zoom_;
}

Rect Camera::visible_map_rect() const {
  const Vec2 a = screen_to_map({0, 0}), b = screen_to_map({width_, height_});
  return {a.x, a.y, b.x, b.y};
}

CellRect Camera::visible_cells(int map_width, int map_height) const {
  const Rect r = visible_map_rect();
  // Clamp in double before converting: far off-screen maps give values beyond int.
  auto lo = [](double v, int n) { return int(std::clamp(std::floor(v), 0.0, double(n))); };
  auto hi = [](double v, int n) { return int(std::clamp(std::ceil(v), 0.0, double(n))); };
  CellRect c{lo(r.x0, map_width), lo(r.y0, map_height), hi(r.x1, map_width), hi(r.y1, map_height)};
  if (c.x1 < c.x0) c.x1 = c.x0;
  if (c.y1 < c.y0) c.y1 = c.y0;
  return c;
}

std::optional<Cell> Camera::cell_at(Vec2 screen, int map_width, int map_height) const {
  const Vec2 m = screen_to_map(screen);
  const double fx = std::floor(m.x), fy = std::floor(m.y);
  if (!(fx >= 0 && fy >= 0 && fx < map_width && fy < map_height)) return std::nullopt;
  return Cell{int(fx), int(fy)};
}

}  // namespace pl::editor

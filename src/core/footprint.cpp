// Walkable: per cell row, the x-interval of the swept footprint, then the cells under it.
#include "core/footprint.hpp"

#include <algorithm>
#include <cmath>

namespace pl {
namespace {

struct Range {
  double lo = INFINITY, hi = -INFINITY;
  void add(double a, double b) {
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  }
};

// The part of the segment a-b whose y lies in [y0, y1], as x-range; false when none.
bool segment_x_in_band(Vec2 a, Vec2 b, double y0, double y1, double& xlo, double& xhi) {
  double t0 = 0, t1 = 1;
  const double dy = b.y - a.y;
  if (dy == 0) {
    if (a.y < y0 || a.y > y1) return false;
  } else {
    double ta = (y0 - a.y) / dy, tb = (y1 - a.y) / dy;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  const double xa = a.x + (b.x - a.x) * t0, xb = a.x + (b.x - a.x) * t1;
  xlo = std::min(xa, xb);
  xhi = std::max(xa, xb);
  return true;
}

// x-range of the swept square (half side h) within the band [y0, y1]: the union of the squares
// centred on the segment's points whose y is within h of the band.
bool square_band(Vec2 a, Vec2 b, double h, double y0, double y1, Range& r) {
  double lo, hi;
  if (!segment_x_in_band(a, b, y0 - h, y1 + h, lo, hi)) return false;
  r.add(lo - h, hi + h);
  return true;
}

// A disc of radius R at c within the band.
void disc_band(Vec2 c, double R, double y0, double y1, Range& r) {
  const double yc = std::clamp(c.y, y0, y1), dy = yc - c.y;
  if (std::abs(dy) > R) return;
  const double w = std::sqrt((R - dy) * (R + dy));
  r.add(c.x - w, c.x + w);
}

// The capsule = the two end discs and the rectangle between them (the segment moved by up to R
// along its normal); the rectangle within the band is a convex polygon clipped to the band.
void capsule_band(Vec2 a, Vec2 b, double R, double y0, double y1, Range& r) {
  disc_band(a, R, y0, y1, r);
  disc_band(b, R, y0, y1, r);
  const Vec2 d = b - a;
  const double len = norm(d);
  if (len == 0) return;
  const Vec2 n{-d.y / len * R, d.x / len * R};
  const Vec2 quad[4] = {a + n, b + n, b - n, a - n};
  for (int i = 0; i < 4; ++i) {
    double lo, hi;
    if (segment_x_in_band(quad[i], quad[(i + 1) % 4], y0, y1, lo, hi)) r.add(lo, hi);
  }
}

}  // namespace

bool walkable(int width, int height, const std::function<bool(int, int)>& blocked, Vec2 a, Vec2 b,
              const Footprint& f) {
  if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(b.x) || !std::isfinite(b.y) ||
      !(f.size > 0) || !std::isfinite(f.size))
    return false;
  const bool square = f.shape == Footprint::Shape::Square;
  const double ext = square ? f.size / 2 : f.size;  // reach beyond the segment on every axis
  const double ymin = std::min(a.y, b.y) - ext, ymax = std::max(a.y, b.y) + ext;
  const double xmin = std::min(a.x, b.x) - ext, xmax = std::max(a.x, b.x) + ext;
  // Anything beyond the map's border shares area with an outside (blocked) cell.
  if (xmin < 0 || ymin < 0 || xmax > width || ymax > height) return false;
  // Rows whose open band meets the shape's interior: y < ymax and y + 1 > ymin.
  const int row0 = int(std::floor(ymin)), row1 = int(std::ceil(ymax)) - 1;
  for (int y = row0; y <= row1; ++y) {
    Range r;
    const bool any = square ? square_band(a, b, ext, y, y + 1.0, r)
                            : (capsule_band(a, b, ext, y, y + 1.0, r), r.lo <= r.hi);
    if (!any) continue;
    // Cells whose open span (x, x + 1) meets the open interval (lo, hi).
    const int c0 = std::max(0, int(std::floor(r.lo))),
              c1 = std::min(width - 1, int(std::ceil(r.hi)) - 1);
    for (int x = c0; x <= c1; ++x)
      if (blocked(x, y)) return false;
  }
  return true;
}

bool walkable(const GridMap& map, CapabilityMask capability, Vec2 a, Vec2 b, const Footprint& f) {
  return walkable(
      map.width(), map.height(), [&](int x, int y) { return !map.passable(x, y, capability); }, a,
      b, f);
}

}  // namespace pl

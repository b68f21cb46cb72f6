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

// ---- swept along lines and arcs ------------------------------------------------------------
namespace pl {
namespace {

constexpr double kSlack = 1e-12;  // overlap deeper than this counts (validate uses 1e-9)

double dist_point_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double l2 = dot(d, d);
  double t = l2 > 0 ? dot(p - a, d) / l2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return distance(p, a + d * t);
}

// Liang-Barsky: the parameter range of a-b inside the closed box; false when none.
bool clip_box(Vec2 a, Vec2 b, double x0, double y0, double x1, double y1, double& t0, double& t1) {
  t0 = 0;
  t1 = 1;
  const double d[2] = {b.x - a.x, b.y - a.y}, s[2] = {a.x, a.y}, lo[2] = {x0, y0}, hi[2] = {x1, y1};
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0) {
      if (s[k] < lo[k] || s[k] > hi[k]) return false;
      continue;
    }
    double ta = (lo[k] - s[k]) / d[k], tb = (hi[k] - s[k]) / d[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

double dist_segment_box(Vec2 a, Vec2 b, double x0, double y0, double x1, double y1) {
  double t0, t1;
  if (clip_box(a, b, x0, y0, x1, y1, t0, t1)) return 0;
  const Vec2 c[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  double best = INFINITY;
  for (int i = 0; i < 4; ++i) {
    const Vec2 p = c[i], q = c[(i + 1) % 4];
    best = std::min({best, dist_point_segment(p, a, b), dist_point_segment(q, a, b),
                     dist_point_segment(a, p, q), dist_point_segment(b, p, q)});
  }
  return best;
}

double dist_point_arc(Vec2 p, const Arc& arc) {
  const Vec2 v = p - arc.center;
  const double d = norm(v);
  if (d > 0 && arc.contains_angle(std::atan2(v.y, v.x))) return std::abs(d - arc.radius);
  if (d == 0) return arc.radius;
  return std::min(distance(p, arc.start()), distance(p, arc.end()));
}

// Distance between an arc and the segment p-q: the minimum is at an endpoint of either, at the
// foot of the perpendicular from the centre (outside the circle), or zero at a crossing.
double dist_arc_segment(const Arc& arc, Vec2 p, Vec2 q) {
  double best = std::min({dist_point_arc(p, arc), dist_point_arc(q, arc),
                          dist_point_segment(arc.start(), p, q), dist_point_segment(arc.end(), p, q)});
  const Vec2 d = q - p;
  const double l2 = dot(d, d);
  if (l2 == 0) return best;
  const Vec2 f = p - arc.center;
  const double t = -dot(f, d) / l2;
  if (t >= 0 && t <= 1) {
    const Vec2 foot = p + d * t, v = foot - arc.center;
    const double dn = norm(v);
    if (dn > arc.radius && arc.contains_angle(std::atan2(v.y, v.x)))
      best = std::min(best, dn - arc.radius);
  }
  // Crossings of the circle with the segment.
  const double b = 2 * dot(f, d), c = dot(f, f) - arc.radius * arc.radius;
  const double disc = b * b - 4 * l2 * c;
  if (disc >= 0) {
    const double s = std::sqrt(disc);
    for (double u : {(-b - s) / (2 * l2), (-b + s) / (2 * l2)}) {
      if (u < 0 || u > 1) continue;
      const Vec2 x = p + d * u - arc.center;
      if (arc.contains_angle(std::atan2(x.y, x.x))) return 0;
    }
  }
  return best;
}

double dist_arc_box(const Arc& arc, double x0, double y0, double x1, double y1) {
  const Vec2 s = arc.start();
  if (s.x >= x0 && s.x <= x1 && s.y >= y0 && s.y <= y1) return 0;
  const Vec2 c[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  double best = INFINITY;
  for (int i = 0; i < 4; ++i) best = std::min(best, dist_arc_segment(arc, c[i], c[(i + 1) % 4]));
  return best;
}

// The arc meets the box: an endpoint inside (closed) or a crossing of an edge within its span.
bool arc_meets_box(const Arc& arc, double x0, double y0, double x1, double y1) {
  for (Vec2 p : {arc.start(), arc.end()})
    if (p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1) return true;
  const double r = arc.radius;
  for (double x : {x0, x1}) {
    const double v = (x - arc.center.x) / r;
    if (v < -1 || v > 1) continue;
    const double a = std::acos(v);
    for (double ang : {a, -a}) {
      const double y = arc.center.y + r * std::sin(ang);
      if (y >= y0 && y <= y1 && arc.contains_angle(ang)) return true;
    }
  }
  for (double y : {y0, y1}) {
    const double v = (y - arc.center.y) / r;
    if (v < -1 || v > 1) continue;
    const double a = std::asin(v);
    for (double ang : {a, kPi - a}) {
      const double x = arc.center.x + r * std::cos(ang);
      if (x >= x0 && x <= x1 && arc.contains_angle(ang)) return true;
    }
  }
  return false;
}

}  // namespace

bool piece_overlaps_cell(const PathPiece& p, const Footprint& f, int x, int y) {
  const double x0 = x, y0 = y, x1 = x + 1.0, y1 = y + 1.0;
  if (f.shape == Footprint::Shape::Disc) {
    const double d = p.kind == PathPiece::Kind::Line ? dist_segment_box(p.line.a, p.line.b, x0, y0, x1, y1)
                                                     : dist_arc_box(p.arc, x0, y0, x1, y1);
    return d < f.size - kSlack;
  }
  const double h = f.size / 2 - kSlack;
  if (p.kind == PathPiece::Kind::Line) {
    double t0, t1;
    if (!clip_box(p.line.a, p.line.b, x0 - h, y0 - h, x1 + h, y1 + h, t0, t1)) return false;
    // A chord of a convex box meets its interior iff its middle does.
    const Vec2 m = p.line.a + (p.line.b - p.line.a) * (0.5 * (t0 + t1));
    return m.x > x0 - h && m.x < x1 + h && m.y > y0 - h && m.y < y1 + h;
  }
  return arc_meets_box(p.arc, x0 - h, y0 - h, x1 + h, y1 + h);
}

std::vector<CellXY> swept_cells(std::span<const PathPiece> pieces, const Footprint& f) {
  std::vector<CellXY> out;
  const double reach = f.shape == Footprint::Shape::Disc ? f.size : f.size / 2;
  for (const PathPiece& p : pieces) {
    // The piece's bounds (an arc: its endpoints and the axis extremes it passes), grown by the
    // footprint's reach: no cell outside them can be overlapped.
    double bx0, by0, bx1, by1;
    if (p.kind == PathPiece::Kind::Line) {
      bx0 = std::min(p.line.a.x, p.line.b.x);
      bx1 = std::max(p.line.a.x, p.line.b.x);
      by0 = std::min(p.line.a.y, p.line.b.y);
      by1 = std::max(p.line.a.y, p.line.b.y);
    } else {
      const Vec2 a = p.arc.start(), b = p.arc.end();
      bx0 = std::min(a.x, b.x);
      bx1 = std::max(a.x, b.x);
      by0 = std::min(a.y, b.y);
      by1 = std::max(a.y, b.y);
      for (int q = 0; q < 4; ++q) {
        const double ang = q * (kPi / 2);
        if (!p.arc.contains_angle(ang)) continue;
        const Vec2 e = p.arc.point_at(ang);
        bx0 = std::min(bx0, e.x);
        bx1 = std::max(bx1, e.x);
        by0 = std::min(by0, e.y);
        by1 = std::max(by1, e.y);
      }
    }
    const int cx0 = int(std::floor(bx0 - reach)), cx1 = int(std::floor(bx1 + reach));
    const int cy0 = int(std::floor(by0 - reach)), cy1 = int(std::floor(by1 + reach));
    for (int y = cy0; y <= cy1; ++y)
      for (int x = cx0; x <= cx1; ++x)
        if (piece_overlaps_cell(p, f, x, y)) out.push_back({x, y});
  }
  std::sort(out.begin(), out.end(),
            [](CellXY a, CellXY b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace pl

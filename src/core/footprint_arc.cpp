// Arcs as chords with grown footprints (see footprint_arc.hpp for why this never misses a cell).
#include "core/footprint_arc.hpp"

#include <algorithm>
#include <cmath>

namespace pl {

int arc_chords(double radius, double sweep, double tolerance) {
  const double a = std::abs(sweep);
  if (!(radius > 0) || !(a > 0) || !std::isfinite(radius) || !std::isfinite(a)) return 1;
  // Sagitta of a chord subtending angle t: r (1 - cos(t/2)) <= tol  <=>  t <= 2 acos(1 - tol/r);
  // and at most a quarter turn per chord so every chord subtends well under pi.
  const double ratio = std::clamp(1.0 - tolerance / radius, -1.0, 1.0);
  const double tmax = std::min(kPi / 2, 2.0 * std::acos(ratio));
  if (!(tmax > 0)) return 1 << 20;
  const double n = std::ceil(a / tmax);
  return int(std::clamp(n, 1.0, double(1 << 20)));
}

bool arc_walkable(int width, int height, const std::function<bool(int, int)>& blocked,
                  const Arc& arc, const Footprint& f, double tolerance) {
  if (!std::isfinite(arc.radius) || !std::isfinite(arc.sweep) || !std::isfinite(arc.start_angle) ||
      !(arc.radius > 0) || !(tolerance > 0))
    return false;
  const int n = arc_chords(arc.radius, arc.sweep, tolerance);
  const double step = arc.sweep / n;
  const double sagitta = arc.radius * (1.0 - std::cos(std::abs(step) / 2));
  Footprint grown = f;
  grown.size = f.shape == Footprint::Shape::Square ? f.size + 2 * sagitta : f.size + sagitta;
  Vec2 a = arc.start();
  for (int i = 1; i <= n; ++i) {
    const Vec2 b = i == n ? arc.end() : arc.point_at(arc.start_angle + step * i);
    if (!walkable(width, height, blocked, a, b, grown)) return false;
    a = b;
  }
  return true;
}

bool piece_walkable(int width, int height, const std::function<bool(int, int)>& blocked,
                    const PathPiece& piece, const Footprint& f, double tolerance) {
  if (piece.kind == PathPiece::Kind::Line)
    return walkable(width, height, blocked, piece.line.a, piece.line.b, f);
  return arc_walkable(width, height, blocked, piece.arc, f, tolerance);
}

}  // namespace pl

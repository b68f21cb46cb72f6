#include "core/path_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pl {
namespace {

// Whether the segment a-b meets the open box (x0, x1) x (y0, y1) (Liang-Barsky, shrunk by a
// tolerance so touching an edge or a corner is not an overlap).
bool meets_open_box(Vec2 a, Vec2 b, double x0, double x1, double y0, double y1) {
  constexpr double kEps = 1e-9;
  x0 += kEps, y0 += kEps, x1 -= kEps, y1 -= kEps;
  double t0 = 0, t1 = 1;
  const Vec2 d = b - a;
  auto clip = [&](double p, double q) {  // p * t <= q
    if (p == 0) return q >= 0;
    const double t = q / p;
    if (p < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    return t0 <= t1;
  };
  return clip(-d.x, a.x - x0) && clip(d.x, x1 - a.x) && clip(-d.y, a.y - y0) && clip(d.y, y1 - a.y);
}

std::string point_text(Vec2 p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.4g,%.4g)", p.x, p.y);
  return buf;
}

// The first cell the footprint overlaps along a-b that the agent may not enter.
std::string segment_problem(const GridMap& map, CapabilityMask cap, int size, Vec2 a, Vec2 b, std::size_t step) {
  // The footprint's upper-left corner moves from ca to cb; cell (i, j) is overlapped when the
  // corner lies in the open box (i - size, i + 1) x (j - size, j + 1).
  const Vec2 ca{a.x - 0.5, a.y - 0.5}, cb{b.x - 0.5, b.y - 0.5};
  const double s = size;
  const int i0 = int(std::floor(std::min(ca.x, cb.x))), i1 = int(std::ceil(std::max(ca.x, cb.x) + s)) - 1;
  const int j0 = int(std::floor(std::min(ca.y, cb.y))), j1 = int(std::ceil(std::max(ca.y, cb.y) + s)) - 1;
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      if (!meets_open_box(ca, cb, i - s, i + 1.0, j - s, j + 1.0)) continue;
      if (map.passable(i, j, cap)) continue;
      char buf[96];
      const std::string what = map.in_bounds(i, j)
                                   ? "'" + map.palette()[map.at(i, j)].name + "' is outside the agent's capability"
                                   : std::string("is outside the map");
      std::snprintf(buf, sizeof buf, "cell (%d,%d) ", i, j);
      char tail[64];
      std::snprintf(tail, sizeof tail, " (size %d, step %zu from ", size, step);
      return buf + what + tail + point_text(a) + " to " + point_text(b) + ")";
    }
  return {};
}

}  // namespace

std::string path_problem(const GridMap& map, CapabilityMask cap, int size, const std::vector<Vec2>& points) {
  size = std::max(size, 1);
  if (points.size() == 1) return segment_problem(map, cap, size, points[0], points[0], 0);
  for (std::size_t k = 1; k < points.size(); ++k)
    if (std::string p = segment_problem(map, cap, size, points[k - 1], points[k], k); !p.empty()) return p;
  return {};
}

std::string path_problem(const GridMap& map, CapabilityMask cap, int size, const std::vector<PathPiece>& pieces) {
  std::vector<Vec2> points;
  for (const PathPiece& piece : pieces) {
    if (piece.kind == PathPiece::Kind::Line) {
      if (points.empty()) points.push_back(piece.line.a);
      points.push_back(piece.line.b);
      continue;
    }
    const Arc& arc = piece.arc;
    // Chords within 0.01 of the arc: sagitta r (1 - cos(h / 2)) <= 0.01.
    const double h = arc.radius > 0.01 ? 2 * std::acos(1 - 0.01 / arc.radius) : kPi / 2;
    const int n = std::clamp(int(std::ceil(std::abs(arc.sweep) / h)), 1, 100000);
    if (points.empty()) points.push_back(arc.start());
    for (int k = 1; k <= n; ++k) points.push_back(arc.point_at(arc.start_angle + arc.sweep * k / n));
  }
  return path_problem(map, cap, size, points);
}

}  // namespace pl

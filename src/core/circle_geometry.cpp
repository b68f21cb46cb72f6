#include "core/circle_geometry.hpp"

namespace pl {

namespace {

// acos with its argument clamped: callers have already excluded the cases where the true value
// is outside [-1, 1], so only rounding can push it over.
double safe_acos(double x) {
  return std::acos(std::clamp(x, -1.0, 1.0));
}

}  // namespace

Bitangents bitangents(const Circle& a, const Circle& b, unsigned slots) {
  Bitangents out;
  const Vec2 ca = a.center(), cb = b.center();
  const double d = distance(ca, cb);
  if (d <= std::abs(a.r - b.r) + kCircleEps) return out;  // one contains the other: none
  const double phi = std::atan2(cb.y - ca.y, cb.x - ca.x);

  // External: the normal n at both touching points satisfies n . (B - A) = rA - rB.
  const double te = slots & 3u ? safe_acos((a.r - b.r) / d) : 0.0;
  for (int s = 0; s < 2; ++s) {
    if (!(slots >> s & 1u)) continue;
    const double ang = s == 0 ? phi + te : phi - te;
    const Vec2 n = unit(ang);
    Bitangent& t = out.t[size_t(s)];
    t.a = ca + n * a.r;
    t.b = cb + n * b.r;
    t.angle_a = t.angle_b = normalize_angle(ang);
    // cross(n, b - a) = -d sin(theta) for slot 0: travel a -> b turns with decreasing angle.
    t.dir_a = t.dir_b = s == 0 ? -1 : 1;
    out.ok[size_t(s)] = true;
  }

  // Internal: n . (B - A) = rA + rB, B touched at -n. Touching or overlapping circles have none.
  if (d > a.r + b.r + kCircleEps && (slots & 12u)) {
    const double ti = safe_acos((a.r + b.r) / d);
    for (int s = 0; s < 2; ++s) {
      if (!(slots >> (2 + s) & 1u)) continue;
      const double ang = s == 0 ? phi + ti : phi - ti;
      const Vec2 n = unit(ang);
      Bitangent& t = out.t[size_t(2 + s)];
      t.a = ca + n * a.r;
      t.b = cb - n * b.r;
      t.angle_a = normalize_angle(ang);
      t.angle_b = normalize_angle(ang + kPi);
      t.dir_a = s == 0 ? -1 : 1;
      t.dir_b = -t.dir_a;
      out.ok[size_t(2 + s)] = true;
    }
  }
  return out;
}

int point_tangents(Vec2 p, const Circle& c, std::array<PointTangent, 2>& out) {
  const Vec2 cc = c.center();
  const double d = distance(p, cc);
  if (d < c.r - kCircleEps) return 0;
  // p on the circle (or within the tolerance): both tangents touch at p's own direction. A point
  // at the centre of a zero-radius circle has no direction; east is as good as any.
  const double psi = d > 0 ? std::atan2(p.y - cc.y, p.x - cc.x) : 0.0;
  const double alpha = d <= c.r + kCircleEps ? 0.0 : safe_acos(c.r / d);
  for (int s = 0; s < 2; ++s) {
    const double ang = normalize_angle(s == 0 ? psi + alpha : psi - alpha);
    out[size_t(s)] = {cc + unit(ang) * c.r, ang, s == 0 ? 1 : -1};
  }
  return 2;
}

SegmentDistance segment_point_distance(Vec2 a, Vec2 b, Vec2 c) {
  const Vec2 ab = b - a;
  const double len2 = dot(ab, ab);
  const double u = len2 > 0 ? std::clamp(dot(c - a, ab) / len2, 0.0, 1.0) : 0.0;
  const Vec2 e = a + ab * u;
  return {distance(e, c), u, e};
}

int circle_intersections(const Circle& a, const Circle& b, std::array<Vec2, 2>& out) {
  const Vec2 ca = a.center(), cb = b.center();
  const double d = distance(ca, cb);
  if (d > a.r + b.r + kCircleEps) return 0;            // apart
  if (d < std::abs(a.r - b.r) - kCircleEps) return 0;  // one inside the other
  if (d <= kCircleEps) return 0;  // concentric: coincident or nested, no single points
  const double phi = std::atan2(cb.y - ca.y, cb.x - ca.x);
  // Distance from a's centre to the radical line, then the angle to the points from there.
  const double along = (a.r * a.r - b.r * b.r + d * d) / (2 * d);
  const double theta = a.r > 0 ? safe_acos(along / a.r) : 0.0;
  out[0] = ca + unit(phi + theta) * a.r;
  out[1] = ca + unit(phi - theta) * a.r;
  const bool tangent =
      std::abs(d - (a.r + b.r)) <= kCircleEps || std::abs(d - std::abs(a.r - b.r)) <= kCircleEps;
  return tangent ? 1 : 2;
}

double sweep_between(double from, double to, int dir) {
  double s = normalize_angle(dir >= 0 ? to - from : from - to);
  if (s > kTwoPi - kAngleEps) s = 0;
  return dir >= 0 ? s : -s;
}

ArcDistance arc_point_distance(const Arc& arc, Vec2 p) {
  const Vec2 v = p - arc.center;
  const double dc = norm(v);
  ArcDistance out;
  if (dc > 0) {
    const double toward = std::atan2(v.y, v.x);
    // Interior when the direction of p lies strictly between the arc's ends.
    const double rel =
        normalize_angle(arc.sweep >= 0 ? toward - arc.start_angle : arc.start_angle - toward);
    const double span = std::abs(arc.sweep);
    if (rel > kAngleEps && rel < span - kAngleEps) {
      out.distance = std::abs(dc - arc.radius);
      out.angle = arc.start_angle + (arc.sweep >= 0 ? rel : -rel);
      out.interior = true;
      return out;
    }
  }
  const double d0 = distance(arc.start(), p), d1 = distance(arc.end(), p);
  out.distance = std::min(d0, d1);
  out.angle = d0 <= d1 ? arc.start_angle : arc.end_angle();
  return out;
}

bool arc_blocked_by(const Arc& arc, const Circle& c) {
  const ArcDistance ad = arc_point_distance(arc, c.center());
  if (ad.distance < c.r - kCircleEps) return true;
  return ad.interior && ad.distance <= c.r + kCircleEps;
}

std::vector<Vec2> sample_arc(const Arc& arc, double max_step) {
  const double len = arc.length();
  const int n = std::max(1, int(std::ceil(len / std::max(max_step, 1e-9))));
  std::vector<Vec2> out;
  out.reserve(size_t(n) + 1);
  for (int i = 0; i <= n; ++i) out.push_back(arc.point_at(arc.start_angle + arc.sweep * i / n));
  return out;
}

}  // namespace pl

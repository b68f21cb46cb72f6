// Geometry of circles, shared by the planner among circles and by later continuous planners:
// bitangents of two circles (Red Blob Games, "circular obstacle pathfinding"), tangents from a
// point, segment-circle distance with the clamped u, circle-circle intersections, and arcs with
// a direction. Every function handles the touching, overlapping and containing cases before it
// takes an arccosine, so no argument ever leaves [-1, 1].
//
// Conventions (DESIGN.md section 4): y grows down, angles are atan2(y, x) in map units, so an
// increasing angle turns clockwise on screen. A direction `dir` of +1 means travelling around a
// circle with increasing angle (a positive pl::Arc sweep, clockwise on screen), -1 the opposite.
#pragma once

#include <array>
#include <vector>

#include "core/geometry.hpp"
#include "core/scene.hpp"

namespace pl {

// Absolute tolerance (map units) under which two circles count as touching, a point as lying on
// a circle, and a segment as grazing one. Maps are at most 16384 units wide, where a double
// still resolves about 4e-12.
inline constexpr double kCircleEps = 1e-9;
// Angles closer than this count as equal (a sweep this close to 2 pi is a zero sweep).
inline constexpr double kAngleEps = 1e-12;

inline Vec2 unit(double angle) {
  return {std::cos(angle), std::sin(angle)};
}
inline double angle_of(Vec2 v) {
  return normalize_angle(std::atan2(v.y, v.x));
}

// ---- Bitangents ------------------------------------------------------------------------------

// One bitangent from circle A to circle B: the segment a -> b touches A at a and B at b.
// angle_a / angle_b are the directions of a and b seen from the centres (in [0, 2 pi)); dir_a is
// the direction of travel around A of a path that leaves A along the segment (and -dir_a for one
// that arrives at A along it from B); dir_b is the direction around B of a path that arrives at
// B along the segment.
struct Bitangent {
  Vec2 a, b;
  double angle_a = 0, angle_b = 0;
  int dir_a = 1, dir_b = 1;
  double length() const { return distance(a, b); }
};

// The four bitangents of A and B, indexed: 0, 1 external (touch both circles on the same side,
// dir_a == dir_b), 2, 3 internal (cross between them, dir_a == -dir_b). `ok[i]` is false when
// bitangent i does not exist:
//   - internal ones exist only when the circles are apart by more than kCircleEps (touching
//     circles are a closed wall, so no path squeezes through their contact point);
//   - external ones exist unless one circle contains the other (d <= |rA - rB| + kCircleEps),
//     coincident circles included.
// With phi the direction from A's centre to B's: slot 0 touches both circles at phi + theta and
// slot 1 at phi - theta (theta = acos((rA - rB) / d)); slot 2 touches A at phi + theta' and B
// opposite, slot 3 at phi - theta' (theta' = acos((rA + rB) / d)). Slots depend on the order of
// the two circles: callers that name an edge by (pair, slot) pass the pair in a fixed order.
struct Bitangents {
  std::array<Bitangent, 4> t;
  std::array<bool, 4> ok{};
};
// `slots` (bit i = slot i) names the slots wanted; the others are left out (ok false) and cost
// nothing. A slot computed is the same, bit for bit, whichever others are asked for.
Bitangents bitangents(const Circle& a, const Circle& b, unsigned slots = 0x0F);

// ---- Tangents from a point -------------------------------------------------------------------

// A tangent from point p to a circle, touching it at `point` (direction `angle` from the centre).
// `dir` is the direction around the circle of a path that arrives there from p; a path that
// leaves the circle there toward p travels in -dir.
struct PointTangent {
  Vec2 point;
  double angle = 0;
  int dir = 1;
};
// 0 tangents when p is inside the circle (by more than kCircleEps); when p lies on the circle
// (within kCircleEps) both tangents touch at p's own direction, one for each dir; otherwise 2.
// Element 0 has dir +1, element 1 dir -1.
int point_tangents(Vec2 p, const Circle& c, std::array<PointTangent, 2>& out);

// ---- Segments --------------------------------------------------------------------------------

struct SegmentDistance {
  double distance = 0;
  double u = 0;  // where the perpendicular from the point meets the segment, clamped to [0, 1]
  Vec2 closest;  // a + u (b - a)
};
// Distance from c to segment ab. u is clamped so that a circle off the end of the segment that
// covers an endpoint still counts (the overlapping-circles case of the article). a == b is a
// point.
SegmentDistance segment_point_distance(Vec2 a, Vec2 b, Vec2 c);

// True when the open disc of `c` comes closer to segment ab than its radius by more than
// kCircleEps, i.e. the segment enters the circle's interior.
inline bool segment_enters_circle(Vec2 a, Vec2 b, const Circle& c) {
  return segment_point_distance(a, b, c.center()).distance < c.r - kCircleEps;
}

// ---- Circle-circle intersections -------------------------------------------------------------

// Points where the boundaries of a and b meet: 0 when they are apart, one contains the other or
// they coincide; 1 when they touch (within kCircleEps); 2 otherwise. out[0] lies at the positive
// angle offset (clockwise on screen) from the a -> b direction, seen from a's centre.
int circle_intersections(const Circle& a, const Circle& b, std::array<Vec2, 2>& out);

// ---- Arcs ------------------------------------------------------------------------------------

// The sweep (signed by dir) that takes angle `from` to angle `to` travelling in dir, in
// (-2 pi, 2 pi); sweeps within kAngleEps of a full turn are zero (the two angles are one).
double sweep_between(double from, double to, int dir);

// The arc on circle c from angle `from` to angle `to` travelling in dir.
inline Arc arc_between(const Circle& c, double from, double to, int dir) {
  return Arc{c.center(), c.r, from, sweep_between(from, to, dir)};
}

// Smallest distance from point p to the points of the arc, and the angle (on the arc's circle)
// where it is reached. The distance to a circle's point grows with the angle away from the
// direction of p, so the nearest point is that direction when the arc contains it, else an end.
struct ArcDistance {
  double distance = 0;
  double angle = 0;
  bool interior = false;  // reached strictly inside the arc, not at an end
};
ArcDistance arc_point_distance(const Arc& arc, Vec2 p);

// True when the arc enters circle c's interior, or passes through a point where its own circle
// touches c (inside the arc, not at an end): a path hugging the arc would squeeze through a
// contact point of zero width.
bool arc_blocked_by(const Arc& arc, const Circle& c);

// Points along the arc, its start and end included, at most max_step apart (map units).
std::vector<Vec2> sample_arc(const Arc& arc, double max_step);

}  // namespace pl

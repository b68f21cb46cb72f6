// Geometry shared by every planner and overlay: points, segments, arcs and poses in map units.
// Conventions (DESIGN.md section 4): x grows right, y grows down; headings are radians with
// 0 = +x (east), growing clockwise on screen (toward +y).
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl {

inline constexpr double kSqrt2 = std::numbers::sqrt2;
inline constexpr double kPi = std::numbers::pi;
inline constexpr double kTwoPi = 2.0 * std::numbers::pi;

struct Vec2 {
  double x = 0, y = 0;
  constexpr Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
  constexpr Vec2 operator-(Vec2 o) const { return {x - o.x, y - o.y}; }
  constexpr Vec2 operator*(double s) const { return {x * s, y * s}; }
  constexpr bool operator==(const Vec2&) const = default;
};

inline double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline double norm(Vec2 a) { return std::hypot(a.x, a.y); }
inline double distance(Vec2 a, Vec2 b) { return norm(b - a); }

// Octile distance between cells: the exact shortest 8-connected length on an empty grid.
inline double octile_distance(double dx, double dy) {
  dx = std::abs(dx);
  dy = std::abs(dy);
  return std::max(dx, dy) + (kSqrt2 - 1.0) * std::min(dx, dy);
}

// Wraps an angle into [0, 2*pi). Angles less than a turn out of range (nearly all) skip fmod
// with the same result: fmod returns a itself below a turn, and a - 2 pi exactly below two
// (Sterbenz), which is what the subtraction gives.
inline double normalize_angle(double a) {
  if (a >= 0 && a < kTwoPi) return a;
  if (a < 0 && a > -kTwoPi) return a + kTwoPi;
  if (a >= kTwoPi && a < 2 * kTwoPi) return a - kTwoPi;
  a = std::fmod(a, kTwoPi);
  return a < 0 ? a + kTwoPi : a;
}

struct Pose {
  double x = 0, y = 0;
  double heading = 0;  // radians, 0 = east, clockwise on screen
  Vec2 position() const { return {x, y}; }
  bool operator==(const Pose&) const = default;
};

struct Segment {
  Vec2 a, b;
  double length() const { return distance(a, b); }
};

// A circular arc. `sweep` is signed: positive sweeps clockwise on screen (increasing angle,
// the same sense as headings), negative counter-clockwise.
struct Arc {
  Vec2 center;
  double radius = 0;
  double start_angle = 0;
  double sweep = 0;
  double length() const { return std::abs(sweep) * radius; }
  double end_angle() const { return start_angle + sweep; }
  Vec2 point_at(double angle) const {
    return {center.x + radius * std::cos(angle), center.y + radius * std::sin(angle)};
  }
  Vec2 start() const { return point_at(start_angle); }
  Vec2 end() const { return point_at(end_angle()); }
  // True when the direction `angle` from the centre lies on the arc.
  bool contains_angle(double angle) const {
    double rel = normalize_angle(sweep >= 0 ? angle - start_angle : start_angle - angle);
    return rel <= std::abs(sweep) + 1e-12 || std::abs(sweep) >= kTwoPi;
  }
};

// One piece of a path: a straight segment or an arc, driven from its start (line.a, or the
// arc's start angle) to its end. `reverse`: driven backwards, the vehicle facing away from the
// direction of travel (a Reeds-Shepp gear change); see core/curves.hpp.
struct PathPiece {
  enum class Kind { Line, Arc } kind = Kind::Line;
  Segment line;
  Arc arc;
  bool reverse = false;
  double length() const { return kind == Kind::Line ? line.length() : arc.length(); }
};

}  // namespace pl

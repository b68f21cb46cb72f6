// Turning-radius curves, once, for every planner and overlay that turns (issue 11, part 1;
// Pinter 2001, "Toward More Realistic Pathfinding"): the shortest arc-then-line from a pose to a
// point, the shortest Dubins path between two poses (six words, or Pinter's four CSC words),
// the shortest Reeds-Shepp path (reversing allowed, all 48 words), and the pose at distance s
// along any path of lines and arcs (Pinter's Listing 2). docs/curves.md has the derivations and
// the traps each function guards against.
//
// Conventions (DESIGN.md section 4): map units, x right, y DOWN; headings in radians, 0 = +x
// (east), growing clockwise on screen (pi/2 = south, toward +y). "Left" and "right" are the
// driver's, as seen on screen: a left turn is counter-clockwise on screen and DEcreases the
// heading; a right turn increases it. A segment's length is signed: negative = driven in
// reverse (gear change), the vehicle still facing its heading.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "core/geometry.hpp"

namespace pl {

enum class Steer : std::int8_t { Left = -1, Straight = 0, Right = 1 };

struct CurveSegment {
  Steer steer = Steer::Straight;
  double length = 0;  // map units, signed: < 0 = reverse
};

enum class CurveStatus : std::uint8_t {
  Ok,
  NoSuchPath,           // this word (or side) has no path between these poses
  InsideTurningCircle,  // pose to point: the point lies strictly inside the turning circle
  BadInput,             // a non-finite value, a radius <= 0, or distance / radius beyond 1e150
};
const char* curve_status_text(CurveStatus s);

// A path of at most five segments starting at `start`. Built by the functions below; cheap to
// copy (no allocation), so planners can call them in their inner loops.
struct Curve {
  CurveStatus status = CurveStatus::NoSuchPath;
  Pose start;
  double radius = 0;
  std::array<CurveSegment, 5> segments{};
  int count = 0;
  double length = std::numeric_limits<double>::infinity();  // sum of |segment lengths|

  bool ok() const { return status == CurveStatus::Ok; }
  std::span<const CurveSegment> used() const { return {segments.data(), size_t(count)}; }
  // "LSR"; with gear marks when a segment reverses, e.g. "L+R-L-". Zero-length segments
  // keep their letter (LSL with an empty line is still "LSL"). Empty for a failed curve.
  std::string word() const;
  // Pose after driving s (clamped to [0, length]) along the curve.
  Pose pose_at(double s) const;
  Pose end() const { return pose_at(length); }
  // The curve as lines and arcs, zero-length segments dropped, `reverse` set on pieces driven
  // backwards; appended to `out`.
  void append_pieces(std::vector<PathPiece>& out) const;
  std::vector<PathPiece> pieces() const {
    std::vector<PathPiece> out;
    append_pieces(out);
    return out;
  }
};

// ---- pose to point (Pinter, Figures 5 and 6): one arc then a line ----

enum class TurnSide : std::uint8_t { Best, Left, Right };
// The shortest arc (left, right, or the shorter of both) then line from `start` to `target`.
// InsideTurningCircle when the point is strictly inside the circle of the side asked for (for
// Best: inside both, which only a degenerate radius can make happen; a point inside one circle
// is reached by turning the other way).
Curve pose_to_point(const Pose& start, Vec2 target, double radius, TurnSide side = TurnSide::Best);

// ---- Dubins (forward only) ----

enum class DubinsWord : std::uint8_t { LSL, RSR, LSR, RSL, RLR, LRL };
inline constexpr std::array<DubinsWord, 6> kDubinsWords = {DubinsWord::LSL, DubinsWord::RSR,
                                                           DubinsWord::LSR, DubinsWord::RSL,
                                                           DubinsWord::RLR, DubinsWord::LRL};
const char* dubins_word_name(DubinsWord w);
enum class DubinsWords : std::uint8_t { All, Csc };  // Csc: Pinter's four words only

// The shortest path of one word (NoSuchPath when the word cannot join the poses). For CCC
// words both middle circles are tried and the shorter kept.
Curve dubins_word(const Pose& a, const Pose& b, double radius, DubinsWord w);
// The shortest of the six words (or of the four CSC words).
Curve dubins(const Pose& a, const Pose& b, double radius, DubinsWords words = DubinsWords::All);

// ---- Reeds-Shepp (forward and reverse, gear changes free) ----

// The shortest of the 48 Reeds-Shepp words (families CSC, CCC, CCCC, CCSC, CCSCC with their
// time-flip, reflection and backward variants). Never longer than dubins(a, b, radius).
Curve reeds_shepp(const Pose& a, const Pose& b, double radius);

// ---- any path of lines and arcs (Pinter's Listing 2) ----

// The pose at the end / start of one piece. An arc's heading follows its sweep (positive =
// clockwise on screen = a right turn when driven forward); `reverse` turns the heading round.
Pose piece_start_pose(const PathPiece& p);
Pose piece_end_pose(const PathPiece& p);
double path_length(std::span<const PathPiece> pieces);
// Position and heading (in [0, 2 pi)) after driving s along the pieces; s is clamped to
// [0, path_length]. Requires at least one piece.
Pose pose_along(std::span<const PathPiece> pieces, double s);

}  // namespace pl

// Fixed-angle character art (Pinter 2001, "Fixed-Angle Character Art", Figures 14 and 15;
// issue 11 item 7): a sprite drawn in only k headings (8 or 16) must not slide, so its path is
// rewritten into straight pieces whose directions are all multiples of 2 pi / k:
//
//   arcs   are followed from just outside: along the regular k-gon circumscribed about the
//          turning circle (its edges touch the circle where the tangent is a legal heading, and
//          its corners lie r / cos(pi / k) from the centre). A point of the arc maps to where
//          the ray from the centre through it meets the polygon, so the arc's ends move outward
//          by at most r (1 / cos(pi / k) - 1);
//   lines  at an illegal angle theta become two legal segments, at the legal angles just below
//          and just above theta, meeting at a corner beside the line (Figure 15, right). A
//          corner lies L sin(theta - lo) sin(hi - theta) / sin(hi - lo) from a line of length
//          L; when that exceeds `max_deviation`, the line is cut into n equal parts first, each
//          replaced the same way (a staircase of the same two headings), which the article
//          leaves out.
//
// The result stays within deviation_bound = max_deviation + r_max (1 / cos(pi / k) - 1) of the
// input path (r_max: the largest arc radius). With a `clear` test (the agent's Walkable(A, B)),
// a line's corner goes to the other side, then the line is cut finer (to 64 parts), until every
// segment is clear; an arc's polygon edges must be clear as they are. If not, the conversion
// fails with a reason rather than return a path that enters a blocked cell.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/geometry.hpp"

namespace pl {

struct FixedAngleOptions {
  int headings = 8;            // k: a multiple of 4 (8 or 16 in the article)
  double max_deviation = 0.5;  // map units: how far a line's corner may stray from the line
};

struct FixedAngleResult {
  bool ok = false;
  std::vector<PathPiece> pieces;  // lines only, each along a legal heading; `reverse` kept
  double deviation_bound = 0;     // every point of `pieces` is at most this far from the input
  std::string message;            // why not, when !ok
};

// Whether a direction (radians) is a multiple of 2 pi / k within `tolerance` radians.
bool legal_heading(double direction, int k, double tolerance = 1e-9);

// The fixed-angle path for `pieces` (lines and arcs joined end to end). `clear(a, b)`, when
// given, says whether the segment from a to b may be driven.
FixedAngleResult fixed_angle_path(std::span<const PathPiece> pieces, const FixedAngleOptions& opt,
                                  const std::function<bool(Vec2, Vec2)>& clear = {});

}  // namespace pl

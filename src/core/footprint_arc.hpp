// The swept footprint of an arc (and of any path piece) against blocked cells, for planners that
// drive arcs (Hybrid A*). core/footprint.hpp tests segments exactly; an arc is tested here as
// chords, each chord's footprint grown by the arc's largest distance from it (the sagitta), so
// the test is conservative: it never accepts an arc whose footprint overlaps a blocked cell, and
// it rejects at most arcs that pass within `tolerance` map units of one.
//
// Why this is safe: an arc of sweep at most pi lies within its sagitta s = r (1 - cos(sweep/2))
// of its chord (every point of it projects onto the chord, at distance at most s). A disc of
// radius R at any arc point therefore lies in the disc of radius R + s at the nearest chord point,
// and an axis-aligned square of half side h in the square of half side h + s there (the L-inf
// distance is at most the Euclidean one). The chords' grown footprints are checked exactly by
// walkable().
#pragma once

#include <functional>

#include "core/footprint.hpp"
#include "core/geometry.hpp"

namespace pl {

// True when the footprint swept along the arc overlaps no blocked cell and stays inside the map
// (see walkable()); the arc is split into chords whose sagitta is at most `tolerance` (> 0).
bool arc_walkable(int width, int height, const std::function<bool(int, int)>& blocked,
                  const Arc& arc, const Footprint& f, double tolerance = 1e-2);

// A line piece exactly (walkable), an arc piece as above.
bool piece_walkable(int width, int height, const std::function<bool(int, int)>& blocked,
                    const PathPiece& piece, const Footprint& f, double tolerance = 1e-2);

// The number of chords arc_walkable() uses for an arc of this radius and sweep.
int arc_chords(double radius, double sweep, double tolerance);

}  // namespace pl

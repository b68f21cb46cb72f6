// Export of a recorded trace to the Posthoc search-trace format (version 1.4.0), the de-facto
// exchange format for search visualisers (Posthoc, Warthog's tools), so a pathlab run can be
// inspected and compared there (DESIGN.md section 3).
//
// Posthoc steps event by event and has no frames, so our frame boundaries are not written;
// every other event becomes one Posthoc event:
//   phase   -> {type: "phase", name}
//   open    -> {type: "generating", id, pId, x, y, g, h, f [, heading] [, level]}
//   relax   -> {type: "updating",   id, pId, x, y, g, h, f}
//   close   -> {type: "expanding",  id, pId, x, y, g, h, f}
//   test    -> {type: "test", ok, shape, points}      mark -> {type: "mark", role, shape, points}
//   path    -> {type: "path", length, points}          counter -> {type: "counter", name, value}
// Coordinates are map units (cell centres for grid planners; y grows down, as in Posthoc);
// headings are radians, 0 = east, clockwise on screen. pId is null for a node without a parent.
// `points` is the shape or path as a polyline (arcs and circles sampled), for Posthoc's `path`
// primitive. A `views.main` section draws nodes, tests, marks and paths out of the box.
#pragma once

#include <iosfwd>
#include <string>

#include "viz/trace.hpp"

namespace pl {

// Writes JSON (which Posthoc reads as YAML); name the file *.trace.json. Streams the events, so
// a million-event trace needs no more memory than the trace itself.
void write_posthoc(const Trace& trace, std::ostream& out);
std::string to_posthoc(const Trace& trace);

}  // namespace pl

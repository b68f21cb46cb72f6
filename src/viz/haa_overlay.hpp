// The HAA* abstraction as an overlay (issue 4): cluster borders, entrances coloured by
// capability, transition points, abstract nodes, inter- and intra-edges (optionally only those an
// agent of a given size and capability may use, with capability / clearance labels), and the
// abstract and refined paths of a query. A free function over a const HaaAbstraction, in the
// style of viz/overlays.hpp: it picks layers, colours through the Style (and the palette for
// capabilities), declares legend keys and culls to the visible rectangle.
//
// The app needs this only where it holds the abstraction itself (e.g. a side panel); a watched
// query already reports the same structure through the trace, with requirements on the shapes
// (see Requirement in core/observer.hpp and shapes_for_agent in viz/trace.hpp).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "core/terrain.hpp"
#include "planners/haa.hpp"
#include "viz/draw.hpp"
#include "viz/style.hpp"

namespace pl {

struct HaaOverlayOptions {
  std::optional<MapRect> visible;  // draw only what overlaps it; nullopt = everything
  bool clusters = true, entrances = true, transitions = true, nodes = true;
  bool inter_edges = true, intra_edges = true;
  // Only edges (and entrances) this agent may use; capability 0 = every edge.
  CapabilityMask agent_capability = 0;
  int agent_size = 1;
  bool intra_as_paths = false;  // the cached cell paths instead of straight node-to-node lines
  bool labels = false;          // "ground,swamp >= 2" at edge midpoints
  float line_px = 1.5f;
};

// Colour of a capability: the mean of its terrains' palette colours (a single terrain keeps its
// own), so an entrance reads as the terrain it crosses.
Rgba capability_colour(const Palette& palette, CapabilityMask capability);
// "ground,swamp >= 2".
std::string requirement_label(const Palette& palette, CapabilityMask capability, int clearance);

// Clusters, entrances, transitions and nodes on Layer::Shapes; edges on Layer::Shapes too.
void draw_haa_abstraction(DrawSink& sink, const HaaAbstraction& abstraction, const Palette& palette,
                          const Style& style, const HaaOverlayOptions& options = {});

// A query's abstract path (node to node, Role::AbstractPath) and refined path (Role::Path) on
// Layer::Path.
void draw_haa_paths(DrawSink& sink, std::span<const Vec2> abstract_path,
                    std::span<const PathPiece> refined, const Style& style, float width_px = 3);

}  // namespace pl

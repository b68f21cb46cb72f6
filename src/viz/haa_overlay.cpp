#include "viz/haa_overlay.hpp"

#include <algorithm>

namespace pl {

namespace {

bool shows(const HaaOverlayOptions& o, Vec2 a, Vec2 b) {
  return !o.visible || o.visible->overlaps(std::min(a.x, b.x), std::min(a.y, b.y),
                                           std::max(a.x, b.x), std::max(a.y, b.y));
}

bool admitted(const HaaOverlayOptions& o, CapabilityMask cap, int clearance) {
  return o.agent_capability == 0 || ((cap & ~o.agent_capability) == 0 && o.agent_size <= clearance);
}

Vec2 centre(const HaaAbstraction::Node& n) {
  return {n.x + 0.5, n.y + 0.5};
}

}  // namespace

Rgba capability_colour(const Palette& palette, CapabilityMask capability) {
  int n = 0, r = 0, g = 0, b = 0;
  for (int t = 0; t < palette.size(); ++t)
    if (capability >> t & 1u) {
      const Rgb c = palette[TerrainId(t)].colour;
      r += c.r;
      g += c.g;
      b += c.b;
      ++n;
    }
  if (n == 0) return {128, 128, 128, 255};
  return {std::uint8_t(r / n), std::uint8_t(g / n), std::uint8_t(b / n), 255};
}

std::string requirement_label(const Palette& palette, CapabilityMask capability, int clearance) {
  return palette.capability_string(capability) + " >= " + std::to_string(clearance);
}

void draw_haa_abstraction(DrawSink& sink, const HaaAbstraction& a, const Palette& palette,
                          const Style& style, const HaaOverlayOptions& o) {
  if (!sink.wants(Layer::Shapes)) return;
  sink.set_layer(Layer::Shapes);
  const auto& nodes = a.nodes();
  if (o.clusters) {
    const Rgba c = style.colour(Role::Cluster);
    bool any = false;
    for (int k = 0; k < a.clusters_x() * a.clusters_y(); ++k) {
      int x0, y0, x1, y1;
      a.cluster_rect(k, x0, y0, x1, y1);
      if (!shows(o, {double(x0), double(y0)}, {double(x1), double(y1)})) continue;
      sink.rect_outline({double(x0), double(y0)}, {double(x1), double(y1)}, c, 1);
      any = true;
    }
    if (any) sink.uses(StyleKey::of(Role::Cluster));
  }
  if (o.entrances) {
    bool any = false;
    for (const auto& en : a.entrances()) {
      if (!admitted(o, en.capability, en.clearance)) continue;
      // The entrance lies on the border line between its two rows / columns of cells.
      const Vec2 p = en.vertical ? Vec2{en.x + 1.0, double(en.y)} : Vec2{double(en.x), en.y + 1.0};
      const Vec2 q = en.vertical ? Vec2{p.x, p.y + en.length} : Vec2{p.x + en.length, p.y};
      if (!shows(o, p, q)) continue;
      sink.line(p, q, capability_colour(palette, en.capability), 2 * o.line_px);
      any = true;
    }
    if (any) sink.uses(StyleKey::of(Role::Entrance));
  }
  bool any_inter = false, any_intra = false, any_transition = false;
  for (const auto& e : a.edges()) {
    if (!admitted(o, e.capability, e.clearance)) continue;
    if (e.inter ? !o.inter_edges && !o.transitions : !o.intra_edges) continue;
    const Vec2 p = centre(nodes[e.a]), q = centre(nodes[e.b]);
    if (!shows(o, p, q)) continue;
    if (e.inter) {
      if (o.transitions) {
        sink.line(p, q, style.colour(Role::Transition), 2 * o.line_px);
        any_transition = true;
      } else {
        sink.line(p, q, style.colour(Role::AbstractEdge), o.line_px);
        any_inter = true;
      }
    } else if (o.intra_as_paths) {
      std::vector<Vec2> pts;
      for (std::uint32_t c : a.path_of(e))
        pts.push_back({int(c) % a.width() + 0.5, int(c) / a.width() + 0.5});
      sink.polyline(pts, style.colour(Role::AbstractEdge), o.line_px);
      any_intra = true;
    } else {
      sink.line(p, q, style.colour(Role::AbstractEdge), o.line_px);
      any_intra = true;
    }
    if (o.labels)
      sink.text((p + q) * 0.5, requirement_label(palette, e.capability, e.clearance),
                style.colour(Role::AbstractEdge), TextAnchor::Bottom);
  }
  if (any_transition) sink.uses(StyleKey::of(Role::Transition));
  if (any_inter || any_intra) sink.uses(StyleKey::of(Role::AbstractEdge));
  if (o.nodes) {
    bool any = false;
    for (const auto& n : nodes) {
      if (!n.alive || (o.visible && !o.visible->contains(centre(n)))) continue;
      sink.point(centre(n), style.colour(Role::AbstractNode), 5);
      any = true;
    }
    if (any) sink.uses(StyleKey::of(Role::AbstractNode));
  }
}

void draw_haa_paths(DrawSink& sink, std::span<const Vec2> abstract_path,
                    std::span<const PathPiece> refined, const Style& style, float width_px) {
  if (!sink.wants(Layer::Path)) return;
  sink.set_layer(Layer::Path);
  if (abstract_path.size() >= 2) {
    sink.polyline(abstract_path, style.colour(Role::AbstractPath), width_px);
    for (const Vec2& p : abstract_path)
      sink.point(p, style.colour(Role::AbstractPath), 2 * width_px);
    sink.uses(StyleKey::of(Role::AbstractPath));
  }
  if (!refined.empty()) {
    for (const PathPiece& p : refined) sink.path_piece(p, style.colour(Role::Path), width_px);
    sink.uses(StyleKey::of(Role::Path));
  }
}

}  // namespace pl

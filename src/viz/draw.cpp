#include "viz/draw.hpp"

#include <cmath>

namespace pl {

const char* layer_name(Layer l) {
  switch (l) {
    case Layer::Terrain:
      return "terrain";
    case Layer::Clearance:
      return "clearance";
    case Layer::Search:
      return "search";
    case Layer::Shapes:
      return "planner shapes";
    case Layer::Path:
      return "path";
    case Layer::Agents:
      return "agents";
    case Layer::ToolPreview:
      return "tool preview";
    case Layer::Count:
      break;
  }
  return "?";
}

void DrawSink::polyline(std::span<const Vec2> points, Rgba colour, float width_px, bool closed) {
  for (std::size_t i = 1; i < points.size(); ++i) line(points[i - 1], points[i], colour, width_px);
  if (closed && points.size() > 2) line(points.back(), points.front(), colour, width_px);
}

void DrawSink::rect_outline(Vec2 min, Vec2 max, Rgba colour, float width_px) {
  const Vec2 pts[4] = {min, {max.x, min.y}, max, {min.x, max.y}};
  polyline(pts, colour, width_px, true);
}

void DrawSink::path_piece(const PathPiece& piece, Rgba colour, float width_px) {
  if (piece.kind == PathPiece::Kind::Line)
    line(piece.line.a, piece.line.b, colour, width_px);
  else
    arc(piece.arc.center, piece.arc.radius, piece.arc.start_angle, piece.arc.sweep, colour,
        width_px);
}

void DrawBatch::clear() {
  rects.clear();
  triangles.clear();
  lines.clear();
  circles.clear();
  arrows.clear();
  points.clear();
  texts.clear();
  chars.clear();
  used.reset();
}

std::size_t DrawBatch::memory_bytes() const {
  return rects.capacity() * sizeof(RectPrim) + triangles.capacity() * sizeof(TrianglePrim) +
         lines.capacity() * sizeof(LinePrim) +
         circles.capacity() * sizeof(CirclePrim) + arrows.capacity() * sizeof(ArrowPrim) +
         points.capacity() * sizeof(PointPrim) + texts.capacity() * sizeof(TextPrim) +
         chars.capacity();
}

void DrawList::clear() {
  for (DrawBatch& b : batches_) b.clear();
}

std::size_t DrawList::primitive_count() const {
  std::size_t n = 0;
  for (const DrawBatch& b : batches_) n += b.primitive_count();
  return n;
}

std::size_t DrawList::memory_bytes() const {
  std::size_t n = 0;
  for (const DrawBatch& b : batches_) n += b.memory_bytes();
  return n;
}

void DrawList::rect(Vec2 min, Vec2 max, Rgba fill) {
  if (DrawBatch* b = target())
    b->rects.push_back({float(min.x), float(min.y), float(max.x), float(max.y), fill});
}

void DrawList::triangle(Vec2 a, Vec2 b, Vec2 c, Rgba fill) {
  if (DrawBatch* t = target())
    t->triangles.push_back({float(a.x), float(a.y), float(b.x), float(b.y), float(c.x),
                            float(c.y), fill});
}

void DrawList::line(Vec2 a, Vec2 b, Rgba colour, float width_px) {
  if (DrawBatch* t = target())
    t->lines.push_back({float(a.x), float(a.y), float(b.x), float(b.y), width_px, colour});
}

void DrawList::arc(Vec2 centre, double radius, double start, double sweep, Rgba colour,
                   float width_px) {
  // A zero width would read as "filled"; an outline is always at least a hairline.
  if (width_px <= 0) width_px = 1;
  if (std::abs(sweep) >= kTwoPi) {
    start = 0;
    sweep = kTwoPi;
  } else if (sweep < 0) {
    // One orientation only, so a renderer tests a single angle range.
    start += sweep;
    sweep = -sweep;
  }
  if (DrawBatch* b = target())
    b->circles.push_back({float(centre.x), float(centre.y), float(radius),
                          float(normalize_angle(start)), float(sweep), width_px, colour});
}

void DrawList::disc(Vec2 centre, double radius, Rgba fill) {
  if (DrawBatch* b = target())
    b->circles.push_back(
        {float(centre.x), float(centre.y), float(radius), 0.f, float(kTwoPi), 0.f, fill});
}

void DrawList::arrow(Vec2 from, Vec2 to, Rgba colour, float width_px, float head_px) {
  if (DrawBatch* b = target())
    b->arrows.push_back(
        {float(from.x), float(from.y), float(to.x), float(to.y), width_px, head_px, colour});
}

void DrawList::point(Vec2 p, Rgba colour, float size_px) {
  if (DrawBatch* b = target()) b->points.push_back({float(p.x), float(p.y), size_px, colour});
}

void DrawList::text(Vec2 anchor, std::string_view label, Rgba colour, TextAnchor align,
                    float size_px) {
  if (DrawBatch* b = target()) {
    b->texts.push_back({float(anchor.x), float(anchor.y), std::uint32_t(b->chars.size()),
                        std::uint32_t(label.size()), size_px, colour, align});
    b->chars.append(label);
  }
}

void DrawList::uses(StyleKey key) {
  if (DrawBatch* b = target()) b->used.set(key.dense());
}

}  // namespace pl

#include "viz/drive_draw.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace pl {

double drive_sprite_half_length(const Agent& agent) {
  if (std::isfinite(agent.radius) && agent.radius > 0) return agent.radius;
  return 0.5 * std::max(1, agent.size);
}

void draw_driving_agent(DrawSink& sink, const Agent& agent, const Pose& pose, const Style& style,
                        const DriveDrawOptions& options) {
  if (!sink.wants(Layer::Agents)) return;
  sink.set_layer(Layer::Agents);
  sink.uses(StyleKey::of(StyleItem::Agent));
  const double h = drive_sprite_half_length(agent);
  const Vec2 c = pose.position();
  const Vec2 f{std::cos(pose.heading), std::sin(pose.heading)};  // forward
  const Vec2 s{-f.y, f.x};                                       // to the side
  // A point of the sprite in vehicle coordinates (u forward, w sideways), in units of h.
  auto at = [&](double u, double w) {
    return Vec2{c.x + h * (u * f.x + w * s.x), c.y + h * (u * f.y + w * s.y)};
  };
  const Rgba agent_colour = style.colour(StyleItem::Agent);
  if (options.footprint) sink.circle(c, h, agent_colour.with_alpha(200), 1.5f);
  // Body: a rectangle 1.8 h long and 1.1 h wide, as two triangles.
  const Rgba body{52, 120, 220, 235}, dark{20, 40, 80, 255}, glass{190, 225, 255, 255};
  const Vec2 b0 = at(-0.9, -0.55), b1 = at(0.7, -0.55), b2 = at(0.7, 0.55), b3 = at(-0.9, 0.55);
  sink.triangle(b0, b1, b2, body);
  sink.triangle(b0, b2, b3, body);
  // Nose wedge: where the vehicle faces.
  sink.triangle(at(0.7, -0.55), at(0.98, 0.0), at(0.7, 0.55), body);
  // Windscreen toward the front, cab roof behind it.
  sink.triangle(at(0.15, -0.42), at(0.45, -0.32), at(0.45, 0.32), glass);
  sink.triangle(at(0.15, -0.42), at(0.45, 0.32), at(0.15, 0.42), glass);
  const std::array<Vec2, 5> outline = {b0, b1, at(0.98, 0.0), b2, b3};
  sink.polyline(outline, dark, 1.5f, true);
  // Rear lights: white while reversing, red otherwise.
  const Rgba lights = options.reversing ? Rgba{255, 255, 255, 255} : Rgba{220, 40, 40, 255};
  const double l = 0.18;
  sink.triangle(at(-0.9, -0.55), at(-0.9 + l, -0.55), at(-0.9, -0.55 + l), lights);
  sink.triangle(at(-0.9, 0.55), at(-0.9 + l, 0.55), at(-0.9, 0.55 - l), lights);
}

}  // namespace pl

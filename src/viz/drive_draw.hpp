// The agent driving its path (issue 11, item 9): a small vehicle sprite drawn from primitives,
// scaled to the agent's footprint (the disc of its radius, or its size when it has none), at a
// pose of the drive profile (core/drive.hpp). No GL: it goes to a DrawSink like every overlay.
#pragma once

#include "core/geometry.hpp"
#include "core/scene.hpp"
#include "viz/draw.hpp"
#include "viz/style.hpp"

namespace pl {

struct DriveDrawOptions {
  bool reversing = false;  // the piece under the vehicle is driven backwards: reverse lights
  bool footprint = true;   // the footprint's outline around the sprite
};

// The half-length of the footprint the sprite fills (map units): the agent's radius, or half
// its size when the radius is 0.
double drive_sprite_half_length(const Agent& agent);

// On Layer::Agents: the footprint outline, the body (a rectangle along the heading), a
// windscreen toward the front and a nose wedge pointing where the vehicle faces.
void draw_driving_agent(DrawSink& sink, const Agent& agent, const Pose& pose, const Style& style,
                        const DriveDrawOptions& options = {});

}  // namespace pl

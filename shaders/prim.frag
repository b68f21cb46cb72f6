#version 330 core
// Solid triangles, or a circle, ring or arc by its distance field (exact at every zoom).
in vec2 v_local;
in vec4 v_shape;
in vec4 v_colour;
out vec4 o_colour;
const float kTwoPi = 6.28318530718;
void main() {
  float radius = v_shape.x;
  if (radius <= 0.0) {
    o_colour = v_colour;
    return;
  }
  float width = v_shape.y;
  float d = length(v_local);
  float coverage;
  if (width <= 0.0) {
    coverage = clamp(radius - d + 0.5, 0.0, 1.0);
  } else {
    coverage = clamp(width * 0.5 - abs(d - radius) + 0.5, 0.0, 1.0);
    float sweep = v_shape.w;
    if (sweep < kTwoPi) {
      // Angles grow clockwise on screen, i.e. toward +y, as atan(y, x) does with y down.
      float a = atan(v_local.y, v_local.x) - v_shape.z;
      a = mod(a, kTwoPi);
      if (a > sweep) coverage = 0.0;
    }
  }
  if (coverage <= 0.0) discard;
  o_colour = vec4(v_colour.rgb, v_colour.a * coverage);
}

#version 330 core
// Batched overlay primitives, already in viewport pixels (the CPU applied the camera).
layout(location = 0) in vec2 a_pos;     // pixels
layout(location = 1) in vec2 a_local;   // pixels from a circle's centre (circles only)
layout(location = 2) in vec4 a_shape;   // radius px (0 = solid fill), width px, start, sweep
layout(location = 3) in vec4 a_colour;  // normalised RGBA8
uniform vec2 u_viewport;
out vec2 v_local;
out vec4 v_shape;
out vec4 v_colour;
void main() {
  v_local = a_local;
  v_shape = a_shape;
  v_colour = a_colour;
  gl_Position = vec4(a_pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_pos.y / u_viewport.y * 2.0, 0.0, 1.0);
}

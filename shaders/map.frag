#version 330 core
// One texel per cell, nearest filtering: texel (x, y) is cell (x, y), row 0 at the top.
in vec2 v_uv;
uniform sampler2D u_terrain;
uniform float u_opacity;
out vec4 o_colour;
void main() {
  vec4 c = texture(u_terrain, v_uv);
  o_colour = vec4(c.rgb, c.a * u_opacity);
}

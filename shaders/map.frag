#version 330 core
// One texel per cell, nearest filtering: texel (x, y) is cell (x, y), row 0 at the top.
// Up to three map-sized textures in one pass, blended as separate passes would be (each over
// the one below, "over" with its alpha): the base (terrain, or a lone overlay), then optionally
// the heat map at u_heat_opacity and the search cells. One pass instead of three matters under
// a software rasteriser, where every full-screen layer costs milliseconds.
in vec2 v_uv;
uniform sampler2D u_terrain;
uniform sampler2D u_heat;
uniform sampler2D u_search;
uniform float u_opacity;
uniform float u_heat_opacity;  // 0 = no heat layer in this pass
uniform int u_with_search;     // 1 = the search layer is folded into this pass
out vec4 o_colour;

vec4 over(vec4 below, vec3 rgb, float a) {
  return vec4(mix(below.rgb, rgb, a), a + below.a * (1.0 - a));
}

void main() {
  vec4 c = texture(u_terrain, v_uv);
  c.a *= u_opacity;
  if (u_heat_opacity > 0.0) {
    vec4 h = texture(u_heat, v_uv);
    c = over(c, h.rgb, h.a * u_heat_opacity);
  }
  if (u_with_search == 1) {
    vec4 s = texture(u_search, v_uv);
    c = over(c, s.rgb, s.a);
  }
  o_colour = c;
}

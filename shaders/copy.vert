#version 330 core
// A rectangle of a texture onto the viewport, texel for pixel: the map layer into the window
// (renderer.hpp). A plain textured quad, which a software rasteriser copies row by row.
layout(location = 0) in vec2 a_corner;  // (0,0) .. (1,1)
uniform vec4 u_rect;  // the texture's rectangle: lower left corner and size, in texture units
out vec2 v_uv;
void main() {
  v_uv = u_rect.xy + a_corner * u_rect.zw;
  gl_Position = vec4(a_corner * 2.0 - 1.0, 0.0, 1.0);
}

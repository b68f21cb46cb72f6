#version 330 core
// The map as one quad over [0, width] x [0, height] map units; the camera maps it to pixels.
layout(location = 0) in vec2 a_corner;  // (0,0) .. (1,1)
uniform vec2 u_map_size;   // cells
uniform vec2 u_offset;     // pixels: where map point (0, 0) is in the viewport
uniform float u_zoom;      // pixels per cell
uniform vec2 u_viewport;   // pixels
// -1: upside down, into the map layer (renderer.hpp), so that it lies in memory as the window
// does and the rasteriser interpolates v_uv there as in the window (not always to the last
// bit: renderer.cpp).
uniform float u_flip;
out vec2 v_uv;
out vec2 v_px;  // pixels, y down
void main() {
  vec2 map = a_corner * u_map_size;
  vec2 px = u_offset + map * u_zoom;
  vec2 ndc = vec2(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0);
  v_uv = a_corner;
  v_px = px;
  gl_Position = vec4(ndc.x, ndc.y * u_flip, 0.0, 1.0);
}

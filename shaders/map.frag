#version 330 core
// One texel per cell, nearest filtering: texel (x, y) is cell (x, y), row 0 at the top.
// Up to three map-sized textures in one pass, blended as separate passes would be (each over
// the one below, "over" with its alpha): the base (terrain, or at opacity 0 a transparent
// bottom for a lone overlay), then optionally the heat map at u_heat_opacity, the cell grid
// lines and the search cells. One pass instead of three matters under a software rasteriser,
// where every full-screen layer costs milliseconds. The renderer compiles one variant per
// combination of HEAT, GRID, SEARCH (0 none, 1 texture, 2 stamps) and OPAQUE, defined after the
// version line, so a layer that is off costs no work per pixel, whatever the rasteriser does
// with branches on uniforms. (Grid lines as quads of their own, stencilled where they cross,
// cost more on a 1024x1024 map zoomed to ~45 px a cell: 183 against 179 M instructions a frame.)
in vec2 v_uv;
in vec2 v_px;   // viewport pixels, y down
uniform vec2 u_offset;     // pixels: where map point (0, 0) is in the viewport
uniform float u_inv_zoom;  // cells per pixel
uniform sampler2D u_terrain;
uniform sampler2D u_heat;
uniform sampler2D u_search;
// The search cells as stamps (SearchTexture::texels): per cell the bucket of frames it turned
// open in and the one it turned closed in, each decided for the frame on screen where it is
// that frame's own bucket; u_frame is the bucket of the frame on screen.
uniform usampler2D u_stamps;
uniform uint u_frame;
uniform vec4 u_open_colour;    // alpha 0: open cells not shown
uniform vec4 u_closed_colour;  // alpha 0: closed cells not shown
uniform float u_opacity;
uniform float u_heat_opacity;
uniform float u_zoom;          // pixels per cell
uniform float u_grid_width;    // pixels
uniform vec4 u_grid_colour;
// OPAQUE: the pass right after the viewport's clear composites over the clear colour itself
// and writes opaque pixels, so the renderer draws it with blending off (a read-modify-write of
// every pixel saved); equal to blending over the cleared framebuffer.
uniform vec4 u_under;
out vec4 o_colour;

#if OPAQUE
// Everything is composited over an opaque colour: "over" is a mix, without the branches and
// the division of the general case.
vec4 over(vec4 below, vec3 rgb, float a) { return vec4(mix(below.rgb, rgb, a), 1.0); }
#else
vec4 over(vec4 below, vec3 rgb, float a) {
  if (below.a >= 1.0) return vec4(mix(below.rgb, rgb, a), 1.0);
  float oa = a + below.a * (1.0 - a);
  if (oa <= 0.0) return vec4(0.0);
  return vec4((rgb * a + below.rgb * below.a * (1.0 - a)) / oa, oa);
}
#endif

void main() {
  vec4 c = texture(u_terrain, v_uv);
  c.a *= u_opacity;
#if OPAQUE
  c = over(u_under, c.rgb, c.a);  // "over" is associative: the layers above blend onto this
#endif
#if HEAT
  vec4 h = texture(u_heat, v_uv);
  c = over(c, h.rgb, h.a * u_heat_opacity);
#endif
#if GRID
  // The pixels a line of that width along each cell edge would cover (pixel centres within
  // half the width of the edge), as the line primitives drew them: crisp, not smoothed.
  // Branch-free: a software rasteriser runs both sides of a per-pixel branch anyway.
  // From the pixel's exact centre (floor(v_px) + 0.5: v_px is within a rounding error of it),
  // not from an interpolated map point: a centre exactly half the width from an edge is
  // common (at 87/8 pixels a cell, every eighth), and the interpolation rounds it to either
  // side in a window and in the map layer's texture.
  vec2 m = (floor(v_px) + 0.5 - u_offset) * u_inv_zoom;
  vec2 d = abs(fract(m + 0.5) - 0.5) * u_zoom;
  float on = min(d.x, d.y) < u_grid_width * 0.5 ? u_grid_colour.a : 0.0;
  c = over(c, u_grid_colour.rgb, on);
#endif
#if SEARCH == 1
  vec4 s = texture(u_search, v_uv);
  c = over(c, s.rgb, s.a);
#elif SEARCH == 2
  uvec2 s = texture(u_stamps, v_uv).rg;
  vec4 col = u_frame >= s.g ? u_closed_colour : u_frame >= s.r ? u_open_colour : vec4(0.0);
  c = over(c, col.rgb, col.a);
#endif
  o_colour = c;
}

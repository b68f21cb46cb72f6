// The GL side of a map view: the terrain as a texture on one quad (shaders/map.*) and the viz
// DrawList's batches as triangles (shaders/prim.*), circles by a distance-field fragment shader.
// Text labels go to an ImGui draw list, which has the font. Only src/app includes GL.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glad/gl.h>

#include "editor/camera.hpp"
#include "viz/draw.hpp"
#include "viz/image.hpp"
#include "viz/search_texture.hpp"

struct ImDrawList;

namespace pl::app {

// A viewport rectangle in framebuffer pixels, y down from the window's top-left corner.
struct Viewport {
  int x = 0, y = 0, width = 1, height = 1;
};

class MapRenderer {
 public:
  MapRenderer();
  ~MapRenderer();
  MapRenderer(const MapRenderer&) = delete;
  MapRenderer& operator=(const MapRenderer&) = delete;

  // Replaces the terrain texture (call when the map changes).
  void set_terrain(const Image& image);
  // Replaces the heat map texture drawn over the terrain at heat_opacity (0 = not drawn).
  void set_heat(const Image& image);
  float heat_opacity = 0;
  // Replaces the search texture: open and closed grid cells, one texel per cell, drawn on
  // Layer::Search under that layer's primitives when show_search is set.
  void set_search(const Image& image);
  // Brings the search texture to `state` (a frame of the trace `generation` names) through a
  // SearchTexture: a new trace, size or option uploads it whole; a move along the timeline
  // uploads only the rectangle of cells whose nodes changed status between the two frames.
  void update_search(const FrameState& state, std::uint64_t generation, int width, int height,
                     const Style& style, bool open, bool closed);
  // Takes a SearchTexture prepared off the frame loop (SearchTexture::prepare) for the trace
  // `generation` names: the first move along that trace's timeline then uploads its stamps
  // without building them.
  void adopt_search(SearchTexture&& prepared, std::uint64_t generation);
  const SearchTexture& search_cells() const { return search_cells_; }
  bool show_search = false;
  // Lines along the cell edges, drawn in the terrain's pass (shaders/map.frag) over the terrain
  // and the heat map, under the search cells: one pass however many lines a zoomed-in view
  // shows. width_px 0 = none. Only with Layer::Terrain enabled, like the terrain.
  struct GridLines {
    float width_px = 0;
    Rgba colour;
  };
  GridLines grid;
  bool reuse_picture = true;
  // The map layer's work so far (see layer_texture_): draws of it, those that drew only the
  // changed pixels, and the pixels drawn, against the pixels of the views drawn through it;
  // and the frames drawn directly while it held another frame.
  struct LayerStats {
    std::uint64_t draws = 0, partial = 0, pixels = 0, view_pixels = 0;
    std::uint64_t direct = 0;  // frames that changed too much: drawn without the layer
    bool last_from_layer = false;  // the last draw copied the layer in
  };
  const LayerStats& layer_stats() const { return layer_stats_; }
  // Draws the terrain and every enabled layer of `list` into `vp` of a framebuffer
  // fb_height pixels tall. A view drawn from the same inputs three frames in a row keeps a copy
  // of its picture, and copies it back while its inputs stay the same (when reuse_picture;
  // without it, no picture is kept either).
  void draw(const editor::Camera& camera, const Viewport& vp, int fb_height, const DrawList& list);
  // The text labels of `list` (call before ImGui::Render and draw()), over everything else the
  // view draws; text_scale = framebuffer pixels per ImGui unit. A few go to `text_list` as
  // ImGui's glyph quads. Many (numbers in every cell) are composed on the CPU from ImGui's font
  // atlas into one texture over the box they cover, redone only when a label, its place or the
  // box changed, and drawn by draw() as one quad: a software rasteriser pays far more for
  // thousands of small glyph quads (setting up and shading each in 4x4 blocks) than for that.
  void labels(const editor::Camera& camera, const Viewport& vp, const DrawList& list,
              ImDrawList* text_list, float text_scale = 1.0f);

 private:
  struct Vertex {
    float x, y;            // pixels
    float lx, ly;          // pixels from a circle's centre
    float radius, width, start, sweep;
    std::uint32_t colour;  // RGBA8
  };
  void quad(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Rgba colour);
  void thick_line(Vec2 a, Vec2 b, float width, Rgba colour);
  void append_batch(const editor::Camera& camera, const DrawBatch& batch);
  // A map-sized texture and the opacity it is drawn with.
  struct Layer2D {
    GLuint texture = 0;
    int width = 0, height = 0;
    float opacity = 1;
  };
  // Draws `base` over the map quad; a non-zero `heat` texture of the same size (at heat_alpha),
  // the grid lines (with_grid) and the search cells (with_search) are blended in the same pass
  // (shaders/map.frag). `opaque`: the pass right after the clear; it composites over the clear
  // colour in the shader and is drawn without blending.
  // scissors: only these rectangles of the framebuffer (x0, y0 its lower left corner, y up),
  // one draw each.
  void draw_texture(const editor::Camera& camera, const Viewport& vp, const Layer2D& base,
                    GLuint heat = 0, float heat_alpha = 0, bool with_grid = false,
                    bool with_search = false, bool opaque = false,
                    const std::vector<PixelRect>* scissors = nullptr);
  // Brings the map layer (below) to the frame on screen and to layer_next_key_, drawing the
  // terrain pass (terrain_pass(scissors)) into it: in full when the key changed, else over the
  // pixels whose cells changed between the layer's frame and this one (changed_rects), and
  // copies it in. False, the layer left as it is, when those pixels are over 40% of the view
  // or there is no layer (no framebuffer object): draw the view directly.
  // vp: the window's viewport in a window fb_height pixels tall; clear_around(left, bottom,
  // flipped) clears the strips around the map of a viewport at (left, bottom), upside down
  // when flipped. map_px: the viewport's pixels (y down) the map may cover, copied in.
  template <typename Pass, typename Clear>
  bool update_layer(const editor::Camera& camera, const Viewport& vp, int fb_height,
                    const PixelRect& map_px, Pass&& terrain_pass, Clear&& clear_around);
  // Draws vertices_[first, end).
  void flush_vertices(const Viewport& vp, std::size_t first, std::size_t end);
  // Copies the view's picture (the viewport at window row gl_y, counted from the bottom) into
  // picture_texture_ (keep) or back into the window; picture_cached_ says whether it holds it.
  // pixels > 0: only the pixels x pixels square at the viewport's lower left corner.
  void copy_picture(const Viewport& vp, int gl_y, bool keep, int pixels = 0);
  // Binds the map layer's framebuffer, made or resized for the viewport vp of a window
  // fb_height pixels tall first (its contents are then invalid); false when it cannot be drawn
  // into.
  bool bind_layer(const Viewport& vp, int fb_height);
  // Draws the w x h rectangle at (x, y) of `texture` (tw x th texels) onto the pixels at
  // (dx, dy) of the bound framebuffer (both lower left corners, y up), texel for pixel; flip:
  // the texture's rectangle is upside down (y: its top row). Leaves the GL viewport there and
  // the scissor test off.
  void copy_in(GLuint texture, int tw, int th, int x, int y, int dx, int dy, int w, int h,
               bool flip = false);
  // SearchTexture's texels into stamps_texture_ (a width x height map, the trace `generation`
  // names), unless they are there already.
  void upload_stamps(int width, int height, std::uint64_t generation);
  // The texels SearchTexture's last update decided (touched()) into stamps_texture_.
  void upload_touched_texels();
  // Composes the terrain with the heat map over it (same size, at heat_opacity) into
  // base_texture_, on the GPU; base_ready_ says whether it worked.
  void bake_base();

  // The map shader's variants (shaders/map.frag), compiled when first drawn.
  GLuint map_program(bool heat, bool grid, int search, bool opaque);
  std::array<GLuint, 24> map_programs_{};
  GLuint prim_program_ = 0;
  GLuint copy_program_ = 0;  // shaders/copy.*: the map layer into the window
  GLuint quad_vao_ = 0, quad_vbo_ = 0;
  GLuint prim_vao_ = 0, prim_vbo_ = 0;
  GLuint texture_ = 0, heat_texture_ = 0, search_texture_ = 0;
  // The label layer (labels()): RGBA8 with straight alpha, one texel per viewport pixel of the
  // box at (labels_x_, labels_y_), row 0 at the top; what it was composed from, to skip an
  // unchanged frame.
  GLuint labels_texture_ = 0;
  int labels_x_ = 0, labels_y_ = 0, labels_width_ = 0, labels_height_ = 0;
  bool labels_shown_ = false;
  std::vector<std::uint8_t> label_pixels_;
  std::string labels_key_;
  // The terrain with the map-sized heat map over it, composed once (bake_base), so the map
  // pass samples one texture where it sampled two: ~10 M instructions a frame under a software
  // rasteriser at 1280 x 800. Composed when its inputs have not changed since the last frame, so
  // a heat map that changes every frame (g of the frame on screen while stepping) is never
  // composed in vain; until then the pass blends the two as before.
  GLuint base_texture_ = 0, base_fbo_ = 0;
  int base_width_ = 0, base_height_ = 0;
  bool base_ready_ = false;   // base_texture_ holds the terrain and heat map below
  bool base_changed_ = true;  // the terrain, the heat map or its opacity changed since a draw
  bool base_changed_before_ = false;  // ... and had changed before the last draw too
  float base_opacity_ = -1;   // heat_opacity at the last draw
  // SearchTexture's texels (RG16UI), when it keeps stamps instead of an image (search_stamped_).
  GLuint stamps_texture_ = 0;
  bool search_stamped_ = false;
  // What stamps_texture_ holds (upload_stamps).
  bool stamps_uploaded_ = false;
  std::uint64_t stamps_generation_ = 0;
  int stamps_width_ = 0, stamps_height_ = 0;
  // Adopted stamps not drawn yet: the next draw runs their pass over a pixel (draw()).
  bool warm_stamps_ = false;
  int tex_width_ = 0, tex_height_ = 0;
  int heat_width_ = 0, heat_height_ = 0;
  int search_width_ = 0, search_height_ = 0;
  std::vector<Vertex> vertices_;
  // Bumped whenever a texture the view draws from changes (draw()'s picture key).
  std::uint64_t revision_ = 0;
  // The view's last picture: what draw() drew it from (a byte string of every input, the
  // primitives' vertices included), how many frames in a row it was the same, and a copy of it
  // once three frames in a row were.
  std::string picture_key_, picture_next_key_;
  GLuint picture_texture_ = 0, picture_fbo_ = 0;
  int picture_width_ = 0, picture_height_ = 0;
  int picture_repeats_ = 0;
  bool picture_cached_ = false;
  SearchTexture search_cells_;  // what search_texture_ holds, on the CPU side
  // The map layer: the terrain pass alone (terrain, heat map, grid lines and stamped search
  // cells), upside down in a texture as tall as the window and as wide as the view's right
  // edge (bind_layer, update_layer), while the search cells are stamps. A scrub moves
  // the frame every frame; the layer then draws only the pixels of the tiles whose cells
  // changed between its frame and the new one (SearchTexture::tile_changes), and the view
  // copies it in, instead of shading every pixel of the map again. layer_key_: what it was
  // drawn from besides the frame; layer_revision_ counts the changes to the textures the pass
  // reads, except the texels a move decides (they show the same for every frame as before).
  GLuint layer_texture_ = 0, layer_fbo_ = 0;
  int layer_width_ = 0, layer_height_ = 0;
  bool layer_valid_ = false;
  std::size_t layer_frame_ = 0;
  std::uint64_t layer_revision_ = 0;
  std::string layer_key_, layer_next_key_;
  std::vector<PixelRect> layer_rects_;
  bool layer_flip_ = false;  // the map passes draw upside down (into the layer)
  LayerStats layer_stats_;
};

}  // namespace pl::app

#include "app/renderer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include "app/shaders.hpp"

namespace pl::app {
namespace {

// The colour under the map (a viewport's clear colour), opaque, in whole 8-bit steps: llvmpipe
// rounded a clear of 0.14 to 35 in the window (without a depth buffer) and to 36 in the map
// layer's texture.
constexpr float kBackground[3] = {33 / 255.0f, 36 / 255.0f, 41 / 255.0f};

// `defines` go right after the source's first line (its #version).
GLuint compile(GLenum type, const char* source, const char* name, const std::string& defines = {}) {
  GLuint s = glCreateShader(type);
  const std::string text(source);
  const std::size_t eol = text.find('\n') + 1;
  const std::string full = text.substr(0, eol) + defines + text.substr(eol);
  const char* str = full.c_str();
  glShaderSource(s, 1, &str, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    throw std::runtime_error(std::string("shader ") + name + ": " + log);
  }
  return s;
}

GLuint link(const char* vert, const char* frag, const char* name, const std::string& defines = {}) {
  GLuint vs = compile(GL_VERTEX_SHADER, vert, name);
  GLuint fs = compile(GL_FRAGMENT_SHADER, frag, name, defines);
  GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    throw std::runtime_error(std::string("program ") + name + ": " + log);
  }
  return p;
}

Vec2 to_vec(float x, float y) { return {double(x), double(y)}; }

}  // namespace

MapRenderer::MapRenderer() {
  prim_program_ = link(shaders::k_prim_vert, shaders::k_prim_frag, "prim");
  copy_program_ = link(shaders::k_copy_vert, shaders::k_copy_frag, "copy");

  const float corners[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
  glGenVertexArrays(1, &quad_vao_);
  glGenBuffers(1, &quad_vbo_);
  glBindVertexArray(quad_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);

  glGenVertexArrays(1, &prim_vao_);
  glGenBuffers(1, &prim_vbo_);
  glBindVertexArray(prim_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, prim_vbo_);
  const auto stride = GLsizei(sizeof(Vertex));
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Vertex, x)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Vertex, lx)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Vertex, radius)));
  glEnableVertexAttribArray(3);
  glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                        reinterpret_cast<const void*>(offsetof(Vertex, colour)));
  glBindVertexArray(0);

  // llvmpipe compiles its blitter's shaders the first time a picture is kept (~40 ms), and a
  // variant of the copy program the first time it is copied back: both copies run now, over
  // one pixel of the window's back buffer
  // (which the next frame clears), so no frame of a view pays them. The copy is 3 x 3: a
  // texture whose sides are powers of two samples through another compiled variant.
  const Viewport warm{0, 0, 3, 3};
  copy_picture(warm, 0, true, 1);
  if (picture_cached_) copy_picture(warm, 0, false, 1);
  picture_cached_ = false;

  for (GLuint* t :
       {&texture_, &heat_texture_, &search_texture_, &stamps_texture_, &labels_texture_}) {
    glGenTextures(1, t);
    glBindTexture(GL_TEXTURE_2D, *t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
}

MapRenderer::~MapRenderer() {
  glDeleteTextures(1, &base_texture_);
  glDeleteFramebuffers(1, &base_fbo_);
  glDeleteTextures(1, &picture_texture_);
  glDeleteFramebuffers(1, &picture_fbo_);
  glDeleteTextures(1, &layer_texture_);
  glDeleteFramebuffers(1, &layer_fbo_);
  glDeleteTextures(1, &texture_);
  glDeleteTextures(1, &heat_texture_);
  glDeleteTextures(1, &search_texture_);
  glDeleteTextures(1, &stamps_texture_);
  glDeleteTextures(1, &labels_texture_);
  glDeleteBuffers(1, &quad_vbo_);
  glDeleteBuffers(1, &prim_vbo_);
  glDeleteVertexArrays(1, &quad_vao_);
  glDeleteVertexArrays(1, &prim_vao_);
  for (GLuint p : map_programs_)
    if (p) glDeleteProgram(p);
  glDeleteProgram(prim_program_);
  glDeleteProgram(copy_program_);
}

namespace {
// Uploads an RGBA8 image (one pixel per cell) into `texture` and records its size.
void upload_image(GLuint texture, const Image& image, int& width, int& height) {
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width, image.height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, image.data());
  width = image.width;
  height = image.height;
}
}  // namespace

void MapRenderer::set_terrain(const Image& image) {
  upload_image(texture_, image, tex_width_, tex_height_);
  base_ready_ = false, base_changed_ = true;
  ++revision_, ++layer_revision_;
}

void MapRenderer::set_heat(const Image& image) {
  upload_image(heat_texture_, image, heat_width_, heat_height_);
  base_ready_ = false, base_changed_ = true;
  ++revision_, ++layer_revision_;
}

void MapRenderer::bake_base() {
  const int w = tex_width_, h = tex_height_;
  if (!base_texture_) {
    glGenTextures(1, &base_texture_);
    glBindTexture(GL_TEXTURE_2D, base_texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &base_fbo_);
  }
  GLint previous = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
  glBindFramebuffer(GL_FRAMEBUFFER, base_fbo_);
  if (base_width_ != w || base_height_ != h) {
    glBindTexture(GL_TEXTURE_2D, base_texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, base_texture_, 0);
    base_width_ = w, base_height_ = h;
  }
  base_ready_ = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  ++revision_, ++layer_revision_;
  if (base_ready_) {
    // One texel a cell, row 0 in the texture's row 0 as the terrain's: map point (0, y) lands
    // at y - h pixels of a viewport -h tall, which the map shader turns upside down.
    glViewport(0, 0, w, h);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);  // the composite with its own alpha, as the map pass would make it
    editor::Camera texels(w, h);
    texels.set_view(1.0, {0.0, -double(h)});
    draw_texture(texels, Viewport{0, 0, w, -h}, {texture_, w, h, 1.0f}, heat_texture_,
                 heat_opacity);
    glEnable(GL_BLEND);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
}

void MapRenderer::set_search(const Image& image) {
  search_cells_.reset();  // the texture no longer shows what search_cells_ holds
  search_stamped_ = false;
  upload_image(search_texture_, image, search_width_, search_height_);
  ++revision_, ++layer_revision_;
}

void MapRenderer::upload_stamps(int width, int height, std::uint64_t generation) {
  if (stamps_uploaded_ && stamps_generation_ == generation && stamps_width_ == width &&
      stamps_height_ == height)
    return;  // uploaded when the prepared stamps were adopted
  stamps_uploaded_ = true;
  stamps_generation_ = generation, stamps_width_ = width, stamps_height_ = height;
  glBindTexture(GL_TEXTURE_2D, stamps_texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RG16UI, width, height, 0, GL_RG_INTEGER, GL_UNSIGNED_SHORT,
               search_cells_.texels().data());
  ++revision_, ++layer_revision_;
}

void MapRenderer::upload_touched_texels() {
  const std::vector<std::uint32_t>& cells = search_cells_.touched();
  if (cells.empty()) return;
  const auto w = std::uint32_t(search_cells_.width());
  glBindTexture(GL_TEXTURE_2D, stamps_texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, GLint(w));
  // The cells come in increasing order: a run of them along a row (gaps of a few texels
  // included, re-sent unchanged) goes up in one call.
  const std::uint16_t* texels = search_cells_.texels().data();
  for (std::size_t i = 0; i < cells.size();) {
    const std::uint32_t first = cells[i], row = first / w;
    std::uint32_t last = first;
    for (++i; i < cells.size() && cells[i] / w == row && cells[i] - last <= 16; ++i) last = cells[i];
    glTexSubImage2D(GL_TEXTURE_2D, 0, GLint(first % w), GLint(row), GLsizei(last - first + 1), 1,
                    GL_RG_INTEGER, GL_UNSIGNED_SHORT, texels + 2 * std::size_t(first));
  }
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
}

void MapRenderer::adopt_search(SearchTexture&& prepared, std::uint64_t generation) {
  search_cells_ = std::move(prepared);
  search_cells_.set_generation(generation);
  search_stamped_ = false;
  // The next update_search paints the image or uploads the stamps.
  ++revision_, ++layer_revision_;
  // The stamps go up now, with the rest of what a new result uploads, and the next draw
  // compiles the stamp pass (warm_stamps_): the first move of a scrub then only switches.
  if (search_cells_.prepared()) {
    upload_stamps(search_cells_.width(), search_cells_.height(), generation);
    warm_stamps_ = true;
  }
}

void MapRenderer::update_search(const FrameState& state, std::uint64_t generation, int width,
                                int height, const Style& style, bool open, bool closed) {
  // Whatever it uploads, or a frame the stamps colour differently (the picture); the map layer
  // counts only what changes other frames too (a full upload, an image).
  ++revision_;
  search_cells_.allow_stamps(true);
  const SearchTexture::Dirty d =
      search_cells_.update(state, generation, width, height, style, open, closed);
  search_stamped_ = search_cells_.stamped();
  if (search_stamped_) {
    // Uploaded once per trace, then the few texels a move decides (SearchTexture::touched);
    // the frame and the colours are uniforms (draw_texture).
    if (d.full) {
      upload_stamps(width, height, generation);
      search_width_ = width, search_height_ = height;
    }
    upload_touched_texels();  // after a full upload, those the prepared texels had undecided
    return;
  }
  ++layer_revision_;
  const Image& image = search_cells_.image();
  if (d.full && (image.width != search_width_ || image.height != search_height_)) {
    upload_image(search_texture_, image, search_width_, search_height_);
    return;
  }
  const SearchTexture::Dirty r = d.full ? SearchTexture::Dirty{0, 0, image.width, image.height, true} : d;
  if (r.empty()) return;
  // Only the changed rectangle: rows of the CPU image, offset into it.
  glBindTexture(GL_TEXTURE_2D, search_texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, image.width);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, r.x0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, r.y0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0, GL_RGBA,
                  GL_UNSIGNED_BYTE, image.data());
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
}

void MapRenderer::quad(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Rgba colour) {
  const std::uint32_t col = colour.packed();
  auto v = [&](Vec2 p) {
    vertices_.push_back({float(p.x), float(p.y), 0, 0, 0, 0, 0, 0, col});
  };
  v(a), v(b), v(c), v(a), v(c), v(d);
}

void MapRenderer::thick_line(Vec2 a, Vec2 b, float width, Rgba colour) {
  Vec2 d = b - a;
  const double len = std::hypot(d.x, d.y);
  if (len < 1e-9) return;
  const double w = std::max(width, 1.0f) * 0.5;
  const Vec2 n{-d.y / len * w, d.x / len * w};
  quad(a + n, b + n, b - n, a - n, colour);
}

void MapRenderer::append_batch(const editor::Camera& cam, const DrawBatch& batch) {
  for (const RectPrim& r : batch.rects) {
    Vec2 p0 = cam.map_to_screen(to_vec(r.x0, r.y0));
    Vec2 p1 = cam.map_to_screen(to_vec(r.x1, r.y1));
    quad(p0, {p1.x, p0.y}, p1, {p0.x, p1.y}, r.colour);
  }
  for (const TrianglePrim& t : batch.triangles) {
    const std::uint32_t col = t.colour.packed();
    for (const Vec2 m : {to_vec(t.x0, t.y0), to_vec(t.x1, t.y1), to_vec(t.x2, t.y2)}) {
      const Vec2 p = cam.map_to_screen(m);
      vertices_.push_back({float(p.x), float(p.y), 0, 0, 0, 0, 0, 0, col});
    }
  }
  for (const LinePrim& l : batch.lines)
    thick_line(cam.map_to_screen(to_vec(l.x0, l.y0)), cam.map_to_screen(to_vec(l.x1, l.y1)),
               l.width_px, l.colour);
  for (const CirclePrim& c : batch.circles) {
    const Vec2 centre = cam.map_to_screen(to_vec(c.cx, c.cy));
    const float r = float(cam.map_length_to_pixels(c.radius));
    if (r < 0.25f) continue;
    const float ext = r + c.width_px + 1.0f;
    float start = c.start, sweep = c.sweep;
    if (sweep < 0) {
      start += sweep;
      sweep = -sweep;
    }
    const std::uint32_t col = c.colour.packed();
    auto v = [&](float sx, float sy) {
      vertices_.push_back({float(centre.x) + sx * ext, float(centre.y) + sy * ext, sx * ext,
                           sy * ext, r, c.width_px, start, sweep, col});
    };
    v(-1, -1), v(1, -1), v(1, 1), v(-1, -1), v(1, 1), v(-1, 1);
  }
  for (const ArrowPrim& a : batch.arrows) {
    const Vec2 p0 = cam.map_to_screen(to_vec(a.x0, a.y0));
    const Vec2 p1 = cam.map_to_screen(to_vec(a.x1, a.y1));
    const Vec2 d = p1 - p0;
    const double len = std::hypot(d.x, d.y);
    if (len < 1e-6) continue;
    const Vec2 u{d.x / len, d.y / len};
    const double head = std::min<double>(a.head_px, len);
    const Vec2 base = p1 - u * head;
    thick_line(p0, base, a.width_px, a.colour);
    const Vec2 n{-u.y * head * 0.5, u.x * head * 0.5};
    const std::uint32_t col = a.colour.packed();
    for (Vec2 p : {p1, base + n, base - n})
      vertices_.push_back({float(p.x), float(p.y), 0, 0, 0, 0, 0, 0, col});
  }
  for (const PointPrim& p : batch.points) {
    const Vec2 c = cam.map_to_screen(to_vec(p.x, p.y));
    const float r = p.size_px * 0.5f, ext = r + 1.0f;
    const std::uint32_t col = p.colour.packed();
    auto v = [&](float sx, float sy) {
      vertices_.push_back({float(c.x) + sx * ext, float(c.y) + sy * ext, sx * ext, sy * ext, r,
                           0, 0, 0, col});
    };
    v(-1, -1), v(1, -1), v(1, 1), v(-1, -1), v(1, 1), v(-1, 1);
  }
}

void MapRenderer::draw(const editor::Camera& camera, const Viewport& vp, int fb_height,
                       const DrawList& list) {
  const bool terrain = tex_width_ > 0 && list.enabled(Layer::Terrain);
  const bool heat = heat_width_ > 0 && heat_opacity > 0 && list.enabled(Layer::Clearance);
  const bool same_size_heat = heat && heat_width_ == tex_width_ && heat_height_ == tex_height_;
  if (heat_opacity != base_opacity_) base_ready_ = false, base_changed_ = true;
  base_opacity_ = heat_opacity;
  // Baked in the first frame of a change (a scene loaded, an edit, a step), or once the inputs
  // stop changing, never while they change frame after frame (a stroke, g while playing).
  if (terrain && same_size_heat && !base_ready_ && !(base_changed_ && base_changed_before_))
    bake_base();
  base_changed_before_ = base_changed_;
  base_changed_ = false;
  const bool baked = terrain && same_size_heat && base_ready_;

  // The search texture sits where its cells' rectangles would: over the layers below
  // Layer::Search, under that layer's own primitives (the current node, parent arrows).
  const bool search_tex = show_search && search_width_ > 0 && list.enabled(Layer::Search);
  // Textures of the map's size blend in the terrain's pass when nothing is drawn between them:
  // the heat map always (it is right above the terrain), the search cells when the terrain and
  // clearance layers have no primitives (no circles, grid lines or labels), the common case on
  // large maps.
  // Text labels do not count: their layer is drawn after every other pass (labels()), so the
  // clearance numbers of a zoomed-in view never sit between the textures; nor do grid lines,
  // which are drawn in the same pass (grid).
  auto gl_primitives = [&](Layer l) {
    const DrawBatch& b = list.batch(l);
    return list.enabled(l) ? b.primitive_count() - b.texts.size() : 0;
  };
  const bool nothing_between = gl_primitives(Layer::Terrain) == 0 && gl_primitives(Layer::Clearance) == 0;
  const bool fold_search = terrain && search_tex && nothing_between &&
                           search_width_ == tex_width_ && search_height_ == tex_height_;
  const bool with_grid = terrain && grid.width_px > 0;
  const std::size_t split = search_tex && !fold_search ? std::size_t(Layer::Search) : kLayerCount;
  // The primitives: those under a lone search pass, then those over it.
  vertices_.clear();
  for (std::size_t l = 0; l < split; ++l)
    if (list.enabled(Layer(l))) append_batch(camera, list.batch(Layer(l)));
  const std::size_t below = vertices_.size();
  for (std::size_t l = split; l < kLayerCount; ++l)
    if (list.enabled(Layer(l))) append_batch(camera, list.batch(Layer(l)));

  // Everything the view's pixels are drawn from. When it equals the last frame's, the picture
  // is the last frame's: a still view (a panel being used, a scrub whose jump has not landed)
  // keeps a copy of it on its third frame, and later frames only copy it back instead of
  // drawing. Not on the second: keeping costs about as much as the copy back, and a view that
  // changes every other frame (a scrub whose jumps land every frame or two) would pay it for
  // nothing.
  std::string& key = picture_next_key_;
  key.clear();
  auto add = [&](const auto& v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  const int flags = int(terrain) | int(heat) << 1 | int(same_size_heat) << 2 | int(baked) << 3 |
                    int(search_tex) << 4 | int(fold_search) << 5 | int(with_grid) << 6 |
                    int(search_stamped_) << 7 | int(labels_shown_) << 8;
  add(vp), add(fb_height), add(camera.zoom()), add(camera.offset()), add(revision_), add(flags);
  add(heat_opacity), add(grid.width_px), add(grid.colour);
  if (search_stamped_) {
    const SearchTexture& s = search_cells_;
    add(s.frame()), add(s.shows_open()), add(s.shows_closed());
    add(s.open_colour()), add(s.closed_colour());
  }
  if (labels_shown_) add(labels_x_), add(labels_y_), add(labels_width_), add(labels_height_);
  add(split), add(below);
  key.append(reinterpret_cast<const char*>(vertices_.data()), vertices_.size() * sizeof(Vertex));
  const bool same = reuse_picture && key == picture_key_;
  std::swap(picture_key_, picture_next_key_);
  picture_repeats_ = same ? picture_repeats_ + 1 : 0;
  const int gl_y = fb_height - vp.y - vp.height;
  if (same && picture_cached_) {
    copy_picture(vp, gl_y, false);
    return;
  }

  // The map's texture passes: the terrain's (the heat map, grid lines and search cells folded
  // in when they can be), and the search cells' own, drawn between the primitives otherwise.
  auto terrain_pass = [&](const std::vector<PixelRect>* scissors = nullptr) {
    if (baked)
      draw_texture(camera, vp, {base_texture_, tex_width_, tex_height_, 1.0f}, 0, 0, with_grid,
                   fold_search, true, scissors);
    else if (terrain)
      draw_texture(camera, vp, {texture_, tex_width_, tex_height_, 1.0f},
                   same_size_heat ? heat_texture_ : 0, same_size_heat ? heat_opacity : 0,
                   with_grid, fold_search, true, scissors);
  };
  auto lone_search_pass = [&] {  // over a transparent base (any texture at opacity 0)
    draw_texture(camera, vp, {texture_, search_width_, search_height_, 0.0f}, 0, 0, false, true);
  };
  glViewport(vp.x, gl_y, vp.width, vp.height);
  glEnable(GL_SCISSOR_TEST);
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  // A pass variant is compiled by llvmpipe the first time it is drawn: the stamps' would be on a
  // scrub's first move. Drawn here over one pixel, which the clears and the opaque pass below
  // paint again.
  // The scrub draws that pass into the map layer (a variant for its texture's format) and
  // copies the layer in: both are warmed too.
  if (warm_stamps_ && search_tex && !search_stamped_) {
    warm_stamps_ = false;
    glScissor(vp.x + vp.width / 2, gl_y + vp.height / 2, 1, 1);
    search_stamped_ = true;
    if (fold_search) terrain_pass();
    else lone_search_pass();
    GLint window = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &window);
    if (fold_search && reuse_picture && bind_layer(vp, fb_height)) {
      // Every page of the layer's memory touched now (the first whole pass into it took 14-18
      // ms against 7-11 later).
      glDisable(GL_SCISSOR_TEST);
      glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      glEnable(GL_SCISSOR_TEST);
      glViewport(vp.x, vp.y, vp.width, vp.height);
      glScissor(vp.x + vp.width / 2, vp.y + vp.height / 2, 1, 1);
      layer_flip_ = true;
      terrain_pass();
      layer_flip_ = false;
      glBindFramebuffer(GL_FRAMEBUFFER, GLuint(window));
      copy_in(layer_texture_, layer_width_, layer_height_, vp.x + vp.width / 2,
              vp.y + vp.height / 2, vp.x + vp.width / 2, gl_y + vp.height / 2, 1, 1, true);
      glViewport(vp.x, gl_y, vp.width, vp.height);
      glEnable(GL_SCISSOR_TEST);
    }
    search_stamped_ = false;
  }
  glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
  // The viewport's background. A clear inside a scissor is a full pass of its own under a
  // software rasteriser (Mesa draws it as a quad), and the opaque terrain pass writes every
  // pixel the map covers anyway: only the strips around the pixels the map surely covers (whole
  // pixels, one more trimmed off each side) are cleared. Zoomed in, that is nothing.
  int in_x0 = 0, in_y0 = 0, in_x1 = 0, in_y1 = 0;  // viewport pixels, y down; empty: all cleared
  if (terrain) {
    const Vec2 o = camera.offset();
    const double z = camera.zoom();
    in_x0 = std::clamp(int(std::ceil(o.x)) + 1, 0, vp.width);
    in_x1 = std::clamp(int(std::floor(o.x + tex_width_ * z)) - 1, in_x0, vp.width);
    in_y0 = std::clamp(int(std::ceil(o.y)) + 1, 0, vp.height);
    in_y1 = std::clamp(int(std::floor(o.y + tex_height_ * z)) - 1, in_y0, vp.height);
  }
  // Of a viewport at (left, bottom) in the framebuffer: the window's, or the map layer's,
  // which is upside down (flipped: its row `bottom` holds the viewport's top row).
  auto clear_around = [&](int left, int bottom, bool flipped) {
    auto clear = [&](int x0, int y0, int x1, int y1) {  // viewport pixels, y down
      if (x0 >= x1 || y0 >= y1) return;
      glScissor(left + x0, flipped ? bottom + y0 : bottom + vp.height - y1, x1 - x0, y1 - y0);
      glClear(GL_COLOR_BUFFER_BIT);
    };
    if (in_x0 >= in_x1 || in_y0 >= in_y1) {
      clear(0, 0, vp.width, vp.height);
    } else {
      clear(0, 0, vp.width, in_y0);
      clear(0, in_y1, vp.width, vp.height);
      clear(0, in_y0, in_x0, in_y1);
      clear(in_x1, in_y0, vp.width, in_y1);
    }
    glScissor(left, bottom, vp.width, vp.height);
  };

  // While the search cells are stamps (a scrub), the terrain pass goes through the map layer.
  bool from_layer = false;
  if (fold_search && search_stamped_ && reuse_picture && !(heat && !same_size_heat)) {
    std::string& lk = layer_next_key_;
    lk.clear();
    auto ladd = [&](const auto& v) { lk.append(reinterpret_cast<const char*>(&v), sizeof v); };
    const SearchTexture& st = search_cells_;
    ladd(vp.width), ladd(vp.height), ladd(camera.zoom()), ladd(camera.offset());
    ladd(layer_revision_), ladd(flags), ladd(heat_opacity), ladd(grid.width_px), ladd(grid.colour);
    ladd(st.shows_open()), ladd(st.shows_closed()), ladd(st.open_colour()), ladd(st.closed_colour());
    // The pixels the map may cover: those it surely covers (in_*) and two more around.
    const PixelRect map_px{std::max(in_x0 - 2, 0), std::max(in_y0 - 2, 0),
                           std::min(in_x1 + 2, vp.width), std::min(in_y1 + 2, vp.height)};
    from_layer = update_layer(camera, vp, fb_height, map_px, terrain_pass, clear_around);
  }
  layer_stats_.last_from_layer = from_layer;
  if (!from_layer) {
    clear_around(vp.x, gl_y, false);
    terrain_pass();
    if (heat && !same_size_heat)
      draw_texture(camera, vp, {heat_texture_, heat_width_, heat_height_, heat_opacity});
  }

  flush_vertices(vp, 0, below);
  if (split < kLayerCount) lone_search_pass();
  flush_vertices(vp, below, vertices_.size());
  if (labels_shown_) {
    // The label layer over everything: a quad over the box it covers, one texel a pixel.
    editor::Camera pixels(vp.width, vp.height);
    pixels.set_view(1.0, {double(labels_x_), double(labels_y_)});
    draw_texture(pixels, vp, {labels_texture_, labels_width_, labels_height_, 1.0f});
  }
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
  if (same && picture_repeats_ >= 2) copy_picture(vp, gl_y, true);
  else picture_cached_ = false;
}

template <typename Pass, typename Clear>
bool MapRenderer::update_layer(const editor::Camera& camera, const Viewport& vp, int fb_height,
                               const PixelRect& map_px, Pass&& terrain_pass,
                               Clear&& clear_around) {
  const int w = vp.width, h = vp.height;
  const int gl_y = fb_height - vp.y - h;
  const SearchTexture& s = search_cells_;
  const bool full = !layer_valid_ || layer_next_key_ != layer_key_;
  // Costs under llvmpipe, 950 x 757 pixels: the whole pass into the window 5-6 ms, into the
  // layer 6.5-7, the copy 1.5-2. A frame that changes more than 40% of the view is drawn
  // directly; the layer keeps its frame (it shows that frame rightly) for the next one.
  if (!full && !changed_rects(s, layer_frame_, s.frame(), camera.zoom(), camera.offset().x,
                              camera.offset().y, w, h, layer_rects_, 0.4)) {
    ++layer_stats_.direct;
    return false;
  }
  GLint window = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &window);
  if (!bind_layer(vp, fb_height)) {
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(window));
    return false;
  }
  const int lw = layer_width_, lh = layer_height_;
  // Upside down, at the rows the viewport has in the window counted from the top: the layer
  // lies in memory as the window does (llvmpipe keeps a window's rows top down, a texture's
  // bottom up), so the rasteriser sees the same quad and interpolates the same map coordinates.
  // Drawn the right way up, pixel centres exactly on a cell's edge (every 16 cells at a zoom of
  // 29/16) took the next cell in one and not in the other (15 pixels of a 400 x 400 scrub).
  glViewport(vp.x, vp.y, w, h);
  layer_flip_ = true;
  if (full) {
    clear_around(vp.x, vp.y, true);
    terrain_pass(nullptr);
    layer_stats_.pixels += std::uint64_t(w) * std::uint64_t(h);
  } else {
    for (PixelRect& r : layer_rects_) {  // into the layer's coordinates (y down there)
      layer_stats_.pixels += std::uint64_t(r.x1 - r.x0) * std::uint64_t(r.y1 - r.y0);
      r = {vp.x + r.x0, vp.y + r.y0, vp.x + r.x1, vp.y + r.y1};
    }
    if (!layer_rects_.empty()) terrain_pass(&layer_rects_);
    ++layer_stats_.partial;
  }
  layer_flip_ = false;
  ++layer_stats_.draws;
  layer_stats_.view_pixels += std::uint64_t(w) * std::uint64_t(h);
  std::swap(layer_key_, layer_next_key_);
  layer_valid_ = true;
  layer_frame_ = s.frame();
  // Into the window's viewport, pixel for pixel: the pixels the map may cover; around them
  // the window is cleared.
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(window));
  glViewport(vp.x, gl_y, w, h);
  glEnable(GL_SCISSOR_TEST);
  clear_around(vp.x, gl_y, false);
  if (map_px.x1 > map_px.x0 && map_px.y1 > map_px.y0) {
    const int x = vp.x + map_px.x0;
    copy_in(layer_texture_, lw, lh, x, vp.y + map_px.y0, x, gl_y + h - map_px.y1,
            map_px.x1 - map_px.x0, map_px.y1 - map_px.y0, true);
  }
  glViewport(vp.x, gl_y, w, h);
  glEnable(GL_SCISSOR_TEST);
  glScissor(vp.x, gl_y, w, h);
  return true;
}

bool MapRenderer::bind_layer(const Viewport& vp, int fb_height) {
  if (!layer_fbo_) {
    glGenTextures(1, &layer_texture_);
    glGenFramebuffers(1, &layer_fbo_);
  }
  // As tall as the window, the view's pixels at their place in it (update_layer).
  const int lw = vp.x + vp.width, lh = std::max(fb_height, vp.y + vp.height);
  if (layer_width_ != lw || layer_height_ != lh) {
    glBindTexture(GL_TEXTURE_2D, layer_texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    // RGB8, as the window (X8 alpha): llvmpipe drew a whole terrain pass of 950 x 757 pixels
    // into it in 6.5-7 ms, into RGBA8 in 10.7 ms (into the window 5-6 ms).
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, lw, lh, 0, GL_BGRA, GL_UNSIGNED_BYTE, nullptr);
    glBindFramebuffer(GL_FRAMEBUFFER, layer_fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, layer_texture_, 0);
    layer_width_ = lw, layer_height_ = lh;
    layer_valid_ = false;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, layer_fbo_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    layer_valid_ = false;
    return false;
  }
  return true;
}

void MapRenderer::copy_in(GLuint texture, int tw, int th, int x, int y, int dx, int dy, int w,
                          int h, bool flip) {
  // A textured quad rather than glBlitFramebuffer, so it can turn the layer the right way up.
  // Either costs llvmpipe about 2 ms for a 950 x 757 view (glFinish on both sides).
  glViewport(dx, dy, w, h);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(copy_program_);
  // Flipped: texture row y is the copy's top row.
  glUniform4f(glGetUniformLocation(copy_program_, "u_rect"), float(x) / float(tw),
              float(flip ? y + h : y) / float(th), float(w) / float(tw),
              float(flip ? -h : h) / float(th));
  glUniform1i(glGetUniformLocation(copy_program_, "u_texture"), 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glBindVertexArray(quad_vao_);
  glDisable(GL_BLEND);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEnable(GL_BLEND);
}

void MapRenderer::copy_picture(const Viewport& vp, int gl_y, bool keep, int pixels) {
  GLint framebuffer = 0, samples = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
  if (keep) {
    // A multisampled window cannot be blitted into (only resolved from): never keep there.
    glGetIntegerv(GL_SAMPLE_BUFFERS, &samples);
    if (samples > 0) {
      picture_cached_ = false;
      return;
    }
    if (!picture_fbo_) {
      glGenTextures(1, &picture_texture_);
      glGenFramebuffers(1, &picture_fbo_);
    }
    if (picture_width_ != vp.width || picture_height_ != vp.height) {
      glBindTexture(GL_TEXTURE_2D, picture_texture_);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, vp.width, vp.height, 0, GL_BGRA, GL_UNSIGNED_BYTE,
                   nullptr);
      glBindFramebuffer(GL_FRAMEBUFFER, picture_fbo_);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                             picture_texture_, 0);
      picture_width_ = vp.width, picture_height_ = vp.height;
    }
  }
  glBindFramebuffer(GL_FRAMEBUFFER, picture_fbo_);
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(framebuffer));
  picture_cached_ = complete;
  if (!complete) return;
  glDisable(GL_SCISSOR_TEST);
  // From the window's viewport into the copy, or back.
  const int w = pixels > 0 ? std::min(pixels, vp.width) : vp.width;
  const int h = pixels > 0 ? std::min(pixels, vp.height) : vp.height;
  if (!keep) {  // every frame the view stays the same: a textured quad, as the map layer's
    copy_in(picture_texture_, picture_width_, picture_height_, 0, 0, vp.x, gl_y, w, h);
    return;
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(framebuffer));
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, picture_fbo_);
  glBlitFramebuffer(vp.x, gl_y, vp.x + w, gl_y + h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(framebuffer));
}

GLuint MapRenderer::map_program(bool heat, bool lines, int search, bool opaque) {
  GLuint& p =
      map_programs_[std::size_t((opaque ? 12 : 0) + (heat ? 6 : 0) + (lines ? 3 : 0) + search)];
  if (!p)
    p = link(shaders::k_map_vert, shaders::k_map_frag, "map",
             "#define HEAT " + std::to_string(int(heat)) + "\n#define GRID " +
                 std::to_string(int(lines)) + "\n#define SEARCH " + std::to_string(search) +
                 "\n#define OPAQUE " + std::to_string(int(opaque)) + "\n");
  return p;
}

void MapRenderer::draw_texture(const editor::Camera& camera, const Viewport& vp,
                               const Layer2D& base, GLuint heat, float heat_alpha, bool with_grid,
                               bool with_search, bool opaque,
                               const std::vector<PixelRect>* scissors) {
  const int search_mode = !with_search ? 0 : search_stamped_ ? 2 : 1;
  const GLuint program = map_program(heat != 0, with_grid, search_mode, opaque);
  glUseProgram(program);
  // Uniforms a variant does not use have no location (-1), and setting them does nothing.
  auto loc = [&](const char* name) { return glGetUniformLocation(program, name); };
  auto colour = [&](const char* name, Rgba c) {
    glUniform4f(loc(name), c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f);
  };
  glUniform2f(loc("u_map_size"), float(base.width), float(base.height));
  glUniform2f(loc("u_offset"), float(camera.offset().x), float(camera.offset().y));
  glUniform1f(loc("u_zoom"), float(camera.zoom()));
  glUniform1f(loc("u_inv_zoom"), float(1.0 / camera.zoom()));
  glUniform1f(loc("u_flip"), layer_flip_ ? -1.0f : 1.0f);
  glUniform2f(loc("u_viewport"), float(vp.width), float(vp.height));
  glUniform1i(loc("u_terrain"), 0);
  glUniform1i(loc("u_heat"), 1);
  glUniform1i(loc("u_search"), 2);
  glUniform1i(loc("u_stamps"), 3);
  glUniform1f(loc("u_opacity"), base.opacity);
  glUniform1f(loc("u_heat_opacity"), heat ? heat_alpha : 0.0f);
  glUniform1f(loc("u_grid_width"), with_grid ? std::max(grid.width_px, 1.0f) : 0.0f);
  colour("u_grid_colour", grid.colour);
  if (search_mode == 2) {
    const SearchTexture& s = search_cells_;
    glUniform1ui(loc("u_frame"), GLuint(s.texel_frame()));
    colour("u_open_colour", s.shows_open() ? s.open_colour() : Rgba{0, 0, 0, 0});
    colour("u_closed_colour", s.shows_closed() ? s.closed_colour() : Rgba{0, 0, 0, 0});
  }
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, base.texture);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, heat ? heat : base.texture);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, with_search && !search_stamped_ ? search_texture_ : base.texture);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, stamps_texture_);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(quad_vao_);
  if (opaque) {
    glUniform4f(loc("u_under"), kBackground[0], kBackground[1], kBackground[2], 1.0f);
    glDisable(GL_BLEND);
  }
  if (!scissors) {
    glDrawArrays(GL_TRIANGLES, 0, 6);
  } else {
    // The same quad, so each pixel is shaded exactly as in a whole pass.
    for (const PixelRect& r : *scissors) {
      glScissor(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
      glDrawArrays(GL_TRIANGLES, 0, 6);
    }
  }
  if (opaque) glEnable(GL_BLEND);
}

void MapRenderer::flush_vertices(const Viewport& vp, std::size_t first, std::size_t end) {
  if (first >= end) return;
  glUseProgram(prim_program_);
  glUniform2f(glGetUniformLocation(prim_program_, "u_viewport"), float(vp.width),
              float(vp.height));
  glBindVertexArray(prim_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, prim_vbo_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr((end - first) * sizeof(Vertex)),
               vertices_.data() + first, GL_STREAM_DRAW);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(end - first));
}

namespace {
// One glyph of ImGui's font atlas (alpha, aw x ah) over the rectangle [x0, x1) x [y0, y1) of
// `out` (straight-alpha RGBA8, w x h), sampled bilinearly at each pixel's centre as the GPU's
// linear filter samples the atlas, and blended "over" in colour `c`.
void blit_glyph(std::vector<std::uint8_t>& out, int w, int h, const unsigned char* atlas, int aw,
                int ah, const ImFontGlyph& g, float x0, float y0, float x1, float y1, Rgba c) {
  const int px0 = std::max(0, int(std::ceil(x0 - 0.5f))),
            px1 = std::min(w, int(std::ceil(x1 - 0.5f)));
  const int py0 = std::max(0, int(std::ceil(y0 - 0.5f))),
            py1 = std::min(h, int(std::ceil(y1 - 0.5f)));
  if (px0 >= px1 || py0 >= py1) return;
  const float du = (g.U1 - g.U0) * float(aw) / (x1 - x0),
              dv = (g.V1 - g.V0) * float(ah) / (y1 - y0);
  for (int py = py0; py < py1; ++py) {
    const float tv = g.V0 * float(ah) + (float(py) + 0.5f - y0) * dv - 0.5f;
    const int v0 = std::clamp(int(std::floor(tv)), 0, ah - 1), v1 = std::min(v0 + 1, ah - 1);
    const float fv = std::clamp(tv - std::floor(tv), 0.0f, 1.0f);
    const unsigned char* r0 = atlas + std::size_t(v0) * std::size_t(aw);
    const unsigned char* r1 = atlas + std::size_t(v1) * std::size_t(aw);
    std::uint8_t* o = out.data() + (std::size_t(py) * std::size_t(w) + std::size_t(px0)) * 4;
    for (int px = px0; px < px1; ++px, o += 4) {
      const float tu = g.U0 * float(aw) + (float(px) + 0.5f - x0) * du - 0.5f;
      const int u0 = std::clamp(int(std::floor(tu)), 0, aw - 1), u1 = std::min(u0 + 1, aw - 1);
      const float fu = std::clamp(tu - std::floor(tu), 0.0f, 1.0f);
      const float cov =
          ((r0[u0] * (1 - fu) + r0[u1] * fu) * (1 - fv) + (r1[u0] * (1 - fu) + r1[u1] * fu) * fv) /
          255.0f;
      const float a = cov * float(c.a) / 255.0f;
      if (a <= 0) continue;
      const float da = float(o[3]) / 255.0f, oa = a + da * (1 - a);
      auto mix = [&](std::uint8_t src, std::uint8_t dst) {
        return std::uint8_t((float(src) * a + float(dst) * da * (1 - a)) / oa + 0.5f);
      };
      o[0] = mix(c.r, o[0]), o[1] = mix(c.g, o[1]), o[2] = mix(c.b, o[2]);
      o[3] = std::uint8_t(oa * 255.0f + 0.5f);
    }
  }
}
}  // namespace

void MapRenderer::labels(const editor::Camera& camera, const Viewport& vp, const DrawList& list,
                         ImDrawList* text_list, float text_scale) {
  ImFont* font = ImGui::GetFont();
  const ImFontAtlas* atlas = font->ContainerAtlas;
  labels_shown_ = false;
  if (vp.width <= 0 || vp.height <= 0) return;
  // Where every label goes, as ImGui's RenderText would put it (units of ImGui, relative to
  // the viewport, floored in window units as RenderText floors), the characters in all, and
  // the box (framebuffer pixels of the viewport) the labels cover.
  struct Placed {
    const TextPrim* t;
    std::string_view text;
    float size, x, y;
  };
  std::vector<Placed> placed;
  std::size_t chars = 0;
  float bx0 = float(vp.width), by0 = float(vp.height), bx1 = 0, by1 = 0;
  const float ox = float(vp.x) / text_scale, oy = float(vp.y) / text_scale;
  for (std::size_t l = 0; l < kLayerCount; ++l) {
    if (!list.enabled(Layer(l))) continue;
    const DrawBatch& batch = list.batch(Layer(l));
    for (const TextPrim& t : batch.texts) {
      const std::string_view label = batch.label(t);
      const float size = t.size_px > 0 ? t.size_px : ImGui::GetFontSize();
      const ImVec2 extent =
          font->CalcTextSizeA(size, 1e9f, 0, label.data(), label.data() + label.size());
      const Vec2 s = camera.map_to_screen(to_vec(t.x, t.y));
      ImVec2 p{float(s.x) / text_scale, float(s.y) / text_scale};
      switch (t.anchor) {
        case TextAnchor::Center:
          p.x -= extent.x / 2, p.y -= extent.y / 2;
          break;
        case TextAnchor::Left:
          p.y -= extent.y / 2;
          break;
        case TextAnchor::Right:
          p.x -= extent.x, p.y -= extent.y / 2;
          break;
        case TextAnchor::Top:
          p.x -= extent.x / 2;
          break;
        case TextAnchor::Bottom:
          p.x -= extent.x / 2, p.y -= extent.y;
          break;
      }
      const Placed at{&t, label, size, std::floor(ox + p.x) - ox, std::floor(oy + p.y) - oy};
      placed.push_back(at);
      chars += label.size();
      // A glyph may reach a pixel past its advance (italics, overhangs): one pixel of margin.
      bx0 = std::min(bx0, at.x * text_scale - 1), by0 = std::min(by0, at.y * text_scale - 1);
      bx1 = std::max(bx1, (at.x + extent.x) * text_scale + 1);
      by1 = std::max(by1, (at.y + extent.y) * text_scale + 1);
    }
  }
  if (placed.empty()) return;
  // A few labels cost little as ImGui's glyph quads; the layer pays a pass over the box the
  // labels cover, which thousands of glyphs (numbers in every cell) cost many times over.
  constexpr std::size_t kLayerChars = 1500;
  if (chars < kLayerChars || !atlas || !atlas->TexPixelsAlpha8) {
    text_list->PushClipRect(
        {ox, oy}, {ox + float(vp.width) / text_scale, oy + float(vp.height) / text_scale});
    for (const Placed& at : placed)
      text_list->AddText(font, at.size, {ox + at.x, oy + at.y}, at.t->colour.packed(),
                         at.text.data(), at.text.data() + at.text.size());
    text_list->PopClipRect();
    return;
  }
  const int x0 = std::max(0, int(std::floor(bx0))), y0 = std::max(0, int(std::floor(by0)));
  const int x1 = std::min(vp.width, int(std::ceil(bx1))),
            y1 = std::min(vp.height, int(std::ceil(by1)));
  if (x0 >= x1 || y0 >= y1) return;
  labels_shown_ = true;
  // What is composed, to skip an unchanged frame (a still view, a step that moves no number).
  std::string key;
  auto add = [&](const auto& v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  add(x0), add(y0), add(x1), add(y1), add(text_scale);
  for (const Placed& at : placed) {
    add(at.size), add(at.x), add(at.y), add(at.t->colour);
    key.append(at.text);
    key.push_back('\0');
  }
  if (key == labels_key_) return;  // the texture already holds these labels
  labels_key_ = std::move(key);
  ++revision_;  // drawn over the map layer, not in it
  const int w = x1 - x0, h = y1 - y0;
  label_pixels_.assign(std::size_t(w) * std::size_t(h) * 4, 0);
  for (const Placed& at : placed) {
    const float scale = at.size / font->FontSize;
    float x = at.x;
    float y = at.y;
    const char* c = at.text.data();
    const char* end = c + at.text.size();
    while (c < end) {
      unsigned int ch = std::uint8_t(*c);
      if (ch < 0x80)
        ++c;
      else
        c += ImTextCharFromUtf8(&ch, c, end);
      if (ch == '\n') {
        x = at.x;
        y += font->FontSize * scale;
        continue;
      }
      if (ch == '\r') continue;
      const ImFontGlyph* g = font->FindGlyph(ImWchar(ch));
      if (!g) continue;
      if (g->Visible)
        blit_glyph(label_pixels_, w, h, atlas->TexPixelsAlpha8, atlas->TexWidth, atlas->TexHeight,
                   *g, (x + g->X0 * scale) * text_scale - float(x0),
                   (y + g->Y0 * scale) * text_scale - float(y0),
                   (x + g->X1 * scale) * text_scale - float(x0),
                   (y + g->Y1 * scale) * text_scale - float(y0), at.t->colour);
      x += g->AdvanceX * scale;
    }
  }
  glBindTexture(GL_TEXTURE_2D, labels_texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (labels_width_ != w || labels_height_ != h) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 label_pixels_.data());
    labels_width_ = w, labels_height_ = h;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, label_pixels_.data());
  }
  labels_x_ = x0, labels_y_ = y0;
}

}  // namespace pl::app

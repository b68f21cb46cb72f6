#include "app/renderer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <imgui.h>

#include "app/shaders.hpp"

namespace pl::app {
namespace {

// The colour under the map (a viewport's clear colour), opaque.
constexpr float kBackground[3] = {0.13f, 0.14f, 0.16f};

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

  for (GLuint* t : {&texture_, &heat_texture_, &search_texture_, &stamps_texture_}) {
    glGenTextures(1, t);
    glBindTexture(GL_TEXTURE_2D, *t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
}

MapRenderer::~MapRenderer() {
  glDeleteTextures(1, &texture_);
  glDeleteTextures(1, &heat_texture_);
  glDeleteTextures(1, &search_texture_);
  glDeleteTextures(1, &stamps_texture_);
  glDeleteBuffers(1, &quad_vbo_);
  glDeleteBuffers(1, &prim_vbo_);
  glDeleteVertexArrays(1, &quad_vao_);
  glDeleteVertexArrays(1, &prim_vao_);
  for (GLuint p : map_programs_)
    if (p) glDeleteProgram(p);
  glDeleteProgram(prim_program_);
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
}

void MapRenderer::set_heat(const Image& image) {
  upload_image(heat_texture_, image, heat_width_, heat_height_);
}

void MapRenderer::set_search(const Image& image) {
  search_cells_.reset();  // the texture no longer shows what search_cells_ holds
  search_stamped_ = false;
  upload_image(search_texture_, image, search_width_, search_height_);
}

void MapRenderer::update_search(const FrameState& state, std::uint64_t generation, int width,
                                int height, const Style& style, bool open, bool closed) {
  search_cells_.allow_stamps(true);
  const SearchTexture::Dirty d =
      search_cells_.update(state, generation, width, height, style, open, closed);
  search_stamped_ = search_cells_.stamped();
  if (search_stamped_) {
    // Uploaded once per trace; the frame and the colours are uniforms (draw_texture).
    if (d.full) {
      glBindTexture(GL_TEXTURE_2D, stamps_texture_);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, width, height, 0, GL_RG_INTEGER, GL_UNSIGNED_INT,
                   search_cells_.stamps().data());
      search_width_ = width;
      search_height_ = height;
    }
    return;
  }
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
  glViewport(vp.x, fb_height - vp.y - vp.height, vp.width, vp.height);
  glEnable(GL_SCISSOR_TEST);
  glScissor(vp.x, fb_height - vp.y - vp.height, vp.width, vp.height);
  glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);

  const bool terrain = tex_width_ > 0 && list.enabled(Layer::Terrain);
  const bool heat = heat_width_ > 0 && heat_opacity > 0 && list.enabled(Layer::Clearance);
  // The search texture sits where its cells' rectangles would: over the layers below
  // Layer::Search, under that layer's own primitives (the current node, parent arrows).
  const bool search_tex = show_search && search_width_ > 0 && list.enabled(Layer::Search);
  // Textures of the map's size blend in the terrain's pass when nothing is drawn between them:
  // the heat map always (it is right above the terrain), the search cells when the terrain and
  // clearance layers have no primitives (no circles, grid lines or labels), the common case on
  // large maps.
  const bool same_size_heat = heat && heat_width_ == tex_width_ && heat_height_ == tex_height_;
  // Text labels do not count: they are drawn by ImGui after every GL pass (labels()), so the
  // clearance numbers of a zoomed-in view never sit between the textures; nor do grid lines,
  // which are drawn in the same pass (grid).
  auto gl_primitives = [&](Layer l) {
    const DrawBatch& b = list.batch(l);
    return list.enabled(l) ? b.primitive_count() - b.texts.size() : 0;
  };
  const bool nothing_between = gl_primitives(Layer::Terrain) == 0 && gl_primitives(Layer::Clearance) == 0;
  const bool fold_search = terrain && search_tex && nothing_between &&
                           search_width_ == tex_width_ && search_height_ == tex_height_;
  if (terrain)
    draw_texture(camera, vp, {texture_, tex_width_, tex_height_, 1.0f},
                 same_size_heat ? heat_texture_ : 0, same_size_heat ? heat_opacity : 0,
                 fold_search, true);
  if (heat && !same_size_heat)
    draw_texture(camera, vp, {heat_texture_, heat_width_, heat_height_, heat_opacity});

  const std::size_t split = search_tex && !fold_search ? std::size_t(Layer::Search) : kLayerCount;
  vertices_.clear();
  if (terrain && grid.width_px > 0) {
    // Lines cross: the stencil lets each pixel take the translucent colour once, as the
    // per-pixel test in the terrain's pass did before (that test over every pixel of the view
    // cost the software rasteriser more than the lines' own pixels do).
    grid_lines(camera, vp);
    glEnable(GL_STENCIL_TEST);
    glStencilMask(0xFF);
    glClearStencil(0);
    glClear(GL_STENCIL_BUFFER_BIT);  // within the viewport's scissor
    glStencilFunc(GL_EQUAL, 0, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
    flush_vertices(vp);
    glDisable(GL_STENCIL_TEST);
  }
  for (std::size_t l = 0; l < split; ++l)
    if (list.enabled(Layer(l))) append_batch(camera, list.batch(Layer(l)));
  if (split < kLayerCount) {
    flush_vertices(vp);
    // The search cells alone: over a transparent base (any bound texture at opacity 0).
    draw_texture(camera, vp, {texture_, search_width_, search_height_, 0.0f}, 0, 0, true);
    vertices_.clear();
    for (std::size_t l = split; l < kLayerCount; ++l)
      if (list.enabled(Layer(l))) append_batch(camera, list.batch(Layer(l)));
  }
  flush_vertices(vp);
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
}

GLuint MapRenderer::map_program(bool heat, int search, bool opaque) {
  GLuint& p = map_programs_[std::size_t((opaque ? 6 : 0) + (heat ? 3 : 0) + search)];
  if (!p)
    p = link(shaders::k_map_vert, shaders::k_map_frag, "map",
             "#define HEAT " + std::to_string(int(heat)) + "\n#define SEARCH " +
                 std::to_string(search) + "\n#define OPAQUE " + std::to_string(int(opaque)) +
                 "\n");
  return p;
}

void MapRenderer::grid_lines(const editor::Camera& camera, const Viewport& vp) {
  // A line of the grid's width centred on each cell edge in view, cut to the map's rectangle
  // and to the viewport, so it covers the pixels whose centres are within half the width of
  // the edge, as the terrain's pass would have drawn it per pixel (crisp, not smoothed).
  const double w = std::max(grid.width_px, 1.0f) * 0.5;
  const Vec2 m0 = camera.map_to_screen({0, 0});
  const Vec2 m1 = camera.map_to_screen({double(tex_width_), double(tex_height_)});
  const double left = std::max(m0.x, 0.0), right = std::min(m1.x, double(vp.width));
  const double top = std::max(m0.y, 0.0), bottom = std::min(m1.y, double(vp.height));
  if (left >= right || top >= bottom) return;
  auto rect = [&](double x0, double y0, double x1, double y1) {
    x0 = std::max(x0, left), y0 = std::max(y0, top);
    x1 = std::min(x1, right), y1 = std::min(y1, bottom);
    if (x0 < x1 && y0 < y1) quad({x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, grid.colour);
  };
  const editor::Rect r = camera.visible_map_rect();
  const int cx0 = std::max(0, int(std::floor(r.x0))), cx1 = std::min(tex_width_, int(std::ceil(r.x1)));
  const int cy0 = std::max(0, int(std::floor(r.y0))), cy1 = std::min(tex_height_, int(std::ceil(r.y1)));
  for (int x = cx0; x <= cx1; ++x) {
    const double sx = camera.map_to_screen({double(x), 0}).x;
    rect(sx - w, top, sx + w, bottom);
  }
  for (int y = cy0; y <= cy1; ++y) {
    const double sy = camera.map_to_screen({0, double(y)}).y;
    rect(left, sy - w, right, sy + w);
  }
}

void MapRenderer::draw_texture(const editor::Camera& camera, const Viewport& vp,
                               const Layer2D& base, GLuint heat, float heat_alpha,
                               bool with_search, bool opaque) {
  const int search_mode = !with_search ? 0 : search_stamped_ ? 2 : 1;
  const GLuint program = map_program(heat != 0, search_mode, opaque);
  glUseProgram(program);
  // Uniforms a variant does not use have no location (-1), and setting them does nothing.
  auto loc = [&](const char* name) { return glGetUniformLocation(program, name); };
  auto colour = [&](const char* name, Rgba c) {
    glUniform4f(loc(name), c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f);
  };
  glUniform2f(loc("u_map_size"), float(base.width), float(base.height));
  glUniform2f(loc("u_offset"), float(camera.offset().x), float(camera.offset().y));
  glUniform1f(loc("u_zoom"), float(camera.zoom()));
  glUniform2f(loc("u_viewport"), float(vp.width), float(vp.height));
  glUniform1i(loc("u_terrain"), 0);
  glUniform1i(loc("u_heat"), 1);
  glUniform1i(loc("u_search"), 2);
  glUniform1i(loc("u_stamps"), 3);
  glUniform1f(loc("u_opacity"), base.opacity);
  glUniform1f(loc("u_heat_opacity"), heat ? heat_alpha : 0.0f);
  if (search_mode == 2) {
    const SearchTexture& s = search_cells_;
    glUniform1ui(loc("u_frame"), GLuint(s.frame()));
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
  glDrawArrays(GL_TRIANGLES, 0, 6);
  if (opaque) glEnable(GL_BLEND);
}

void MapRenderer::flush_vertices(const Viewport& vp) {
  if (vertices_.empty()) return;
  glUseProgram(prim_program_);
  glUniform2f(glGetUniformLocation(prim_program_, "u_viewport"), float(vp.width),
              float(vp.height));
  glBindVertexArray(prim_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, prim_vbo_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices_.size() * sizeof(Vertex)), vertices_.data(),
               GL_STREAM_DRAW);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices_.size()));
  vertices_.clear();
}

void MapRenderer::labels(const editor::Camera& camera, const Viewport& vp, const DrawList& list,
                         ImDrawList* text_list, float text_scale) {
  {
    const ImVec2 origin{float(vp.x) / text_scale, float(vp.y) / text_scale};
    text_list->PushClipRect(origin, {origin.x + float(vp.width) / text_scale,
                                     origin.y + float(vp.height) / text_scale});
    ImFont* font = ImGui::GetFont();
    for (std::size_t l = 0; l < kLayerCount; ++l) {
      if (!list.enabled(Layer(l))) continue;
      const DrawBatch& batch = list.batch(Layer(l));
      for (const TextPrim& t : batch.texts) {
        const std::string_view label = batch.label(t);
        const float size = t.size_px > 0 ? t.size_px : ImGui::GetFontSize();
        const ImVec2 extent =
            font->CalcTextSizeA(size, 1e9f, 0, label.data(), label.data() + label.size());
        const Vec2 s = camera.map_to_screen(to_vec(t.x, t.y));
        ImVec2 p{origin.x + float(s.x) / text_scale, origin.y + float(s.y) / text_scale};
        switch (t.anchor) {
          case TextAnchor::Center: p.x -= extent.x / 2, p.y -= extent.y / 2; break;
          case TextAnchor::Left: p.y -= extent.y / 2; break;
          case TextAnchor::Right: p.x -= extent.x, p.y -= extent.y / 2; break;
          case TextAnchor::Top: p.x -= extent.x / 2; break;
          case TextAnchor::Bottom: p.x -= extent.x / 2, p.y -= extent.y; break;
        }
        text_list->AddText(font, size, p, t.colour.packed(), label.data(),
                           label.data() + label.size());
      }
    }
    text_list->PopClipRect();
  }
}

}  // namespace pl::app

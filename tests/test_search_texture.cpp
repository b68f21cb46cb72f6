// The search texture kept in step with a cursor (viz/search_texture.hpp): after any sequence of
// seeks, steps and option changes, the image it holds, and a copy that only ever received the
// rectangles it reported dirty (what the renderer uploads), equal search_image at that frame.
#include <gtest/gtest.h>

#include <cmath>
#include <queue>
#include <random>

#include "viz/image.hpp"
#include "viz/search_texture.hpp"

namespace pl {
namespace {

// Dijkstra on a w x h 8-connected grid with a few walls, reported as the grid planners do
// (by id through a StepReporter). headings > 0: the nodes are cells x headings (heading h of a
// cell reached from direction h % headings), so cells share nodes; with_cells adds a second,
// Cells space whose nodes some steps mark too (cells with nodes of two spaces).
Trace grid_trace(int w, int h, int headings, bool with_cells, unsigned seed) {
  TraceRecorder rec;
  StepReporter rep(&rec);
  std::mt19937 rng(seed);
  std::vector<char> wall(std::size_t(w) * std::size_t(h), 0);
  for (auto& c : wall) c = rng() % 7 == 0;
  const int k = headings > 0 ? headings : 1;
  const std::uint32_t cells_base = std::uint32_t(w * h * k);
  rec.phase("search");
  if (headings > 0)
    rec.space(NodeSpace::cell_headings(w, h, headings, 0));
  else
    rec.space(NodeSpace::cells(w, h));
  if (with_cells) {
    NodeSpace s = NodeSpace::cells(w, h);
    s.base = cells_base;
    rec.space(s);
  }
  const std::size_t n = std::size_t(w) * std::size_t(h) * std::size_t(k);
  std::vector<double> g(n, INFINITY);
  std::vector<char> closed(n, 0);
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  const std::uint32_t start = std::uint32_t((h / 2 * w + w / 2) * k);
  wall[std::size_t(start / std::uint32_t(k))] = 0;
  g[start] = 0;
  rep.open(start, kNoNode, 0, 0);
  open.push({0, start});
  const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  while (!open.empty()) {
    auto [d, id] = open.top();
    open.pop();
    if (closed[id] || d > g[id]) continue;
    closed[id] = 1;
    rep.close(id);
    const int c = int(id) / k, x = c % w, y = c / w;
    for (int j = 0; j < 8; ++j) {
      const int nx = x + dx[j], ny = y + dy[j];
      if (nx < 0 || ny < 0 || nx >= w || ny >= h || wall[std::size_t(ny * w + nx)]) continue;
      const auto nb = std::uint32_t((ny * w + nx) * k + j % k);
      if (closed[nb]) continue;
      const double ng = d + (j < 4 ? 1.0 : std::sqrt(2.0));
      if (ng < g[nb]) {
        if (std::isinf(g[nb]))
          rep.open(nb, id, ng, 0);
        else
          rep.relax(nb, id, ng);
        g[nb] = ng;
        open.push({ng, nb});
      }
    }
    if (with_cells && rng() % 5 == 0) {
      rep.open(cells_base + std::uint32_t(c), kNoNode, d, 0);
      if (rng() % 2) rep.close(cells_base + std::uint32_t(c));
    }
    rep.frame();
  }
  rep.flush();
  return rec.take();
}

void expect_same(const Image& a, const Image& b, const char* what, std::size_t frame) {
  ASSERT_EQ(a.width, b.width);
  ASSERT_EQ(a.height, b.height);
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x)
      ASSERT_TRUE(a.at(x, y) == b.at(x, y)) << what << " frame " << frame << " cell " << x << ","
                                            << y;
}

// What the texture shows: its image, or in stamp mode each cell by the exact rule.
Image shown(const SearchTexture& tex, int w, int h) {
  if (!tex.stamped()) return tex.image();
  Image img(w, h);
  for (std::size_t i = 0; i < std::size_t(w) * std::size_t(h); ++i)
    img.set_index(i, tex.colour_at(i));
  return img;
}

// What a shader shows from `texels` (a renderer's copy of SearchTexture::texels) by the texel
// rule, for the frame the texture was last brought to.
Image shown_from_texels(const SearchTexture& tex, const std::vector<std::uint16_t>& texels, int w,
                        int h) {
  Image img(w, h);
  for (std::size_t i = 0; i < std::size_t(w) * std::size_t(h); ++i)
    img.set_index(i, tex.texel_colour(texels[2 * i], texels[2 * i + 1]));
  return img;
}

// stamps: the texture may switch to stamps (SearchTexture::allow_stamps); `expect_stamps` says
// whether it must have by the end. prepared: the stamps are made first (SearchTexture::prepare,
// as a run's worker does), which must succeed exactly when stamps are expected. texel_bits:
// narrower texels put many frames in a bucket; *shift_out: the texel shift (-1: no stamps).
void scrub(const Trace& t, int w, int h, unsigned seed, bool stamps = false,
           bool expect_stamps = false, bool prepared = false, int texel_bits = 16,
           int* shift_out = nullptr) {
  const Style& style = Style::standard();
  TraceCursor c(t);
  SearchTexture tex;
  tex.allow_stamps(stamps, texel_bits);
  if (prepared) {
    EXPECT_EQ(tex.prepare(t, 1, w, h), expect_stamps);
    EXPECT_FALSE(tex.stamped());  // the first update paints the image
  }
  Image uploaded;  // what a renderer holds: only the dirty rectangles are copied in
  // In stamp mode: the texels a renderer holds, sent whole by a prepare (as the app adopts a
  // prepared texture) or a full update, then only the touched cells.
  std::vector<std::uint16_t> texels;
  if (prepared && expect_stamps) texels = tex.texels();
  std::mt19937 rng(seed);
  bool open = true, closed = true;
  std::size_t incremental = 0, touched = 0;
  for (int i = 0; i < 400; ++i) {
    const int what = int(rng() % 10);
    if (what < 5)
      c.seek(rng() % t.frame_count());
    else if (what < 7)
      c.step_back();
    else if (what < 9)
      c.step_forward();
    else if (rng() % 2)
      open = !open;
    else
      closed = !closed;
    const SearchTexture::Dirty d = tex.update(c.state(), 1, w, h, style, open, closed);
    if (tex.stamped()) {
      // Texels are uploaded whole once (full), then only those a move touched.
      EXPECT_TRUE(d.empty() || d.full);
      if (d.full && !(prepared && expect_stamps)) texels = tex.texels();
      ASSERT_EQ(texels.size(), tex.texels().size());
      for (std::size_t k = 0; k + 1 < tex.touched().size(); ++k)
        EXPECT_LT(tex.touched()[k], tex.touched()[k + 1]);
      for (const std::uint32_t cell : tex.touched()) {
        texels[2 * std::size_t(cell)] = tex.texels()[2 * std::size_t(cell)];
        texels[2 * std::size_t(cell) + 1] = tex.texels()[2 * std::size_t(cell) + 1];
      }
      touched += tex.touched().size();
      ++incremental;
      uploaded = shown_from_texels(tex, texels, w, h);
    } else if (d.full) {
      uploaded = tex.image();
    } else {
      ++incremental;
      for (int y = d.y0; y < d.y1; ++y)
        for (int x = d.x0; x < d.x1; ++x) uploaded.set(x, y, tex.image().at(x, y));
    }
    bool any_open = false, any_closed = false;
    const Image fresh = search_image(c.state(), w, h, style, open, closed, &any_open, &any_closed);
    expect_same(shown(tex, w, h), fresh, "kept", c.frame());
    expect_same(uploaded, fresh, "uploaded", c.frame());
    if (::testing::Test::HasFailure()) return;
    EXPECT_EQ(tex.any_open(), any_open) << c.frame();
    EXPECT_EQ(tex.any_closed(), any_closed) << c.frame();
  }
  EXPECT_GT(incremental, 200u);  // most moves did not rebuild
  EXPECT_EQ(tex.stamped(), expect_stamps);
  if (shift_out) *shift_out = tex.stamped() ? tex.texel_shift() : -1;
  // Buckets of several frames leave texels to decide on most moves.
  if (tex.stamped() && tex.texel_shift() > 0) {
    EXPECT_GT(touched, 0u);
  }
}

TEST(SearchTexture, CellsScrubbedEqualsFresh) {
  const Trace t = grid_trace(48, 32, 0, false, 1);
  ASSERT_GT(t.frame_count(), 1000u);
  scrub(t, 48, 32, 2);
}

TEST(SearchTexture, SharedCellsScrubbedEqualsFresh) {
  const Trace t = grid_trace(20, 14, 4, true, 3);
  ASSERT_GT(t.frame_count(), 500u);
  scrub(t, 20, 14, 4);
}

// One node a cell, never reopened: stamps, which show every frame as search_image does.
TEST(SearchTexture, StampsEqualFresh) {
  const Trace t = grid_trace(48, 32, 0, false, 6);
  scrub(t, 48, 32, 7, true, true);
}

// Stamps made ahead of the first move show every frame as those made at it do.
TEST(SearchTexture, PreparedStampsEqualFresh) {
  const Trace t = grid_trace(48, 32, 0, false, 10);
  scrub(t, 48, 32, 11, true, true, true);
}

// Texels too narrow for a frame index each (a million frames in 16 bits): buckets of 2^shift
// frames, the undecided cells of the frame's bucket decided on every move, and the texels a
// renderer holds (whole once, then the touched cells) show every frame exactly.
TEST(SearchTexture, BucketedTexelsEqualFresh) {
  const Trace t = grid_trace(48, 32, 0, false, 14);
  ASSERT_GT(t.frame_count(), 1000u);
  int shift = -1;
  scrub(t, 48, 32, 15, true, true, false, 16, &shift);
  EXPECT_EQ(shift, 0);  // 16 bits: every frame its own bucket
  for (const int bits : {3, 5, 8}) {
    SCOPED_TRACE(bits);
    scrub(t, 48, 32, 16 + unsigned(bits), true, true, false, bits, &shift);
    ASSERT_GT(shift, 0);
    // The narrowest buckets that fit: one shift less would not.
    EXPECT_LE(((t.frame_count() - 1) >> shift) + 1, (1u << bits) - 2);
    EXPECT_GT(((t.frame_count() - 1) >> (shift - 1)) + 1, (1u << bits) - 2);
    scrub(t, 48, 32, 30 + unsigned(bits), true, true, true, bits);  // prepared
  }
}

// The texture brought to frame f of c's trace (both moved there), and what it shows.
Image shown_at(SearchTexture& tex, TraceCursor& c, std::size_t f, int w, int h) {
  c.seek(f);
  tex.update(c.state(), 1, w, h, Style::standard(), true, true);
  return shown(tex, w, h);
}

// A texture in stamp mode over Dijkstra's trace on a w x h grid (grid_trace), and a cursor.
struct Stamped {
  Stamped(int width, int height, unsigned seed)
      : w(width), h(height), t(grid_trace(width, height, 0, false, seed)), c(t) {
    tex.allow_stamps(true);
    shown_at(tex, c, 0, w, h);
    shown_at(tex, c, 1, w, h);  // the first move switches to stamps
  }
  Image at(std::size_t f) { return shown_at(tex, c, f, w, h); }
  int w, h;
  Trace t;
  TraceCursor c;
  SearchTexture tex;
};

// A picture kept from frame a is right at frame b outside the tiles tile_changes names: every
// cell that shows otherwise lies in one of them. And they are few for a short move (a renderer
// that redrew every tile would pass the first check).
TEST(SearchTexture, ChangedTilesHoldEveryChangedCell) {
  const int w = 53, h = 38;  // not whole tiles
  Stamped st(w, h, 21);
  const SearchTexture& tex = st.tex;
  ASSERT_TRUE(tex.stamped());
  ASSERT_EQ(tex.tiles_x(), (w + SearchTexture::kTile - 1) / SearchTexture::kTile);
  ASSERT_EQ(tex.tiles_y(), (h + SearchTexture::kTile - 1) / SearchTexture::kTile);
  const std::size_t tiles = std::size_t(tex.tiles_x()) * std::size_t(tex.tiles_y());
  std::mt19937 rng(5);
  const std::size_t frames = st.t.frame_count();
  std::size_t short_moves = 0, short_tiles = 0;
  for (int i = 0; i < 300; ++i) {
    const std::size_t a = rng() % frames;
    const std::size_t b = i % 2 ? rng() % frames : std::min(frames - 1, a + rng() % 8);
    const Image before = st.at(a);
    const Image after = st.at(b);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        if (before.at(x, y) == after.at(x, y)) continue;
        const std::size_t tile = std::size_t(y / SearchTexture::kTile * tex.tiles_x() +
                                             x / SearchTexture::kTile);
        ASSERT_TRUE(tex.tile_changes(tile, a, b)) << "cell " << x << "," << y << " frames " << a
                                                  << " -> " << b;
        ASSERT_TRUE(tex.tile_changes(tile, b, a));
      }
    if (i % 2 == 0) {
      ++short_moves;
      for (std::size_t tile = 0; tile < tiles; ++tile) short_tiles += tex.tile_changes(tile, a, b);
    }
    if (a == b) {
      for (std::size_t tile = 0; tile < tiles; ++tile) EXPECT_FALSE(tex.tile_changes(tile, a, b));
    }
  }
  // A move of under 8 frames changes a handful of cells. The tiles named are more (on a map this
  // small, a tile's stamps span a large share of the frames: the search takes that long to
  // cross it), but far from all 35.
  EXPECT_LT(double(short_tiles) / double(short_moves), 0.4 * double(tiles));
}

// The pixels a view draws again (changed_rects) hold every pixel whose cell shows otherwise,
// at several zooms and offsets, the map bigger or smaller than the viewport; a short move draws
// a small part of the view again.
TEST(SearchTexture, ChangedRectsHoldEveryChangedPixel) {
  const int w = 61, h = 45;
  Stamped st(w, h, 33);
  const SearchTexture& tex = st.tex;
  ASSERT_TRUE(tex.stamped());
  struct View {
    double zoom, ox, oy;
    int width, height;
  };
  const View views[] = {{0.7, 12.5, 3.25, 80, 60},   // a cell under a pixel
                        {3.3, -20.4, 7.9, 150, 120},  // the map past the left edge
                        {13.0, -300.0, -211.6, 160, 130},
                        {1.0, 0.0, 0.0, 61, 45}};
  std::mt19937 rng(8);
  const std::size_t frames = st.t.frame_count();
  std::vector<PixelRect> rects;
  int drawn_in_part = 0, small = 0;
  for (const View& v : views) {
    for (int i = 0; i < 60; ++i) {
      const std::size_t a = rng() % frames;
      const std::size_t b = i % 3 ? std::min(frames - 1, a + rng() % 12) : rng() % frames;
      const Image before = st.at(a);
      const Image after = st.at(b);
      if (!changed_rects(tex, a, b, v.zoom, v.ox, v.oy, v.width, v.height, rects)) {
        EXPECT_TRUE(rects.empty());
        continue;
      }
      ++drawn_in_part;
      double area = 0;
      for (const PixelRect& r : rects) {
        ASSERT_TRUE(r.x0 >= 0 && r.y0 >= 0 && r.x1 <= v.width && r.y1 <= v.height);
        ASSERT_TRUE(r.x0 < r.x1 && r.y0 < r.y1);
        area += double(r.x1 - r.x0) * double(r.y1 - r.y0);
      }
      if (area < 0.3 * v.width * v.height) ++small;
      for (int py = 0; py < v.height; ++py)
        for (int px = 0; px < v.width; ++px) {
          const int cx = int(std::floor((px + 0.5 - v.ox) / v.zoom));
          const int cy = int(std::floor((py + 0.5 - v.oy) / v.zoom));
          if (cx < 0 || cy < 0 || cx >= w || cy >= h) continue;
          if (before.at(cx, cy) == after.at(cx, cy)) continue;
          bool in = false;
          for (const PixelRect& r : rects)
            in |= px >= r.x0 && px < r.x1 && py >= r.y0 && py < r.y1;
          ASSERT_TRUE(in) << "pixel " << px << "," << py << " zoom " << v.zoom << " frames " << a
                          << " -> " << b;
        }
    }
  }
  EXPECT_GT(drawn_in_part, 120);
  EXPECT_GT(small, 60);
  // Nothing moved: nothing to draw.
  EXPECT_TRUE(changed_rects(tex, 7, 7, 1.0, 0, 0, 61, 45, rects));
  EXPECT_TRUE(rects.empty());
}

// A trace that cannot be stamped is refused by prepare() and then shown from its image.
TEST(SearchTexture, PreparingSharedCellsChangesNothing) {
  const Trace t = grid_trace(20, 14, 4, true, 12);
  scrub(t, 20, 14, 13, true, false, true);
}

// Several nodes a cell: two frames a cell cannot say which is shown, so no stamps.
TEST(SearchTexture, SharedCellsHaveNoStamps) {
  const Trace t = grid_trace(20, 14, 4, true, 8);
  scrub(t, 20, 14, 9, true, false);
}

// A node reopened after it closed (an inconsistent heuristic): no stamps, the image stays right.
TEST(SearchTexture, ReopenedNodeHasNoStamps) {
  TraceRecorder rec;
  StepReporter rep(&rec);
  rec.space(NodeSpace::cells(4, 4));
  for (std::uint32_t i = 0; i < 16; ++i) {
    rep.open(i, i ? i - 1 : kNoNode, double(i), 0);
    rep.frame();
    rep.close(i);
    rep.frame();
  }
  rep.open(3, 15, 1.0, 0);  // reopened
  rep.frame();
  rep.close(3);
  rep.frame();
  rep.flush();
  const Trace t = rec.take();
  const Style& style = Style::standard();
  TraceCursor c(t);
  SearchTexture tex;
  tex.allow_stamps(true);
  for (std::size_t f = 0; f < t.frame_count(); ++f) {
    c.seek(f);
    tex.update(c.state(), 1, 4, 4, style, true, true);
    expect_same(shown(tex, 4, 4), search_image(c.state(), 4, 4, style, true, true), "kept", f);
  }
  EXPECT_FALSE(tex.stamped());
}

TEST(SearchTexture, SmallStepsTouchSmallRectangles) {
  const Trace t = grid_trace(64, 64, 0, false, 5);
  TraceCursor c(t);
  SearchTexture tex;
  c.seek(t.frame_count() / 2);
  EXPECT_TRUE(tex.update(c.state(), 7, 64, 64, Style::standard(), true, true).full);
  ASSERT_TRUE(c.step_forward());
  const SearchTexture::Dirty d = tex.update(c.state(), 7, 64, 64, Style::standard(), true, true);
  EXPECT_FALSE(d.full);
  EXPECT_LE((d.x1 - d.x0) * (d.y1 - d.y0), 9);  // one expansion: a cell and its neighbours
  EXPECT_LE(tex.last_changed(), 9u);
  // A new trace generation rebuilds.
  EXPECT_TRUE(tex.update(c.state(), 8, 64, 64, Style::standard(), true, true).full);
  // The same frame again changes nothing.
  EXPECT_TRUE(tex.update(c.state(), 8, 64, 64, Style::standard(), true, true).empty());
}

}  // namespace
}  // namespace pl

// PNG import (nearest palette colour) and export, and hostile PNG input.
#include <gtest/gtest.h>
#include <stb/stb_image_write.h>  // the test target does not get the stb include directory

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "io_test_util.hpp"

namespace fs = std::filesystem;
using pl::GridMap;
using pl::InputError;
using pl::Palette;
using pl::iotest::error_of;
using pl::iotest::random_map;
using pl::iotest::TempDir;

namespace {

void append(void* ctx, void* data, int n) { static_cast<std::string*>(ctx)->append(static_cast<char*>(data), size_t(n)); }

// Encodes raw pixels with stb_image_write, as any other tool would.
std::string encode_png(int w, int h, int comp, const std::vector<unsigned char>& px) {
  std::string out;
  EXPECT_TRUE(stbi_write_png_to_func(&append, &out, w, h, comp, px.data(), w * comp));
  return out;
}

GridMap parse(const std::string& bytes, const std::string& name = "img.png", const Palette& pal = Palette::movingai()) {
  return pl::parse_png(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), name, pal);
}

std::uint32_t crc32(const unsigned char* p, size_t n) {
  std::uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

// A PNG whose IHDR claims w x h; the chunk CRC is fixed up so only the size is a lie.
std::string with_claimed_size(std::string png, std::uint32_t w, std::uint32_t h) {
  auto put = [&](size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) png[at + static_cast<size_t>(i)] = static_cast<char>(v >> (24 - 8 * i));
  };
  put(16, w);
  put(20, h);
  put(29, crc32(reinterpret_cast<const unsigned char*>(png.data()) + 12, 17));
  return png;
}

}  // namespace

TEST(IoPng, SaveAndLoadRoundTripsEveryTerrain) {
  TempDir dir("png");
  std::mt19937 rng(21);
  const Palette custom({{"floor", 'f', "", {200, 200, 200}, 1.0, false},
                        {"mud", 'm', "", {120, 90, 40}, 2.0, false},
                        {"wall", '#', "", {0, 0, 0}, 1.0, true}});
  for (const Palette* pal : {&Palette::movingai(), &custom}) {
    for (int i = 0; i < 8; ++i) {
      GridMap m = random_map(rng, *pal, 50);
      pl::save_png(m, dir.file("m.png"));
      GridMap back = pl::load_png(dir.file("m.png"), *pal);
      EXPECT_TRUE(back.same_content(m)) << i;
    }
  }
}

TEST(IoPng, HighlyCompressedImagesPassTheSizeBound) {
  TempDir dir("png_flat");
  GridMap m(1500, 1000, 0);  // one colour: compresses very well
  m.set(1499, 999, 4);
  pl::save_png(m, dir.file("flat.png"));
  EXPECT_TRUE(pl::load_png(dir.file("flat.png")).same_content(m));
}

TEST(IoPng, BenchmarkMapRoundTripsThroughPng) {
  fs::path p = fs::path(PATHLAB_SHARED_DIR) / "data/dao/arena.map";
  if (!fs::exists(p)) GTEST_SKIP();
  TempDir dir("png_arena");
  GridMap m = pl::load_map(p.string());
  pl::save_png(m, dir.file("arena.png"));
  EXPECT_TRUE(pl::load_png(dir.file("arena.png")).same_content(m));
  pl::Scene s = pl::load_any(dir.file("arena.png"));
  EXPECT_TRUE(s.map.same_content(m));
  EXPECT_FALSE(s.map_file);  // a PNG's map is inline when saved as a scene
}

TEST(IoPng, EachPixelTakesTheNearestPaletteColour) {
  const Palette& pal = Palette::movingai();
  // Slightly off colours of ground, trees, water and hard, plus pure white and black; and
  // grey+alpha and palette-indexed inputs decode through the same path.
  std::vector<unsigned char> px = {230, 210, 185, 50, 115, 48, 60, 125, 205, 25, 35, 30, 255, 255, 255, 0, 0, 0};
  GridMap m = parse(encode_png(3, 2, 3, px));
  ASSERT_EQ(m.width(), 3);
  ASSERT_EQ(m.height(), 2);
  EXPECT_EQ(m.at(0, 0), *pal.find_name("ground"));
  EXPECT_EQ(m.at(1, 0), *pal.find_name("trees"));
  EXPECT_EQ(m.at(2, 0), *pal.find_name("water"));
  EXPECT_EQ(m.at(0, 1), *pal.find_name("hard"));
  EXPECT_EQ(m.at(1, 1), *pal.find_name("ground"));
  EXPECT_EQ(m.at(2, 1), *pal.find_name("hard"));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(m.at(i % 3, i / 3), pal.nearest_colour({px[3 * size_t(i)], px[3 * size_t(i) + 1], px[3 * size_t(i) + 2]}));

  GridMap grey = parse(encode_png(2, 1, 2, {250, 255, 10, 255}));
  EXPECT_EQ(grey.at(0, 0), *pal.find_name("ground"));
  EXPECT_EQ(grey.at(1, 0), *pal.find_name("hard"));
}

TEST(IoPng, MalformedInputIsRejectedWithTheFileName) {
  const std::string good = encode_png(4, 3, 3, std::vector<unsigned char>(36, 200));
  ASSERT_NO_THROW(parse(good));

  EXPECT_CONTAINS(error_of([] { parse("", "e.png"); }), "e.png: not a PNG");
  EXPECT_CONTAINS(error_of([] { parse("type octile\nheight 1\n", "m.png"); }), "m.png: not a PNG");
  // Another format stb_image could read is still refused.
  EXPECT_CONTAINS(error_of([] { parse(std::string("BM") + std::string(60, '\0'), "b.png"); }), "not a PNG");
  EXPECT_CONTAINS(error_of([&] { parse(good.substr(0, 8), "t.png"); }), "t.png: cannot read PNG");
  EXPECT_CONTAINS(error_of([&] { parse(good.substr(0, good.size() / 2), "h.png"); }), "h.png: cannot decode PNG");
  std::string garbage = good.substr(0, 8);
  for (int i = 0; i < 100; ++i) garbage += static_cast<char>(i * 37);
  EXPECT_CONTAINS(error_of([&] { parse(garbage, "g.png"); }), "g.png");

  // Sizes beyond kMaxMapSide are refused from the header alone.
  std::string msg = error_of([&] { parse(with_claimed_size(good, 20000, 3), "w.png"); });
  EXPECT_CONTAINS(msg, "w.png: PNG is 20000x3");
  EXPECT_CONTAINS(msg, "1..16384");
  EXPECT_CONTAINS(error_of([&] { parse(with_claimed_size(good, 1u << 30, 1u << 30), "x.png"); }), "x.png");
  // Legal sizes that a file of this length cannot hold are refused before decoding.
  EXPECT_CONTAINS(error_of([&] { parse(with_claimed_size(good, 16000, 16000), "big.png"); }),
                  "more than a file of");
  // A lie the bound lets through still fails cleanly in the decoder.
  EXPECT_CONTAINS(error_of([&] { parse(with_claimed_size(good, 100, 100), "lie.png"); }), "lie.png: cannot decode");
}

TEST(IoPng, LoadErrorsNameThePath) {
  TempDir dir("png_bad");
  pl::write_file_atomic(dir.file("a.png"), "not a png at all");
  EXPECT_CONTAINS(error_of([&] { pl::load_png(dir.file("a.png")); }), dir.file("a.png") + ": not a PNG");
  EXPECT_CONTAINS(error_of([&] { pl::load_any(dir.file("missing.png")); }), dir.file("missing.png"));
  EXPECT_CONTAINS(error_of([&] { pl::save_png(GridMap(0, 3), dir.file("e.png")); }), "empty map");
}

TEST(IoPng, MutatedInputNeverEscapesAsAnotherError) {
  std::mt19937 rng(77);
  GridMap m = random_map(rng, Palette::movingai(), 50);
  TempDir dir("png_mut");
  pl::save_png(m, dir.file("m.png"));
  const std::string good = pl::read_file(dir.file("m.png"));
  for (size_t cut = 0; cut < good.size(); ++cut) {
    try {
      parse(good.substr(0, cut));
    } catch (const InputError&) {
    }
  }
  for (int i = 0; i < 2000; ++i) {
    std::string t = good;
    for (int k = 0; k < 1 + i % 4; ++k) t[8 + rng() % (t.size() - 8)] = static_cast<char>(rng() % 256);
    try {
      GridMap back = parse(t);
      EXPECT_LE(back.cell_count(), 16384L * 16384L);
    } catch (const InputError&) {
    }
  }
}

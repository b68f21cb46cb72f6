// MovingAI .map reading and writing, the shared file helpers, and load_any for maps.
#include <gtest/gtest.h>

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
using pl::iotest::shared_files;
using pl::iotest::TempDir;

namespace {

Palette custom_palette() {
  return Palette({{"floor", 'f', "F", {200, 200, 200}, 1.0, false},
                  {"mud", 'm', "", {120, 90, 40}, 2.5, false},
                  {"ice", '~', "", {180, 220, 250}, 0.5, false},
                  {"wall", '#', "X", {10, 10, 10}, 1.0, true}});
}

}  // namespace

TEST(IoMap, RandomMapsRoundTripWithEveryTerrain) {
  std::mt19937 rng(12345);
  const Palette custom = custom_palette();
  for (const Palette* pal : {&Palette::movingai(), &custom}) {
    for (int i = 0; i < 30; ++i) {
      GridMap m = random_map(rng, *pal, 70);
      std::string text = pl::format_map(m);
      GridMap back = pl::parse_map(text, "r.map", *pal);
      ASSERT_TRUE(back.same_content(m)) << "round " << i;
      EXPECT_EQ(pl::format_map(back), text);
    }
  }
}

TEST(IoMap, FormatIsTheMovingAiLayout) {
  GridMap m(3, 2);
  m.set(1, 0, 2);  // trees
  m.set(2, 1, 4);  // hard
  EXPECT_EQ(pl::format_map(m), "type octile\nheight 2\nwidth 3\nmap\n.T.\n..@\n");
}

TEST(IoMap, AliasesReadAsTheirTerrainAndWriteAsItsSymbol) {
  GridMap m = pl::parse_map("type octile\nheight 1\nwidth 4\nmap\nG.OS\n", "a.map");
  EXPECT_EQ(m.at(0, 0), 0);
  EXPECT_EQ(m.at(2, 0), 4);
  EXPECT_EQ(m.at(3, 0), 1);
  EXPECT_EQ(pl::format_map(m), "type octile\nheight 1\nwidth 4\nmap\n..@S\n");
}

TEST(IoMap, ToleratesHeaderOrderCrlfBomAndTrailingBlanks) {
  GridMap ref = pl::parse_map("type octile\nheight 2\nwidth 3\nmap\n.T.\n@.W\n", "ref.map");
  for (std::string text : {
           std::string("width 3\r\ntype octile\r\nheight 2\r\nmap\r\n.T.\r\n@.W\r\n"),
           std::string("\xEF\xBB\xBFtype octile\nheight 2\nwidth 3\nmap\n.T.\n@.W"),
           std::string("type  octile \nheight\t2\nwidth 3  \n\nmap\n.T.   \n@.W\t\n\n\n  \n"),
           std::string("height 2\nwidth 3\ntype octile\nmap\n.T.\n@.W\n"),
       }) {
    GridMap m = pl::parse_map(text, "t.map");
    EXPECT_TRUE(m.same_content(ref)) << text;
  }
}

TEST(IoMap, ZeroSizedMapRoundTrips) {
  GridMap m(0, 0);
  GridMap back = pl::parse_map(pl::format_map(m), "z.map");
  EXPECT_EQ(back.width(), 0);
  EXPECT_EQ(back.height(), 0);
}

TEST(IoMap, EveryBenchmarkMapLoadsAndWritesBackByteForByte) {
  auto maps = shared_files(".map");
  if (maps.empty()) GTEST_SKIP() << "no shared data at " PATHLAB_SHARED_DIR;
  EXPECT_GE(maps.size(), 128u);
  for (const auto& p : maps) {
    std::string text = pl::read_file(p.string());
    GridMap m = pl::load_map(p.string());
    EXPECT_GT(m.width(), 0) << p;
    // The benchmark files use LF, the header order we write and only '.', 'T', '@'.
    EXPECT_EQ(pl::format_map(m), text) << p;
  }
}

TEST(IoMap, SaveAndLoadThroughAFile) {
  TempDir dir("map");
  std::mt19937 rng(7);
  GridMap m = random_map(rng, Palette::movingai(), 40);
  pl::save_map(m, dir.file("a.map"));
  EXPECT_TRUE(pl::load_map(dir.file("a.map")).same_content(m));
  // Saving again replaces the file and leaves no temporary behind.
  GridMap m2 = random_map(rng, Palette::movingai(), 40);
  pl::save_map(m2, dir.file("a.map"));
  EXPECT_TRUE(pl::load_map(dir.file("a.map")).same_content(m2));
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++files;
  EXPECT_EQ(files, 1);
}

TEST(IoMap, LoadAnyOpensAMapAsASceneReferencingIt) {
  TempDir dir("anymap");
  GridMap m(5, 4);
  m.set(2, 2, 4);
  pl::save_map(m, dir.file("arena.map"));
  pl::Scene s = pl::load_any(dir.file("arena.map"));
  EXPECT_TRUE(s.map.same_content(m));
  ASSERT_TRUE(s.map_file.has_value());
  EXPECT_EQ(*s.map_file, "arena.map");
  // A scene saved next to the map references it and loads the same map back.
  pl::save_scene(s, dir.file("arena.json"));
  pl::Scene back = pl::load_any(dir.file("arena.json"));
  EXPECT_TRUE(back.map.same_content(m));
  EXPECT_EQ(back.map_file, s.map_file);
}

TEST(IoFile, ReadFileErrorsNameThePath) {
  TempDir dir("read");
  std::string missing = dir.file("nope.map");
  EXPECT_CONTAINS(error_of([&] { pl::read_file(missing); }), missing);
  EXPECT_CONTAINS(error_of([&] { pl::read_file(dir.path.string()); }), "not a regular file");
  pl::write_file_atomic(dir.file("big.txt"), std::string(1000, 'x'));
  EXPECT_EQ(pl::read_file(dir.file("big.txt"), 1000).size(), 1000u);
  std::string msg = error_of([&] { pl::read_file(dir.file("big.txt"), 999); });
  EXPECT_CONTAINS(msg, dir.file("big.txt"));
  EXPECT_CONTAINS(msg, "too large");
  EXPECT_CONTAINS(error_of([&] { pl::load_map("/dev/zero"); }), "/dev/zero");
}

TEST(IoFile, WriteFileAtomicReportsThePath) {
  TempDir dir("write");
  std::string bad = dir.file("no/such/dir/x.map");
  EXPECT_CONTAINS(error_of([&] { pl::write_file_atomic(bad, "abc"); }), bad);
  pl::write_file_atomic(dir.file("x.txt"), std::string("a\0b", 3));
  EXPECT_EQ(pl::read_file(dir.file("x.txt")), std::string("a\0b", 3));
}

struct BadMap {
  std::string text;
  std::vector<std::string> expect;  // substrings of the message
};

TEST(IoMap, MalformedInputIsRejectedWithFileAndLine) {
  const std::string hdr = "type octile\nheight 2\nwidth 3\nmap\n";
  const std::vector<BadMap> cases = {
      {"", {"bad.map: ", "empty"}},
      {"\n\n  \n", {"bad.map", "empty"}},
      {"type octile\nheight 2\nwidth 3\n", {"bad.map:3:", "no 'map' line"}},
      {"type hex\nheight 2\nwidth 3\nmap\n...\n...\n", {"bad.map:1:", "hex"}},
      {"P6\n3 2\n255\n", {"bad.map:1:", "not a MovingAI map"}},
      {"type octile\nheight 2\nwidth 3\nfoo 7\nmap\n", {"bad.map:4:", "unexpected header"}},
      {"type octile\nheight 2\nheight 2\nwidth 3\nmap\n", {"bad.map:3:", "duplicate"}},
      {"type octile\nwidth 3\nmap\n...\n", {"bad.map:3:", "missing 'height'"}},
      {"height 2\nwidth 3\nmap\n...\n...\n", {"bad.map:3:", "missing 'type"}},
      {"type octile\nheight -2\nwidth 3\nmap\n", {"bad.map:2:", "bad height"}},
      {"type octile\nheight 2x\nwidth 3\nmap\n", {"bad.map:2:", "bad height"}},
      {"type octile\nheight 2\nwidth 0x3\nmap\n", {"bad.map:3:", "bad width"}},
      {"type octile\nheight\nwidth 3\nmap\n", {"bad.map:2:", "bad height"}},
      {"type octile\nheight 99999999999999999999\nwidth 3\nmap\n", {"bad.map:2:", "bad height"}},
      {"type octile\nheight 1000000000\nwidth 1000000000\nmap\n", {"bad.map:2:", "16384"}},
      {"type octile\nheight 16385\nwidth 1\nmap\n", {"bad.map:2:"}},
      // Legal sizes, but far more cells than bytes: rejected before allocating.
      {"type octile\nheight 16384\nwidth 16384\nmap\n...\n", {"bad.map:4:", "truncated"}},
      {hdr + "...\n", {"bad.map:4:", "truncated", "header says 3x2"}},
      {"type octile\nheight 3\nwidth 1\nmap\n.\n.\n", {"bad.map:6:", "truncated", "found 2"}},
      {hdr, {"bad.map:4:", "truncated"}},
      {hdr + "...\n..\n", {"bad.map:6:", "row 1 is too short"}},
      {hdr + "....\n...\n", {"bad.map:5:", "row 0 is too long"}},
      {hdr + "...\n.X.\n", {"bad.map:6:", "column 2", "'X'"}},
      {hdr + "...\n.\x01.\n", {"bad.map:6:", "column 2", "0x01"}},
      {hdr + "...\n...\n...\n", {"bad.map:7:", "extra text"}},
      {hdr + "map\n...\n...\n", {"bad.map:5:", "column 1", "'m'"}},
      {"type octile\nheight 1\nwidth 3\nmap extra\n...\n", {"bad.map:4:"}},
  };
  for (const auto& c : cases) {
    std::string msg = error_of([&] { pl::parse_map(c.text, "bad.map"); });
    for (const auto& e : c.expect) EXPECT_CONTAINS(msg, e) << "input: " << c.text;
  }
}

TEST(IoMap, LoadMapErrorsNameTheFile) {
  TempDir dir("badmap");
  pl::write_file_atomic(dir.file("broken.map"), "type octile\nheight 2\nwidth 2\nmap\n..\n.?\n");
  std::string msg = error_of([&] { pl::load_map(dir.file("broken.map")); });
  EXPECT_CONTAINS(msg, dir.file("broken.map") + ":6: column 2");
}

// Truncations, byte flips and garbage: always a map or an InputError, nothing else.
TEST(IoMap, MutatedInputNeverEscapesAsAnotherError) {
  std::mt19937 rng(99);
  GridMap m = random_map(rng, Palette::movingai(), 12);
  const std::string good = pl::format_map(m);
  for (size_t cut = 0; cut < good.size(); ++cut) {
    try {
      pl::parse_map(good.substr(0, cut), "cut.map");
    } catch (const InputError&) {
    }
  }
  std::uniform_int_distribution<int> byte(0, 255);
  for (int i = 0; i < 3000; ++i) {
    std::string t = good;
    int flips = 1 + i % 4;
    for (int k = 0; k < flips; ++k) t[static_cast<size_t>(rng() % t.size())] = static_cast<char>(byte(rng));
    try {
      GridMap back = pl::parse_map(t, "flip.map");
      EXPECT_LE(back.cell_count(), static_cast<long>(t.size()));
    } catch (const InputError&) {
    }
  }
  for (int i = 0; i < 200; ++i) {
    std::string garbage(static_cast<size_t>(rng() % 300), '\0');
    for (char& c : garbage) c = static_cast<char>(byte(rng));
    EXPECT_THROW(pl::parse_map(garbage, "garbage.map"), InputError);
  }
}

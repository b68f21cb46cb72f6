// The JSON scene file: the minimal form, full round trips, map references, and bad input.
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
using pl::Scene;
using pl::iotest::error_of;
using pl::iotest::random_map;
using pl::iotest::TempDir;

namespace {

const char* kMinimal = R"({"pathlab_scene": 1,
 "map": {"width": 4, "height": 2, "rows": ["..T.", "@@.."]},
 "circles": [{"x": 10.5, "y": 20.0, "r": 3.0}],
 "agents": [{"name": "tank", "size": 2, "capability": ["ground", "swamp"], "radius": 0.5,
             "turning_radius": 2.0, "start": [1.5, 1.5, 0.0], "goal": [30.5, 12.5, 1.57]}]})";

void expect_same_scene(const Scene& a, const Scene& b) {
  EXPECT_TRUE(a.map.same_content(b.map));
  EXPECT_EQ(a.map_file, b.map_file);
  EXPECT_EQ(a.circles, b.circles);
  EXPECT_EQ(a.agents, b.agents);
  EXPECT_EQ(a.views, b.views);
  EXPECT_EQ(a.view_json, b.view_json);
  EXPECT_EQ(a.unknown_fields, b.unknown_fields);
}

Palette custom_palette() {
  return Palette({{"floor", 'f', "F", {200, 200, 200}, 1.0, false},
                  {"mud", 'm', "", {120, 90, 40}, 2.5, false},
                  {"ice", '~', "i", {180, 220, 250}, 0.5, false},
                  {"wall", '#', "X", {10, 10, 10}, 1.0, true},
                  {"pit", 'o', "", {0, 0, 0}, 1.0, true}});
}

Scene random_scene(std::mt19937& rng, const Palette& pal) {
  std::uniform_real_distribution<double> u(-50, 250);
  Scene s;
  s.map = random_map(rng, pal, 40);
  for (int i = 0; i < 5; ++i) s.circles.push_back({u(rng), u(rng), 0.1 + std::abs(u(rng))});
  for (int i = 0; i < 3; ++i) {
    pl::Agent a;
    a.name = "agent \"" + std::to_string(i) + "\" \xc3\xa9";  // quotes and UTF-8
    a.size = 1 + i;
    a.capability = i == 0 ? 0 : pal.all_passable() & ~(pl::CapabilityMask(1) << i);
    a.radius = std::abs(u(rng));
    a.turning_radius = i * 1.25;
    a.can_reverse = i % 2 == 1;
    a.start = {u(rng), u(rng), u(rng) / 100};
    a.goal = {u(rng), u(rng), 0.1 * i};
    s.agents.push_back(a);
  }
  s.views.push_back({"astar", {}, 0});
  s.views.push_back({"haa", {{"quality", "lq"}, {"cluster_size", "15"}}, 2});
  s.view_json = R"({"zoom":2.5,"center":[10,20],"layers":{"grid":true}})";
  s.unknown_fields["future_thing"] = R"({"b":[1,2,{"c":null}],"a":"x"})";
  s.unknown_fields["comment"] = R"("made by a test")";
  return s;
}

}  // namespace

TEST(IoScene, MinimalFormFromTheDesignReads) {
  Scene s = pl::parse_scene(kMinimal, "min.json", "");
  ASSERT_EQ(s.map.width(), 4);
  ASSERT_EQ(s.map.height(), 2);
  EXPECT_EQ(s.map.at(2, 0), *Palette::movingai().find_name("trees"));
  EXPECT_EQ(s.map.at(0, 1), *Palette::movingai().find_name("hard"));
  EXPECT_EQ(s.map.at(3, 1), 0);
  EXPECT_FALSE(s.map_file);
  ASSERT_EQ(s.circles.size(), 1u);
  EXPECT_EQ(s.circles[0], (pl::Circle{10.5, 20.0, 3.0}));
  ASSERT_EQ(s.agents.size(), 1u);
  const pl::Agent& a = s.agents[0];
  EXPECT_EQ(a.name, "tank");
  EXPECT_EQ(a.size, 2);
  EXPECT_EQ(a.capability, Palette::movingai().parse_capability("ground,swamp"));
  EXPECT_EQ(a.radius, 0.5);
  EXPECT_EQ(a.turning_radius, 2.0);
  EXPECT_FALSE(a.can_reverse);
  EXPECT_EQ(a.start, (pl::Pose{1.5, 1.5, 0.0}));
  EXPECT_EQ(a.goal, (pl::Pose{30.5, 12.5, 1.57}));
  EXPECT_TRUE(s.views.empty());
  EXPECT_TRUE(s.view_json.empty());
  EXPECT_TRUE(s.unknown_fields.empty());
}

TEST(IoScene, WidthAndHeightAloneIsAllGround) {
  Scene s = pl::parse_scene(R"({"pathlab_scene": 1, "map": {"width": 7, "height": 3}})", "g.json", "");
  EXPECT_EQ(s.map.width(), 7);
  EXPECT_EQ(s.map.height(), 3);
  for (auto t : s.map.cells()) EXPECT_EQ(t, 0);
}

TEST(IoScene, FullSceneRoundTripsExactly) {
  std::mt19937 rng(11);
  const Palette custom = custom_palette();
  for (const Palette* pal : {&Palette::movingai(), &custom}) {
    for (int i = 0; i < 10; ++i) {
      Scene s = random_scene(rng, *pal);
      std::string text = pl::format_scene(s);
      Scene back = pl::parse_scene(text, "rt.json", "");
      expect_same_scene(back, s);
      EXPECT_TRUE(back.map.palette() == *pal);
      EXPECT_EQ(pl::format_scene(back), text);
    }
  }
}

TEST(IoScene, WrittenFileIsReadableJsonWithOneAgentPerLine) {
  std::mt19937 rng(1);
  Scene s = random_scene(rng, Palette::movingai());
  std::string text = pl::format_scene(s);
  EXPECT_EQ(text.rfind("{\n  \"pathlab_scene\": 1,\n  \"map\": {\n", 0), 0u) << text;
  size_t agent_lines = 0;
  for (size_t p = text.find("\n    {\"name\": "); p != std::string::npos; p = text.find("\n    {\"name\": ", p + 1))
    ++agent_lines;
  EXPECT_EQ(agent_lines, s.agents.size());
}

TEST(IoScene, MapFileReferenceIsRelativeToTheScene) {
  TempDir dir("scene_ref");
  fs::create_directories(dir.path / "maps");
  GridMap m(6, 5);
  m.set(3, 4, 2);
  pl::save_map(m, dir.file("maps/arena.map"));
  pl::write_file_atomic(dir.file("s.json"),
                        R"({"pathlab_scene": 1, "map": {"file": "maps/arena.map"}, "agents": [{"size": 1}]})");
  Scene s = pl::load_scene(dir.file("s.json"));
  EXPECT_TRUE(s.map.same_content(m));
  ASSERT_TRUE(s.map_file);
  EXPECT_EQ(*s.map_file, "maps/arena.map");
  std::string text = pl::format_scene(s);
  EXPECT_NE(text.find("\"file\": \"maps/arena.map\""), std::string::npos) << text;
  EXPECT_EQ(text.find("rows"), std::string::npos);
  pl::save_scene(s, dir.file("s2.json"));
  expect_same_scene(pl::load_scene(dir.file("s2.json")), s);

  // A missing or broken map names the scene, the line and the map.
  pl::write_file_atomic(dir.file("bad.json"), "{\"pathlab_scene\": 1,\n \"map\": {\"file\": \"nope.map\"}}");
  std::string msg = error_of([&] { pl::load_scene(dir.file("bad.json")); });
  EXPECT_CONTAINS(msg, dir.file("bad.json") + ":2: map.file: cannot load the map");
  EXPECT_CONTAINS(msg, "nope.map");
  pl::write_file_atomic(dir.file("maps/broken.map"), "type octile\nheight 1\nwidth 2\nmap\n.Q\n");
  pl::write_file_atomic(dir.file("bad2.json"), R"({"pathlab_scene": 1, "map": {"file": "maps/broken.map"}})");
  msg = error_of([&] { pl::load_scene(dir.file("bad2.json")); });
  EXPECT_CONTAINS(msg, "broken.map:5: column 2");
  // Width and height next to a file must agree with it.
  pl::write_file_atomic(dir.file("bad3.json"),
                        R"({"pathlab_scene": 1, "map": {"file": "maps/arena.map", "width": 7}})");
  EXPECT_CONTAINS(error_of([&] { pl::load_scene(dir.file("bad3.json")); }), "6x5");
}

TEST(IoScene, SavedSceneLoadsThroughLoadAny) {
  TempDir dir("scene_any");
  std::mt19937 rng(4);
  Scene s = random_scene(rng, custom_palette());
  pl::save_scene(s, dir.file("a.scene"));
  expect_same_scene(pl::load_any(dir.file("a.scene")), s);
}

TEST(IoScene, NewerVersionsAreRejectedClearly) {
  std::string msg = error_of([] {
    pl::parse_scene(R"({"pathlab_scene": 2, "map": {"width": 1, "height": 1}, "warp": 9})", "new.json", "");
  });
  EXPECT_CONTAINS(msg, "new.json:1: pathlab_scene: this is a version 2 scene file");
  EXPECT_CONTAINS(msg, "use a newer pathlab");
  EXPECT_CONTAINS(error_of([] { pl::parse_scene(R"({"map": {"width": 1, "height": 1}})", "x.json", ""); }),
                  "missing \"pathlab_scene\"");
  EXPECT_CONTAINS(error_of([] { pl::parse_scene(R"({"pathlab_scene": 0, "map": {}})", "x.json", ""); }),
                  "pathlab_scene: must be a whole number");
}

TEST(IoScene, SemanticErrorsNameFileLineAndPath) {
  struct Bad {
    std::string text;
    std::vector<std::string> expect;
  };
  const std::string head = "{\"pathlab_scene\": 1,\n \"map\": {\"width\": 3, \"height\": 2},\n";
  const std::vector<Bad> cases = {
      {head + R"( "agents": [{"size": 1},
   {"name": "b",
    "size": 0}]})",
       {"s.json:5: agents[1].size: must be >= 1"}},
      {head + R"( "agents": [{"size": 1.5}]})", {"s.json:3: agents[0].size: must be a whole number"}},
      {head + R"( "agents": [{"capability": ["ground", "lava"]}]})", {"s.json:3:", "agents[0].capability[1]", "lava"}},
      {head + R"( "agents": [{"capability": ["hard"]}]})", {"s.json:3:", "hard obstacle"}},
      {head + R"( "agents": [{"capability": []}]})", {"agents[0].capability", "at least one"}},
      {head + R"( "agents": [{"start": [1, 2, 3, 4]}]})", {"agents[0].start", "[x, y]"}},
      {head + R"( "agents": [{"start": [1, "2"]}]})", {"agents[0].start[1]", "found a string"}},
      {head + R"( "agents": [{"radius": -1}]})", {"agents[0].radius", ">= 0"}},
      {head + R"( "agents": [{"sise": 2}]})", {"s.json:3:", "agents[0].sise: unknown field"}},
      {head + R"( "agents": [{"can_reverse": 1}]})", {"agents[0].can_reverse", "true or false"}},
      {head + R"( "agents": {"size": 2}})", {"agents: expected an array, found an object"}},
      {head + "\n\n \"circles\": [{\"x\": 1, \"y\": 2, \"r\": 0}]}", {"s.json:5: circles[0].r: must be > 0"}},
      {head + R"( "circles": [{"x": 1, "y": 2}]})", {"circles[0]: missing 'r'"}},
      {head + R"( "circles": [{"x": 1, "y": 2, "r": 1e999}]})", {"s.json: ", "number overflow"}},
      {head + R"( "circles": [{"x": null, "y": 2, "r": 1}]})", {"circles[0].x: expected a number, found null"}},
      {head + R"( "views": [{"planner": "astar", "agent": 1}]})", {"views[0].agent"}},
      {head + R"( "views": [{"planner": "", "params": {}}]})", {"views[0].planner: empty"}},
      {head + R"( "views": [{"params": {"k": [1]}}]})", {"views[0].params.k: expected a string"}},
      {head + R"( "view": [1, 2]})", {"view: expected an object"}},
      {head + R"( "palette": []})", {"palette: needs 1 to 32"}},
      {head + R"( "palette": [{"name": "a", "symbol": "."}, {"name": "b", "symbol": "."}]})",
       {"palette[1].symbol", "already belongs to terrain 'a'"}},
      {head + R"( "palette": [{"name": "a", "symbol": ".", "aliases": "."}]})", {"palette[0].aliases", "given twice"}},
      {head + R"( "palette": [{"name": "a", "symbol": " "}]})", {"palette[0].symbol", "visible ASCII"}},
      {head + R"( "palette": [{"name": "a,b", "symbol": "x"}]})", {"palette[0].name", "commas"}},
      {head + R"( "palette": [{"name": "a", "symbol": "x", "colour": [1, 2, 256]}]})", {"palette[0].colour[2]"}},
      {head + R"( "palette": [{"name": "a", "symbol": "x", "cost": 0}]})", {"palette[0].cost", "> 0"}},
      {head + R"( "palette": [{"name": "a", "symbol": "xy"}]})", {"palette[0].symbol", "exactly one"}},
      {"{\"pathlab_scene\": 1}", {"s.json:1: missing 'map'"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"width\": 3}}", {"map: missing 'height'"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"width\": 3, \"height\": 1e9}}", {"map.height", "0..16384"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"width\": -1, \"height\": 1}}", {"map.width", "0..16384"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"width\": 99999999999999999999, \"height\": 1}}", {"map.width"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"width\": 3, \"height\": 2, \"rows\": [\"...\"]}}",
       {"map.rows: 1 rows, but the height is 2"}},
      {"{\"pathlab_scene\": 1,\n\"map\": {\"width\": 3, \"height\": 2, \"rows\": [\n\"...\",\n\"....\"]}}",
       {"s.json:4: map.rows[1]: row has 4 characters"}},
      {"{\"pathlab_scene\": 1,\n\"map\": {\"width\": 3, \"height\": 2, \"rows\": [\n\"...\",\n\".Q.\"]}}",
       {"s.json:4: map.rows[1]: column 2: unknown terrain character 'Q'"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"width\": 1, \"height\": 1, \"rows\": [7]}}", {"map.rows[0]: expected a string"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"file\": \"a.map\", \"rows\": []}}", {"map.file", "not both"}},
      {"{\"pathlab_scene\": 1, \"map\": {\"width\": 1, \"height\": 1, \"depth\": 1}}", {"map.depth: unknown field"}},
      {"[1, 2]", {"s.json:1: a scene file is a JSON object, found an array"}},
      {"\"text\"", {"s.json:1: a scene file is a JSON object"}},
  };
  for (const auto& c : cases) {
    std::string msg = error_of([&] { pl::parse_scene(c.text, "s.json", ""); });
    for (const auto& e : c.expect) EXPECT_CONTAINS(msg, e) << "input: " << c.text;
  }
}

TEST(IoScene, SyntaxErrorsGiveTheLine) {
  struct Bad {
    std::string text;
    std::string expect;
  };
  const std::vector<Bad> cases = {
      {"", "syn.json:1: invalid JSON"},
      {"{\"pathlab_scene\": 1,\n \"map\": {\"width\": 3,\n \"height\": x}}", "syn.json:3: invalid JSON"},
      {"{\"pathlab_scene\": 1,\n\n\n \"map\": {\"width\": 3, \"height\": 2}", "syn.json:4: invalid JSON"},
      {"{\"pathlab_scene\": 1,\n \"map\": \"unterminated\n\"}", "syn.json:2: invalid JSON"},
      {"{\"pathlab_scene\": 1} trailing", "syn.json:1: invalid JSON"},
      {"{\"a\": \"\xff\xfe\"}", "syn.json:1: invalid JSON"},
      {"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "syn.json:1: invalid JSON"},
      {"{\"pathlab_scene\": 1, // comment\n}", "syn.json:1: invalid JSON"},
      {"\n\n" + std::string(5000, '[') + std::string(5000, ']'), "syn.json:3: JSON nested deeper than 100"},
  };
  for (const auto& c : cases) EXPECT_CONTAINS(error_of([&] { pl::parse_scene(c.text, "syn.json", ""); }), c.expect);
}

TEST(IoScene, UnknownTopLevelFieldsAreKeptVerbatim) {
  Scene s = pl::parse_scene(
      R"({"pathlab_scene": 1, "zeta": [3, {"k": "v"}], "map": {"width": 1, "height": 1}, "alpha": {"x": 1.5}})",
      "u.json", "");
  ASSERT_EQ(s.unknown_fields.size(), 2u);
  EXPECT_EQ(s.unknown_fields["zeta"], R"([3,{"k":"v"}])");
  EXPECT_EQ(s.unknown_fields["alpha"], R"({"x":1.5})");
  Scene back = pl::parse_scene(pl::format_scene(s), "u2.json", "");
  EXPECT_EQ(back.unknown_fields, s.unknown_fields);
}

TEST(IoScene, ParamValuesBecomeText) {
  Scene s = pl::parse_scene(
      R"({"pathlab_scene": 1, "map": {"width": 2, "height": 2}, "agents": [{}, {}],
          "views": [{"planner": "haa", "params": {"quality": "lq", "cluster_size": 15, "w": 1.5, "b": true}, "agent": 1}]})",
      "p.json", "");
  ASSERT_EQ(s.views.size(), 1u);
  EXPECT_EQ(s.views[0].agent, 1);
  EXPECT_EQ(s.views[0].params.at("quality"), "lq");
  EXPECT_EQ(s.views[0].params.at("cluster_size"), "15");
  EXPECT_EQ(s.views[0].params.at("w"), "1.5");
  EXPECT_EQ(s.views[0].params.at("b"), "true");
}

// Truncations and byte flips of a valid file: a scene or an InputError, nothing else.
TEST(IoScene, MutatedInputNeverEscapesAsAnotherError) {
  std::mt19937 rng(8);
  Scene s = random_scene(rng, custom_palette());
  s.map = GridMap(5, 3, 0, custom_palette());
  const std::string good = pl::format_scene(s);
  for (size_t cut = 0; cut + 1 < good.size(); cut += 3) {  // all but the final newline
    EXPECT_THROW(pl::parse_scene(good.substr(0, cut), "cut.json", ""), InputError);
  }
  for (int i = 0; i < 3000; ++i) {
    std::string t = good;
    for (int k = 0; k < 1 + i % 3; ++k) t[rng() % t.size()] = static_cast<char>(rng() % 256);
    try {
      pl::parse_scene(t, "flip.json", "/nonexistent");
    } catch (const InputError&) {
    }
  }
}

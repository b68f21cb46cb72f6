// The headless editor model: undo/redo of every tool restores the scene exactly, random edit
// sequences undo and redo to the right scenes (checked against a model after every action),
// brush strokes merge, version and dirty follow their rules, history memory is bounded, the
// tools paint what they say, and the camera keeps its invariants.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "editor/camera.hpp"
#include "editor/document.hpp"
#include "editor/tools.hpp"

namespace pl::editor {
namespace {

constexpr TerrainId kGround = 0, kSwamp = 1, kTrees = 2, kWater = 3, kHard = 4;

// A small scene with every terrain, a few circles and two agents.
Scene sample_scene(std::uint32_t seed, int w = 24, int h = 18) {
  std::mt19937 rng(seed);
  Scene s;
  s.map = GridMap(w, h);
  std::vector<TerrainId> cells(size_t(w) * h);
  for (auto& c : cells) c = TerrainId(rng() % 3 == 0 ? rng() % 5 : 0);
  s.map.assign(cells);
  s.map_file = "arena.map";
  s.circles = {{3.5, 4.0, 1.5}, {10.0, 9.0, 2.0}, {20.0, 3.0, 0.75}};
  Agent a;
  a.name = "scout";
  a.start = {1.5, 1.5, 0.0};
  a.goal = {20.5, 15.5, 1.0};
  Agent b;
  b.name = "tank";
  b.size = 2;
  b.capability = 0b11;
  b.radius = 0.9;
  b.turning_radius = 2.0;
  b.start = {5.5, 12.5, 3.0};
  b.goal = {18.5, 2.5, 0.5};
  s.agents = {a, b};
  return s;
}

// Scenes are compared as a whole, with a message naming the first part that differs.
testing::AssertionResult same_scene(const Scene& a, const Scene& b) {
  if (a.map.width() != b.map.width() || a.map.height() != b.map.height())
    return testing::AssertionFailure() << "map size " << a.map.width() << "x" << a.map.height()
                                       << " vs " << b.map.width() << "x" << b.map.height();
  if (!(a.map.palette() == b.map.palette())) return testing::AssertionFailure() << "palette";
  if (a.map.cells() != b.map.cells()) {
    for (size_t i = 0; i < a.map.cells().size(); ++i)
      if (a.map.cells()[i] != b.map.cells()[i])
        return testing::AssertionFailure()
               << "cell " << i % size_t(a.map.width()) << "," << i / size_t(a.map.width()) << ": "
               << int(a.map.cells()[i]) << " vs " << int(b.map.cells()[i]);
  }
  if (a.map_file != b.map_file) return testing::AssertionFailure() << "map_file";
  if (a.circles != b.circles)
    return testing::AssertionFailure()
           << "circles (" << a.circles.size() << " vs " << b.circles.size() << ")";
  if (a.agents != b.agents)
    return testing::AssertionFailure()
           << "agents (" << a.agents.size() << " vs " << b.agents.size() << ")";
  if (!same_edit_content(a, b)) return testing::AssertionFailure() << "same_edit_content disagrees";
  return testing::AssertionSuccess();
}

Scene copy_of(const Scene& s) {
  return s;
}

Scene scene_of(GridMap m) {
  Scene s;
  s.map = std::move(m);
  return s;
}

struct NamedEdit {
  std::string name;
  std::function<void(Document&)> run;
};

// One call of every tool, each of which changes the sample scene.
std::vector<NamedEdit> every_tool() {
  GeneratorParams random_gen;
  random_gen.kind = GeneratorKind::RandomObstacles;
  random_gen.probability = 0.3;
  GeneratorParams soft = random_gen;
  soft.kind = GeneratorKind::SoftObstacles;
  GeneratorParams rooms = random_gen;
  rooms.kind = GeneratorKind::Rooms;
  rooms.room_size = 5;
  GeneratorParams maze = random_gen;
  maze.kind = GeneratorKind::Maze;
  Agent extra;
  extra.name = "extra";
  extra.start = {2.5, 2.5, 0};
  return {
      {"brush square",
       [](Document& d) {
         paint_brush(d, {kHard, 3, BrushShape::Square}, 5, 5);
       }},
      {"brush round",
       [](Document& d) {
         paint_brush(d, {kWater, 5, BrushShape::Round}, 12, 8);
       }},
      {"brush at the edge",
       [](Document& d) {
         paint_brush(d, {kTrees, 4, BrushShape::Square}, 0, 17);
       }},
      {"line",
       [](Document& d) {
         paint_line(d, {kHard, 1, BrushShape::Square}, 0, 0, 23, 17);
       }},
      {"wide line",
       [](Document& d) {
         paint_line(d, {kSwamp, 3, BrushShape::Round}, 20, 2, 3, 15);
       }},
      {"rectangle", [](Document& d) { paint_rect(d, kTrees, 15, 12, 4, 3); }},
      {"flood fill", [](Document& d) { flood_fill(d, kWater, 0, 0); }},
      {"eraser",
       [](Document& d) {
         paint_brush(d, eraser(d.scene().map.palette(), 6, BrushShape::Round), 10, 10);
       }},
      {"add circle",
       [](Document& d) {
         add_circle(d, {7.0, 7.0}, 2.5);
       }},
      {"move circle",
       [](Document& d) {
         move_circle(d, 1, {15.25, 4.5});
       }},
      {"resize circle", [](Document& d) { resize_circle(d, 2, 3.0); }},
      {"delete circle", [](Document& d) { remove_circle(d, 0); }},
      {"add agent", [extra](Document& d) { add_agent(d, extra); }},
      {"delete agent", [](Document& d) { remove_agent(d, 0); }},
      {"edit agent",
       [](Document& d) {
         Agent a = d.scene().agents[1];
         a.size = 3;
         a.name = "heavy";
         set_agent(d, 1, a);
       }},
      {"set start",
       [](Document& d) {
         set_agent_position(d, 0, Endpoint::Start, {8.5, 9.5});
       }},
      {"set goal",
       [](Document& d) {
         set_agent_position(d, 1, Endpoint::Goal, {3.25, 7.75});
       }},
      {"heading", [](Document& d) { set_agent_heading(d, 0, Endpoint::Goal, 2.5); }},
      {"heading handle",
       [](Document& d) {
         aim_agent_heading(d, 1, Endpoint::Start, {0, 0});
       }},
      {"size", [](Document& d) { set_agent_size(d, 0, 2); }},
      {"capability", [](Document& d) { set_agent_capability(d, 0, 0b1101); }},
      {"radius", [](Document& d) { set_agent_radius(d, 1, 1.75); }},
      {"turning radius", [](Document& d) { set_agent_turning_radius(d, 0, 4.0); }},
      {"reversing", [](Document& d) { set_agent_can_reverse(d, 1, true); }},
      {"rename", [](Document& d) { set_agent_name(d, 1, "tiger"); }},
      {"new map", [](Document& d) { new_map(d, 10, 7); }},
      {"resize larger", [](Document& d) { resize_map(d, 30, 25); }},
      {"resize smaller", [](Document& d) { resize_map(d, 9, 11); }},
      {"generate random", [random_gen](Document& d) { apply_generator(d, random_gen); }},
      {"generate soft", [soft](Document& d) { apply_generator(d, soft); }},
      {"generate rooms", [rooms](Document& d) { apply_generator(d, rooms); }},
      {"generate maze", [maze](Document& d) { apply_generator(d, maze); }},
      {"palette",
       [](Document& d) {
         std::vector<Terrain> ts = d.scene().map.palette().terrains();
         ts[1].cost = 3.0;
         d.set_palette(Palette(ts));
       }},
  };
}

TEST(EditorUndo, EveryToolUndoesAndRedoesExactly) {
  for (const NamedEdit& e : every_tool()) {
    SCOPED_TRACE(e.name);
    Document doc(sample_scene(1));
    const Scene before = copy_of(doc.scene());
    const auto v0 = doc.version();
    e.run(doc);
    const Scene after = copy_of(doc.scene());
    ASSERT_FALSE(same_edit_content(before, after)) << "the edit changed nothing";
    EXPECT_EQ(doc.undo_count(), 1u) << "one operation, one undo step";
    EXPECT_GT(doc.version(), v0);
    EXPECT_TRUE(doc.dirty());
    for (int round = 0; round < 2; ++round) {
      ASSERT_TRUE(doc.undo());
      EXPECT_TRUE(same_scene(doc.scene(), before));
      EXPECT_FALSE(doc.dirty());
      EXPECT_FALSE(doc.can_undo());
      ASSERT_TRUE(doc.redo());
      EXPECT_TRUE(same_scene(doc.scene(), after));
      EXPECT_TRUE(doc.dirty());
      EXPECT_FALSE(doc.can_redo());
    }
  }
}

// A random edit of the current scene; some are no-ops (painting what is there), some are
// strokes of several stamps.
void random_edit(Document& doc, std::mt19937& rng) {
  const Scene& s = doc.scene();
  const int w = std::max(s.map.width(), 1), h = std::max(s.map.height(), 1);
  auto rx = [&] { return int(rng() % unsigned(w + 4)) - 2; };  // a little off the map too
  auto ry = [&] { return int(rng() % unsigned(h + 4)) - 2; };
  auto terrain = [&] { return TerrainId(rng() % 5); };
  auto brush = [&] {
    return Brush{terrain(), 1 + int(rng() % 4), rng() % 2 ? BrushShape::Round : BrushShape::Square};
  };
  auto real = [&](double lo, double hi) {
    return lo + (hi - lo) * double(rng() % 10000) / 10000.0;
  };
  const size_t nc = s.circles.size(), na = s.agents.size();
  switch (rng() % 23) {
    case 0:
      paint_brush(doc, brush(), rx(), ry());
      break;
    case 1:
      paint_line(doc, brush(), rx(), ry(), rx(), ry());
      break;
    case 2:
      paint_rect(doc, terrain(), rx(), ry(), rx(), ry());
      break;
    case 3:
      flood_fill(doc, terrain(), rx(), ry());
      break;
    case 4: {  // a drag: several stamps in one stroke
      doc.begin_stroke("Brush");
      const Brush b = brush();
      int x = rx(), y = ry();
      for (int k = 0, n = 1 + int(rng() % 6); k < n; ++k) {
        const int nx = rx(), ny = ry();
        paint_line(doc, b, x, y, nx, ny);
        x = nx;
        y = ny;
      }
      doc.end_stroke();
      break;
    }
    case 5:
      add_circle(doc, {real(0, w), real(0, h)}, real(0, 4));
      break;
    case 6:
      if (nc) move_circle(doc, rng() % nc, {real(0, w), real(0, h)});
      break;
    case 7:
      if (nc) resize_circle(doc, rng() % nc, real(0.1, 5));
      break;
    case 8:
      if (nc) remove_circle(doc, rng() % nc);
      break;
    case 9: {
      Agent a;
      a.name = "a" + std::to_string(rng() % 100);
      a.size = 1 + int(rng() % 3);
      a.start = {real(0, w), real(0, h), real(0, 6)};
      a.goal = {real(0, w), real(0, h), real(0, 6)};
      add_agent(doc, a);
      break;
    }
    case 10:
      if (na) remove_agent(doc, rng() % na);
      break;
    case 11:
      if (na)
        set_agent_position(doc, rng() % na, rng() % 2 ? Endpoint::Start : Endpoint::Goal,
                           {real(-2, w + 2), real(-2, h + 2)});
      break;
    case 12:
      if (na) set_agent_heading(doc, rng() % na, Endpoint::Goal, real(-7, 7));
      break;
    case 13:
      if (na) aim_agent_heading(doc, rng() % na, Endpoint::Start, {real(0, w), real(0, h)});
      break;
    case 14:
      if (na) set_agent_size(doc, rng() % na, 1 + int(rng() % 4));
      break;
    case 15:
      if (na) set_agent_capability(doc, rng() % na, CapabilityMask(rng() % 16));
      break;
    case 16:
      if (na) set_agent_radius(doc, rng() % na, real(0, 3));
      break;
    case 17:
      if (na) set_agent_turning_radius(doc, rng() % na, real(0, 3));
      break;
    case 18:
      resize_map(doc, 1 + int(rng() % 30), 1 + int(rng() % 30));
      break;
    case 19:
      if (rng() % 4 == 0) new_map(doc, 1 + int(rng() % 30), 1 + int(rng() % 30));
      break;
    case 20: {
      GeneratorParams g;
      g.kind = GeneratorKind(rng() % 4);
      g.seed = rng();
      g.probability = real(0, 1);
      g.room_size = 1 + int(rng() % 6);
      g.door_width = 1 + int(rng() % 3);
      g.corridor_width = 1;
      apply_generator(doc, g);
      break;
    }
    case 22: {  // a compound step mixing cell runs with whole-map and list edits
      doc.begin_step("Compound");
      for (int k = 0, n = 2 + int(rng() % 4); k < n; ++k) {
        const int x = int(rng() % unsigned(doc.scene().map.width() + 2)) - 1;
        const int y = int(rng() % unsigned(doc.scene().map.height() + 2)) - 1;
        switch (rng() % 6) {
          case 0:
            paint_brush(doc, brush(), x, y);
            break;
          case 1:
            paint_line(doc, brush(), x, y, y, x);
            break;
          case 2:
            resize_map(doc, 1 + int(rng() % 30), 1 + int(rng() % 30));
            break;
          case 3:
            add_circle(doc, {real(0, 10), real(0, 10)}, 1);
            break;
          case 4: {
            std::vector<Terrain> ts = doc.scene().map.palette().terrains();
            ts[rng() % ts.size()].cost = 1 + double(rng() % 4);
            doc.set_palette(Palette(ts));
            break;
          }
          case 5:
            flood_fill(doc, terrain(), x, y);
            break;
        }
      }
      doc.end_step();
      break;
    }
    case 21: {  // a circle drag: many moves, one step
      if (!nc) break;
      const size_t i = rng() % nc;
      doc.begin_stroke("Move circle");
      for (int k = 0; k < 5; ++k) move_circle(doc, i, {real(0, w), real(0, h)});
      doc.end_stroke();
      break;
    }
  }
}

// Model-based: a list of scene copies plays the role of the history, and after every edit,
// undo and redo the document must equal the model's current scene.
TEST(EditorUndo, RandomEditSequencesUndoAndRedoToTheRightScenes) {
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    Document doc(sample_scene(seed));
    std::vector<Scene> model = {copy_of(doc.scene())};
    size_t at = 0;
    for (int step = 0; step < 150; ++step) {
      const int action = int(rng() % 10);
      if (action == 0 && at > 0) {
        ASSERT_TRUE(doc.undo());
        --at;
      } else if (action == 1 && at + 1 < model.size()) {
        ASSERT_TRUE(doc.redo());
        ++at;
      } else {
        const size_t steps_before = doc.undo_count();
        const auto version_before = doc.version();
        random_edit(doc, rng);
        if (doc.undo_count() == steps_before + 1) {
          model.resize(at + 1);
          model.push_back(copy_of(doc.scene()));
          ++at;
          EXPECT_FALSE(doc.can_redo());
        } else {
          ASSERT_EQ(doc.undo_count(), steps_before) << "an edit made more than one step";
          ASSERT_TRUE(same_scene(doc.scene(), model[at])) << "a change left no undo step";
          (void)version_before;
        }
      }
      ASSERT_TRUE(same_scene(doc.scene(), model[at])) << "after action " << step;
      ASSERT_EQ(doc.undo_count(), at);
      ASSERT_EQ(doc.redo_count(), model.size() - 1 - at);
    }
    const Scene final_scene = copy_of(doc.scene());
    while (doc.undo()) {
    }
    EXPECT_TRUE(same_scene(doc.scene(), model.front()));
    EXPECT_FALSE(doc.dirty());
    while (doc.redo()) {
    }
    EXPECT_TRUE(same_scene(doc.scene(), model.back()));
    if (at + 1 == model.size()) {
      EXPECT_TRUE(same_scene(doc.scene(), final_scene));
    }
  }
}

TEST(EditorUndo, StampsOfOneStrokeMergeIntoOneStep) {
  Document doc(sample_scene(2));
  const Scene before = copy_of(doc.scene());
  const Brush b{kHard, 2, BrushShape::Square};
  doc.begin_stroke("Brush");
  paint_brush(doc, b, 2, 2);
  paint_line(doc, b, 2, 2, 10, 6);
  paint_line(doc, b, 10, 6, 3, 14);
  paint_brush(doc, b, 3, 14);
  EXPECT_TRUE(doc.in_step());
  doc.end_stroke();
  EXPECT_FALSE(doc.in_step());
  EXPECT_EQ(doc.undo_count(), 1u);
  EXPECT_EQ(doc.undo_label(), "Brush");
  const Scene after = copy_of(doc.scene());
  ASSERT_TRUE(doc.undo());
  EXPECT_TRUE(same_scene(doc.scene(), before));
  ASSERT_TRUE(doc.redo());
  EXPECT_TRUE(same_scene(doc.scene(), after));

  // The same stamps without a stroke are four steps.
  Document loose(sample_scene(2));
  paint_brush(loose, b, 2, 2);
  paint_line(loose, b, 2, 2, 10, 6);
  paint_line(loose, b, 10, 6, 3, 14);
  paint_brush(loose, {kWater, 1, BrushShape::Square}, 3, 14);
  EXPECT_EQ(loose.undo_count(), 4u);

  // Dragging a circle around is one step too, and undo puts it back where the drag began.
  const Circle c0 = doc.scene().circles[1];
  doc.begin_stroke("Move circle");
  for (int k = 0; k < 20; ++k) move_circle(doc, 1, {1.0 + k, 2.0 + k});
  doc.end_stroke();
  EXPECT_EQ(doc.undo_count(), 2u);
  doc.undo();
  EXPECT_EQ(doc.scene().circles[1], c0);
}

TEST(EditorUndo, AStrokeThatEndsWhereItBeganLeavesNoStep) {
  Document doc(sample_scene(3));
  const TerrainId old = doc.scene().map.at(4, 4);
  doc.begin_stroke("Brush");
  paint_brush(doc, {TerrainId((old + 1) % 5), 1, BrushShape::Square}, 4, 4);
  paint_brush(doc, {old, 1, BrushShape::Square}, 4, 4);
  doc.end_stroke();
  EXPECT_EQ(doc.undo_count(), 0u);
  EXPECT_FALSE(doc.dirty());
}

TEST(EditorUndo, UndoInTheMiddleOfAStrokeClosesItFirst) {
  Document doc(sample_scene(4));
  const Scene before = copy_of(doc.scene());
  doc.begin_stroke("Brush");
  paint_brush(doc, {kHard, 3, BrushShape::Square}, 6, 6);
  EXPECT_TRUE(doc.can_undo());
  EXPECT_EQ(doc.undo_label(), "Brush");
  ASSERT_TRUE(doc.undo());
  EXPECT_TRUE(same_scene(doc.scene(), before));
  doc.end_stroke();  // the tool's release still arrives: ignored
  EXPECT_EQ(doc.undo_count(), 0u);
  EXPECT_EQ(doc.redo_count(), 1u);
}

TEST(EditorDocument, VersionAndDirtySemantics) {
  Document doc(sample_scene(5));
  EXPECT_FALSE(doc.dirty());
  const auto v0 = doc.version();

  // Painting what is already there is no edit at all.
  paint_brush(doc, {doc.scene().map.at(3, 3), 1, BrushShape::Square}, 3, 3);
  EXPECT_EQ(doc.version(), v0);
  EXPECT_EQ(doc.undo_count(), 0u);
  EXPECT_FALSE(doc.dirty());

  paint_rect(doc, kHard, 0, 0, 3, 3);
  const auto v1 = doc.version();
  EXPECT_GT(v1, v0);
  EXPECT_TRUE(doc.dirty());

  // Undo returns to the saved content: clean again, but the version moves on, never back.
  doc.undo();
  const auto v2 = doc.version();
  EXPECT_GT(v2, v1);
  EXPECT_FALSE(doc.dirty());
  doc.redo();
  EXPECT_GT(doc.version(), v2);
  EXPECT_TRUE(doc.dirty());

  doc.mark_saved();
  EXPECT_FALSE(doc.dirty());
  doc.undo();
  EXPECT_TRUE(doc.dirty());
  doc.redo();
  EXPECT_FALSE(doc.dirty());

  // Saved after one step, undo it, then a different edit: the saved state is gone from the
  // history, so no undo or redo makes the document clean.
  doc.undo();
  add_circle(doc, {5, 5}, 1);
  EXPECT_FALSE(doc.can_redo());
  EXPECT_TRUE(doc.dirty());
  doc.undo();
  EXPECT_TRUE(doc.dirty());  // the original scene, which was never saved
  doc.redo();
  EXPECT_TRUE(doc.dirty());

  // View settings: dirty, but no undo step and no version change.
  doc.mark_saved();
  const auto v3 = doc.version();
  const size_t steps = doc.undo_count();
  doc.set_views({ViewSetup{"dijkstra", {}, 0}});
  EXPECT_TRUE(doc.dirty());
  EXPECT_EQ(doc.version(), v3);
  EXPECT_EQ(doc.undo_count(), steps);
  doc.mark_saved();
  EXPECT_FALSE(doc.dirty());

  // Opening another scene: clean, no history, new version.
  doc.reset(sample_scene(6));
  EXPECT_FALSE(doc.dirty());
  EXPECT_FALSE(doc.can_undo());
  EXPECT_FALSE(doc.can_redo());
  EXPECT_GT(doc.version(), v3);
}

TEST(EditorDocument, SavingInTheMiddleOfAStrokeSavesWhatTheStrokeCommits) {
  Document doc(sample_scene(7));
  doc.begin_stroke("Brush");
  paint_brush(doc, {kHard, 2, BrushShape::Square}, 1, 1);
  doc.mark_saved();
  doc.end_stroke();
  EXPECT_FALSE(doc.dirty());
  doc.undo();
  EXPECT_TRUE(doc.dirty());
}

TEST(EditorDocument, ARecoveredSceneStaysDirtyUntilSaved) {
  Document doc;
  doc.reset(sample_scene(8));
  doc.mark_unsaved();
  EXPECT_TRUE(doc.dirty());
  paint_brush(doc, {kHard, 1, BrushShape::Square}, 2, 2);
  doc.undo();
  EXPECT_TRUE(doc.dirty());  // undoing back to the recovered state is not "saved"
  doc.mark_saved();
  EXPECT_FALSE(doc.dirty());
}

TEST(EditorDocument, HistoryStaysWithinTheMemoryLimit) {
  // All ground and never painted with ground, so every stamp is a step.
  Document doc(scene_of(GridMap(64, 64)));
  const Scene original = copy_of(doc.scene());
  doc.set_memory_limit(4096);
  for (int i = 0; i < 400; ++i)
    paint_brush(doc, {TerrainId(1 + i % 4), 1, BrushShape::Square}, i % 64, (i / 64) % 64);
  EXPECT_LE(doc.memory_used(), 4096u);
  const size_t kept = doc.undo_count();
  EXPECT_GT(kept, 5u);
  EXPECT_LT(kept, 400u);
  // The newest steps are the ones kept: undoing all of them reverts the last strokes only.
  const Scene last = copy_of(doc.scene());
  while (doc.undo()) {
  }
  const int first_reverted = 400 - int(kept);
  for (int i = first_reverted; i < 400; ++i) {
    const int x = i % 64, y = (i / 64) % 64;
    // Cells painted twice in 400 stamps would keep the older paint; 400 < 64 * 64, so no cell is.
    EXPECT_EQ(doc.scene().map.at(x, y), original.map.at(x, y)) << "stamp " << i;
  }
  for (int i = 0; i < first_reverted; ++i)
    EXPECT_EQ(doc.scene().map.at(i % 64, (i / 64) % 64), last.map.at(i % 64, (i / 64) % 64));

  // One step larger than the limit is still kept: the last operation can always be undone.
  Document big(sample_scene(9, 300, 300));
  big.set_memory_limit(1000);
  new_map(big, 300, 200);
  EXPECT_EQ(big.undo_count(), 1u);
  EXPECT_TRUE(big.undo());
  EXPECT_EQ(big.scene().map.height(), 300);
}

TEST(EditorDocument, StepsStoreWhatChangedNotWholeMaps) {
  Document doc(scene_of(GridMap(512, 512)));
  paint_brush(doc, {kHard, 3, BrushShape::Square}, 100, 100);
  EXPECT_LT(doc.memory_used(), 1024u) << "a 9-cell stamp must not snapshot a 256K-cell map";
  // A fill of the whole map is stored at one byte per cell at most, not as a list of diffs.
  flood_fill(doc, kSwamp, 0, 0);
  EXPECT_LT(doc.memory_used(), 512u * 512u + 4096u);
  doc.undo();
  doc.undo();
  for (TerrainId t : doc.scene().map.cells()) ASSERT_EQ(t, kGround);
}

// ---- What the tools paint

TEST(EditorTools, BrushFootprints) {
  auto count = [](Brush b) { return brush_footprint(b, 10, 10, 30, 30).size(); };
  for (int s = 1; s <= 7; ++s) EXPECT_EQ(count({0, s, BrushShape::Square}), size_t(s * s));
  EXPECT_EQ(count({0, 1, BrushShape::Round}), 1u);
  EXPECT_EQ(count({0, 2, BrushShape::Round}), 4u);
  EXPECT_EQ(count({0, 3, BrushShape::Round}), 5u);  // a plus
  const auto plus = brush_footprint({0, 3, BrushShape::Round}, 10, 10, 30, 30);
  for (Cell c : plus) EXPECT_LE(std::abs(c.x - 10) + std::abs(c.y - 10), 1);
  // Round footprints are symmetric about their centre and lie inside the square.
  for (int s = 1; s <= 9; s += 2) {
    const auto cells = brush_footprint({0, s, BrushShape::Round}, 10, 10, 30, 30);
    for (Cell c : cells) {
      EXPECT_LE(std::abs(c.x - 10), s / 2);
      const Cell mirror{20 - c.x, c.y};
      EXPECT_NE(std::find(cells.begin(), cells.end(), mirror), cells.end());
    }
  }
  // Clipped at the corner: a 5x5 stamp at (0, 0) keeps its 3x3 quarter.
  EXPECT_EQ(brush_footprint({0, 5, BrushShape::Square}, 0, 0, 30, 30).size(), 9u);
  EXPECT_TRUE(brush_footprint({0, 3, BrushShape::Square}, -5, -5, 30, 30).empty());
}

TEST(EditorTools, BresenhamLines) {
  std::mt19937 rng(31);
  for (int i = 0; i < 500; ++i) {
    const int x0 = int(rng() % 41) - 20, y0 = int(rng() % 41) - 20;
    const int x1 = int(rng() % 41) - 20, y1 = int(rng() % 41) - 20;
    const auto line = bresenham_line(x0, y0, x1, y1);
    ASSERT_EQ(line.size(), size_t(std::max(std::abs(x1 - x0), std::abs(y1 - y0))) + 1);
    EXPECT_EQ(line.front(), (Cell{x0, y0}));
    EXPECT_EQ(line.back(), (Cell{x1, y1}));
    for (size_t k = 1; k < line.size(); ++k) {
      EXPECT_LE(std::abs(line[k].x - line[k - 1].x), 1);
      EXPECT_LE(std::abs(line[k].y - line[k - 1].y), 1);
      // Never farther than half a cell from the ideal line (measured along the minor axis).
      const double t = double(k) / double(line.size() - 1);
      if (std::abs(x1 - x0) >= std::abs(y1 - y0))
        EXPECT_LE(std::abs(line[k].y - (y0 + (y1 - y0) * (line[k].x - x0) / double(x1 - x0))),
                  0.5 + 1e-9);
      else
        EXPECT_LE(std::abs(line[k].x - (x0 + (x1 - x0) * (line[k].y - y0) / double(y1 - y0))),
                  0.5 + 1e-9);
      (void)t;
    }
  }
  // No ties on this one, so every correct Bresenham gives these cells.
  const std::vector<Cell> expected = {{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}, {5, 2}};
  EXPECT_EQ(bresenham_line(0, 0, 5, 2), expected);
}

TEST(EditorTools, LineRectangleFillAndEraserPaintWhatTheySay) {
  Document doc(scene_of(GridMap(20, 12)));
  paint_line(doc, {kHard, 1, BrushShape::Square}, 0, 0, 19, 11);
  for (Cell c : bresenham_line(0, 0, 19, 11)) EXPECT_EQ(doc.scene().map.at(c.x, c.y), kHard);
  long hard = 0;
  for (TerrainId t : doc.scene().map.cells()) hard += t == kHard;
  EXPECT_EQ(hard, 20);

  // Rectangle: corners in any order, both included, clipped.
  paint_rect(doc, kTrees, 7, 9, 2, 4);
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 20; ++x) {
      const bool inside = x >= 2 && x <= 7 && y >= 4 && y <= 9;
      if (inside) {
        EXPECT_EQ(doc.scene().map.at(x, y), kTrees);
      }
      if (!inside) {
        EXPECT_NE(doc.scene().map.at(x, y), kTrees);
      }
    }
  paint_rect(doc, kSwamp, 18, 10, 40, 40);
  EXPECT_EQ(doc.scene().map.at(19, 11), kSwamp);

  // The eraser paints ground.
  paint_brush(doc, eraser(doc.scene().map.palette(), 20), 5, 5);
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 15; ++x) ASSERT_EQ(doc.scene().map.at(x, y), kGround);
}

TEST(EditorTools, FloodFillIsFourConnectedAndStopsAtOtherTerrains) {
  // Two ground regions that touch only at a corner, and swamp around them.
  GridMap m(6, 6, kSwamp);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) m.set(x, y, kGround);
  for (int y = 3; y < 6; ++y)
    for (int x = 3; x < 6; ++x) m.set(x, y, kGround);
  Document doc(scene_of(m));
  flood_fill(doc, kWater, 1, 1);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 6; ++x) {
      const TerrainId want = x < 3 && y < 3 ? kWater : (x >= 3 && y >= 3 ? kGround : kSwamp);
      EXPECT_EQ(doc.scene().map.at(x, y), want) << x << "," << y;
    }
  // Filling with the same terrain, or outside the map, is no step.
  flood_fill(doc, kWater, 0, 0);
  flood_fill(doc, kWater, -1, 3);
  EXPECT_EQ(doc.undo_count(), 1u);
}

TEST(EditorTools, ResizeKeepsTheTopLeftAndNewMapStartsBlank) {
  Document doc(sample_scene(10));
  const Scene s0 = copy_of(doc.scene());
  resize_map(doc, 30, 10);
  const GridMap& m = doc.scene().map;
  ASSERT_EQ(m.width(), 30);
  ASSERT_EQ(m.height(), 10);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 30; ++x)
      EXPECT_EQ(m.at(x, y), x < 24 ? s0.map.at(x, y) : kGround) << x << "," << y;
  EXPECT_EQ(doc.scene().circles, s0.circles);
  EXPECT_FALSE(doc.scene().map_file);
  for (const Agent& a : doc.scene().agents)
    for (const Pose& p : {a.start, a.goal}) {
      EXPECT_TRUE(m.in_bounds(int(std::floor(p.x)), int(std::floor(p.y))));
    }
  EXPECT_EQ(doc.scene().agents[0].start, s0.agents[0].start);  // it was inside: untouched
  EXPECT_EQ(doc.undo_count(), 1u);
  resize_map(doc, 30, 10);  // same size: nothing to do
  EXPECT_EQ(doc.undo_count(), 1u);

  new_map(doc, 7, 5);
  EXPECT_EQ(doc.scene().map.width(), 7);
  EXPECT_EQ(doc.scene().map.height(), 5);
  for (TerrainId t : doc.scene().map.cells()) EXPECT_EQ(t, kGround);
  EXPECT_TRUE(doc.scene().circles.empty());
  EXPECT_EQ(doc.scene().agents.size(), 2u);
  EXPECT_EQ(doc.undo_count(), 2u);
  EXPECT_THROW(new_map(doc, -1, 5), InputError);
  EXPECT_THROW(resize_map(doc, kMaxMapSide + 1, 5), InputError);
  EXPECT_EQ(doc.undo_count(), 2u);
}

TEST(EditorTools, BadInputThrowsAndLeavesTheDocumentAlone) {
  Document doc(sample_scene(11));
  const Scene before = copy_of(doc.scene());
  const auto v = doc.version();
  GeneratorParams g;
  g.probability = 2;
  EXPECT_THROW(apply_generator(doc, g), InputError);
  EXPECT_THROW(set_agent_size(doc, 0, 0), InputError);
  EXPECT_THROW(set_agent_capability(doc, 0, 1u << kHard), InputError);
  EXPECT_THROW(set_agent_capability(doc, 0, 1u << 20), InputError);
  EXPECT_THROW(set_agent_radius(doc, 0, -1), InputError);
  EXPECT_THROW(set_agent_turning_radius(doc, 0, std::nan("")), InputError);
  EXPECT_THROW(paint_brush(doc, {9, 1, BrushShape::Square}, 1, 1), InputError);
  EXPECT_THROW(paint_brush(doc, {kHard, 0, BrushShape::Square}, 1, 1), InputError);
  EXPECT_THROW(add_circle(doc, {INFINITY, 1}, 1), InputError);
  EXPECT_THROW(move_circle(doc, 99, {1, 1}), std::out_of_range);
  EXPECT_THROW(remove_agent(doc, 5), std::out_of_range);
  EXPECT_TRUE(same_scene(doc.scene(), before));
  EXPECT_EQ(doc.version(), v);
  EXPECT_EQ(doc.undo_count(), 0u);
  EXPECT_FALSE(doc.dirty());
}

TEST(EditorTools, CirclesAndAgentHandles) {
  Document doc(sample_scene(12));
  const size_t i = add_circle(doc, {5, 5}, 0);
  EXPECT_EQ(doc.scene().circles[i].r, kMinCircleRadius);
  add_circle(doc, {6, 5}, 2);  // on top of the first
  EXPECT_EQ(pick_circle(doc.scene(), {5.5, 5}), i + 1);
  EXPECT_EQ(pick_circle(doc.scene(), {5.0, 5.0}), i + 1);
  EXPECT_EQ(pick_circle(doc.scene(), {0.1, 17.9}), std::nullopt);
  EXPECT_EQ(pick_circle_rim(doc.scene(), {8.05, 5}, 0.1), i + 1);
  EXPECT_EQ(pick_circle_rim(doc.scene(), {7.0, 5}, 0.1), std::nullopt);

  // Headings: 0 east, clockwise on screen, so pointing down (+y) is pi/2.
  set_agent_position(doc, 0, Endpoint::Start, {4.5, 4.5});
  aim_agent_heading(doc, 0, Endpoint::Start, {4.5, 9.0});
  EXPECT_NEAR(doc.scene().agents[0].start.heading, kPi / 2, 1e-12);
  aim_agent_heading(doc, 0, Endpoint::Start, {4.5, 4.5});  // on the pose: unchanged
  EXPECT_NEAR(doc.scene().agents[0].start.heading, kPi / 2, 1e-12);
  set_agent_heading(doc, 0, Endpoint::Start, -kPi / 2);
  EXPECT_NEAR(doc.scene().agents[0].start.heading, 3 * kPi / 2, 1e-12);

  // Positions are clamped onto the map.
  set_agent_position(doc, 0, Endpoint::Goal, {-3, 100});
  const Pose g = doc.scene().agents[0].goal;
  EXPECT_EQ(g.x, 0.0);
  EXPECT_LT(g.y, 18.0);
  EXPECT_EQ(int(std::floor(g.y)), 17);

  const auto h = pick_agent_endpoint(doc.scene(), {4.6, 4.4}, 0.5);
  ASSERT_TRUE(h);
  EXPECT_EQ(*h, (AgentHandle{0, Endpoint::Start}));
  EXPECT_FALSE(pick_agent_endpoint(doc.scene(), {12, 12}, 0.5));
  EXPECT_EQ(snap_to_cell_centre({3.9, 7.01}), (Vec2{3.5, 7.5}));
}

// ---- Camera

TEST(EditorCamera, MapToScreenRoundTrips) {
  std::mt19937 rng(41);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * double(rng()) / 4294967296.0; };
  for (int i = 0; i < 1000; ++i) {
    Camera cam(real(100, 2000), real(100, 1500));
    cam.set_view(std::exp(real(-4, 6)), {real(-5000, 5000), real(-5000, 5000)});
    const Vec2 m{real(-100, 2000), real(-100, 2000)};
    const Vec2 back = cam.screen_to_map(cam.map_to_screen(m));
    EXPECT_NEAR(back.x, m.x, 1e-9 * (1 + std::abs(m.x)));
    EXPECT_NEAR(back.y, m.y, 1e-9 * (1 + std::abs(m.y)));
    const Vec2 s{real(0, 2000), real(0, 1500)};
    const Vec2 sb = cam.map_to_screen(cam.screen_to_map(s));
    EXPECT_NEAR(sb.x, s.x, 1e-6);
    EXPECT_NEAR(sb.y, s.y, 1e-6);
  }
}

TEST(EditorCamera, ZoomKeepsThePointUnderTheCursorAndStaysInRange) {
  std::mt19937 rng(43);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * double(rng()) / 4294967296.0; };
  Camera cam(800, 600);
  cam.fit(512, 512);
  for (int i = 0; i < 2000; ++i) {
    const Vec2 cursor{real(0, 800), real(0, 600)};
    const Vec2 under = cam.screen_to_map(cursor);
    // Often far past the limits, to check the clamp keeps the invariant too.
    if (i % 3 == 0)
      cam.zoom_wheel(cursor, real(-40, 40));
    else
      cam.zoom_at(cursor, std::exp(real(-3, 3)));
    EXPECT_GE(cam.zoom(), cam.min_zoom());
    EXPECT_LE(cam.zoom(), cam.max_zoom());
    const Vec2 now = cam.map_to_screen(under);
    ASSERT_NEAR(now.x, cursor.x, 1e-6 * (1 + cam.zoom()));
    ASSERT_NEAR(now.y, cursor.y, 1e-6 * (1 + cam.zoom()));
  }
  cam.zoom_at({1, 1}, 1e9);
  EXPECT_EQ(cam.zoom(), Camera::kDefaultMaxZoom);
  cam.zoom_at({1, 1}, 1e-9);
  EXPECT_EQ(cam.zoom(), Camera::kDefaultMinZoom);
  const double z = cam.zoom();
  cam.zoom_at({1, 1}, std::nan(""));
  EXPECT_EQ(cam.zoom(), z);
  cam.set_zoom_limits(2, 8);
  EXPECT_EQ(cam.zoom(), 2.0);
}

TEST(EditorCamera, PanMovesTheMapWithTheMouse) {
  Camera cam(640, 480);
  cam.fit(100, 50);
  const Vec2 m{10, 20};
  const Vec2 s = cam.map_to_screen(m);
  cam.pan({25, -13});
  const Vec2 s2 = cam.map_to_screen(m);
  EXPECT_NEAR(s2.x - s.x, 25, 1e-9);
  EXPECT_NEAR(s2.y - s.y, -13, 1e-9);
}

TEST(EditorCamera, FitShowsTheWholeMapCentred) {
  for (auto [vw, vh, mw, mh, margin] :
       std::vector<std::tuple<double, double, int, int, double>>{{800, 600, 512, 512, 0},
                                                                 {800, 600, 1024, 128, 10},
                                                                 {300, 900, 40, 30, 20},
                                                                 {1920, 1080, 16384, 16384, 0},
                                                                 {500, 500, 1, 1, 0}}) {
    Camera cam(vw, vh);
    cam.fit(mw, mh, margin);
    const Vec2 a = cam.map_to_screen({0, 0}), b = cam.map_to_screen({double(mw), double(mh)});
    EXPECT_GE(a.x, margin - 1e-9);
    EXPECT_GE(a.y, margin - 1e-9);
    EXPECT_LE(b.x, vw - margin + 1e-9);
    EXPECT_LE(b.y, vh - margin + 1e-9);
    // Centred, and as large as allowed: touching the margin on one axis unless clamped.
    EXPECT_NEAR((a.x + b.x) / 2, vw / 2, 1e-9);
    EXPECT_NEAR((a.y + b.y) / 2, vh / 2, 1e-9);
    if (cam.zoom() < cam.max_zoom()) {
      EXPECT_TRUE(std::abs(a.x - margin) < 1e-6 || std::abs(a.y - margin) < 1e-6);
    }
    EXPECT_EQ(cam.visible_cells(mw, mh), (CellRect{0, 0, mw, mh}));
  }
}

TEST(EditorCamera, VisibleCellsAreExactlyThoseOnScreen) {
  std::mt19937 rng(47);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * double(rng()) / 4294967296.0; };
  const int mw = 40, mh = 30;
  for (int i = 0; i < 300; ++i) {
    Camera cam(real(50, 400), real(50, 400));
    cam.set_view(std::exp(real(0, 4)), {real(-1500, 400), real(-1500, 400)});
    const CellRect r = cam.visible_cells(mw, mh);
    const Rect v = cam.visible_map_rect();
    for (int y = 0; y < mh; ++y)
      for (int x = 0; x < mw; ++x) {
        const bool on_screen = x < v.x1 && x + 1 > v.x0 && y < v.y1 && y + 1 > v.y0;
        const bool listed = x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1;
        ASSERT_EQ(on_screen, listed) << "cell " << x << "," << y;
      }
  }
  // Edges on exact cell boundaries: a cell that only touches the viewport's edge is not listed.
  Camera exact(100, 50);
  exact.set_view(2, {-20, -10});  // map x from 10 to 60, y from 5 to 30
  EXPECT_EQ(exact.visible_cells(100, 100), (CellRect{10, 5, 60, 30}));
  // A map far off screen gives an empty rectangle, not a negative one.
  Camera cam(100, 100);
  cam.set_view(1, {5000, 5000});
  EXPECT_TRUE(cam.visible_cells(mw, mh).empty());
}

TEST(EditorCamera, CellUnderTheCursorAndWindowResize) {
  Camera cam(800, 600);
  cam.fit(64, 48, 16);
  for (int y = 0; y < 48; y += 7)
    for (int x = 0; x < 64; x += 5) {
      const auto c = cam.cell_at(cam.map_to_screen({x + 0.5, y + 0.5}), 64, 48);
      ASSERT_TRUE(c);
      EXPECT_EQ(*c, (Cell{x, y}));
    }
  EXPECT_FALSE(cam.cell_at(cam.map_to_screen({-0.01, 3}), 64, 48));
  EXPECT_FALSE(cam.cell_at(cam.map_to_screen({64.0, 3}), 64, 48));
  EXPECT_FALSE(cam.cell_at({1, 1}, 64, 48));  // in the margin

  const Vec2 centre = cam.screen_to_map({400, 300});
  cam.set_viewport(1000, 300);
  const Vec2 after = cam.screen_to_map({500, 150});
  EXPECT_NEAR(after.x, centre.x, 1e-9);
  EXPECT_NEAR(after.y, centre.y, 1e-9);

  cam.center_on({10, 20});
  const Vec2 s = cam.map_to_screen({10, 20});
  EXPECT_NEAR(s.x, 500, 1e-9);
  EXPECT_NEAR(s.y, 150, 1e-9);
}

}  // namespace
}  // namespace pl::editor

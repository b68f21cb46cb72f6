// Memory a small file can demand (issue 10, item 5): the map cell limit in every reader, the
// JSON value bound, allocation failures that name the file, and the trace recorder's budget.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_util.hpp"
#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/io.hpp"
#include "planners/planner.hpp"
#include "test_util.hpp"
#include "viz/posthoc.hpp"
#include "viz/trace.hpp"

// In libstb with the rest of stb_image_write, but declared only in its implementation part.
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int data_len, int* out_len, int quality);

namespace pl {
namespace {

namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("pathlab_mem_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::string write_temp(const std::string& name, const std::string& content) {
  const std::string p = temp_path(name);
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

// Restores the process-wide cell limit when a test changes it.
struct CellLimit {
  explicit CellLimit(std::uint64_t cells) { set_max_map_cells(cells); }
  ~CellLimit() { set_max_map_cells(0); }
};

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ResourceError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not a ResourceError: ") + e.what();
  }
  return "no error";
}

std::uint32_t crc32(const std::string& s) {
  std::uint32_t c = 0xffffffffu;
  for (const char ch : s) {
    c ^= static_cast<unsigned char>(ch);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

// A PNG chunk: length, type, data, CRC.
std::string png_chunk(const std::string& type, const std::string& data) {
  std::string out;
  auto be32 = [&](std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out += char((v >> s) & 0xff);
  };
  be32(std::uint32_t(data.size()));
  const std::string td = type + data;
  out += td;
  be32(crc32(td));
  return out;
}

// The IHDR of a one-bit greyscale image, then IEND: 45 bytes that declare w x h pixels.
std::string png_header_only(std::uint32_t w, std::uint32_t h) {
  std::string ihdr;
  for (std::uint32_t v : {w, h})
    for (int s = 24; s >= 0; s -= 8) ihdr += char((v >> s) & 0xff);
  ihdr += std::string("\x01\x00\x00\x00\x00", 5);  // depth 1, greyscale, deflate, filter, no interlace
  return std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) + png_chunk("IEND", "");
}

// A real side x side one-bit PNG, all white: 340 KB for 16384 x 16384, 805 MB decoded.
std::string blank_png(std::uint32_t side) {
  std::string raw;
  raw.reserve(std::size_t(side) * (side / 8 + 1));
  for (std::uint32_t y = 0; y < side; ++y) raw += '\0' + std::string(side / 8, '\xff');
  int len = 0;
  unsigned char* z = stbi_zlib_compress(reinterpret_cast<unsigned char*>(raw.data()), int(raw.size()), &len, 8);
  if (!z) return {};
  const std::string idat(reinterpret_cast<const char*>(z), std::size_t(len));
  std::free(z);
  std::string head = png_header_only(side, side);
  head.resize(8 + 25);  // signature + IHDR
  return head + png_chunk("IDAT", idat) + png_chunk("IEND", "");
}

TEST(MemoryBudget, DefaultCellLimitIsDocumented) {
  EXPECT_EQ(kDefaultMaxMapCells, std::uint64_t(4096) * 4096);
  if (!std::getenv("PATHLAB_MAX_CELLS")) {
    EXPECT_EQ(max_map_cells(), kDefaultMaxMapCells);
  }
}

TEST(MemoryBudget, SixtyByteSceneDeclaringAHugeMapIsRefusedBeforeAllocating) {
  const std::string text = R"({"pathlab_scene":1,"map":{"width":16384,"height":16384}})";
  ASSERT_LE(text.size(), 60u);
  const std::string file = write_temp("huge.json", text);
  const std::string msg = error_of([&] { load_scene(file); });
  EXPECT_NE(msg.find(file + ":1: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("16384 x 16384 = 268435456 cells"), std::string::npos) << msg;
  EXPECT_NE(msg.find("limit of 16777216"), std::string::npos) << msg;
  fs::remove(file);

  // Within the limit the same form loads; one cell over it does not.
  CellLimit limit(12 * 10);
  EXPECT_EQ(parse_scene(R"({"pathlab_scene":1,"map":{"width":12,"height":10}})", "s.json", "").map.cell_count(), 120);
  EXPECT_NE(error_of([] { parse_scene(R"({"pathlab_scene":1,"map":{"width":11,"height":11}})", "s.json", ""); })
                .find("s.json:1: map is 11 x 11 = 121 cells"),
            std::string::npos);
  // Inline rows are held to the same limit.
  std::string rows = R"({"pathlab_scene":1,"map":{"width":11,"height":11,"rows":[)";
  for (int y = 0; y < 11; ++y) rows += std::string(y ? "," : "") + "\"...........\"";
  rows += "]}}";
  EXPECT_NE(error_of([&] { parse_scene(rows, "r.json", ""); }).find("r.json:1: map is 11 x 11"),
            std::string::npos);
}

TEST(MemoryBudget, TinyPngHeaderWithHugeDimensionsIsRefused) {
  // 45 bytes declaring 16384 x 16384: more than such a file can hold.
  const std::string tiny = png_header_only(16384, 16384);
  ASSERT_LE(tiny.size(), 64u);
  std::string msg;
  try {
    parse_png(reinterpret_cast<const unsigned char*>(tiny.data()), tiny.size(), "tiny.png");
  } catch (const InputError& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("tiny.png: PNG header claims 16384x16384 pixels"), std::string::npos) << msg;

  // A small file that really holds 16384 x 16384 blank pixels (55 KB with zlib; stb's deflate
  // makes 340 KB): refused by the cell limit before the decoder allocates its 805 MB.
  const std::string file = write_temp("huge.png", blank_png(16384));
  ASSERT_LT(fs::file_size(file), 512u << 10);
  msg = error_of([&] { load_png(file); });
  EXPECT_NE(msg.find(file + ": map is 16384 x 16384 = 268435456 cells"), std::string::npos) << msg;
  // load_any (what the CLI and the app open) takes the same path.
  EXPECT_NE(error_of([&] { load_any(file); }).find("16384 x 16384"), std::string::npos);
  fs::remove(file);
}

TEST(MemoryBudget, MapFilesOverTheLimitNameTheHeaderLine) {
  CellLimit limit(60);
  std::string text = "type octile\nheight 8\nwidth 8\nmap\n";
  for (int y = 0; y < 8; ++y) text += "........\n";
  const std::string msg = error_of([&] { parse_map(text, "m.map"); });
  EXPECT_NE(msg.find("m.map:4: map is 8 x 8 = 64 cells, more than the limit of 60"), std::string::npos) << msg;
  set_max_map_cells(64);
  EXPECT_EQ(parse_map(text, "m.map").cell_count(), 64);
}

TEST(MemoryBudget, JsonValuesAreBoundedBeforeParsing) {
  // 3 bytes of text a value: parsed, each would cost some 60 bytes.
  std::string many = R"({"pathlab_scene":1,"map":{"width":2,"height":2},"extra":[)";
  const std::size_t n = std::size_t(1) << 19;  // with the root, the map's values: over the bound
  many.reserve(many.size() + 3 * n);
  for (std::size_t i = 0; i < n; ++i) many += i ? ",[]" : "[]";
  many += "]}";
  const std::string msg = error_of([&] { parse_scene(many, "many.json", ""); });
  EXPECT_NE(msg.find("many.json:1: more than 524288 JSON values"), std::string::npos) << msg;
  // A scene well under the bound keeps its unknown field.
  std::string fewer = R"({"pathlab_scene":1,"map":{"width":2,"height":2},"extra":[)";
  for (std::size_t i = 0; i + 10 < n; ++i) fewer += i ? ",[]" : "[]";
  fewer += "]}";
  EXPECT_EQ(parse_scene(fewer, "few.json", "").unknown_fields.size(), 1u);
}

#if !defined(PATHLAB_SANITIZED) && !defined(PATHLAB_TSAN)
// The sanitizers reserve terabytes of address space: an address-space limit would stop them.
TEST(MemoryBudget, AllocationFailureNamesTheFileAndWhatWasBeingBuilt) {
  const std::string scene = write_temp("oom.json", R"({"pathlab_scene":1,"map":{"width":16384,"height":16384}})");
  const std::string png = write_temp("oom.png", blank_png(16384));
  auto run = [](const std::string& file) {
    // 400 MB of address space; the cell limit raised past the file's map.
    const std::string cmd = "ulimit -v 400000; PATHLAB_MAX_CELLS=300000000 " + std::string(PATHLAB_CLI) +
                            " path '" + file + "' --start 0.5,0.5 --goal 3.5,3.5 2>&1";
    test::CliRun r;
    FILE* p = ::popen(cmd.c_str(), "r");
    char buf[4096];
    std::size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, p)) > 0) r.err.append(buf, k);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  };
  const test::CliRun a = run(scene);
  EXPECT_EQ(a.code, 2) << a.err;
  EXPECT_NE(a.err.find(scene + ": out of memory while building"), std::string::npos) << a.err;
  const test::CliRun b = run(png);
  EXPECT_EQ(b.code, 2) << b.err;
  EXPECT_NE(b.err.find(png + ": out of memory while building the decoded image (16384 x 16384 pixels"),
            std::string::npos)
      << b.err;
  fs::remove(scene);
  fs::remove(png);
}
#endif

TEST(TraceBudget, ByteSizesParse) {
  EXPECT_EQ(parse_byte_size("4096"), 4096u);
  EXPECT_EQ(parse_byte_size("64K"), 65536u);
  EXPECT_EQ(parse_byte_size("3MiB"), 3u << 20);
  EXPECT_EQ(parse_byte_size("2g"), std::size_t(2) << 30);
  EXPECT_EQ(parse_byte_size("10B"), 10u);
  for (const char* bad : {"", "0", "K", "12Q", "-5", "1.5G", "5 M", "99999999999999999999"})
    EXPECT_FALSE(parse_byte_size(bad)) << bad;
  EXPECT_GT(default_trace_budget(), 0u);
  TraceRecorder rec;
  EXPECT_EQ(rec.budget(), default_trace_budget());
}

struct Query1 {
  Scene scene;
  Query query;
};

// A real search: room map, a long query.
Query1 room_query() {
  Query1 q;
  q.scene.map = load_map(test::shared_data("room/32room_000.map"));
  const Scenario scen = load_scen(test::shared_data("room/32room_000.map.scen"));
  const ScenProblem& p = scen.problems.back();
  q.query.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
  q.query.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
  return q;
}

// A 64 x 64 maze of walls every fourth column, open at the bottom and the top in turn: the
// search fills most of the map before it reaches the far corner.
Query1 small_query() {
  Query1 q;
  q.scene.map = GridMap(64, 64);
  const TerrainId wall = *q.scene.map.palette().find_symbol('@');
  for (int x = 3; x < 64; x += 4)
    for (int y = 0; y < 64; ++y)
      if ((x / 4) % 2 == 0 ? y < 62 : y > 1) q.scene.map.set(x, y, wall);
  q.query.start = {0.5, 0.5, 0};
  q.query.goal = {62.5, 0.5, 0};
  return q;
}

void check_truncation(const Query1& q, std::size_t kBudget) {
  for (const char* name : {"astar", "dijkstra"}) {
    SCOPED_TRACE(name);
    auto planner = Registry::builtin().create(name);
    const PlanResult plain = planner->plan(q.scene, q.query);
    ASSERT_TRUE(plain.found);

    TraceRecorder full_rec;
    RunContext full_ctx;
    full_ctx.observer = &full_rec;
    planner->plan(q.scene, q.query, full_ctx);
    const Trace full = full_rec.take();
    EXPECT_FALSE(full.truncated());

    ASSERT_GT(full.memory_bytes(), 4 * kBudget) << "the problem must need more than the budget";
    TraceRecorder rec;
    rec.set_budget(kBudget);
    RunContext ctx;
    ctx.observer = &rec;
    const PlanResult watched = planner->plan(q.scene, q.query, ctx);
    EXPECT_TRUE(rec.stopped());
    // The search ran to its end, exactly as unwatched.
    EXPECT_EQ(watched.found, plain.found);
    EXPECT_EQ(watched.length, plain.length);
    EXPECT_EQ(watched.expanded, plain.expanded);
    EXPECT_EQ(watched.generated, plain.generated);
    EXPECT_EQ(watched.points, plain.points);

    const Trace t = rec.take();
    ASSERT_TRUE(t.truncated());
    EXPECT_EQ(t.budget(), kBudget);
    EXPECT_EQ(t.truncated_frame(), t.frame_count() - 1);
    EXPECT_GT(t.truncated_frame(), 10u);
    EXPECT_LT(t.frame_count(), full.frame_count());
    // Within the budget, give or take the slack of one vector doubling.
    EXPECT_LE(t.memory_bytes(), 2 * kBudget);
    // The truncated trace is the full one's beginning: the same events up to its last frame.
    const std::size_t n = t.frame_info(t.truncated_frame()).event_end;
    EXPECT_EQ(n, t.event_count());
    EXPECT_EQ(full.frame_info(t.truncated_frame()).event_end, n);
    TraceCursor a(t), b(full);
    a.seek(t.truncated_frame());
    b.seek(t.truncated_frame());
    EXPECT_TRUE(a.state() == b.state());

    // take() starts a fresh recording with the same budget.
    EXPECT_FALSE(rec.stopped());
    EXPECT_EQ(rec.budget(), kBudget);
  }
}

TEST(TraceBudget, RecordingStopsAtTheBudgetAndTheSearchRunsOn) {
  // A few kilobytes on a small map.
  check_truncation(small_query(), 24 << 10);
  // A 512 x 512 benchmark map: the recorder's id table alone takes 1 MB there (trace.hpp, IdMap);
  // the whole trace of the query about 6 MB (the compact event coding).
  check_truncation(room_query(), 1350 << 10);
}

TEST(TraceBudget, CliWritesAPosthocTraceAndReportsTruncation) {
  const std::string map = test::shared_data("room/32room_000.map");
  const Scenario scen = load_scen(test::shared_data("room/32room_000.map.scen"));
  const ScenProblem& p = scen.problems.back();
  const std::string query = " --start " + std::to_string(p.start_x) + ".5," + std::to_string(p.start_y) +
                            ".5 --goal " + std::to_string(p.goal_x) + ".5," + std::to_string(p.goal_y) + ".5";
  const std::string out = temp_path("trace.json");
  const test::CliRun plain = test::run_cli("path '" + map + "'" + query + " --json");
  ASSERT_EQ(plain.code, 0) << plain.err;

  const test::CliRun full = test::run_cli("path '" + map + "'" + query + " --json --trace '" + out + "'");
  ASSERT_EQ(full.code, 0) << full.err;
  auto j = nlohmann::json::parse(full.out);
  EXPECT_EQ(j["trace"]["truncated"], false);
  std::ifstream f(out);
  const auto posthoc = nlohmann::json::parse(f);
  ASSERT_TRUE(posthoc.contains("events"));
  std::size_t expanding = 0;
  for (const auto& e : posthoc["events"]) expanding += e["type"] == "expanding";
  EXPECT_EQ(expanding, j["expanded"].get<std::size_t>());
  fs::remove(out);

  const test::CliRun cut =
      test::run_cli("path '" + map + "'" + query + " --json --trace '" + out + "' --trace-budget 2M");
  ASSERT_EQ(cut.code, 0) << cut.err;
  const auto jc = nlohmann::json::parse(cut.out);
  EXPECT_EQ(jc["trace"]["truncated"], true);
  const std::size_t frame = jc["trace"]["truncated_frame"];
  EXPECT_GT(frame, 0u);
  EXPECT_NE(cut.err.find("trace truncated at frame " + std::to_string(frame)), std::string::npos) << cut.err;
  // The result is the whole search's.
  const auto jp = nlohmann::json::parse(plain.out);
  EXPECT_EQ(jc["length"], jp["length"]);
  EXPECT_EQ(jc["path"], jp["path"]);
  EXPECT_EQ(jc["expanded"], jp["expanded"]);
  EXPECT_TRUE(fs::exists(out));
  fs::remove(out);

  // A bad budget or an unwritable trace file is bad input.
  EXPECT_EQ(test::run_cli("path '" + map + "'" + query + " --trace '" + out + "' --trace-budget 12Q").code, 2);
  const test::CliRun nodir = test::run_cli("path '" + map + "'" + query + " --trace /nonexistent/dir/t.json");
  EXPECT_EQ(nodir.code, 2);
  EXPECT_NE(nodir.err.find("/nonexistent/dir/t.json"), std::string::npos) << nodir.err;
}

}  // namespace
}  // namespace pl

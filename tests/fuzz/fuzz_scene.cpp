// libFuzzer target: JSON scene reader. Anything but an InputError is a bug, and so is a scene
// that reads but does not read back the same after writing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/io.hpp"

namespace {

bool same(const pl::Scene& a, const pl::Scene& b) {
  return a.map.same_content(b.map) && a.map_file == b.map_file && a.circles == b.circles &&
         a.agents == b.agents && a.views == b.views && a.view_json == b.view_json &&
         a.unknown_fields == b.unknown_fields;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // "map": {"file": ...} is resolved against a directory that does not exist, so relative
  // references fail quickly and the run does not depend on the current directory.
  const std::string base = "/nonexistent-pathlab-fuzz";
  pl::Scene scene;
  try {
    scene = pl::parse_scene(text, "fuzz.json", base);
  } catch (const pl::InputError&) {
    return 0;
  }
  // {"width": 16384, "height": 16384} is a legal all-ground map from a few bytes; writing it
  // back as rows is fine but too slow to repeat on every run.
  if (scene.map.cell_count() > (1 << 20)) return 0;
  // Outside the try: the writer must accept whatever the reader accepted.
  const std::string out = pl::format_scene(scene);
  const pl::Scene back = pl::parse_scene(out, "fuzz-roundtrip.json", base);
  if (!same(scene, back) || pl::format_scene(back) != out) __builtin_trap();
  return 0;
}

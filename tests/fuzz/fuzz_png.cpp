// libFuzzer target: PNG import. Anything but an InputError is a bug, and so is a map that
// does not come back the same through PNG export.
#include <stb/stb_image_write.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"

namespace {

void append(void* ctx, void* data, int n) {
  static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), static_cast<std::size_t>(n));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pl::GridMap map;
  try {
    map = pl::parse_png(data, size, "fuzz.png");
  } catch (const pl::InputError&) {
    return 0;
  }
  if (map.width() < 1 || map.height() < 1 || map.width() > pl::kMaxMapSide || map.height() > pl::kMaxMapSide)
    __builtin_trap();
  if (map.cell_count() > (1 << 16)) return 0;
  // The palette colours of the map, encoded as save_png does, must decode to the same map.
  std::vector<unsigned char> rgb;
  rgb.reserve(static_cast<std::size_t>(map.cell_count()) * 3);
  for (pl::TerrainId t : map.cells()) {
    const pl::Rgb& c = map.palette()[t].colour;
    rgb.insert(rgb.end(), {c.r, c.g, c.b});
  }
  std::string png;
  if (!stbi_write_png_to_func(&append, &png, map.width(), map.height(), 3, rgb.data(), map.width() * 3))
    __builtin_trap();
  const pl::GridMap back =
      pl::parse_png(reinterpret_cast<const unsigned char*>(png.data()), png.size(), "fuzz-roundtrip.png");
  if (!back.same_content(map)) __builtin_trap();
  return 0;
}

// libFuzzer target: MovingAI .map reader. Anything but an InputError is a bug, and so is a map
// that reads but does not read back the same after writing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pl::GridMap map;
  try {
    map = pl::parse_map(text, "fuzz.map");
  } catch (const pl::InputError&) {
    return 0;
  }
  // Sizes are bounded by the input length (a byte per cell).
  if (static_cast<std::size_t>(map.cell_count()) > size) __builtin_trap();
  // Outside the try: the writer must accept whatever the reader accepted.
  const std::string out = pl::format_map(map);
  const pl::GridMap back = pl::parse_map(out, "fuzz-roundtrip.map");
  if (!back.same_content(map) || pl::format_map(back) != out) __builtin_trap();
  return 0;
}

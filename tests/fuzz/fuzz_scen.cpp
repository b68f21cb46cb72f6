// libFuzzer target: MovingAI .scen reader (both dialects). Anything but an InputError is a bug,
// and so is a scenario that reads but does not read back the same after writing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pl::Scenario scen;
  try {
    scen = pl::parse_scen(text, "fuzz.scen");
  } catch (const pl::InputError&) {
    return 0;
  }
  if (scen.lines.size() != scen.problems.size()) __builtin_trap();
  // Outside the try: the writer must accept whatever the reader accepted, in its dialect.
  const std::string out = pl::format_scen(scen);
  const pl::Scenario back = pl::parse_scen(out, "fuzz-roundtrip.scen");
  if (back.dialect != scen.dialect || !(back.problems == scen.problems) || pl::format_scen(back) != out)
    __builtin_trap();
  // Checking against a map of the first problem's size never throws anything but InputError.
  if (!scen.problems.empty() && scen.problems[0].map_width <= 64 && scen.problems[0].map_height <= 64) {
    try {
      pl::check_scen_against_map(scen, pl::GridMap(scen.problems[0].map_width, scen.problems[0].map_height),
                                 "fuzz.scen");
    } catch (const pl::InputError&) {
    }
    try {
      (void)pl::resolve_scen_map("dir/fuzz.scen", scen.problems[0]);
    } catch (const pl::InputError&) {
    }
  }
  return 0;
}

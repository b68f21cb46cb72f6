#include "core/node_space.hpp"

#include <cstdio>

namespace pl {

std::string NodeSpace::label(std::uint32_t id) const {
  char buf[96];
  switch (kind) {
    case Kind::Cells: {
      const CellXY c = *cell(id);
      std::snprintf(buf, sizeof buf, "cell (%d,%d)", c.x, c.y);
      break;
    }
    case Kind::Corners: {
      const CellXY c = *corner(id);
      std::snprintf(buf, sizeof buf, "corner (%d,%d)", c.x, c.y);
      break;
    }
    case Kind::CellHeadings: {
      const CellXY c = *cell(id);
      const int i = heading_index(id);
      std::snprintf(buf, sizeof buf, "(%d,%d) heading %d/%d (%.0f deg)", c.x, c.y, i, headings,
                    heading_of_index(i) * 180.0 / std::numbers::pi);
      break;
    }
    case Kind::Layer:
    case Kind::Points:
      std::snprintf(buf, sizeof buf, "%s %u", name.empty() ? "node" : name.c_str(),
                    unsigned(id - base));
      break;
  }
  return buf;
}

std::string heading_name(double heading) {
  if (std::isnan(heading)) return {};
  double deg = std::fmod(heading * 180.0 / std::numbers::pi, 360.0);
  if (deg < 0) deg += 360.0;
  const double octant = deg / 45.0;
  if (std::abs(octant - std::round(octant)) < 1e-6) {
    // Clockwise on screen from east: y grows downward, so a quarter turn is south.
    static const char* const kNames[8] = {"E", "SE", "S", "SW", "W", "NW", "N", "NE"};
    return kNames[int(std::round(octant)) % 8];
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g deg", std::round(deg * 10) / 10);
  return buf;
}

}  // namespace pl

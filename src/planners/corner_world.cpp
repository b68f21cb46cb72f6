#include "planners/corner_world.hpp"

#include <cmath>
#include <cstdio>

#include "core/grid_query.hpp"

namespace pl {

bool corner_endpoints(const GridMap& map, const Query& query, CornerEndpoint ep[2], PlanResult& r) {
  const int w = map.width(), h = map.height();
  const Pose* pose[2] = {&query.start, &query.goal};
  const char* which[2] = {"start", "goal"};
  for (int i = 0; i < 2; ++i) {
    const double px = pose[i]->x, py = pose[i]->y;
    if (!std::isfinite(px) || !std::isfinite(py) || px < 0 || py < 0 || px > w || py > h) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s (%g,%g) is outside the map's corners [0,%d] x [0,%d]",
                    which[i], px, py, w, h);
      r.message = buf;
      r.bad_query = true;
      return false;
    }
    CornerEndpoint& e = ep[i];
    e.px = px;
    e.py = py;
    e.corner = px == std::floor(px) && py == std::floor(py);
    e.x = std::min(int(px), e.corner ? w : w - 1);
    e.y = std::min(int(py), e.corner ? h : h - 1);
  }
  return true;
}

bool corner_endpoints_free(const GridMap& map, CapabilityMask cap, const CornerGrid& grid,
                           const CornerEndpoint ep[2], PlanResult& r, SearchObserver* observer) {
  const char* which[2] = {"start", "goal"};
  for (int i = 0; i < 2; ++i) {
    if (!ep[i].corner && grid.blocked(ep[i].x, ep[i].y)) {
      r.message = blocked_reason(map, cap, 1, false, which[i], CellXY{ep[i].x, ep[i].y});
      if (observer) {
        observer->phase("check endpoints");
        observer->test(Shape::cell(ep[i].x, ep[i].y), false);
        observer->frame();
      }
      return false;
    }
  }
  return true;
}

}  // namespace pl

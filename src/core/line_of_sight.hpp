// The corner grid and exact line of sight between cell corners (issue 12, part 1), the one copy
// every any-angle planner and checker uses (DESIGN.md sections 3 and 9).
//
// Vertices are the (w+1) x (h+1) cell corners: corner (x, y) is the map point (x, y), the
// top-left corner of cell (x, y) (cell (x, y) spans [x, x+1] x [y, y+1], y down). Ids are the
// NodeSpace::corners(w, h) ids, y * (w + 1) + x.
//
// A cell is blocked when its terrain is outside the agent's capability; everything outside the
// map is blocked. The rules (the any-angle track of the Grid-Based Path Planning Competition):
// a segment between two corners is visible when it
//   - enters no blocked cell's interior,
//   - runs along no edge shared by two blocked cells (the map border counts as blocked), and
//   - passes through no corner (strictly between its endpoints) where two blocked cells touch
//     diagonally;
// running along an edge between a blocked and an open cell is allowed, and a segment from a
// corner to itself is visible (the empty path). Endpoints are not "passed through": a segment
// may start or end at a corner where two blocked cells touch. A path that turns at such a
// corner would squeeze between the two cells, so a path may use such a corner only as its first
// or last point (pinch() below; path_valid() checks both rules).
//
// visible() decides with integers only: a walk over the columns the segment spans, with the row
// range of each column kept as an exact quotient and remainder (no division, no floating point,
// no sampling), over a padded byte grid with no bounds checks.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/geometry.hpp"
#include "core/grid.hpp"

namespace pl {

class CornerGrid {
 public:
  CornerGrid() = default;
  // The cells of `map` outside `capability` (0 = the palette's MovingAI default) are blocked.
  CornerGrid(const GridMap& map, CapabilityMask capability);
  // From a row-major w x h mask (nonzero = blocked), for tests and generated worlds.
  CornerGrid(int w, int h, std::span<const std::uint8_t> blocked);

  int width() const { return w_; }
  int height() const { return h_; }
  // Corner ids (NodeSpace::corners): y * (w + 1) + x.
  std::uint32_t corner_id(int x, int y) const { return std::uint32_t(y * (w_ + 1) + x); }
  std::uint32_t corner_count() const { return std::uint32_t((w_ + 1) * (h_ + 1)); }
  bool in_corners(int x, int y) const { return x >= 0 && y >= 0 && x <= w_ && y <= h_; }

  // Cell (x, y) is blocked; any cell outside the map is. x in [-1, w], y in [-1, h].
  bool blocked(int x, int y) const { return pad_[idx(x, y)] != 0; }

  // Line of sight between corners (x0, y0) and (x1, y1) under the rules above. Corners outside
  // [0, w] x [0, h] are never visible.
  bool visible(int x0, int y0, int x1, int y1) const;
  // visible(), and when the answer is no because the open segment meets the interior of a
  // blocked cell, that cell in (*cx, *cy) (the first one the walk met); otherwise (*cx, *cy) is
  // left alone and false returned for another reason (a pinch, a grid line, out of range). Lets
  // a caller that tests many nearly parallel segments skip the walks of those that cross the
  // same cell (crosses_cell()).
  bool visible_or_blocker(int x0, int y0, int x1, int y1, int* cx, int* cy) const;

  // Whether the segment (x0, y0) - (x1, y1) passes through the open square of a blocked cell
  // among the four that meet at corner (cx, cy): then it is not visible. A constant-time test
  // that settles most failing sight lines between corners of a bent path (the cells at the bend
  // are the obstacle the bend went round) before visible() walks them. False says nothing.
  bool crosses_blocked_at(int x0, int y0, int x1, int y1, int cx, int cy) const {
    for (int k = 0; k < 4; ++k) {
      const int x = cx - 1 + (k & 1), y = cy - 1 + (k >> 1);
      if (blocked(x, y) && crosses_cell(x0, y0, x1, y1, x, y)) return true;
    }
    return false;
  }
  // Whether the open segment (x0, y0) - (x1, y1) meets the open square of cell (x, y), blocked
  // or not. Constant time, exact.
  static bool crosses_cell(int x0, int y0, int x1, int y1, int x, int y) {
    const std::int64_t dx = x1 - x0, dy = y1 - y0;
    if (dx == 0 || dy == 0) return false;  // along a grid line: inside no cell
    const std::int64_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    // The segment is inside the cell's column for t in (lx, lx + 1) / adx and inside its row
    // for t in (ly, ly + 1) / ady (mirrored so that both grow with t); it meets the open
    // square when the two open intervals overlap within [0, 1]. Exact: cross-multiplied.
    const std::int64_t lx = dx > 0 ? x - x0 : x0 - x - 1;
    const std::int64_t ly = dy > 0 ? y - y0 : y0 - y - 1;
    return lx >= 0 && lx < adx && ly >= 0 && ly < ady && lx * ady < (ly + 1) * adx &&
           ly * adx < (lx + 1) * ady;
  }

  // Corner (x, y) is one where two blocked cells touch diagonally (NW and SE, or NE and SW): a
  // path may not pass through it, only start or end there.
  bool pinch(int x, int y) const {
    const std::size_t i = idx(x, y);  // cell SE of the corner
    const std::uint8_t* p = pad_.data();
    return (p[i - std::size_t(pw_) - 1] & p[i]) | (p[i - std::size_t(pw_)] & p[i - 1]);
  }

  // The 8 unit moves between neighbouring corners, legal when the unit segment is visible: a
  // straight move needs one open cell beside its edge, a diagonal move an open cell to cross.
  // dx, dy in {-1, 0, 1}, not both 0; (x, y) and (x+dx, y+dy) must be corners.
  bool step_ok(int x, int y, int dx, int dy) const {
    if (dx != 0 && dy != 0) return !blocked(x + (dx < 0 ? -1 : 0), y + (dy < 0 ? -1 : 0));
    if (dy == 0) {
      const int cx = x + (dx < 0 ? -1 : 0);
      return !(blocked(cx, y - 1) && blocked(cx, y));
    }
    const int cy = y + (dy < 0 ? -1 : 0);
    return !(blocked(x - 1, cy) && blocked(x, cy));
  }

  // A polyline of corners is a valid any-angle path: every point an in-range corner (integer
  // coordinates), every segment visible, no interior point a pinch corner. Empty or one point:
  // valid. `why`, when given, receives the reason for the first failure.
  bool path_valid(std::span<const Vec2> points, std::string* why = nullptr) const;

  std::size_t memory_bytes() const { return pad_.capacity(); }

 private:
  std::size_t idx(int x, int y) const { return std::size_t(y + 1) * std::size_t(pw_) + std::size_t(x + 1); }
  bool visible_axis(int x0, int y0, int x1, int y1) const;
  // visible() (cx == nullptr) or visible_or_blocker().
  template <bool kReport>
  bool walk(int x0, int y0, int x1, int y1, int* cx, int* cy) const;

  int w_ = 0, h_ = 0, pw_ = 2;
  std::vector<std::uint8_t> pad_ = std::vector<std::uint8_t>(4, 1);  // (w+2) x (h+2), 1 = blocked
};

}  // namespace pl

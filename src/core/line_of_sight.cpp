#include "core/line_of_sight.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>

namespace pl {

CornerGrid::CornerGrid(const GridMap& map, CapabilityMask capability)
    : w_(map.width()), h_(map.height()), pw_(map.width() + 2) {
  if (capability == 0) capability = map.palette().movingai_default_capability();
  pad_.assign(std::size_t(w_ + 2) * std::size_t(h_ + 2), 1);
  const auto& cells = map.cells();
  for (int y = 0; y < h_; ++y)
    for (int x = 0; x < w_; ++x)
      pad_[idx(x, y)] = ((capability >> cells[std::size_t(y) * std::size_t(w_) + std::size_t(x)]) & 1u) ? 0 : 1;
}

CornerGrid::CornerGrid(int w, int h, std::span<const std::uint8_t> blocked)
    : w_(w), h_(h), pw_(w + 2) {
  pad_.assign(std::size_t(w_ + 2) * std::size_t(h_ + 2), 1);
  for (int y = 0; y < h_; ++y)
    for (int x = 0; x < w_; ++x)
      pad_[idx(x, y)] = blocked[std::size_t(y) * std::size_t(w_) + std::size_t(x)] ? 1 : 0;
}

// Along a grid line: every unit edge needs an open cell on one side, every corner strictly
// inside must not be a pinch. A and B are the cell rows (or columns) on either side of the line,
// walked with one pointer each.
bool CornerGrid::visible_axis(int x0, int y0, int x1, int y1) const {
  const std::uint8_t* p = pad_.data();
  std::ptrdiff_t step;  // from one unit edge to the next
  const std::uint8_t *a, *b;
  int n;
  if (y0 == y1) {
    if (x0 > x1) std::swap(x0, x1);
    n = x1 - x0;
    step = 1;
    a = p + idx(x0, y0 - 1);  // the cells above the line
    b = p + idx(x0, y0);      // and below it
  } else {
    if (y0 > y1) std::swap(y0, y1);
    n = y1 - y0;
    step = pw_;
    a = p + idx(x0 - 1, y0);  // the cells left of the line
    b = p + idx(x0, y0);      // and right of it
  }
  if (a[0] & b[0]) return false;
  for (int k = 1; k < n; ++k) {
    const std::ptrdiff_t i = k * step, j = i - step;
    // edge k blocked on both sides, or the corner between edges k-1 and k a pinch
    if ((a[i] & b[i]) | (a[j] & b[i]) | (a[i] & b[j])) return false;
  }
  return true;
}

bool CornerGrid::visible(int x0, int y0, int x1, int y1) const {
  return walk<false>(x0, y0, x1, y1, nullptr, nullptr);
}

bool CornerGrid::visible_or_blocker(int x0, int y0, int x1, int y1, int* cx, int* cy) const {
  return walk<true>(x0, y0, x1, y1, cx, cy);
}

template <bool kReport>
bool CornerGrid::walk(int x0, int y0, int x1, int y1, int* bx, int* by) const {
  if (!in_corners(x0, y0) || !in_corners(x1, y1)) return false;
  if (x0 == x1 && y0 == y1) return true;
  if (x0 == x1 || y0 == y1) return visible_axis(x0, y0, x1, y1);
  if (x0 > x1) {
    std::swap(x0, x1);
    std::swap(y0, y1);
  }
  // Walk the columns x0 .. x1-1 left to right. Rows are mirrored (r' = -r - 1) when the segment
  // rises, so that in walked coordinates y' always grows: y'(X) = q + rem / dx exactly, with
  // 0 <= rem < dx, at each column boundary X.
  const int dx = x1 - x0;
  const bool flip = y1 < y0;
  const int dy = flip ? y0 - y1 : y1 - y0;
  const std::ptrdiff_t stride = flip ? -std::ptrdiff_t(pw_) : std::ptrdiff_t(pw_);
  // Cell (cx, r') of walked coordinates is at base + r' * stride + cx.
  const std::uint8_t* base = pad_.data() + (flip ? 1 : pw_ + 1);
  const int qd = dy / dx, rd = dy % dx;
  int q = flip ? -y0 : y0, rem = 0;
  for (int cx = x0; cx < x1; ++cx) {
    const int qa = q;
    q += qd;
    rem += rd;
    if (rem >= dx) {
      rem -= dx;
      ++q;
    }
    // In column cx the open segment spans y' in (qa + ra/dx, q + rem/dx): the rows whose
    // interior it meets are qa .. q when rem > 0, qa .. q-1 when it ends on a row line.
    const int last = rem > 0 ? q : q - 1;
    const std::uint8_t* c = base + std::ptrdiff_t(qa) * stride + cx;
    for (int r = qa; r <= last; ++r, c += stride)
      if (*c) {
        if constexpr (kReport) {
          *bx = cx;
          *by = flip ? -r - 1 : r;
        }
        return false;
      }
    // A lattice point strictly inside: the segment goes from the cell NW' to the cell SE' of it
    // (both checked above); the other two, NE' and SW', must not both be blocked.
    if (rem == 0 && cx + 1 < x1) {
      const std::uint8_t* se = base + std::ptrdiff_t(q) * stride + (cx + 1);
      if (se[-stride] & se[-1]) return false;
    }
  }
  return true;
}

bool CornerGrid::path_valid(std::span<const Vec2> pts, std::string* why) const {
  const auto fail = [&](std::string s) {
    if (why) *why = std::move(s);
    return false;
  };
  auto corner = [&](Vec2 v, int& x, int& y) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || v.x != std::floor(v.x) ||
        v.y != std::floor(v.y) || v.x < 0 || v.y < 0 || v.x > w_ || v.y > h_)
      return false;
    x = int(v.x);
    y = int(v.y);
    return true;
  };
  auto text = [](Vec2 v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "(%g,%g)", v.x, v.y);
    return std::string(buf);
  };
  int px = 0, py = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    int x, y;
    if (!corner(pts[i], x, y)) return fail("point " + std::to_string(i) + " " + text(pts[i]) + " is not a corner of the map");
    if (i > 0 && !visible(px, py, x, y))
      return fail("segment " + text(pts[i - 1]) + " - " + text(pts[i]) + " breaks line of sight");
    if (i > 0 && i + 1 < pts.size() && pinch(x, y))
      return fail("the path passes through " + text(pts[i]) + ", where two blocked cells touch diagonally");
    px = x;
    py = y;
  }
  return true;
}

}  // namespace pl

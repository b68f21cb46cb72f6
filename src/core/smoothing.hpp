// Greedy path smoothing, once for every planner that shortens a path by skipping vertices.
//
// Pinter 2001 (Listing 1, with Walkable(A, B) for the agent's footprint) and Daniel et al. 2010
// (Theta*, Algorithm 2 "post-smoothing", with line of sight between corners) are the same
// algorithm with a different test: keep an anchor, walk along the path, and keep a vertex only
// when the anchor cannot see the vertex after it. The caller supplies the test; the smoother
// knows nothing of grids, footprints or corners.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace pl {

// Returns the kept vertices of `path` (first and last always kept; a path of fewer than three
// vertices is returned as is). `visible(a, b)` must be true for consecutive input vertices for
// the result to be legal; the smoother calls it only between the anchor and a later vertex.
// `tests` (optional) counts the calls, so planners can report them.
template <class Point, class Visible>
std::vector<Point> greedy_smooth(std::span<const Point> path, Visible&& visible,
                                 std::size_t* tests = nullptr) {
  std::vector<Point> out;
  if (path.empty()) return out;
  out.push_back(path[0]);
  std::size_t anchor = 0;
  for (std::size_t i = 1; i + 1 < path.size(); ++i) {
    if (tests) ++*tests;
    if (!visible(path[anchor], path[i + 1])) {
      out.push_back(path[i]);
      anchor = i;
    }
  }
  if (path.size() > 1) out.push_back(path.back());
  return out;
}

}  // namespace pl

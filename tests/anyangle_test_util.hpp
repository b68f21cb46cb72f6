// Helpers the any-angle tests (corner A*, Theta*, Lazy Theta*, Block A*, visibility graph,
// subgoal graphs) share: the shared any-angle data folder, random obstacle maps and reading a
// PlanResult's pieces back as a polyline.
#pragma once

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/grid.hpp"
#include "planners/planner.hpp"

namespace pl {

inline std::string anyangle_dir() { return std::string(PATHLAB_SHARED_DIR) + "/anyangle/"; }

// A random map of ground (0) and hard obstacles ('@', terrain 4 in Palette::movingai()).
inline GridMap random_map(std::mt19937& rng, int w, int h, int percent) {
  std::vector<TerrainId> cells(std::size_t(w) * std::size_t(h));
  for (auto& c : cells) c = int(rng() % 100) < percent ? TerrainId(4) : TerrainId(0);
  GridMap m(w, h);
  m.assign(cells);
  return m;
}

// The path's vertices; each piece must start where the one before ended.
inline std::vector<Vec2> path_points(const PlanResult& r) {
  std::vector<Vec2> pts;
  for (const PathPiece& p : r.pieces) {
    if (pts.empty()) pts.push_back(p.line.a);
    EXPECT_TRUE(pts.back() == p.line.a) << "pieces not joined";
    pts.push_back(p.line.b);
  }
  return pts;
}

inline double pieces_length(const PlanResult& r) {
  double s = 0;
  for (const PathPiece& p : r.pieces) s += p.length();
  return s;
}

inline Query query(double sx, double sy, double gx, double gy) {
  Query q;
  q.start = {sx, sy, 0};
  q.goal = {gx, gy, 0};
  return q;
}

}  // namespace pl

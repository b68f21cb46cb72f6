// greedy_smooth: the shared skip-vertices smoother (Pinter Listing 1, Daniel et al. Alg. 2).
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "core/smoothing.hpp"

namespace pl {
namespace {

using P = std::pair<int, int>;

TEST(Smoothing, ShortPathsAreReturnedAsIs) {
  std::vector<P> two{{0, 0}, {5, 5}};
  auto never = [](P, P) { return false; };
  EXPECT_EQ(greedy_smooth<P>(two, never), two);
  EXPECT_TRUE(greedy_smooth<P>(std::vector<P>{}, never).empty());
}

TEST(Smoothing, EverythingVisibleLeavesTheEnds) {
  std::vector<P> path{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}};
  std::size_t tests = 0;
  auto out = greedy_smooth<P>(path, [](P, P) { return true; }, &tests);
  EXPECT_EQ(out, (std::vector<P>{{0, 0}, {4, 2}}));
  EXPECT_EQ(tests, 3u);
}

TEST(Smoothing, NothingVisibleBeyondNeighboursKeepsEveryVertex) {
  std::vector<P> path{{0, 0}, {1, 0}, {2, 0}, {3, 0}};
  auto adjacent = [](P a, P b) { return std::abs(a.first - b.first) <= 1; };
  EXPECT_EQ(greedy_smooth<P>(path, adjacent), path);
}

// A wall between x = 3 and 4 for y < 3: the anchor must stop at the corner (3, 3).
TEST(Smoothing, KeepsTheCornerAroundAWall) {
  std::vector<P> path{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 3}, {5, 2}, {6, 0}};
  auto visible = [](P a, P b) {
    // Segment a-b crosses x = 3.5 at some y; blocked when that y < 3.
    if ((a.first < 3.5) == (b.first < 3.5)) return true;
    double t = (3.5 - a.first) / double(b.first - a.first);
    double y = a.second + t * (b.second - a.second);
    return y >= 3;
  };
  auto out = greedy_smooth<P>(path, visible);
  EXPECT_EQ(out, (std::vector<P>{{0, 0}, {3, 3}, {4, 3}, {6, 0}}));
  for (std::size_t i = 0; i + 1 < out.size(); ++i) EXPECT_TRUE(visible(out[i], out[i + 1]));
}

// Random predicates that hold for neighbours: every consecutive output pair passes the test, and
// the output is a subsequence of the input with both ends.
TEST(Smoothing, OutputIsALegalSubsequence) {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    int n = 1 + int(rng() % 12);
    std::vector<P> path;
    for (int i = 0; i < n; ++i) path.push_back({i, int(rng() % 5)});
    unsigned salt = rng();
    auto visible = [salt](P a, P b) {
      if (std::abs(a.first - b.first) <= 1) return true;
      return ((unsigned(a.first * 31 + b.first * 17) ^ salt) % 3) != 0;
    };
    auto out = greedy_smooth<P>(path, visible);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.front(), path.front());
    EXPECT_EQ(out.back(), path.back());
    std::size_t j = 0;
    for (const P& p : out) {
      while (j < path.size() && path[j] != p) ++j;
      ASSERT_LT(j, path.size());
    }
    for (std::size_t i = 0; i + 1 < out.size(); ++i) EXPECT_TRUE(visible(out[i], out[i + 1]));
  }
}

}  // namespace
}  // namespace pl

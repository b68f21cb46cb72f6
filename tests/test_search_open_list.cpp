// The open list of core/search.hpp under an order whose key can get worse when a node is
// relaxed (order_key_may_worsen: OpenList::update sifts both ways), against a sorted reference;
// and the best-first loop when a problem's kClosedFinal promise is broken.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "core/search.hpp"

namespace pl {
namespace {

// Ranks nodes by a table the test changes in either direction, then by id.
struct TableOrder {
  static constexpr bool kKeyMayWorsen = true;
  const std::vector<double>* rank = nullptr;
  bool less(OpenEntry a, OpenEntry b) const {
    const double ra = (*rank)[a.node], rb = (*rank)[b.node];
    return ra < rb || (ra == rb && a.node < b.node);
  }
};

static_assert(order_key_may_worsen<TableOrder>);
static_assert(!order_key_may_worsen<TieLargerG>);

TEST(SearchOpenList, UpdateSiftsBothWays) {
  std::mt19937 rng(5);
  constexpr std::uint32_t kNodes = 300;
  for (int round = 0; round < 50; ++round) {
    std::vector<double> rank(kNodes, 0);
    std::vector<std::int32_t> pos(kNodes, -1);
    OpenList<TableOrder> open(TableOrder{&rank});
    std::set<std::pair<double, std::uint32_t>> ref;  // what is queued, by (rank, node)
    for (int step = 0; step < 2000; ++step) {
      const std::uint32_t n = rng() % kNodes;
      const double r = double(rng() % 50);  // many equal ranks: the id decides
      const unsigned what = rng() % 4;
      if (what < 2) {  // push a new node or change a queued one's rank, up or down
        if (pos[n] < 0) {
          rank[n] = r;
          open.push({r, 0.f, n}, pos.data());
        } else {
          ref.erase({rank[n], n});
          rank[n] = r;
          open.update(pos[n], {r, 0.f, n}, pos.data());
        }
        ref.insert({r, n});
      } else if (!open.empty()) {
        const OpenEntry top = open.pop(pos.data());
        ASSERT_EQ(top.node, ref.begin()->second) << "round " << round << ", step " << step;
        ref.erase(ref.begin());
        pos[top.node] = -1;
      }
      ASSERT_EQ(open.size(), ref.size());
    }
  }
}

// Declares kClosedFinal (the loop then skips the closed test before comparing g) but its
// heuristic is inconsistent: node 1 (h 0) is expanded through the direct edge 0 -> 1 (cost 1)
// before node 2 (h 5) finds it the cheap way, 0 -> 2 -> 1 (0.2). That improvement reaches a
// closed node; it used to decrease a key at heap position kClosed (-2), writing before the
// heap's buffer (AddressSanitizer reports it). The closed node is now kept as it is.
struct BrokenPromise {
  using Cost = double;
  using Order = TieLargerG;
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = false;
  static constexpr bool kClosedFinal = true;
  struct Edge {
    std::uint32_t to;
    double cost;
  };
  std::vector<std::vector<Edge>> out{{{1, 1.0}, {2, 0.1}}, {{3, 10.0}}, {{1, 0.1}}, {}};
  std::vector<double> h{0.0, 0.0, 5.0, 0.0};
  std::uint32_t start() const { return 0; }
  std::size_t node_bound() const { return out.size(); }
  bool stop(std::uint32_t n) const { return n == 3; }
  float progress(const OpenEntry&) const { return -1.0f; }
  std::uint32_t id(std::uint32_t n) const { return n; }
  void evaluate(std::uint32_t n, const Cost& g, double& f, double& hh) const {
    hh = h[n];
    f = g + hh;
  }
  template <class Out>
  void expand(std::uint32_t cur, const Cost& g, Out& o) const {
    for (const Edge& e : out[cur]) o.reach(e.to, g + e.cost);
  }
};
static_assert(closed_final<BrokenPromise>);

TEST(SearchLoop, ClosedFinalProblemWithAnInconsistentHeuristicKeepsClosedNodes) {
  BrokenPromise p;
  NodePool<double> pool;
  OpenList<TieLargerG> open;
  Unwatched l;
  const RunContext ctx;
  for (int run = 0; run < 3; ++run) {  // the pool and open list are reused, as planners do
    const SearchOutcome out = best_first(p, pool, open, l, ctx);
    ASSERT_TRUE(out.stopped);
    EXPECT_EQ(out.last, 3u);
    EXPECT_EQ(out.expanded, 4u);  // 0, 1, 2, then the goal
    // Node 1 was closed with g = 1 and stays so: the goal hangs from it at 11.
    EXPECT_DOUBLE_EQ(pool.g_value(1), 1.0);
    EXPECT_DOUBLE_EQ(pool.g_value(3), 11.0);
    EXPECT_EQ(pool.positions()[1], NodePool<double>::kClosed);
  }
}

}  // namespace
}  // namespace pl

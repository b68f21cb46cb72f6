// The open list of core/search.hpp under an order whose key can get worse when a node is
// relaxed (order_key_may_worsen: OpenList::update sifts both ways), against a sorted reference.
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

}  // namespace
}  // namespace pl

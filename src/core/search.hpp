// The one search machinery every planner runs on (DESIGN.md section 2), composed as in Warthog:
//
//   problem    what the nodes are and how they connect: start, successors (the expansion
//              policy), heuristic, stop test, and how a node is reported (id, NodeDesc);
//   NodePool   g, parent and a search number per node, allocated once and reused across
//              queries: a new search bumps the number instead of clearing anything;
//   OpenList   an indexed binary heap (positions kept in the pool) with decrease-key and the
//              project's tie rule: smaller f first, then smaller h (= larger g);
//   listener   Unwatched compiles every report out of the loop; Watched batches node events,
//              tests, marks and frame boundaries through a StepReporter (one virtual call per batch).
//
// best_first() is the loop. A problem's speed tricks are policies of it, not forks:
//   - Cost: OctileCost keeps g as exact counts of straight and diagonal moves, so equal f
//     values compare equal and ties break exactly; double is the general case;
//   - kFastSlot: the next-pop slot (a successor whose f is not above its parent's is provably
//     the next minimum and skips the heap);
//   - kGrowing: ids may appear during the search (lazily built graphs); the pool grows.
//
// A problem P provides:
//   using Cost = OctileCost | double;   using Order = TieLargerG (or its own order);
//   static constexpr bool kFastSlot, kGrowing;
//   std::uint32_t start() const;                      // the start node
//   std::size_t node_bound() const;                   // ids are below this (a hint if growing)
//   void evaluate(std::uint32_t n, const Cost& g, double& f, double& h, hint...);
//        // f and h of n reached with g; hint... is what expand() passed to reach() (nothing
//        // for the start)
//   bool stop(std::uint32_t n);                       // n was just closed: stop the search?
//   template <class Out> void expand(std::uint32_t n, const Cost& g, Out& out);
//        // calls out.reach(successor, g of successor, hint...) per successor; reach() returns true when
//        // it improved the successor (the problem may then record how it got there)
//   float progress(const OpenEntry& top) const;       // 0..1, or < 0 when unknown
//   // watched searches only:
//   std::uint32_t id(std::uint32_t n[, hint...]) const;  // the id reported to the observer
//   NodeDesc desc(std::uint32_t n[, hint...]) const;     // optional: its description (id
//        // included) for Layer and Points spaces or labels; without desc() opened nodes are
//        // reported by id alone, which is all a dense space (Cells, Corners, CellHeadings) needs
//
// Nodes are never re-opened once closed: every problem here has a consistent heuristic.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/geometry.hpp"
#include "core/observer.hpp"

namespace pl {

// What a running search is told from outside: who watches, whether to stop, where to report
// progress. Planners pass it on to the machinery.
struct RunContext {
  SearchObserver* observer = nullptr;         // nullptr = nobody watches, nothing recorded
  const std::atomic<bool>* cancel = nullptr;  // polled by long searches
  std::atomic<float>* progress = nullptr;     // 0..1 where the planner can tell
  bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
  void report_progress(float p) const {
    if (progress) progress->store(p, std::memory_order_relaxed);
  }
};

// Wall-clock time since construction, in milliseconds (planners' time_ms and build times).
class Stopwatch {
 public:
  Stopwatch() : t0_(std::chrono::steady_clock::now()) {}
  double ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

// ---- Costs ------------------------------------------------------------------------------------

// g on a uniform-cost octile grid as exact move counts: value() is the same double for the same
// counts, so f ties are exact.
struct OctileCost {
  std::uint32_t straight = 0, diagonal = 0;
  double value() const { return double(straight) + double(diagonal) * kSqrt2; }
  OctileCost operator+(OctileCost o) const {
    return {straight + o.straight, diagonal + o.diagonal};
  }
};
inline double cost_value(double c) { return c; }
inline double cost_value(const OctileCost& c) { return c.value(); }
// a < b. For move counts, compares the differences: a.s - b.s < (b.d - a.d) sqrt 2 is exact in
// doubles (an integer never lies within rounding of a non-zero integer multiple of sqrt 2 at
// these magnitudes), and converts two integers instead of four.
inline bool cost_less(double a, double b) { return a < b; }
inline bool cost_less(const OctileCost& a, const OctileCost& b) {
  return double(std::int64_t(a.straight) - std::int64_t(b.straight)) <
         double(std::int64_t(b.diagonal) - std::int64_t(a.diagonal)) * kSqrt2;
}

// The terrain move-cost rule (README, "Terrain move costs"): a step of geometric length
// `length` between two cells costs that length times the mean of their terrain costs.
inline double terrain_step_cost(double length, double cost_a, double cost_b) {
  return length * 0.5 * (cost_a + cost_b);
}

// ---- Node pool ------------------------------------------------------------------------------

template <class Cost>
class NodePool {
 public:
  struct Node {
    Cost g;
    std::uint32_t parent;  // kNoNode for the start
    std::uint32_t search;  // the search number that last touched this node
  };
  // Open-list positions: >= 0 an index into the heap, or one of these.
  static constexpr std::int32_t kNotQueued = -1, kClosed = -2, kInSlot = -3;

  // Makes room for ids [0, n). Existing nodes keep their state.
  void reserve(std::size_t n) {
    if (nodes_.size() >= n) return;
    nodes_.resize(n, Node{Cost{}, kNoNode, 0});
    pos_.resize(n, kNotQueued);
  }
  // Drops every node (a different graph); the next search starts from scratch.
  void reset(std::size_t n) {
    nodes_.assign(n, Node{Cost{}, kNoNode, 0});
    pos_.assign(n, kNotQueued);
    search_ = 0;
  }
  // Starts a new search: every node becomes unseen without touching it (on wrap-around the
  // pool is cleared once).
  void new_search() {
    if (++search_ == 0) {
      for (Node& n : nodes_) n.search = 0;
      search_ = 1;
    }
  }
  std::uint32_t search_number() const { return search_; }
  std::size_t size() const { return nodes_.size(); }

  // State of the last search.
  bool seen(std::uint32_t id) const { return id < nodes_.size() && nodes_[id].search == search_; }
  const Cost& g(std::uint32_t id) const { return nodes_[id].g; }
  double g_value(std::uint32_t id) const { return cost_value(nodes_[id].g); }
  std::uint32_t parent(std::uint32_t id) const { return nodes_[id].parent; }
  // The ids from the start to `id`, both included.
  std::vector<std::uint32_t> chain(std::uint32_t id) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t p = id; p != kNoNode; p = nodes_[p].parent) out.push_back(p);
    std::reverse(out.begin(), out.end());
    return out;
  }

  Node* nodes() { return nodes_.data(); }
  std::int32_t* positions() { return pos_.data(); }
  std::size_t memory_bytes() const {
    return nodes_.capacity() * sizeof(Node) + pos_.capacity() * sizeof(std::int32_t);
  }

 private:
  std::vector<Node> nodes_;
  std::vector<std::int32_t> pos_;
  std::uint32_t search_ = 0;
};

// ---- Open list ------------------------------------------------------------------------------

// 16 bytes: f, the node and h (the tie break). Laid out so that the second 8 bytes, read as an
// integer, hold h above the node: TieLargerG compares two entries as two integer pairs.
struct OpenEntry {
  double f;
  std::uint32_t node;
  float h;
  OpenEntry() = default;
  constexpr OpenEntry(double f_value, float h_value, std::uint32_t id)
      : f(f_value), node(id), h(h_value) {}
};
static_assert(sizeof(OpenEntry) == 16);

// The project's tie rule: smaller f, then smaller h (= larger g); at equal f and h the smaller
// node id, so the order never depends on the heap's shape. f and h must be non-negative (not
// -0.0, not NaN), which every distance is: the bits of a non-negative double or float then sort
// as the values do, and one entry is the 128-bit integer (f bits, h bits, node). Comparing two
// is a compare and a subtract-with-borrow, branch-free, where comparing doubles with a tie
// rule took a dozen instructions and the parity checks of ==.
struct TieLargerG {
  __extension__ using Key = unsigned __int128;
  static Key key(const OpenEntry& e) {
    assert(e.f >= 0 && e.h >= 0 && !std::signbit(e.f) && !std::signbit(e.h));
    // Two 8-byte loads: f's bits, and node | h's bits << 32 (h sits above the node in memory).
    static_assert(std::endian::native == std::endian::little);
    std::uint64_t f, hn;
    std::memcpy(&f, &e, 8);
    std::memcpy(&hn, reinterpret_cast<const char*>(&e) + 8, 8);
    return Key(f) << 64 | hn;
  }
  bool less(const OpenEntry& a, const OpenEntry& b) const { return key(a) < key(b); }
  int less_bits(const OpenEntry& a, const OpenEntry& b) const { return int(key(a) < key(b)); }
};

// Whether an Order may rank an open node lower after its g decreased. TieLargerG never does (a
// node's h is fixed, so f and h fall together); an order that prefers the larger g at equal f
// does when a smaller g's f rounds to the same double. Such an order declares
// `static constexpr bool kKeyMayWorsen = true;` and the loop re-sifts relaxed entries both ways.
template <class Order>
inline constexpr bool order_key_may_worsen = requires {
  requires Order::kKeyMayWorsen;
};

// 4-ary min-heap under Order with each node's position kept in the pool (pass the pool's
// positions() to every call: a growing pool moves them). The four children of entry i are
// 4i+1..4i+4; the array is placed so that each such group of four 16-byte entries fills one
// 64-byte cache line, and the heap is half as deep as a binary one: a pop reads one line per
// level. Pop is bottom-up (Floyd): the hole walks down along the smallest children and the last
// entry is sifted up from the leaf, which is short because that entry is nearly always large.
template <class Order = TieLargerG>
class OpenList {
 public:
  OpenList() = default;
  explicit OpenList(Order order) : order_(std::move(order)) {}
  OpenList(const OpenList& o) : order_(o.order_) { copy_from(o); }
  OpenList& operator=(const OpenList& o) {
    if (this != &o) {
      order_ = o.order_;
      copy_from(o);
    }
    return *this;
  }
  // A moved vector keeps its buffer, so heap_ stays valid; the source is left empty.
  OpenList(OpenList&& o) noexcept
      : store_(std::move(o.store_)), heap_(o.heap_), size_(o.size_), cap_(o.cap_),
        order_(std::move(o.order_)) {
    o.forget();
  }
  OpenList& operator=(OpenList&& o) noexcept {
    if (this != &o) {
      store_ = std::move(o.store_);
      heap_ = o.heap_;
      size_ = o.size_;
      cap_ = o.cap_;
      order_ = std::move(o.order_);
      o.forget();
    }
    return *this;
  }
  Order& order() { return order_; }

  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return std::size_t(size_); }
  const OpenEntry& top() const { return heap_[0]; }
  std::size_t memory_bytes() const { return store_.capacity() * sizeof(OpenEntry); }

  void push(OpenEntry e, std::int32_t* pos) {
    if (size_ == cap_) grow();
    sift_up(size_++, e, pos);
  }
  // A better key for the entry at heap position i (f and h only ever decrease together).
  void decrease(std::int32_t i, OpenEntry e, std::int32_t* pos) { sift_up(i, e, pos); }
  // A new key for the entry at heap position i that may also rank lower than the old one (see
  // order_key_may_worsen): sifts it up or down.
  void update(std::int32_t i, OpenEntry e, std::int32_t* pos) {
    if (i > 0 && order_.less(e, heap_[std::size_t((i - 1) >> 2)]))
      sift_up(i, e, pos);
    else
      sift_down(i, e, pos);
  }
  OpenEntry pop(std::int32_t* pos) {
    OpenEntry* heap = heap_;
    const OpenEntry top = heap[0];
    const OpenEntry last = heap[--size_];
    const std::int32_t n = size_;
    if (n > 0) {
      std::int32_t i = 0;
      for (;;) {
        const std::int32_t c = 4 * i + 1;
        std::int32_t m;
        if (c + 3 < n) {
          m = min_of_four(heap, c);
        } else {
          if (c >= n) break;
          m = c;
          for (std::int32_t k = c + 1; k < n; ++k)
            if (order_.less(heap[k], heap[m])) m = k;
        }
        heap[i] = heap[m];
        pos[heap[i].node] = i;
        i = m;
      }
      sift_up(i, last, pos);
    }
    return top;
  }

 private:
  // The smallest of heap[c..c+3] (the earliest on ties), without branches where the order
  // offers less_bits: which child is smallest is a coin toss a predictor loses.
  std::int32_t min_of_four(const OpenEntry* heap, std::int32_t c) const {
    if constexpr (requires { order_.less_bits(heap[0], heap[0]); }) {
      const std::int32_t a = c + order_.less_bits(heap[c + 1], heap[c]);
      const std::int32_t b = c + 2 + order_.less_bits(heap[c + 3], heap[c + 2]);
      return a + ((b - a) & -order_.less_bits(heap[b], heap[a]));
    } else {
      const std::int32_t a = order_.less(heap[c + 1], heap[c]) ? c + 1 : c;
      const std::int32_t b = order_.less(heap[c + 3], heap[c + 2]) ? c + 3 : c + 2;
      return order_.less(heap[b], heap[a]) ? b : a;
    }
  }

  void sift_up(std::int32_t i, OpenEntry e, std::int32_t* pos) {
    OpenEntry* heap = heap_;
    while (i > 0) {
      const std::int32_t up = (i - 1) >> 2;
      if (!order_.less(e, heap[up])) break;
      heap[i] = heap[up];
      pos[heap[i].node] = i;
      i = up;
    }
    heap[i] = e;
    pos[e.node] = i;
  }

  void sift_down(std::int32_t i, OpenEntry e, std::int32_t* pos) {
    OpenEntry* heap = heap_;
    for (;;) {
      const std::int32_t c = 4 * i + 1;
      if (c >= size_) break;
      std::int32_t m = c;
      for (std::int32_t k = c + 1; k < std::min(c + 4, size_); ++k)
        if (order_.less(heap[k], heap[m])) m = k;
      if (!order_.less(heap[m], e)) break;
      heap[i] = heap[m];
      pos[heap[i].node] = i;
      i = m;
    }
    heap[i] = e;
    pos[e.node] = i;
  }

  // Entry 1 (the root's first child) starts a cache line, and so does every group 4i+1..4i+4.
  static OpenEntry* aligned_base(std::vector<OpenEntry>& store) {
    const auto addr = reinterpret_cast<std::uintptr_t>(store.data());
    const std::uintptr_t skip = ((64 - (addr + sizeof(OpenEntry)) % 64) % 64) / sizeof(OpenEntry);
    return store.data() + skip;
  }
  void grow() {
    const std::int32_t cap = std::max<std::int32_t>(1024, cap_ * 2);
    std::vector<OpenEntry> next(std::size_t(cap) + 4);
    OpenEntry* base = aligned_base(next);
    std::copy(heap_, heap_ + size_, base);
    store_ = std::move(next);
    heap_ = base;
    cap_ = cap;
  }
  void forget() {
    store_.clear();
    store_.shrink_to_fit();
    heap_ = nullptr;
    size_ = cap_ = 0;
  }
  void copy_from(const OpenList& o) {
    store_.assign(o.store_.size(), OpenEntry{});
    heap_ = store_.empty() ? nullptr : aligned_base(store_);
    std::copy(o.heap_, o.heap_ + o.size_, heap_);
    size_ = o.size_;
    cap_ = o.cap_;
  }

  std::vector<OpenEntry> store_;
  OpenEntry* heap_ = nullptr;
  std::int32_t size_ = 0, cap_ = 0;
  [[no_unique_address]] Order order_;
};

// ---- Listeners ------------------------------------------------------------------------------

// Nobody watches: every report compiles away.
struct Unwatched {
  static constexpr bool kActive = false;
  void open(const NodeDesc&, std::uint32_t, double, double) {}
  template <bool kChecked = true>
  void open(std::uint32_t, std::uint32_t, double, double) {}
  template <bool kChecked = true>
  void relax(std::uint32_t, std::uint32_t, double) {}
  void close(std::uint32_t) {}
  void frame_close(std::uint32_t) {}
  void frame_close(std::uint32_t, std::size_t) {}
  void test(const Shape&, bool) {}
  void mark(const Shape&, Role) {}
  void frame() {}
  void flush() {}
  SearchObserver* observer() const { return nullptr; }
};

// Reports node events, tests and marks in batches (StepReporter); anything else (phases,
// counters, paths) goes to observer() after flush().
class Watched {
 public:
  static constexpr bool kActive = true;
  explicit Watched(SearchObserver* o) : rep_(o) {}
  void open(const NodeDesc& d, std::uint32_t parent, double g, double h) {
    rep_.open(d, parent, g, h);
  }
  template <bool kChecked = true>
  void open(std::uint32_t id, std::uint32_t parent, double g, double h) {
    rep_.template open<kChecked>(id, parent, g, h);
  }
  template <bool kChecked = true>
  void relax(std::uint32_t id, std::uint32_t parent, double g) {
    rep_.template relax<kChecked>(id, parent, g);
  }
  void close(std::uint32_t id) { rep_.close(id); }
  void frame_close(std::uint32_t id) { rep_.frame_close(id); }
  void frame_close(std::uint32_t id, std::size_t room) { rep_.frame_close(id, room); }
  // Geometry in the same batch as the node events (no virtual call, no flush needed).
  void test(const Shape& s, bool ok) { rep_.test(s, ok); }
  void mark(const Shape& s, Role role) { rep_.mark(s, role); }
  void frame() { rep_.frame(); }
  void flush() { rep_.flush(); }
  SearchObserver* observer() const { return rep_.observer(); }

 private:
  StepReporter rep_;
};

// Runs `body(listener)` with Watched when an observer is attached and with Unwatched otherwise:
// one instantiation each, so an unwatched search pays nothing for the hook.
template <class Body>
decltype(auto) with_listener(SearchObserver* observer, Body&& body) {
  if (observer) {
    Watched w(observer);
    return body(w);
  }
  Unwatched u;
  return body(u);
}

// ---- The loop -------------------------------------------------------------------------------

struct SearchOutcome {
  bool stopped = false;    // the problem's stop() ended the search (usually: goal reached)
  bool cancelled = false;  // the RunContext asked to stop
  std::uint32_t last = kNoNode;  // the node closed last (the goal when stopped)
  std::uint64_t expanded = 0, generated = 0;
};

// Whether P declares `static constexpr bool kClosedFinal = true;`: its heuristic is consistent and
// its costs exact (OctileCost), so a closed node's g is final and no later path can beat it.
template <class P>
inline constexpr bool closed_final = requires { requires P::kClosedFinal; };

// Whether P declares `static constexpr std::size_t kMaxSuccessors = k;`: an expansion reaches at
// most k successors and reports nothing else (no test or mark), so a watched step makes room for
// all its events once instead of checking the buffer per event.
template <class P>
inline constexpr bool bounded_steps = requires { requires P::kMaxSuccessors > 0; };

// Successor sink handed to P::expand: reach(n, g) is the relaxation step.
template <class P, class L>
class Reach {
 public:
  using Cost = typename P::Cost;
  using Pool = NodePool<Cost>;

  Reach(P& p, Pool& pool, OpenList<typename P::Order>& open, L& l)
      : p_(p), pool_(pool), open_(open), l_(l), sid_(pool.search_number()) {
    refresh();
  }

  // `hint...` is passed on to P::evaluate (e.g. the successor's x, y, which the expansion knows
  // without dividing).
  template <class... Hint>
  bool reach(std::uint32_t nb, const Cost& ng, const Hint&... hint) {
    if constexpr (P::kGrowing) {
      if (nb >= pool_.size()) {
        pool_.reserve(std::max<std::size_t>(std::size_t(nb) + 1, pool_.size() * 2));
        refresh();
      }
    }
    typename Pool::Node& n = nodes_[nb];
    bool fresh = false;
    if (n.search != sid_) {
      n.search = std::uint32_t(sid_);
      fresh = true;
    } else {
      // A problem whose closed nodes can never improve (consistent heuristic, exact costs)
      // skips the closed test: its g comparison already says no, and the test was the loop's
      // most mispredicted branch.
      if constexpr (!closed_final<P>) {
        if (pos_[nb] == Pool::kClosed) return false;
      }
      if (!cost_less(ng, n.g)) return false;
      // Only an improvement gets here, where the position is read next anyway: a problem whose
      // kClosedFinal promise does not hold (an inconsistent heuristic) keeps the closed node as
      // any other problem does, instead of decreasing a key at heap position kClosed.
      if constexpr (closed_final<P>) {
        if (pos_[nb] == Pool::kClosed) [[unlikely]]
          return false;
      }
    }
    n.g = ng;
    n.parent = std::uint32_t(cur_);
    double f, h;
    p_.evaluate(nb, ng, f, h, hint...);
    const OpenEntry en{f, float(h), nb};
    if (fresh) {
      if constexpr (P::kFastSlot) {
        if (en.f <= top_f_ && (!slot_full_ || open_.order().less(en, slot_))) {
          if (slot_full_) open_.push(slot_, pos_);
          slot_ = en;
          slot_full_ = true;
          pos_[nb] = Pool::kInSlot;
        } else {
          open_.push(en, pos_);
        }
      } else {
        open_.push(en, pos_);
      }
      ++generated_;
      if constexpr (L::kActive)
        report_open<!bounded_steps<P>>(nb, std::uint32_t(cur_id_), cost_value(ng), h, hint...);
    } else {
      if (pos_[nb] == Pool::kInSlot)
        slot_ = en;
      else if constexpr (order_key_may_worsen<typename P::Order>)
        open_.update(pos_[nb], en, pos_);
      else
        open_.decrease(pos_[nb], en, pos_);
      if constexpr (L::kActive)
        l_.template relax<!bounded_steps<P>>(id(nb, hint...), std::uint32_t(cur_id_),
                                             cost_value(ng));
    }
    return true;
  }
  // As reach(), but nb hangs from `parent` (reported to observers as `parent_id`) instead of the
  // node being expanded: any-angle searches (Theta*) whose successors may take an earlier
  // node on the path as their parent. ng must be the cost through that parent.
  template <class... Hint>
  bool reach_via(std::uint32_t parent, std::uint32_t parent_id, std::uint32_t nb, const Cost& ng,
                 const Hint&... hint) {
    const std::uint64_t cur = cur_, cur_id = cur_id_;
    cur_ = parent;
    cur_id_ = parent_id;
    const bool improved = reach(nb, ng, hint...);
    cur_ = cur;
    cur_id_ = cur_id;
    return improved;
  }
  // The listener, for problems that report geometry while they expand: listener().test() and
  // .mark() travel in the step's batch; for anything else call flush() first and then
  // listener().observer().
  L& listener() { return l_; }

  // Reports an opened node: with the problem's description if it has desc(), by id alone
  // otherwise (a dense space says where the id is).
  // kChecked = false: the step made room for it (bounded_steps).
  template <bool kChecked = true, class... Hint>
  void report_open(std::uint32_t n, std::uint32_t parent, double g, double h,
                   const Hint&... hint) {
    if constexpr (requires { p_.desc(n, hint...); } || requires { p_.desc(n); })
      l_.open(desc(n, hint...), parent, g, h);
    else
      l_.template open<kChecked>(id(n, hint...), parent, g, h);
  }
  // A problem may take the hint in desc() and id() too (the grid then needs no division to
  // name a successor).
  template <class... Hint>
  NodeDesc desc(std::uint32_t n, const Hint&... hint) const {
    if constexpr (requires { p_.desc(n, hint...); })
      return p_.desc(n, hint...);
    else
      return p_.desc(n);
  }
  template <class... Hint>
  std::uint32_t id(std::uint32_t n, const Hint&... hint) const {
    if constexpr (requires { p_.id(n, hint...); })
      return p_.id(n, hint...);
    else
      return p_.id(n);
  }

  // Loop state, shared with best_first().
  void refresh() {
    nodes_ = pool_.nodes();
    pos_ = pool_.positions();
  }
  P& p_;
  Pool& pool_;
  OpenList<typename P::Order>& open_;
  L& l_;
  // 64-bit copies of 32-bit values: stores into the pool (32-bit fields) cannot alias them, so
  // the compiler keeps them in registers across the relaxation.
  const std::uint64_t sid_;
  typename Pool::Node* nodes_ = nullptr;
  std::int32_t* pos_ = nullptr;
  std::uint64_t cur_ = kNoNode, cur_id_ = kNoNode;
  double top_f_ = 0;
  bool slot_full_ = false;
  OpenEntry slot_{};
  std::uint64_t generated_ = 0;
};

// The one best-first loop: A* / Dijkstra / any problem above. Starts a new search on the pool,
// opens p.start(), and expands the best open node until p.stop() says so, the open list runs
// empty or ctx asks to cancel (polled every `poll` expansions, with progress). Watched: one
// frame for the start, one per expansion (each reported as it ends, by the next pop's
// FrameClose event, or by a last frame()).
// Flattened: the problem's expand() and the relaxation step must inline into the loop for its
// state to stay in registers; GCC declined to inline expand() into the watched instantiation
// (measured: the null observer cost 12-17% on dao instead of a few percent).
template <class P, class L>
#if defined(__GNUC__)
[[gnu::flatten]]
#endif
SearchOutcome best_first(P& p, NodePool<typename P::Cost>& pool,
                         OpenList<typename P::Order>& open, L& l, const RunContext& ctx,
                         std::uint64_t poll = 4096) {
  using Pool = NodePool<typename P::Cost>;
  pool.reserve(p.node_bound());
  pool.new_search();
  open.clear();
  Reach<P, L> r(p, pool, open, l);
  SearchOutcome out;
  {
    const std::uint32_t s = p.start();
    if constexpr (P::kGrowing) {
      if (s >= pool.size()) {
        pool.reserve(std::size_t(s) + 1);
        r.refresh();
      }
    }
    typename Pool::Node& n = r.nodes_[s];
    n.search = std::uint32_t(r.sid_);
    n.g = typename P::Cost{};
    n.parent = kNoNode;
    double f, h;
    p.evaluate(s, n.g, f, h);
    open.push({f, float(h), s}, r.pos_);
    r.generated_ = 1;
    // The start's frame ends at the first pop: frame_close() there is frame() + close().
    if constexpr (L::kActive) r.report_open(s, kNoNode, 0.0, h);
  }
  std::uint64_t expanded = 0;
  const std::uint64_t mask = poll - 1;  // poll is a power of two
  while (r.slot_full_ || !open.empty()) {
    OpenEntry top;
    if (P::kFastSlot && r.slot_full_) {
      top = r.slot_;
      r.slot_full_ = false;
    } else {
      top = open.pop(r.pos_);
    }
    const std::uint32_t cur = top.node;
    r.pos_[cur] = Pool::kClosed;
    ++expanded;
    r.cur_ = cur;
    // The previous step (or the start) ends here: one FrameClose event ends it and closes cur.
    if constexpr (L::kActive) {
      r.cur_id_ = p.id(cur);
      if constexpr (bounded_steps<P>)
        l.frame_close(std::uint32_t(r.cur_id_), P::kMaxSuccessors);
      else
        l.frame_close(std::uint32_t(r.cur_id_));
    }
    if (p.stop(cur)) {
      out.stopped = true;
      out.last = cur;
      if constexpr (L::kActive) l.frame();
      break;
    }
    if ((expanded & mask) == 0) {
      if (ctx.cancelled()) {
        out.cancelled = true;
        out.last = cur;
        break;
      }
      if (ctx.progress) {
        const float pr = p.progress(top);
        if (pr >= 0) ctx.report_progress(pr);
      }
    }
    r.top_f_ = top.f;
    const typename P::Cost g = r.nodes_[cur].g;
    p.expand(cur, g, r);
    out.last = cur;
  }
  if constexpr (L::kActive) {
    // The open list ran empty: the last expansion's step ends here.
    if (!out.stopped && !out.cancelled) l.frame();
    l.flush();
  }
  out.expanded = expanded;
  out.generated = r.generated_;
  return out;
}

}  // namespace pl

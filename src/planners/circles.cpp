#include "planners/circles.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <random>
#include <unordered_map>
#include <vector>

#include "core/atan2.hpp"
#include "core/circle_geometry.hpp"
#include "core/node_space.hpp"
#include "core/search.hpp"

namespace pl {

// The bitangents of circle pairs with a free one, by pair (lo * n + hi): they depend on the two
// circles alone, so a cache keeps them until either moves, and a cached circle's nodes are made
// without computing them again.
using PairBitangents = std::unordered_map<std::uint64_t, Bitangents>;

struct CircleGraphCache::State {
  // What a query leaves of a circle's build. A query moves `los` into its CircleData and
  // back; it reads and writes the other fields here, in place.
  struct Row {
    // Per other circle: bit s = bitangent slot s has line of sight, bit 4 + s = slot s known
    // (CircleData::los).
    std::vector<std::uint8_t> los;
    // Every circle a rejection of this row rests on (the shadows' neighbours, the blockers
    // that line of sight found, the partners of contact points), sorted. A moved circle not
    // in this list cannot have unblocked anything the row says is blocked.
    std::vector<std::uint32_t> why;
    // Pairs the cache's update made unknown (a moved circle, or one whose free bitangent
    // passes its new place): their slots in the sectors done are tested again when those are
    // built.
    std::vector<std::uint32_t> pending;
    // The pairs known free, each with a sector it is free in, as (other circle << 4 | 8 r +
    // q), a pair once per sector: a sector done looks at its own instead of the whole row. A
    // pair made pending leaves it.
    std::vector<std::uint32_t> frees;
    // The sectors (bit 8 r + q) this row has decided for every pair: in them a slot not known
    // is blocked (its pair was culled whole by this circle's shadow), unless its pair is
    // pending.
    std::uint16_t done = 0;
  };
  std::vector<Circle> kept;               // grown circles kept, by internal index
  std::vector<std::uint32_t> kept_index;  // their scene indices
  std::vector<Row> rows;                  // per circle (los empty: nothing known)
  PairBitangents bitangents;              // pairs with a free bitangent
};

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::int32_t kNoCircle = -1;

// The graph's builders are called out of line from the search. core/search.hpp flattens
// best_first, which inlines every call under the problem's expand() -- here the whole lazy
// graph construction, once per call site and again per listener type. With the ring built a
// sector at a time (ensure() and hug() reach build_sector from several places) that made one
// function of about 800,000 GIMPLE lines, which GCC 12 did not finish compiling under
// ASan+UBSan in 36 minutes. A builder runs once per circle, sector or link, so the call costs
// nothing measurable; the already-built checks stay inline.
#if defined(__GNUC__)
#define PL_OUT_OF_LINE [[gnu::noinline]]
#else
#define PL_OUT_OF_LINE
#endif

// Calls f(i) for every i in [from, to) with p[i] & mask, in order; eight entries a step while
// they are all clear (a cached row has a few free entries among a thousand).
template <class F>
void each_set(const std::uint8_t* p, std::uint32_t from, std::uint32_t to, std::uint8_t mask,
              F&& f) {
  const std::uint64_t wide = 0x0101010101010101ull * mask;
  std::uint32_t i = from;
  for (; i + 8 <= to; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (!(w & wide)) continue;
    for (std::uint32_t j = i; j < i + 8; ++j)
      if (p[j] & mask) f(j);
  }
  for (; i < to; ++i)
    if (p[i] & mask) f(i);
}

// A uniform grid over the circles: each circle is listed in every cell its bounding box overlaps
// (grown by the touching tolerance), so a segment meets a circle only in a cell it crosses and
// line of sight costs the circles along the segment, not all of them.
class CircleGrid {
 public:
  void build(const std::vector<Circle>& cs, Vec2 lo, Vec2 hi) {
    double mean_r = 0;
    for (const Circle& c : cs) mean_r += c.r;
    mean_r = cs.empty() ? 1 : mean_r / double(cs.size());
    const double w = std::max(hi.x - lo.x, 1e-6), h = std::max(hi.y - lo.y, 1e-6);
    // About a diameter per cell, but never many more cells than circles (sparse forests).
    cell_ = std::max({2 * mean_r, std::sqrt(w * h / double(4 * cs.size() + 16)), 1e-6});
    nx_ = int(std::clamp(std::ceil(w / cell_), 1.0, 4096.0));
    ny_ = int(std::clamp(std::ceil(h / cell_), 1.0, 4096.0));
    cell_ = std::max(w / nx_, h / ny_) * (1 + 1e-12);
    inv_ = 1 / cell_;
    origin_ = lo;
    std::vector<std::uint32_t> count(size_t(nx_) * ny_ + 1, 0);
    auto each_cell = [&](const Circle& c, auto&& f) {
      const double pad = c.r + 2 * kCircleEps;
      const int x0 = cx(c.x - pad), x1 = cx(c.x + pad), y0 = cy(c.y - pad), y1 = cy(c.y + pad);
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) f(size_t(y) * nx_ + x);
    };
    for (const Circle& c : cs) each_cell(c, [&](size_t i) { ++count[i + 1]; });
    for (size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    start_ = count;
    items_.assign(count.back(), 0);
    for (std::uint32_t k = 0; k < cs.size(); ++k)
      each_cell(cs[k], [&](size_t i) { items_[count[i]++] = k; });
    // Each circle once more, in the cell of its centre alone.
    cstart_.assign(size_t(nx_) * ny_ + 1, 0);
    auto centre_cell = [&](const Circle& c) { return size_t(cy(c.y)) * nx_ + size_t(cx(c.x)); };
    for (const Circle& c : cs) ++cstart_[centre_cell(c) + 1];
    for (size_t i = 1; i < cstart_.size(); ++i) cstart_[i] += cstart_[i - 1];
    count.assign(cstart_.begin(), cstart_.end());
    citems_.assign(cs.size(), 0);
    for (std::uint32_t k = 0; k < cs.size(); ++k) citems_[count[centre_cell(cs[k])]++] = k;
  }

  // Calls f(circle) for the circles of every cell segment ab crosses, in order along it, until
  // f returns true; returns whether one did. Circles spanning several cells come up repeatedly.
  template <class F>
  bool walk(Vec2 a, Vec2 b, F&& f) const {
    const double x0 = (a.x - origin_.x) * inv_, y0 = (a.y - origin_.y) * inv_;
    const double x1 = (b.x - origin_.x) * inv_, y1 = (b.y - origin_.y) * inv_;
    int x = index(x0, nx_), y = index(y0, ny_);
    const int ex = index(x1, nx_), ey = index(y1, ny_);
    const double dx = x1 - x0, dy = y1 - y0;
    const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    const double tdx = dx != 0 ? 1 / std::abs(dx) : kInf, tdy = dy != 0 ? 1 / std::abs(dy) : kInf;
    double tx = dx != 0 ? (sx > 0 ? x + 1 - x0 : x0 - x) * tdx : kInf;
    double ty = dy != 0 ? (sy > 0 ? y + 1 - y0 : y0 - y) * tdy : kInf;
    for (int guard = nx_ + ny_ + 2; guard > 0; --guard) {
      const size_t c = size_t(y) * nx_ + x;
      for (std::uint32_t i = start_[c]; i < start_[c + 1]; ++i)
        if (f(items_[i])) return true;
      if (x == ex && y == ey) break;
      if (tx < ty) {
        if (tx > 1 || x + sx < 0 || x + sx >= nx_) break;
        x += sx;
        tx += tdx;
      } else {
        if (ty > 1 || y + sy < 0 || y + sy >= ny_) break;
        y += sy;
        ty += tdy;
      }
    }
    return false;
  }

  // Calls f(circle) for the circles of every cell the box overlaps.
  template <class F>
  void box(double bx0, double by0, double bx1, double by1, F&& f) const {
    in_box(start_, items_, bx0, by0, bx1, by1, f);
  }

  // Calls f(circle) once for every circle whose centre lies in a cell the box overlaps (a
  // circle whose centre is in the box among them): a large box visits each circle once, where
  // box() visits it in every cell it covers.
  template <class F>
  void centres(double bx0, double by0, double bx1, double by1, F&& f) const {
    in_box(cstart_, citems_, bx0, by0, bx1, by1, f);
  }

  double cell() const { return cell_; }
  // Longer than any segment within the grid.
  double diagonal() const { return cell_ * (nx_ + ny_ + 2); }
  std::size_t memory_bytes() const {
    return (start_.capacity() + items_.capacity() + cstart_.capacity() + citems_.capacity()) *
           sizeof(std::uint32_t);
  }

 private:
  // The items of the cells the box overlaps, cell by cell. The cells of a row are consecutive,
  // so each row's items are one run; the bounds are computed once (f may write memory the
  // compiler cannot tell apart from the grid's).
  template <class F>
  void in_box(const std::vector<std::uint32_t>& start, const std::vector<std::uint32_t>& items,
              double bx0, double by0, double bx1, double by1, F& f) const {
    const int x0 = cx(bx0), x1 = cx(bx1), y0 = cy(by0), y1 = cy(by1);
    const size_t nx = size_t(nx_);
    for (int y = y0; y <= y1; ++y)
      for (std::uint32_t i = start[size_t(y) * nx + size_t(x0)],
                         e = start[size_t(y) * nx + size_t(x1) + 1];
           i < e; ++i)
        f(items[i]);
  }

  int cx(double x) const { return index((x - origin_.x) * inv_, nx_); }
  int cy(double y) const { return index((y - origin_.y) * inv_, ny_); }
  // floor(v) clamped to [0, n - 1], without a call to floor: clamped first, in [0, n - 1]
  // truncation is floor, and a v below 0 gives 0 either way.
  static int index(double v, int n) { return int(std::clamp(v, 0.0, double(n - 1))); }
  Vec2 origin_;
  double cell_ = 1, inv_ = 1;
  int nx_ = 1, ny_ = 1;
  std::vector<std::uint32_t> start_, items_;
  std::vector<std::uint32_t> cstart_, citems_;  // by centre cell
};

// Culling of surfing edges by the shadows of a circle's neighbours (exact: a culled segment is
// one the line-of-sight test would reject). Every surfing edge that leaves circle k lies on a
// tangent line of k: it leaves the point P(a) = centre + r u(a) in direction s u(a + pi/2)
// (s = the departure node's dir). A neighbour j at centre distance D blocks every such segment
// of length at least D for the angles a where
//   - P(a) lies inside j (then any segment from P enters j), or
//   - the tangent line passes through j's interior (|D cos(a - phi) - r| < r_j) with j's centre
//     ahead (s sin(phi - a) > 0): the segment's point nearest to j's centre is then at most D
//     from P, inside j.
// Both conditions hold on angle intervals, computed with margins so that rounding never makes
// a culled segment one the exact test would pass. The shadow keeps, per direction and angle
// bin (bins wholly inside an interval), the two smallest such bounds with different circles
// (the second serves a segment ending on the first one's circle). A bitangent of length L from
// k at angle a is culled when L exceeds its bin's bound; and a circle b farther than the
// largest bound (plus both radii) from k has all its bitangents culled, so only the circles in
// that range are looked at.
class TangentShadow {
  // acos(c) for c in (-1, 1), as the angle of (c, sqrt(1 - c^2)).
  static double acos_fast(double c) { return atan2_fast(std::sqrt((1 - c) * (1 + c)), c); }

 public:
  static constexpr int kBins = 256;  // per direction

  // Starts a shadow for the directions of departure in `dirs` (bit 0: s = +1, bit 1: s = -1):
  // only their bins are marked, and covered(), reach() and the whole-pair test read only
  // them, so a circle whose departures of one direction are built pays nothing for the
  // other's bins. (Keeping the other direction's bins for a later build of it was tried: it
  // saved less than marking one direction does, since most circles need only one.)
  //
  // A window of `count` bins from bin `first` (circular) restricts it further: only the window's
  // bins are shadowed (and cleared: a window costs its bins, not the whole turn); every other
  // bin reads as the bound kOutside (-0, a zero that says "not asked for"), which culls
  // whatever lies there. The caller keeps only the segments whose departure lies in the window
  // (a sector of the ring being built), so that is exact for them; nothing culled outside it
  // may be recorded as known.
  void clear(unsigned dirs = 3, int first = 0, int count = kBins) {
    dirs_ = dirs;
    wfirst_ = first & kMask;
    wcount_ = std::min(count, kBins);
    if (count >= kBins) {
      bin_.fill(kEmptyBin);
      open_ = {kBins, kBins};
      return;
    }
    // Only the directions served: bound_in() answers "culls nothing" for the other's bins,
    // and nothing else reads them.
    for (int s = 0; s < 2; ++s)
      if (serves(s))
        for (int i = 0; i < count; ++i) bin_[size_t(s * kBins + ((first + i) & kMask))] = kEmptyBin;
    open_ = {count, count};
  }
  // An angle interval of one neighbour, as add() marks it (both directions, whatever the
  // shadow serves): a circle built a sector at a time keeps its neighbours' intervals from its
  // first sector, and replays them for the next ones instead of computing them again.
  // Kept as the range of bins it covers (from `first` to `last`, unwrapped), so a replay
  // divides and rounds nothing.
  struct Mark {
    double t;
    std::int32_t j, s;
    std::int32_t first, last;
  };
  // Where mark() records what it marks from now on (nullptr: nowhere).
  void record(std::vector<Mark>* log) { log_ = log; }
  void replay(const std::vector<Mark>& marks) {
    for (const Mark& m : marks) apply(m.s, m.first, m.last, m.t, m.j);
  }
  // Whether bound t is a window's "not asked for" (see clear()).
  static bool outside(double t) { return t == 0 && std::signbit(t); }

  // Adds neighbour j (centre offset w from k's centre, radius rj) to the shadow of k (radius rk).
  // The angles come from atan2_fast (a few units in the last place, against the C library's
  // correctly rounded ones at about twice the cost): the angle margin is 1e-7 rad, so a bin is
  // never marked that the exact angles would leave out. (Out of line, as close_open_bins: a
  // sector build's code was about 60 KB with both inlined into shade and the walks, more
  // than the 32 KB instruction cache holds.)
  PL_OUT_OF_LINE void add(double rk, Vec2 w, double rj, std::int32_t j) {
    const double d = std::sqrt(dot(w, w));
    if (d <= 0) return;
    const double m = 1e-7 + 1e-9 * (d + rk + rj);  // radius margin against rounding
    const double shrink = 1e-7;                    // angle margin (radians)
    const double phi = atan2_fast(w.y, w.x);
    // P(a) strictly inside j: |P - c_j|^2 = rk^2 + d^2 - 2 rk d cos(a - phi) < (rj - m)^2.
    if (rj > m && rk > 0) {
      const double c0 = (rk * rk + d * d - (rj - m) * (rj - m)) / (2 * rk * d);
      if (c0 < 1) {
        const double h = c0 <= -1 ? kPi : acos_fast(c0);
        for (int s = 0; s < 2; ++s) mark(s, phi - h + shrink, phi + h - shrink, 0.0, j);
      }
    }
    // The tangent line through j's interior, j ahead: cos(a - phi) in (lo, hi) / d.
    const double lo = (rk - rj + m) / d, hi = (rk + rj - m) / d;
    if (hi <= lo || hi <= -1 || lo >= 1) return;
    const double a = hi >= 1 ? 0.0 : acos_fast(hi), b = lo <= -1 ? kPi : acos_fast(lo);
    const double t = d + m;
    mark(0, phi - b + shrink, phi - a - shrink, t, j);  // s = +1: sin(phi - a) > 0
    mark(1, phi + a + shrink, phi + b - shrink, t, j);  // s = -1
  }

  // After the last add: the tables of the whole-pair test below, for a circle of radius rk
  // among circles of radius at most r_max.
  void finish(double rk, double r_max) {
    rk_ = rk;
    r_max_ = r_max;
    for (int t = 0; t < kTiers; ++t)
      tier2_[size_t(t)] = sq(rk + r_max) * (kTierSpan[size_t(t)] * kTierSpan[size_t(t)]);
    // Per bin, the larger first bound of its two directions (infinite while either is open),
    // and a sparse table of its maxima over runs of 2^l bins (circular), so that the largest
    // bound over any window of bins is two lookups.
    auto first_bound = [&](int i) {
      return dirs_ == 3   ? std::max(bin_[size_t(i)].t1, bin_[size_t(kBins + i)].t1)
             : dirs_ == 1 ? bin_[size_t(i)].t1
                          : bin_[size_t(kBins + i)].t1;
    };
    if (wcount_ < kBins) {
      // A window: a table over its own bins (index x = bin wfirst_ + x), not circular; a
      // window of a sector (34 bins) writes a small table, not rows 2 KB apart. culls_pair
      // reads it directly (no whole-pair table): a sector's shadow meets few repeats.
      stride_ = wcount_ <= kSmall ? kSmall : kBins;
      sp_ = wcount_ <= kSmall ? small_.data() : sparse_.data();
      for (int x = 0; x < wcount_; ++x) sp_[x] = first_bound((wfirst_ + x) & kMask);
      for (int l = 1; (2 << (l - 1)) <= wcount_; ++l)
        for (int x = 0; x + (1 << l) <= wcount_; ++x)
          sp_[l * stride_ + x] =
              std::max(sp_[(l - 1) * stride_ + x], sp_[(l - 1) * stride_ + x + (1 << (l - 1))]);
      return;
    }
    // The whole-pair table is filled as culls_pair asks (a query meets a few hundred entries);
    // the entries the last shadow filled are reset.
    if (!far_ready_) {
      for (auto& row : far_) row.fill(kUnknown);
      far_ready_ = true;
    }
    for (std::uint16_t e : far_used_) far_[e / kSectors][e % kSectors] = kUnknown;
    far_used_.clear();
    stride_ = kBins;
    sp_ = sparse_.data();
    for (int i = 0; i < kBins; ++i) sp_[i] = first_bound(i);
    // Only the levels a window can ask for (the widest window is about 60 bins).
    for (int l = 1; l < levels_used(); ++l)
      for (int i = 0; i < kBins; ++i)
        sp_[l * kBins + i] =
            std::max(sp_[(l - 1) * kBins + i], sp_[(l - 1) * kBins + ((i + (1 << (l - 1))) & kMask)]);
  }

  // Whether every bitangent between the shadowed circle and a circle of radius rb at centre
  // offset v is culled, without computing them. A bitangent of circles d apart touches the
  // shadowed circle at angle phi +- theta (phi the direction of v) with |theta - pi/2| at most
  // asin((rk + rb) / d), and is at least sqrt(d^2 - (rk + rb)^2) long. For d of at least
  // kTierSpan[t] (rk + r_max), `far_` holds the largest first bound over those angles, per
  // sector of directions (sectors of the "diamond angle", which needs no arctangent). The first
  // bound serves even when its circle is the other circle of the pair (where bound() takes
  // the second): that circle's bound is its centre distance, more than any such bitangent's
  // length, so when every bitangent is longer than the bounds, none of them is that circle's.
  // A bitangent that leaves in direction s has the other circle's centre ahead (its length is
  // the centres' offset along it), s sin(phi - a) > 0: so the departures of s = +1 touch at
  // phi - theta and those of s = -1 at phi + theta, and a shadow of one direction (lazy mode's
  // sectors) reads only that side's run (the other side's slots are not asked for).
  bool culls_pair(Vec2 v, double rb) const {
    const double d2 = dot(v, v);
    if (d2 < tier2_[0]) return false;
    // The tier: how many of the later tiers' thresholds (increasing) d2 reaches, counted
    // without branches (a loop here mispredicted about once a call).
    static_assert(kTiers == 6);
    const int t = int(d2 >= tier2_[1]) + int(d2 >= tier2_[2]) + int(d2 >= tier2_[3]) +
                  int(d2 >= tier2_[4]) + int(d2 >= tier2_[5]);
    const int q = sector_of(v);
    if (wcount_ < kBins) {
      const double bound = runs_max(t, q);
      return bound != kInf && d2 - sq(rk_ + rb) > sq(bound);
    }
    double& bound = far_[size_t(t)][size_t(q)];
    if (bound == kUnknown) {
      far_used_.push_back(std::uint16_t(t * kSectors + q));
      bound = runs_max(t, q);
    }
    return bound != kInf && d2 - sq(rk_ + rb) > sq(bound);
  }

  // The largest first bound over the runs of tier t and sector q that the shadow reads. A
  // shadow of one direction reads only its side: the departures of s = +1 toward b touch
  // the circle at phi - theta (run 1), those of s = -1 at phi + theta (run 0).
  double runs_max(int t, int q) const {
    const Runs& r = windows()[size_t(t)][size_t(q)];
    return dirs_ == 1   ? window_max(r[1].first, r[1].count)
           : dirs_ == 2 ? window_max(r[0].first, r[0].count)
                        : std::max(window_max(r[0].first, r[0].count),
                                   window_max(r[1].first, r[1].count));
  }

  bool covered() const { return (dirs_ & 1 ? open_[0] : 0) + (dirs_ & 2 ? open_[1] : 0) == 0; }
  // Whether the shadow serves direction slot s (0: s = +1, 1: s = -1).
  bool serves(int s) const { return dirs_ >> s & 1; }
  // Appends the circles holding a first or second bound of some bin of the window (with
  // repeats; the bins outside a window hold what an earlier shadow left there).
  void holders(std::vector<std::uint32_t>& out) const {
    std::int32_t last = kNoCircle;
    for (const auto js : {&Bin::j1, &Bin::j2})
      for (int s = 0; s < 2; ++s)
        for (int x = 0; x < wcount_ && serves(s); ++x) {
          const std::int32_t j = bin_[size_t(s * kBins + ((wfirst_ + x) & kMask))].*js;
          if (j != kNoCircle && j != last) out.push_back(std::uint32_t(last = j));
        }
  }
  // Whether no neighbour added blocks bin i of direction slot s (0: s = +1, 1: s = -1).
  bool open(int s, int i) const { return in_window(i) && open_in_window(s, i); }
  bool open_in_window(int s, int i) const { return bin_[size_t(s * kBins + i)].t1 == kInf; }
  // How many bins of direction slot s are open.
  int open_bins(int s) const { return open_[size_t(s)]; }
  // The window of bins served (clear()): its first bin and its size.
  int window_first() const { return wfirst_; }
  int window_count() const { return wcount_; }
  bool in_window(int bin) const { return wcount_ >= kBins || ((bin - wfirst_) & kMask) < wcount_; }
  // Closes open bin i of slot s with bound t that rests on no circle: t is longer than any
  // segment of the bin that stays inside the box holding every circle, the start and the goal,
  // and every surfing edge does (its ends do, and the box is convex). So it culls no segment
  // the graph has, and a cull that reads it still rests only on the circles of other bins.
  void close_unblocked(int s, int i, double t) {
    bin_[size_t(s * kBins + i)].t1 = t;
    --open_[size_t(s)];
  }
  // The largest bound over the bins of the directions served (infinite while one is open).
  double reach() const {
    double r = 0;
    for (int s = 0; s < 2; ++s)
      if (serves(s))
        for (int x = 0; x < wcount_; ++x)
          r = std::max(r, bin_[size_t(s * kBins + ((wfirst_ + x) & kMask))].t1);
    return r;
  }
  // The bound for a segment leaving at angle `a` in direction s (+1 / -1) toward circle `to`.
  double bound(double a, int s, std::int32_t to) const {
    return bound_in(std::clamp(int(a * (kBins / kTwoPi)), 0, kBins - 1), s, to);
  }
  // The same for the point in direction u (any length) from the centre, without its angle.
  // The bin found may differ from bound()'s for an angle within rounding of a bin's edge;
  // either is right, since a bin holds a bound only when the bound holds 1e-7 rad beyond it.
  double bound_dir(Vec2 u, int s, std::int32_t to) const { return bound_in(bin_of(u), s, to); }

  // The direction of the middle of bin i (the same values as cos and sin of (i + 0.5) w, from
  // a table: close_open_bins asks for many of them on every circle built).
  static Vec2 bin_middle(int i) { return bin_table().middle[size_t(i)]; }

  // The angle bin (0..kBins-1) of direction u: the diamond angle gives a first guess from a
  // table (at most one bin early, as a table step is narrower than a bin), then one cross
  // product with the next bin's edge settles it.
  static int bin_of(Vec2 u) {
    const auto& t = bin_table();
    const double p = diamond(u);
    int i = t.first[size_t(std::clamp(int(p * (kFine / 4)), 0, kFine - 1))];
    const Vec2 e = t.edge[size_t(i + 1)];
    if (i + 1 < kBins && cross(e, u) >= 0 && dot(e, u) > 0) ++i;
    return i;
  }

 private:
  // Bins wholly inside the angle interval [lo, hi] of direction slot s get bound t from j.
  void mark(int s, double lo, double hi, double t, std::int32_t j) {
    if (!(hi > lo) || !(log_ || serves(s))) return;
    // The bins wholly inside [lo, hi], unwrapped (at most a turn of them).
    const double w = kTwoPi / kBins;
    const long first = long(std::ceil(lo / w));
    const long last = std::min(long(std::floor(hi / w)) - 1, first + kBins - 1);
    if (log_) log_->push_back({t, j, s, std::int32_t(first), std::int32_t(last)});
    apply(s, first, last, t, j);
  }
  // Bins first..last (unwrapped) of direction slot s, those of the window (all of them
  // without one).
  void apply(int s, long first, long last, double t, std::int32_t j) {
    if (!serves(s)) return;
    if (wcount_ >= kBins) {
      bins(s, first, last, t, j);
      return;
    }
    // The window's copies, one a turn, from the one that starts at or before `first`
    // (off >> 8: off / kBins rounded down).
    static_assert(kBins == 256);
    const long off = first - wfirst_;
    for (long b0 = wfirst_ + (off >> 8) * kBins; b0 <= last; b0 += kBins)
      bins(s, std::max(first, b0), std::min(last, b0 + wcount_ - 1), t, j);
  }
  void bins(int s, long first, long last, double t, std::int32_t j) {
    for (long k = first; k <= last; ++k) {
      const size_t i = size_t(s * kBins + int(k & kMask));  // k mod kBins
      Bin& e = bin_[i];
      if (e.j1 == j) {
        e.t1 = std::min(e.t1, t);
      } else if (t < e.t1) {
        if (e.t1 == kInf) --open_[size_t(s)];
        e.t2 = e.t1;
        e.j2 = e.j1;
        e.t1 = t;
        e.j1 = j;
      } else if (t < e.t2) {
        e.t2 = t;
        e.j2 = j;
      }
    }
  }

  // How many levels of the sparse table windows() can read: window_max(first, count) reads
  // level bit_width(count) - 1, and the last level for a whole turn.
  static int levels_used() { return tables().levels_used; }

  // The largest first bound over `count` bins from `first` (circular).
  double window_max(int first, int count) const {
    if (count <= 0) return -kInf;  // no bins (windows() never makes one; the identity of max)
    if (wcount_ < kBins) {
      // The run's part inside the shadow's window (at most two pieces of it); bins outside
      // the window read as kOutside.
      double m = kOutside;
      auto piece = [&](int a, int b) {
        a = std::max(a, 0);
        b = std::min(b, wcount_ - 1);
        if (a > b) return;
        // The largest level within the run (b - a + 1 >= 1 bins; "| 1" changes no width of
        // one or more, and tells GCC's -Warray-bounds under the sanitizers that l >= 0).
        const int l = std::bit_width(unsigned(b - a + 1) | 1u) - 1;
        m = std::max(m, std::max(sp_[l * stride_ + a], sp_[l * stride_ + b - (1 << l) + 1]));
      };
      const int rs = (first - wfirst_) & kMask;
      if (count >= kBins) {
        piece(0, wcount_ - 1);
      } else {
        piece(rs, rs + count - 1);
        if (rs + count - 1 >= kBins) piece(0, rs + count - 1 - kBins);
      }
      return m;
    }
    if (count >= kBins) return sp_[(kLevels - 1) * kBins];  // the whole turn
    const int l = std::bit_width(unsigned(count)) - 1;
    return std::max(sp_[l * kBins + first], sp_[l * kBins + ((first + count - (1 << l)) & kMask)]);
  }

  double bound_in(int bin, int s, std::int32_t to) const {
    if (!in_window(bin)) return kOutside;
    // A direction not served culls nothing (its bins hold what an earlier shadow left: clear()
    // resets only the directions served). A tangent of no length (a goal on the circle) has
    // no direction to read, and culled() takes it as s = -1 whatever its departure's dir.
    if (!serves(s > 0 ? 0 : 1)) return kInf;
    const int i = (s > 0 ? 0 : kBins) + bin;
    const Bin& e = bin_[size_t(i)];
    return e.j1 != to ? e.t1 : e.t2;
  }

  // Whole-pair tables: sectors of directions, and tiers of distance in units of rk + r_max.
  static constexpr int kSectors = 256, kTiers = 6, kFine = 4 * kBins;
  static constexpr int kLevels = 9;  // 2^8 = kBins
  static constexpr int kMask = kBins - 1;
  static constexpr double kUnknown = -1;  // a far_ entry not computed yet
  static constexpr double kOutside = -0.0;  // a bin outside the window (clear())
  static constexpr std::array<double, kTiers> kTierSpan = {1.5, 2, 3, 4, 8, 16};
  static double sq(double x) { return x * x; }
  // The diamond angle of v in [0, 4): monotone in the true angle, a quarter turn per unit.
  static double diamond(Vec2 v) {
    const double x = v.x, y = v.y;
    return y >= 0 ? (x >= 0 ? y / (x + y) : 1 + -x / (-x + y))
                  : (x < 0 ? 2 + -y / (-x - y) : 3 + x / (x - y));
  }
  static int sector_of(Vec2 v) {
    return std::clamp(int(diamond(v) * (kSectors / 4)), 0, kSectors - 1);
  }
  // The true angle of diamond angle p.
  static double true_angle(double p) {
    const int q = std::min(int(p), 3);
    const double f = p - q;
    return q * kPi / 2 + (f >= 1 ? kPi / 2 : std::atan(f / (1 - f)));
  }
  // For bin_of: per step of the diamond angle (kFine over a turn), the bin of its start, with
  // a margin so that rounding never puts it past the true bin; and the bins' edge directions.
  struct BinTable {
    std::array<int, kFine> first;
    std::array<Vec2, kBins + 1> edge;
    std::array<Vec2, kBins> middle;  // u((i + 0.5) w): close_open_bins walks these rays
  };
  static const BinTable& bin_table() { return tables().bins; }

  // Per tier and sector, the two runs of bins (first, count; first < kBins) where the
  // shadowed circle can be touched by a bitangent toward a circle in that sector and tier: the
  // sector's angles turned by +-pi/2 (side 0: +pi/2, where the departures of s = -1 lie; side
  // 1: -pi/2, those of s = +1), widened by asin(1 / kTierSpan[tier]) (and a hair). A run is
  // at most about 60 bins (a byte each; make_tables checks).
  struct Run {
    std::uint8_t first, count;
  };
  using Runs = std::array<Run, 2>;
  static const std::array<std::array<Runs, kSectors>, kTiers>& windows() { return tables().windows; }

  // The tables above, made once when the program starts (no guard to check on every use:
  // bin_of and culls_pair read them for every pair looked at).
  struct Tables {
    BinTable bins;
    std::array<std::array<Runs, kSectors>, kTiers> windows;
    int levels_used;
  };
  static const Tables& tables() { return kTables; }
  static const Tables kTables;
  static Tables make_tables() {
    Tables tb{};
    BinTable& b = tb.bins;
    const double w = kTwoPi / kBins;
    for (int f = 0; f < kFine; ++f) {
      const double a = true_angle(double(f) / (kFine / 4)) - 1e-9;
      b.first[size_t(f)] = std::clamp(int(std::floor(a / w)), 0, kBins - 1);
    }
    for (int i = 0; i <= kBins; ++i) b.edge[size_t(i)] = {std::cos(i * w), std::sin(i * w)};
    for (int i = 0; i < kBins; ++i) {
      const double a = (i + 0.5) * w;
      b.middle[size_t(i)] = {std::cos(a), std::sin(a)};
    }
    // True angles of the sector boundaries.
    std::array<double, kSectors + 1> sec{};
    for (int i = 0; i <= kSectors; ++i) sec[size_t(i)] = true_angle(double(i) / (kSectors / 4));
    int widest = 1;
    for (int t = 0; t < kTiers; ++t) {
      const double wt = std::asin(1.0 / kTierSpan[size_t(t)]) + 1e-9;
      for (int q = 0; q < kSectors; ++q)
        for (int side = 0; side < 2; ++side) {
          const double turn = side == 0 ? kPi / 2 : -kPi / 2;
          const double lo = sec[size_t(q)] - 1e-9 + turn - wt;
          const double hi = sec[size_t(q) + 1] + 1e-9 + turn + wt;
          const long first = long(std::floor(lo / w)), last = long(std::floor(hi / w));
          const int f = int(((first % kBins) + kBins) % kBins);
          const int count = int(std::min<long>(last - first + 1, kBins));
          if (count > 255) std::abort();  // a run wider than a byte holds (none: about 60)
          tb.windows[size_t(t)][size_t(q)][size_t(side)] = {std::uint8_t(f),
                                                            std::uint8_t(count)};
          widest = std::max(widest, count);
        }
    }
    tb.levels_used = widest >= kBins ? kLevels : int(std::bit_width(unsigned(widest)));
    return tb;
  }

  double rk_ = 0, r_max_ = 0;
  std::array<double, kTiers> tier2_{};  // squared distances where the tiers begin
  mutable std::array<std::array<double, kSectors>, kTiers> far_;  // (reset at first use)
  mutable std::vector<std::uint16_t> far_used_;  // the far_ entries filled since finish()
  bool far_ready_ = false;                       // far_ has been reset once
  // The sparse tables: level l, index x at sp_[l * stride_ + x]; a whole turn's in sparse_,
  // a window of at most kSmall bins in small_.
  static constexpr int kSmall = 64;
  std::array<double, kLevels * kBins> sparse_;
  std::array<double, 7 * kSmall> small_;  // 2^6 = kSmall
  double* sp_ = sparse_.data();
  int stride_ = kBins;
  // Per direction slot s and bin i (index s kBins + i): the two smallest bounds, from
  // different circles, together (a bin's update and a bound's lookup read one line).
  struct Bin {
    double t1, t2;
    std::int32_t j1, j2;
  };
  static constexpr Bin kEmptyBin = {kInf, kInf, kNoCircle, kNoCircle};
  std::array<Bin, 2 * kBins> bin_;
  std::array<int, 2> open_ = {kBins, kBins};  // open bins per direction slot
  unsigned dirs_ = 3;                         // the direction slots served (bit s)
  int wfirst_ = 0, wcount_ = kBins;           // the window of bins served (clear())
  std::vector<Mark>* log_ = nullptr;          // record()
};

const TangentShadow::Tables TangentShadow::kTables = TangentShadow::make_tables();

enum class NodeType : std::uint8_t { Start, Goal, Arrival, Departure };

struct Node {
  Vec2 p;
  double angle = 0;  // direction of p from its circle's centre
  std::uint64_t key = 0;
  std::int32_t circle = kNoCircle;
  std::int8_t dir = 0;  // travel around the circle: +1 increasing angle, -1 decreasing
  NodeType type = NodeType::Start;
  std::uint8_t hug_state = 0;        // Arrival: 0 not computed, 1 edge, 2 none
  std::uint8_t link_state = 0;       // Departure: the arc to the next one, 0 not computed,
                                     // 1 free, 2 blocked
  std::uint32_t target = kNoNode;    // Departure: where its surfing edge ends
  std::uint32_t ring_pos = kNoNode;  // Departure: index in its ring
  std::uint32_t hug_to = kNoNode;    // Arrival: the first departure it meets
};

// The departure nodes of one circle and direction, by angle; the link of nodes[i] (its
// Node::link_state) runs to its successor in the direction of travel.
struct Ring {
  std::vector<std::uint32_t> nodes;
};

struct CircleData {
  bool built = false;
  std::uint8_t dirs_built = 0;       // the rings built whole (bit 0: dir +1, bit 1: dir -1)
  std::uint8_t sectors[2] = {0, 0};  // lazy mode: the sectors of each ring built (bit q)
  bool overlaps_known = false;
  bool gathered = false;                   // lazy mode: `marks` holds the first sector's
  std::vector<TangentShadow::Mark> marks;  // neighbours' intervals (and each walk's since)
  std::vector<std::uint32_t> overlaps;  // circles that meet or touch this one
  Ring ring[2];                         // [0]: dir +1, [1]: dir -1
  // Built circles, per other circle: bit s = bitangent slot s has line of sight; built whole
  // (eager mode without a cache) bit 7 = known, else bit 4 + s = slot s known (decided by this
  // circle or, within a query, by the other one). With a cache, the rest of a circle's row
  // (why, pending, frees, done) stays in the cache's State::Row and is used there: a
  // CircleData is made and destroyed for every circle of every query, and those fields were
  // 80 of its 208 bytes.
  std::vector<std::uint8_t> los;
};

struct Edge {
  std::uint32_t to;
  double cost;
};

// The graph of one query: the grown circles, the nodes created so far and, per circle, its rings
// and line-of-sight results. Eager mode builds all of it up front (build_all); lazy mode builds
// it as the search asks for a node's edges (edges). Node ids are creation indices: they differ
// between the modes, the canonical keys do not.
class CircleGraph {
 public:
  CircleGraph(std::vector<Circle> circles, std::vector<std::uint32_t> original, const Query& q,
              const RunContext& ctx, bool cull, CircleGraphCache::State* cache = nullptr)
      : cull_(cull),
        cache_(cache),
        bt_cache_(cache ? &cache->bitangents : nullptr),
        c_(std::move(circles)),
        orig_(std::move(original)),
        ctx_(ctx),
        obs_(ctx.observer),
        start_p_(q.start.position()),
        goal_p_(q.goal.position()) {
    const std::size_t n = c_.size();
    data_.resize(n);
    row_.assign(n, nullptr);
    // The cache's rows (update_cache made them as many as the circles).
    if (cache_)
      for (std::size_t k = 0; k < n; ++k) {
        CircleGraphCache::State::Row& row = cache_->rows[k];
        if (row.los.empty()) {
          row = {};  // nothing known (the rest of a row means nothing without its los)
          continue;
        }
        data_[k].los = std::move(row.los);
        row_[k] = data_[k].los.data();
      }
    stamp_.assign(n, 0);
    Vec2 lo = start_p_, hi = start_p_;
    auto grow = [&](double x0, double y0, double x1, double y1) {
      lo = {std::min(lo.x, x0), std::min(lo.y, y0)};
      hi = {std::max(hi.x, x1), std::max(hi.y, y1)};
    };
    grow(goal_p_.x, goal_p_.y, goal_p_.x, goal_p_.y);
    for (const Circle& k : c_) grow(k.x - k.r, k.y - k.r, k.x + k.r, k.y + k.r);
    box_lo_ = lo - Vec2{1, 1};
    box_hi_ = hi + Vec2{1, 1};
    grid_.build(c_, box_lo_, box_hi_);
    for (const Circle& k : c_) r_max_ = std::max(r_max_, k.r);
    // Lazy queries make about 3 nodes a circle (a few per circle built, and its arrivals):
    // room for most of them at once, not a vector doubled and copied through fresh memory.
    nodes_.reserve(3 * n + 64);
    start_ = add_node(0, NodeType::Start, kNoCircle, start_p_, 0, 0);
    goal_ = add_node(1, NodeType::Goal, kNoCircle, goal_p_, 0, 0);
  }

  void build_all() {
    const Stopwatch clock;
    // The whole graph: every circle is built whole, but with a cache a sector at a time (the
    // rows it keeps are in sectors).
    partial_ = cache_ != nullptr;
    if (obs_) obs_->phase("graph: surfing edges");
    for (std::uint32_t k = 0; k < c_.size(); ++k) {
      build(k, 3);
      if (obs_) obs_->frame();
      // A large eager graph takes a while: let the caller follow and stop it.
      if (ctx_.progress)
        ctx_.progress->store(float(k + 1) / float(c_.size()), std::memory_order_relaxed);
      if (ctx_.cancelled()) {
        cancelled_ = true;
        return;
      }
    }
    start_edges();
    if (obs_) {
      obs_->frame();
      obs_->phase("graph: hugging edges");
    }
    for (std::uint32_t k = 0; k < c_.size(); ++k) {
      for (int r = 0; r < 2; ++r)
        for (std::uint32_t i = 0; i < data_[k].ring[r].nodes.size(); ++i) link(k, r, i);
      if (obs_) obs_->frame();
    }
    // Hugging edges of the arrival nodes (every arrival node exists once all circles are built).
    for (std::uint32_t id = 0; id < nodes_.size(); ++id)
      if (nodes_[id].type == NodeType::Arrival) hug(id);
    if (obs_) {
      report_graph_counters();
      obs_->frame();
    }
    stats_.build_ms = clock.ms();
  }

  // Hands every circle's row back to the cache.
  void give_back() {
    if (!cache_) return;
    for (std::uint32_t k = 0; k < data_.size(); ++k) {
      cache_->rows[k].los = std::move(data_[k].los);
    }
  }

  std::uint32_t start() const { return start_; }
  std::uint32_t goal() const { return goal_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  double h(std::uint32_t id) const { return distance(nodes_[id].p, goal_p_); }
  bool cancelled() const { return cancelled_; }
  NodeDesc desc(std::uint32_t id) const {
    const Node& n = nodes_[id];
    NodeDesc d;
    d.id = id;
    d.x = float(n.p.x);
    d.y = float(n.p.y);
    // The heading of travel tells the two nodes of one point (cw and ccw) apart on screen.
    if (n.circle != kNoCircle) d.heading = float(normalize_angle(n.angle + n.dir * kPi / 2));
    return d;
  }
  // The circle's index in the scene (what tags and labels name).
  std::uint32_t scene_index(std::int32_t circle) const { return orig_[size_t(circle)]; }

  // Edges of a node; in lazy mode this is where the graph is built.
  void edges(std::uint32_t id, std::vector<Edge>& out) {
    switch (nodes_[id].type) {
      case NodeType::Start:
        if (!start_done_) start_edges();
        for (std::uint32_t t : start_targets_) out.push_back({t, cost(id, t)});
        break;
      case NodeType::Goal:
        break;
      case NodeType::Arrival:
        if (!nodes_[id].hug_state) hug(id);
        if (nodes_[id].hug_state == 1)
          out.push_back({nodes_[id].hug_to, cost(id, nodes_[id].hug_to)});
        break;
      case NodeType::Departure: {
        const std::uint32_t target = nodes_[id].target;
        out.push_back({target, cost(id, target)});
        const std::uint32_t k = std::uint32_t(nodes_[id].circle);
        const int r = nodes_[id].dir > 0 ? 0 : 1;
        // The next departure must be built (ensure() may add nodes: no reference held).
        if (partial_ && data_[k].sectors[r] != kAllSectors) ensure(k, r, nodes_[id].angle);
        const std::uint32_t pos = nodes_[id].ring_pos;
        if (link(k, r, pos)) {
          const Ring& ring = data_[k].ring[r];
          const std::uint32_t to = ring.nodes[next_index(ring.nodes.size(), pos, r)];
          out.push_back({to, cost(id, to)});
        }
        break;
      }
    }
  }

  Shape edge_shape(std::uint32_t from, std::uint32_t to) const {
    const PathPiece p = piece(from, to);
    return p.kind == PathPiece::Kind::Arc ? Shape::arc(p.arc) : Shape::segment(p.line.a, p.line.b);
  }

  // The path along `chain` (node ids from the start to the goal) as pieces: consecutive arcs on
  // one circle merged, empty pieces dropped.
  std::vector<PathPiece> pieces(const std::vector<std::uint32_t>& chain) const {
    std::vector<PathPiece> out;
    for (size_t i = 1; i < chain.size(); ++i) {
      PathPiece p = piece(chain[i - 1], chain[i]);
      if (p.kind == PathPiece::Kind::Arc && !out.empty() &&
          out.back().kind == PathPiece::Kind::Arc && out.back().arc.center == p.arc.center &&
          out.back().arc.radius == p.arc.radius) {
        out.back().arc.sweep += p.arc.sweep;
        continue;
      }
      if (p.length() <= 1e-12 && !out.empty()) continue;
      out.push_back(p);
    }
    // A first piece of no length (the start on a circle) before a real one adds nothing.
    if (out.size() > 1 && out.front().length() <= 1e-12) out.erase(out.begin());
    return out;
  }

  void report_graph_counters() {
    obs_->counter("graph nodes", double(nodes_.size()));
    obs_->counter("surfing edges", double(stats_.surfing_edges));
    obs_->counter("surfing tests", double(stats_.surfing_tests));
    obs_->counter("hugging edges", double(stats_.hugging_edges));
    obs_->counter("hugging tests", double(stats_.hugging_tests));
    obs_->counter("circles built", double(stats_.circles_built));
  }

  CircleGraphStats stats() const {
    CircleGraphStats s = stats_;
    s.circles = c_.size();
    s.nodes = nodes_.size();
    return s;
  }
  std::size_t memory_bytes() const {
    std::size_t b = nodes_.capacity() * sizeof(Node) + grid_.memory_bytes();
    for (const CircleData& d : data_)
      b += sizeof(CircleData) + d.los.capacity() + d.overlaps.capacity() * 4 +
           (d.ring[0].nodes.capacity() + d.ring[1].nodes.capacity()) * 5;
    return b;
  }

 private:
  // Canonical node keys: the same endpoint gets the same key in both modes, whatever order the
  // graph is built in. `other` is the circle at the surfing edge's far end, or n (goal), n + 1
  // (start); `slot` the bitangent slot (or tangent index).
  std::uint64_t key(std::uint32_t circle, std::uint32_t other, int slot, bool departure) const {
    const std::uint64_t n = c_.size() + 2;
    return ((std::uint64_t(circle) * n + other) * 4 + std::uint64_t(slot)) * 2 +
           (departure ? 1 : 0) + 2;
  }

  // Every key is created exactly once, so no lookup is needed: build_whole(k) runs once per
  // circle, build_sector(k, r, q) once per circle, direction and sector, and each makes k's
  // departure nodes of its directions (and sector: a slot's departure has one angle, so one
  // sector) and the arrival nodes at the far ends of their surfing edges (keyed by the pair and
  // slot seen from k, which a build of b never uses; each slot belongs to one direction of k);
  // start_edges() runs once and makes the start's arrival nodes.
  std::uint32_t add_node(std::uint64_t k, NodeType type, std::int32_t circle, Vec2 p, double angle,
                         int dir) {
    Node n;
    n.p = p;
    n.angle = angle;
    n.key = k;
    n.circle = circle;
    n.dir = std::int8_t(dir);
    n.type = type;
    nodes_.push_back(n);
    return std::uint32_t(nodes_.size() - 1);
  }

  // A circle (internal index) whose interior segment ab enters, or kNoCircle. Circles
  // skip1 and skip2 are the ones the segment is tangent to at its ends: it cannot enter them.
  // A segment that only grazes a circle passes, unless the grazing point is also on another
  // circle: then it squeezes through the contact point of two touching circles. That includes
  // an end of the segment on its own circle (the tangent there is the contact's common tangent,
  // so the path arrives from one side of the contact and would leave on the other).
  //
  // Unwatched, the circles that blocked the latest segments are tried first: neighbouring
  // bitangents tend to run into the same circles, and any circle that blocks a segment decides
  // it (the walk would meet that circle too). Watched, the walk runs every time, so the circle
  // reported with a rejected test is always the first one along the segment.
  std::int32_t blocker(Vec2 a, Vec2 b, std::int32_t skip1, std::int32_t skip2) {
    const Vec2 ab = b - a;
    const double len2 = dot(ab, ab);
    if (!obs_) {
      for (std::size_t i = 0; i < recent_.size(); ++i) {
        const std::int32_t k = recent_[i];
        if (k == kNoCircle) break;
        if (k == skip1 || k == skip2 || !blocks(a, ab, len2, std::uint32_t(k))) continue;
        std::rotate(recent_.begin(), recent_.begin() + long(i), recent_.begin() + long(i) + 1);
        note_blocker(k);
        return k;
      }
    }
    ++now_;
    std::int32_t hit = kNoCircle;
    grid_.walk(a, b, [&](std::uint32_t k) {
      if (stamp_[k] == now_) return false;
      stamp_[k] = now_;
      if (std::int32_t(k) == skip1 || std::int32_t(k) == skip2) return false;
      if (!blocks(a, ab, len2, k)) return false;
      hit = std::int32_t(k);
      return true;
    });
    if (hit != kNoCircle) {
      std::copy_backward(recent_.begin(), recent_.end() - 1, recent_.end());
      recent_[0] = hit;
      note_blocker(hit);
    }
    return hit;
  }

  // A rejection rests on the blocker, and on the other circle of a contact point it passed.
  void note_blocker(std::int32_t k) {
    if (!why_) return;
    why_->push_back(std::uint32_t(k));
    if (partner_ != kNoCircle) why_->push_back(std::uint32_t(partner_));
  }

  // Whether the segment from a along ab (len2 = |ab|^2) enters circle k or grazes it at a point
  // on another circle.
  bool blocks(Vec2 a, Vec2 ab, double len2, std::uint32_t k) const {
    const Circle& c = c_[k];
    // Squared distances first: most circles along a segment are clearly apart from it. Those
    // apart from its line (by more than the rounding of either test) are apart from the segment
    // too: no division for them.
    const double far = c.r + kCircleEps;
    const double side = cross(c.center() - a, ab);
    if (side * side > far * far * len2 * (1 + 1e-6)) return false;
    const double u = len2 > 0 ? std::clamp(dot(c.center() - a, ab) / len2, 0.0, 1.0) : 0.0;
    const Vec2 e = a + ab * u, v = c.center() - e;
    const double d2 = dot(v, v);
    if (d2 > far * far) return false;
    partner_ = kNoCircle;
    if (std::sqrt(d2) < c.r - kCircleEps) return true;
    partner_ = on_other(e, k);
    return partner_ != kNoCircle;
  }

  // A circle other than `except` that p is within the touching tolerance of, or kNoCircle.
  std::int32_t on_other(Vec2 p, std::uint32_t except) const {
    std::int32_t any = kNoCircle;
    grid_.box(p.x, p.y, p.x, p.y, [&](std::uint32_t k) {
      if (k != except && distance(p, c_[k].center()) <= c_[k].r + kCircleEps) any = std::int32_t(k);
    });
    return any;
  }

  const std::vector<std::uint32_t>& overlaps(std::uint32_t k) {
    CircleData& d = data_[k];
    if (d.overlaps_known) return d.overlaps;
    d.overlaps_known = true;
    const Circle& c = c_[k];
    ++now_;
    const double pad = c.r + 2 * kCircleEps;
    grid_.box(c.x - pad, c.y - pad, c.x + pad, c.y + pad, [&](std::uint32_t j) {
      if (j == k || stamp_[j] == now_) return;
      stamp_[j] = now_;
      if (distance(c.center(), c_[j].center()) <= c.r + c_[j].r + kCircleEps)
        d.overlaps.push_back(j);
    });
    std::sort(d.overlaps.begin(), d.overlaps.end());
    return d.overlaps;
  }

  // The first circle that cuts an arc on circle k, or kNoCircle.
  std::int32_t arc_blocker(std::uint32_t k, const Arc& arc) {
    for (std::uint32_t j : overlaps(k))
      if (arc_blocked_by(arc, c_[j])) return std::int32_t(j);
    return kNoCircle;
  }

  void report_test(const Shape& s, std::int32_t by) {
    Shape t = s;
    t.tag = by == kNoCircle ? kNoNode : orig_[size_t(by)];
    obs_->test(t, by == kNoCircle);
  }

  // Makes the departure nodes of circle k in the directions `dirs` (bit 0: +1, bit 1: -1), each
  // direction once: eager mode without a cache builds a circle whole; with a cache (whose rows
  // are kept in sectors) every sector of the directions in turn. Lazy mode builds a ring a
  // sector at a time as the search asks (ensure()).
  void build(std::uint32_t k, unsigned dirs) {
    if (!partial_) {
      build_whole(k);
      return;
    }
    for (int r = 0; r < 2; ++r) {
      if (!(dirs >> r & 1u)) continue;
      // A ring built whole at once (eager mode): one shadow for its 256 bins, when its row has
      // none of its sectors done or all of them.
      const unsigned all = kAllSectors << (r * kRingSectors), done = cache_->rows[k].done & all;
      if (data_[k].sectors[r] == 0 && (done == 0 || done == all)) {
        build_sector(k, r, kWholeRing);
        continue;
      }
      for (int q = 0; q < kRingSectors; ++q) build_sector(k, r, q);
    }
  }

  // Lazy mode (and eager mode with a cache): a ring (circle k, direction index r: 0 for +1) is
  // cut into kRingSectors sectors of angle (kSectorBins shadow bins each) and built a sector at
  // a time, as the search asks. The hugging edge of a node at angle a (an arrival's to the first departure
  // at a or beyond, a departure's to the next one) only needs every departure between a and
  // its target built: ensure() builds a's sector (and the one a hair behind, since an arrival
  // takes a departure up to kAngleEps behind it), then the following sectors in the direction
  // of travel until one holds a departure beyond a, or the ring is whole. All departures from a
  // to that one are then built, so the first one after a among those built is the eager
  // graph's, and so is the arc to it: the lazy graph stays the part of the eager one the search
  // reaches. (A search touches about 2 of a ring's 8 sectors.)
  static constexpr int kSectorBins = 32;
  static constexpr int kRingSectors = TangentShadow::kBins / kSectorBins;
  static constexpr unsigned kAllSectors = (1u << kRingSectors) - 1;
  static constexpr int kWholeRing = -1;  // build_sector: every sector of the ring at once
  // The shadow's bin of angle a in [0, 2 pi) (as TangentShadow::bound computes it), and its
  // sector.
  static int angle_bin(double a) {
    return std::clamp(int(a * (TangentShadow::kBins / kTwoPi)), 0, TangentShadow::kBins - 1);
  }
  static int sector_of_angle(double a) { return angle_bin(a) / kSectorBins; }

  PL_OUT_OF_LINE void ensure(std::uint32_t k, int r, double a) {
    if (data_[k].sectors[r] == kAllSectors) return;
    const int dir = r == 0 ? 1 : -1;
    double behind = a - dir * 1e-9;
    if (behind < 0) behind += kTwoPi;
    if (behind >= kTwoPi) behind -= kTwoPi;
    build_sector(k, r, sector_of_angle(behind));
    const int q0 = sector_of_angle(a);
    for (int i = 0, q = q0; i < kRingSectors; ++i, q = (q + dir + kRingSectors) % kRingSectors) {
      build_sector(k, r, q);
      for (std::uint32_t v : data_[k].ring[r].nodes) {
        const double x = nodes_[v].angle;
        if (sector_of_angle(x) != q) continue;
        if (i > 0 || (dir > 0 ? x > a + 1e-9 : x < a - 1e-9)) return;
      }
      // No departure yet: when a circle cuts the arc from a to the sector's far edge, it cuts
      // every arc from a that reaches further (the distance to an arc only shrinks as it
      // grows, and its nearest point stays where it was), so the eager graph's edge to
      // whatever departure lies beyond is blocked, and so is the one to the first departure
      // built beyond (the overlapping forests' arcs are short: most scans end here).
      const double edge = (q + (dir > 0 ? 1 : 0)) * (kTwoPi / kRingSectors);
      if (arc_blocker(k, arc_between(c_[k], a, edge, dir)) != kNoCircle) return;
    }
  }

  // Sector q of ring r of circle k: its departures (toward other circles and the goal) whose
  // angle on k falls in the sector. The shadow covers the sector's bins and one more on either
  // side (a slot's bin found from its direction, in surviving_slots, may be a neighbour of the
  // one of its angle); a slot whose departure lies in another sector is left alone: neither
  // tested nor recorded, since that sector's build decides it. Its `los` row holds, per other
  // circle, bit s = slot s free and bit 4 + s = slot s known (decided by k or by the other
  // circle), so a later build of either circle tests no segment again.
  //
  // With a cache the row outlives the query, so it records only what rests on k's own `why`:
  // the slots k decided, and the free ones (a free segment rests on no circle; the cache's
  // update checks them against a moved circle's new place). A slot the other circle's row
  // says is blocked is decided again by k (that rejection rests on the other row's list). A
  // sector built this way is `done`: an earlier query's row then answers it (cached_sector).
  void build_sector(std::uint32_t k, int r, int q) {
    CircleData& d = data_[k];
    const unsigned span = q == kWholeRing ? kAllSectors : 1u << q;
    if (d.sectors[r] & span) return;
    d.sectors[r] = std::uint8_t(d.sectors[r] | span);
    if (d.sectors[r] == kAllSectors) d.dirs_built = std::uint8_t(d.dirs_built | 1u << r);
    const std::uint32_t n = std::uint32_t(c_.size());
    if (!d.built) {
      d.built = true;
      ++stats_.circles_built;
      if (row_[k]) {
        ++stats_.circles_reused;  // a row kept by the cache
      } else {
        d.los.assign(n, 0);
        row_[k] = d.los.data();
      }
    }
    const std::uint16_t done_bit = std::uint16_t(span << (r * kRingSectors));
    if (cache_ && (cache_->rows[k].done & done_bit) == done_bit) {
      cached_sector(k, r, q);
      return;
    }
    const unsigned dirs = 1u << r;
    const unsigned want_lo = want_slots(r, true), want_hi = want_slots(r, false);
    why_ = cache_ ? &cache_->rows[k].why : nullptr;
    const std::size_t why_before = why_ ? why_->size() : 0;
    if (q == kWholeRing)
      shade(c_[k], std::int32_t(k), dirs);
    else
      shade(c_[k], std::int32_t(k), dirs, q * kSectorBins - 1, kSectorBins + 2);
    shaded_ = true;
    departures_.clear();
    std::uint8_t* los = d.los.data();
    for (std::uint32_t b : cand_) {
      const unsigned want = k < b ? want_lo : want_hi;
      // Slots b's build decided (the same segments) need no test; with a cache, only the free
      // ones are taken (see above).
      unsigned known = 0, free = 0;
      if (const std::uint8_t* other = row_[b]) {
        const unsigned e = other[k];
        known = e >> 4 & want;
        free = e & known;
        if (cache_) known = free;
      }
      unsigned need = want & ~known;
      if (need) need = surviving_slots(k, b, need);
      if (!(need | free)) continue;
      const std::uint32_t lo = std::min(k, b), hi = std::max(k, b);
      bool whole = false;
      const Bitangents bt = bt_cache_ ? cached_bitangents(lo, hi, free | (los[b] & 0x0Fu),
                                                          need | free, whole)
                                      : bitangents(c_[lo], c_[hi], need | free);
      unsigned mask = 0, decided = 0;
      for (int s = 0; s < 4; ++s) {
        if (!((need | free) >> s & 1u) || !bt.ok[size_t(s)]) continue;
        const Bitangent& t = bt.t[size_t(s)];
        if (q != kWholeRing && sector_of_angle(k == lo ? t.angle_a : t.angle_b) != q) continue;
        decided |= 1u << s;
        if (free >> s & 1u) {
          mask |= 1u << s;
          continue;
        }
        if (k == lo ? culled(k, t.a, t.angle_a, t.b, std::int32_t(b))
                    : culled(k, t.b, t.angle_b, t.a, std::int32_t(b))) {
          ++stats_.surfing_culled;
          continue;
        }
        if (sees(t, lo, hi)) mask |= 1u << s;
      }
      los[b] = std::uint8_t(los[b] | decided << 4 | mask);
      if (bt_cache_ && mask) keep_free(k, b, bt, whole, mask, r);
      pair_nodes(k, b, bt, mask);
    }
    if (cache_) {
      CircleGraphCache::State::Row& row = cache_->rows[k];
      row.done = std::uint16_t(row.done | done_bit);
      settle_why(row.why, why_before);
    }
    goal_departures(k, dirs, q);
    make_rings(k, dirs);
  }

  // Tests bitangent t of circles lo < hi for line of sight, and counts (and reports) the test.
  bool sees(const Bitangent& t, std::uint32_t lo, std::uint32_t hi) {
    const std::int32_t by = blocker(t.a, t.b, std::int32_t(lo), std::int32_t(hi));
    ++stats_.surfing_tests;
    if (by == kNoCircle) ++stats_.surfing_edges;
    if (obs_) report_test(Shape::segment(t.a, t.b), by);
    return by == kNoCircle;
  }

  // The slots whose departures from k turn in direction r (0: +1), when k is the lower index of
  // its pair or not: from the circle of the lower index slots 1 and 3 turn with increasing
  // angle; from the higher one the bitangent is travelled backwards, which swaps the external
  // slots' turn.
  static unsigned want_slots(int r, bool k_is_lo) {
    return k_is_lo ? (r == 0 ? 0xAu : 0x5u) : (r == 0 ? 0x9u : 0x6u);
  }

  // With a cache: pair (k, b) has free slots `mask` (of direction r from k) that k's row did
  // not know free. The cache keeps the pair's bitangents, all four slots (bt when `whole`,
  // else computed here: bt has the slots of `mask`, the same values), and the row lists the
  // pair among the free pairs of each slot's sector. (Out of line, as the next one: the loop
  // of a build without a cache stays as small as it was.)
  PL_OUT_OF_LINE void keep_free(std::uint32_t k, std::uint32_t b, const Bitangents& bt,
                                bool whole, unsigned mask, int r) {
    const std::uint32_t lo = std::min(k, b), hi = std::max(k, b);
    const std::uint64_t pair = std::uint64_t(lo) * c_.size() + hi;
    if (whole)
      bt_cache_->try_emplace(pair, bt);
    else if (!bt_cache_->contains(pair))
      bt_cache_->emplace(pair, bitangents(c_[lo], c_[hi]));
    for (int s = 0; s < 4; ++s)
      if (mask >> s & 1u) {
        const Bitangent& t = bt.t[size_t(s)];
        const int q = sector_of_angle(k == lo ? t.angle_a : t.angle_b);
        cache_->rows[k].frees.push_back(b << 4 | std::uint32_t(r * kRingSectors + q));
      }
  }

  // The bitangents of pair (lo, hi): the cache's whole set when a row says the pair has a free
  // slot (`hint`) and the cache has it (whole = true), else the slots asked for, computed (a
  // slot is the same whichever others are computed).
  PL_OUT_OF_LINE Bitangents cached_bitangents(std::uint32_t lo, std::uint32_t hi, unsigned hint,
                                              unsigned slots, bool& whole) const {
    if (hint) {
      const auto it = bt_cache_->find(std::uint64_t(lo) * c_.size() + hi);
      if (it != bt_cache_->end()) {
        whole = true;
        return it->second;
      }
    }
    whole = slots == 0x0Fu;
    return bitangents(c_[lo], c_[hi], slots);
  }

  // A sector of k's row that an earlier query built (`done`): every slot of it not known free
  // is blocked, except in the pairs the cache's update made pending. So the sector needs no
  // shadow: its known free departures are made again, the pending pairs' slots in it are
  // tested (line of sight alone), and so are its tangents to the goal (they are not kept). A
  // pending pair leaves the list once no slot of it in a sector done is unknown.
  void cached_sector(std::uint32_t k, int r, int q) {
    CircleData& d = data_[k];
    CircleGraphCache::State::Row& row = cache_->rows[k];
    const unsigned want_lo = want_slots(r, true), want_hi = want_slots(r, false);
    why_ = &row.why;
    const std::size_t why_before = row.why.size();
    shaded_ = false;
    departures_.clear();
    ++now_;
    look_.clear();
    for (const std::uint32_t b : row.pending)
      if (stamp_[b] != now_) {
        stamp_[b] = now_;
        look_.push_back(b);
      }
    const std::size_t pending = look_.size();
    // (Sector index 8 r + q; a whole ring takes every sector of direction r.)
    const bool whole_ring = q == kWholeRing;
    const std::uint32_t here = std::uint32_t(r * kRingSectors + (whole_ring ? 0 : q));
    for (const std::uint32_t f : row.frees)
      if ((whole_ring ? (f & 15u) >> 3 == std::uint32_t(r) : (f & 15u) == here) &&
          stamp_[f >> 4] != now_) {
        stamp_[f >> 4] = now_;
        look_.push_back(f >> 4);
      }
    std::size_t still = 0;  // pending pairs kept, moved to the front of row.pending
    for (std::size_t i = 0; i < look_.size(); ++i) {
      const std::uint32_t b = look_[i];
      const bool pend = i < pending;
      const std::uint32_t lo = std::min(k, b), hi = std::max(k, b);
      const unsigned e = d.los[b];
      const unsigned want = k < b ? want_lo : want_hi;
      const unsigned todo = pend ? want & ~(e >> 4) : 0u, have = e & want;
      bool whole = false;  // (all four slots: unknown_in_done reads them)
      const Bitangents bt = cached_bitangents(lo, hi, e & 0x0Fu, 0x0Fu, whole);
      unsigned other_free = 0;
      if (todo && row_[b]) {
        const unsigned o = row_[b][k];
        other_free = o & o >> 4 & todo;
      }
      unsigned mask = 0, decided = 0;
      for (int s = 0; s < 4; ++s) {
        if (!((todo | have) >> s & 1u) || !bt.ok[size_t(s)]) continue;
        const Bitangent& t = bt.t[size_t(s)];
        if (q != kWholeRing && sector_of_angle(k == lo ? t.angle_a : t.angle_b) != q) continue;
        if (have >> s & 1u || other_free >> s & 1u) {
          mask |= 1u << s;
          decided |= 1u << s;
          continue;
        }
        decided |= 1u << s;
        if (sees(t, lo, hi)) mask |= 1u << s;
      }
      d.los[b] = std::uint8_t(d.los[b] | decided << 4 | mask);
      if (mask & ~have) keep_free(k, b, bt, true, mask & ~have, r);
      pair_nodes(k, b, bt, mask);
      if (pend && unknown_in_done(k, b, bt)) row.pending[still++] = b;
    }
    row.pending.resize(still);
    settle_why(row.why, why_before);
    goal_departures(k, 1u << r, q);
    make_rings(k, 1u << r);
  }

  // Whether some bitangent of k and b (bt: all four slots) departs from k in a sector of k's
  // row that is done, and is not known there.
  bool unknown_in_done(std::uint32_t k, std::uint32_t b, const Bitangents& bt) const {
    const CircleData& d = data_[k];
    const unsigned done = cache_->rows[k].done;
    for (int s = 0; s < 4; ++s) {
      if (!bt.ok[size_t(s)] || d.los[b] >> (4 + s) & 1u) continue;
      const int r = want_slots(0, k < b) >> s & 1u ? 0 : 1;
      const double a = k < b ? bt.t[size_t(s)].angle_a : bt.t[size_t(s)].angle_b;
      if (done >> (r * kRingSectors + sector_of_angle(a)) & 1u) return true;
    }
    return false;
  }

  // The cache's `why` of a row after a build added to it from `before` on: its repeats (a
  // holder per bin, a blocker per test) dropped first, by stamp, so the sort sees each circle
  // once. The rejections of tangents to the goal are not kept, so they are not listed: this
  // runs before they are tested.
  void settle_why(std::vector<std::uint32_t>& why, std::size_t before) {
    why_ = nullptr;
    if (why.size() == before) return;
    ++now_;
    auto out = why.begin();
    for (const std::uint32_t j : why)
      if (stamp_[j] != now_) {
        stamp_[j] = now_;
        *out++ = j;
      }
    why.erase(out, why.end());
    std::sort(why.begin(), why.end());
  }

  // Eager mode without a cache: computes circle k's departure nodes once, its surfing edges
  // toward every other circle that have line of sight, and its tangents to the goal; then
  // sorts them into its two rings.
  void build_whole(std::uint32_t k) {
    CircleData& d = data_[k];
    if (d.built) return;
    d.built = true;
    d.dirs_built = 3;
    ++stats_.circles_built;
    const std::uint32_t n = std::uint32_t(c_.size());
    // Circles out of the shadow's reach have every bitangent culled: known, no line of sight.
    d.los.assign(n, 0x80);
    row_[k] = d.los.data();
    shade(k);
    shaded_ = true;
    departures_.clear();
    for (std::uint32_t b : cand_) {
      // Known from b's build to have no bitangent with line of sight (most pairs): nothing to
      // compute.
      if (data_[b].built && (data_[b].los[k] & 0x0F) == 0) continue;
      const std::uint32_t lo = std::min(k, b), hi = std::max(k, b);
      // The slots whose bitangents are looked at: those not culled by their bins, or those b
      // found free.
      unsigned need = 0x0F;
      if (!data_[b].built) {
        need = surviving_slots(k, b);
        if (!need) continue;
      } else {
        need = data_[b].los[k] & 0x0Fu;
      }
      const Bitangents bt = bitangents(c_[lo], c_[hi], need);
      // None of the slots asked for exists (the others are culled): nothing free.
      if (!(bt.ok[0] || bt.ok[1] || bt.ok[2] || bt.ok[3])) continue;
      std::uint8_t mask = 0;
      if (data_[b].built) {
        mask = data_[b].los[k];  // checked when b was built: the same segments
      } else {
        for (int s = 0; s < 4; ++s) {
          if (!bt.ok[size_t(s)]) continue;
          const Bitangent& t = bt.t[size_t(s)];
          if (k == lo ? culled(k, t.a, t.angle_a, t.b, std::int32_t(b))
                      : culled(k, t.b, t.angle_b, t.a, std::int32_t(b))) {
            ++stats_.surfing_culled;
            continue;
          }
          if (sees(t, lo, hi)) mask |= std::uint8_t(1u << s);
        }
        mask |= 0x80;
      }
      d.los[b] = mask;
      pair_nodes(k, b, bt, mask);
    }
    goal_departures(k, 3);
    make_rings(k, 3);
  }

  // The departure nodes of k toward b along the free bitangents of `mask` (bit s = slot s),
  // and their arrival nodes on b; the departures go to departures_.
  void pair_nodes(std::uint32_t k, std::uint32_t b, const Bitangents& bt, unsigned mask) {
    for (int s = 0; s < 4; ++s) {
      if (!(mask >> s & 1)) continue;
      const Bitangent& t = bt.t[size_t(s)];
      std::uint32_t dep = 0, arr = 0;
      if (k < b) {
        dep = add_node(key(k, b, s, true), NodeType::Departure, std::int32_t(k), t.a, t.angle_a,
                       t.dir_a);
        arr = add_node(key(b, k, s, false), NodeType::Arrival, std::int32_t(b), t.b, t.angle_b,
                       t.dir_b);
      } else {
        // Travelling the bitangent backwards (b -> a) turns the other way at both ends.
        dep = add_node(key(k, b, s, true), NodeType::Departure, std::int32_t(k), t.b, t.angle_b,
                       -t.dir_b);
        arr = add_node(key(b, k, s, false), NodeType::Arrival, std::int32_t(b), t.a, t.angle_a,
                       -t.dir_a);
      }
      nodes_[dep].target = arr;
      departures_.push_back(dep);
    }
  }

  // The departures of k toward the goal whose direction is in `dirs` (bit 0: +1, bit 1: -1).
  // Only those in sector q of their ring, when q >= 0.
  void goal_departures(std::uint32_t k, unsigned dirs, int q = -1) {
    const std::uint32_t n = std::uint32_t(c_.size());
    // Tangents to the goal: leaving the circle toward the goal turns against the arrival dir.
    std::array<PointTangent, 2> pt;
    const int m = point_tangents(goal_p_, c_[k], pt);
    for (int s = 0; s < m; ++s) {
      if (!(dirs >> (pt[size_t(s)].dir > 0 ? 1 : 0) & 1u)) continue;
      if (q >= 0 && sector_of_angle(pt[size_t(s)].angle) != q) continue;
      if (shaded_ && culled(k, pt[size_t(s)].point, pt[size_t(s)].angle, goal_p_, kNoCircle)) {
        ++stats_.surfing_culled;
        continue;
      }
      const std::int32_t by = blocker(pt[size_t(s)].point, goal_p_, std::int32_t(k), kNoCircle);
      ++stats_.surfing_tests;
      if (obs_) report_test(Shape::segment(pt[size_t(s)].point, goal_p_), by);
      if (by != kNoCircle) continue;
      ++stats_.surfing_edges;
      const std::uint32_t dep =
          add_node(key(k, n, s, true), NodeType::Departure, std::int32_t(k), pt[size_t(s)].point,
                   pt[size_t(s)].angle, -pt[size_t(s)].dir);
      nodes_[dep].target = goal_;
      departures_.push_back(dep);
    }
  }

  // The rings of k's directions in `dirs` from departures_ (which it empties): every
  // departure node of the direction, by angle (then key, for the same order in both modes).
  // A sector built later merges into its ring: a node's link state travels with the node, and
  // no departure ever lands between two whose link is known (ensure() built what lies between).
  void make_rings(std::uint32_t k, unsigned dirs) {
    CircleData& d = data_[k];
    std::size_t fwd = 0;
    for (std::uint32_t v : departures_) fwd += nodes_[v].dir > 0;
    d.ring[0].nodes.reserve(d.ring[0].nodes.size() + fwd);
    d.ring[1].nodes.reserve(d.ring[1].nodes.size() + departures_.size() - fwd);
    for (std::uint32_t v : departures_) d.ring[nodes_[v].dir > 0 ? 0 : 1].nodes.push_back(v);
    departures_.clear();
    for (int ri = 0; ri < 2; ++ri) {
      if (!(dirs >> ri & 1u)) continue;
      Ring& r = d.ring[ri];
      std::sort(r.nodes.begin(), r.nodes.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Node &na = nodes_[a], &nb = nodes_[b];
        return na.angle != nb.angle ? na.angle < nb.angle : na.key < nb.key;
      });
      for (std::uint32_t i = 0; i < r.nodes.size(); ++i) nodes_[r.nodes[i]].ring_pos = i;
    }
    // The graph's size as it grows, so a watcher sees lazy mode's counts step by step.
    if (obs_) report_graph_counters();
  }

  // Neighbours are gathered in squares of growing size (the first kGatherFirst grid cells,
  // about a diameter each, beyond the circle) until every bin is covered, or the square
  // reaches kGatherCells cells; the bins still open then walk their rays (close_open_bins),
  // which adds only circles that block something. One cell did best under callgrind (1 to 6
  // tried): a wider square adds many neighbours that close no bin the first ring left open.
  static constexpr double kGatherCells = 1;
  static constexpr double kGatherFirst = 1;

  // Fills shadow_ with the shadows of k's neighbours and cand_ with the circles that it does
  // not wholly cull (culls_pair, and the reach of the largest bound), in the grid's order:
  // nothing depends on it (rings are sorted by angle and key, the search orders by key).
  // Only the departure directions in `dirs` (bit 0: +1, bit 1: -1) are served, and only the
  // `count` bins from `first` (TangentShadow::clear).
  void shade(std::uint32_t k, unsigned dirs = 3) { shade(c_[k], std::int32_t(k), dirs); }
  // The same around any circle (the start and the goal: radius 0), skipping circle `self`.
  void shade(const Circle& c, std::int32_t self, unsigned dirs, int first = 0,
             int count = TangentShadow::kBins) {
    ++now_;
    if (!cull_) {  // an empty shadow culls nothing (no window either: nothing is culled)
      shadow_.clear(dirs);
      shadow_.finish(c.r, r_max_);
      cand_.clear();
      for (std::uint32_t b = 0; b < c_.size(); ++b)
        if (std::int32_t(b) != self) cand_.push_back(b);
      return;
    }
    shadow_.clear(dirs, first, count);
    if (self != kNoCircle) stamp_[size_t(self)] = now_;
    // A circle built a sector at a time records its neighbours' intervals once, and replays
    // them for its later sectors (the same neighbours and more: any set of them is exact).
    CircleData* rec = partial_ && self != kNoCircle ? &data_[size_t(self)] : nullptr;
    // (A circle's first sector records about 50 intervals, and its walks a few more: room for
    // them at once, not a vector regrown six times.)
    if (rec && !rec->gathered) rec->marks.reserve(96);
    shadow_.record(rec ? &rec->marks : nullptr);
    if (rec && rec->gathered) {
      for (const TangentShadow::Mark& m : rec->marks) stamp_[size_t(m.j)] = now_;
      shadow_.replay(rec->marks);
    } else {
      std::size_t added = self != kNoCircle ? 1 : 0;
      for (double reach = c.r + kGatherFirst * grid_.cell();; reach *= 2) {
        grid_.box(c.x - reach, c.y - reach, c.x + reach, c.y + reach, [&](std::uint32_t j) {
          if (stamp_[j] == now_) return;
          stamp_[j] = now_;
          ++added;
          shadow_.add(c.r, c_[j].center() - c.center(), c_[j].r, std::int32_t(j));
        });
        if (shadow_.covered() || added >= c_.size() || reach > c.r + kGatherCells * grid_.cell())
          break;
      }
      if (rec) rec->gathered = true;
    }
    if (!shadow_.covered()) close_open_bins(c);
    shadow_.record(nullptr);
    shadow_.finish(c.r, r_max_);
    // Every cull reads a bin's first or second bound: the neighbours holding one are all that
    // the culls rest on (most neighbours gathered hold none).
    if (why_) shadow_.holders(*why_);
    cand_.clear();
    const double reach = shadow_.reach();
    if (!std::isfinite(reach)) {
      // Some tangent rays escape every neighbour gathered: any circle may have a bitangent
      // in an open bin, so every one is looked at (most in one table lookup).
      for (std::uint32_t b = 0; b < c_.size(); ++b)
        if (std::int32_t(b) != self && !shadow_.culls_pair(c_[b].center() - c.center(), c_[b].r))
          cand_.push_back(b);
      return;
    }
    // A circle in reach has its centre within `box` of c's.
    const double box = reach + c.r + r_max_ + 1e-6;
    double x0 = c.x - box, y0 = c.y - box, x1 = c.x + box, y1 = c.y + box;
    if (shadow_.window_count() < TangentShadow::kBins && c.r > 0) {
      // A window of angles [lo, hi]: a segment leaving c at angle a in direction s reaches the
      // point t along it at angle a + s atan(t / r) from c's centre and distance
      // sqrt(r^2 + t^2), so every segment not culled (t < reach) stays in the sector of radius
      // R over [lo, hi] widened by atan(reach / r) on the side it turns to; the circle it
      // touches there has its centre within r_max of it. The box of that sector (its centre,
      // its ends, the axis directions it spans), so the circles beside and behind the window
      // are not looked at.
      const double w = kTwoPi / TangentShadow::kBins, turn = std::atan2(reach, c.r) + 1e-6;
      double lo = shadow_.window_first() * w - 1e-6;
      double hi = lo + shadow_.window_count() * w + 2e-6;
      if (shadow_.serves(0)) hi += turn;
      if (shadow_.serves(1)) lo -= turn;
      const double R = std::sqrt(c.r * c.r + reach * reach);
      double bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
      auto take = [&](double ang) {
        const double px = R * std::cos(ang), py = R * std::sin(ang);
        bx0 = std::min(bx0, px);
        by0 = std::min(by0, py);
        bx1 = std::max(bx1, px);
        by1 = std::max(by1, py);
      };
      take(lo);
      take(hi);
      for (double m = std::ceil(lo / (kPi / 2)); m * (kPi / 2) <= hi; ++m) take(m * (kPi / 2));
      const double g = r_max_ + 1e-6 + 1e-9 * R;
      x0 = std::max(x0, c.x + bx0 - g);
      y0 = std::max(y0, c.y + by0 - g);
      x1 = std::min(x1, c.x + bx1 + g);
      y1 = std::min(y1, c.y + by1 + g);
    }
    grid_.centres(x0, y0, x1, y1, [&](std::uint32_t b) {
      if (std::int32_t(b) == self) return;
      const double far = reach + c.r + c_[b].r + 1e-6;
      const Vec2 v = c_[b].center() - c.center();
      if (dot(v, v) <= far * far && !shadow_.culls_pair(v, c_[b].r)) cand_.push_back(b);
    });
  }

  // A bin still open after the gathering: its tangent rays run past every neighbour gathered.
  // The circles along the ray from the bin's middle angle are added until one closes the bin,
  // or the ray leaves the circles' grid (then it is open for good: nothing can block it). The
  // circles met close the bins around it too, so most open bins take one short walk, and far
  // circles are then seldom candidates (culls_pair). Any neighbour added keeps the shadow
  // exact; these are only the ones that help.
  //
  // A bin whose ray leaves the grid unblocked gets the bound of the box instead of none: the
  // projection of the box ahead of the circle onto the ray's direction, divided by the cosine
  // of the bin's half width (with its 1e-7 rad margin), exceeds the length of every segment of
  // the bin inside the box. Its reach is then finite, so the circles beyond it are culled by
  // distance instead of all being looked at.
  PL_OUT_OF_LINE void close_open_bins(const Circle& c) {
    const double len = grid_.diagonal();
    // The bin's half width h (with the margin); a ray of the bin differs from dir by at most
    // h, so each component of its direction by at most 2 sin(h / 2) < h.
    constexpr double half = kPi / TangentShadow::kBins + 1e-6;
    static const double slack = 1 / std::cos(half);
    for (int s = 0; s < 2; ++s)
      for (int x = 0; x < shadow_.window_count() && shadow_.serves(s) && shadow_.open_bins(s);
           ++x) {
        const int i = (shadow_.window_first() + x) & (TangentShadow::kBins - 1);
        if (!shadow_.open_in_window(s, i)) continue;
        const Vec2 u = TangentShadow::bin_middle(i);
        const Vec2 p = c.center() + u * c.r;
        const Vec2 dir = s == 0 ? Vec2{-u.y, u.x} : Vec2{u.y, -u.x};  // s u(a + pi / 2)
        grid_.walk(p, p + dir * len, [&](std::uint32_t j) {
          if (stamp_[j] == now_) return false;
          stamp_[j] = now_;
          shadow_.add(c.r, c_[j].center() - c.center(), c_[j].r, std::int32_t(j));
          return !shadow_.open_in_window(s, i);
        });
        if (!shadow_.open_in_window(s, i)) continue;
        // The box's support in direction dir, from the circle's nearest point along it; and
        // per axis the room ahead over the least speed along it (a ray of the bin leaves
        // the box through a side once it has gone that far).
        const double ahead = (dir.x > 0 ? box_hi_.x : box_lo_.x) * dir.x +
                             (dir.y > 0 ? box_hi_.y : box_lo_.y) * dir.y - dot(c.center(), dir);
        double bound = (ahead + c.r) * slack;
        const double ax = std::abs(dir.x) - half, ay = std::abs(dir.y) - half;
        if (ax > 0)
          bound = std::min(bound, ((dir.x > 0 ? box_hi_.x - c.x : c.x - box_lo_.x) + c.r) / ax);
        if (ay > 0)
          bound = std::min(bound, ((dir.y > 0 ? box_hi_.y - c.y : c.y - box_lo_.y) + c.r) / ay);
        shadow_.close_unblocked(s, i, bound * (1 + 1e-9) + 1e-6);
      }
  }

  // Whether the shadow of circle k (shade(k) last called for k) culls the segment leaving k at
  // point p (angle a on k) toward `far`, which ends on circle `to` (or kNoCircle).
  bool culled(std::uint32_t k, Vec2 p, double a, Vec2 far, std::int32_t to) const {
    const Vec2 r = p - c_[k].center(), v = far - p;
    const int s = v.x * -r.y + v.y * r.x > 0 ? 1 : -1;
    return dot(v, v) >= sq(shadow_.bound(a, s, to));
  }
  static double sq(double x) { return x * x; }

  // The bitangent slots of k and b (bit i = slot i) that the shadow of k (shade(k) last called)
  // does not cull, from their directions and lengths alone (no tangent points, no angles, no
  // trigonometry); 0 when it culls them all. Slots count as existing under looser conditions
  // than bitangents() uses, so none is missed. The slots culled here count as surfing_culled.
  // Only the slots of `want` are looked at (the others are not returned).
  // (Flattened: GCC's inliner left bin_of out of it once circles.cpp grew, for 0.4% more
  // instructions in a query; what it calls is small.)
#if defined(__GNUC__)
  [[gnu::flatten]]
#endif
  unsigned surviving_slots(std::uint32_t k, std::uint32_t b, unsigned want = 15u) {
    const std::uint32_t lo = std::min(k, b), hi = std::max(k, b);
    const Circle &A = c_[lo], &B = c_[hi];
    const Vec2 v = B.center() - A.center();
    const double d2 = dot(v, v), d = std::sqrt(d2);
    if (!(d > std::abs(A.r - B.r))) return 0;  // nested: no bitangent
    const Vec2 e = v * (1 / d);                // u(phi)
    // u(phi + t) and u(phi - t) for cos t = c.
    auto turned = [&](double c, double sign) {
      const double sn = std::sqrt(std::max(0.0, 1 - c * c)) * sign;
      return Vec2{e.x * c - e.y * sn, e.y * c + e.x * sn};
    };
    const std::int32_t to = std::int32_t(b);
    // External slots 0 (phi + te, dir -1) and 1 (phi - te, dir +1), same angle at both ends;
    // seen from hi, the departure turns the other way.
    const double ce = std::clamp((A.r - B.r) / d, -1.0, 1.0);
    const double le2 = d2 - sq(A.r - B.r);
    const int flip = k == lo ? 1 : -1;
    // A slot whose bin lies outside the shadow's window (build_sector) is dropped, not culled.
    unsigned keep = 0, away = 0;
    auto check = [&](unsigned bit, double len2, double bound) {
      if (len2 < sq(bound))
        keep |= bit;
      else if (TangentShadow::outside(bound))
        away |= bit;
    };
    if (want & 1u) check(1u, le2, shadow_.bound_dir(turned(ce, 1), -flip, to));
    if (want & 2u) check(2u, le2, shadow_.bound_dir(turned(ce, -1), flip, to));
    unsigned exist = 3u;
    if (d > A.r + B.r && (want & 12u)) {
      // Internal slots 2 (phi + ti on lo, dir -1) and 3 (phi - ti, dir +1); hi is touched at
      // the opposite angle and a departure from hi keeps the dir.
      exist = 15u;
      const double ci = std::clamp((A.r + B.r) / d, -1.0, 1.0);
      const double li2 = d2 - sq(A.r + B.r);
      const double shift = k == lo ? 1.0 : -1.0;
      if (want & 4u) check(4u, li2, shadow_.bound_dir(turned(ci, 1) * shift, -1, to));
      if (want & 8u) check(8u, li2, shadow_.bound_dir(turned(ci, -1) * shift, 1, to));
    }
    if (keep) stats_.surfing_culled += std::size_t(std::popcount(exist & want & ~keep & ~away));
    return keep;
  }

  // The start's surfing edges: straight to the goal, and tangent to every circle.
  PL_OUT_OF_LINE void start_edges() {
    if (start_done_) return;
    start_done_ = true;
    const std::int32_t direct = blocker(start_p_, goal_p_, kNoCircle, kNoCircle);
    ++stats_.surfing_tests;
    if (obs_) report_test(Shape::segment(start_p_, goal_p_), direct);
    if (direct == kNoCircle) {
      ++stats_.surfing_edges;
      start_targets_.push_back(goal_);
    }
    const std::uint32_t n = std::uint32_t(c_.size());
    std::array<PointTangent, 2> pt;
    // The start's shadows: circles out of their reach have both tangents culled.
    // The start's tangents read only the bins of s = +1 (below).
    shade(Circle{start_p_.x, start_p_.y, 0}, kNoCircle, 1);
    for (std::uint32_t k : cand_) {
      // Both tangents culled, known from their directions and length alone (the start's
      // tangent directions are w turned by +-alpha, sin alpha = r / |w|): no tangent points,
      // no trigonometry. Kept away from the start-on-the-circle case by a margin.
      const Vec2 w = c_[k].center() - start_p_;
      const double r = c_[k].r, l2 = dot(w, w) - r * r;
      if (dot(w, w) > sq(r + 1e-6)) {
        const double l = std::sqrt(l2);
        const Vec2 v1{w.x * l - w.y * r, w.y * l + w.x * r};
        const Vec2 v2{w.x * l + w.y * r, w.y * l - w.x * r};
        if (l2 >= sq(shadow_.bound_dir(Vec2{v1.y, -v1.x}, 1, std::int32_t(k))) &&
            l2 >= sq(shadow_.bound_dir(Vec2{v2.y, -v2.x}, 1, std::int32_t(k)))) {
          stats_.surfing_culled += 2;
          continue;
        }
      }
      const int m = point_tangents(start_p_, c_[k], pt);
      for (int s = 0; s < m; ++s) {
        const PointTangent& t = pt[size_t(s)];
        const Vec2 v = t.point - start_p_;
        // A ray from a point in direction theta is the tangent line of angle theta - pi/2, s = +1:
        // its bin is that of v turned a quarter back (no arctangent needed).
        const double bound = shadow_.bound_dir(Vec2{v.y, -v.x}, 1, std::int32_t(k));
        if (dot(v, v) >= sq(bound)) {
          ++stats_.surfing_culled;
          continue;
        }
        const std::int32_t by = blocker(start_p_, t.point, std::int32_t(k), kNoCircle);
        ++stats_.surfing_tests;
        if (obs_) report_test(Shape::segment(start_p_, t.point), by);
        if (by != kNoCircle) continue;
        ++stats_.surfing_edges;
        start_targets_.push_back(add_node(key(k, n + 1, s, false), NodeType::Arrival,
                                          std::int32_t(k), t.point, t.angle, t.dir));
      }
    }
  }

  // Link i of ring r of circle k: whether the arc to the next departure node is free.
  bool link(std::uint32_t k, int r, std::uint32_t i) {
    Ring& ring = data_[k].ring[r];
    const std::size_t m = ring.nodes.size();
    if (m < 2) return false;
    const std::uint8_t state = nodes_[ring.nodes[i]].link_state;
    return (state ? state : decide_link(k, r, i)) == 1;
  }
  // Tests link i of ring r of circle k (m >= 2 departures) and records its state (1 free, 2
  // blocked) in the departure node.
  PL_OUT_OF_LINE std::uint8_t decide_link(std::uint32_t k, int r, std::uint32_t i) {
    const Ring& ring = data_[k].ring[r];
    Node& a = nodes_[ring.nodes[i]];
    const Node& b = nodes_[ring.nodes[next_index(ring.nodes.size(), i, r)]];
    const Arc arc = arc_between(c_[k], a.angle, b.angle, a.dir);
    const std::int32_t by = arc_blocker(k, arc);
    ++stats_.hugging_tests;
    if (by == kNoCircle) ++stats_.hugging_edges;
    if (obs_) report_test(Shape::arc(arc), by);
    a.link_state = by == kNoCircle ? 1 : 2;
    return a.link_state;
  }

  static std::size_t next_index(std::size_t m, std::size_t i, int r) {
    return r == 0 ? (i + 1) % m : (i + m - 1) % m;
  }

  // The hugging edge of an arrival node: to the first departure node of its circle and
  // direction, at the same angle or further along. Computed once.
  PL_OUT_OF_LINE void hug(std::uint32_t id) {
    if (nodes_[id].hug_state) return;
    const std::uint32_t k = std::uint32_t(nodes_[id].circle);
    if (partial_)
      ensure(k, nodes_[id].dir > 0 ? 0 : 1, nodes_[id].angle);
    else
      build(k, nodes_[id].dir > 0 ? 1u : 2u);
    Node& x = nodes_[id];
    const int r = x.dir > 0 ? 0 : 1;
    const Ring& ring = data_[k].ring[r];
    x.hug_state = 2;
    if (ring.nodes.empty()) return;
    const std::size_t m = ring.nodes.size();
    auto angle = [&](std::size_t i) { return nodes_[ring.nodes[i]].angle; };
    // Angles are sorted ascending in [0, 2 pi); one a hair "behind" x across 0 is the same point.
    std::size_t pick = 0;
    if (r == 0) {
      auto it = std::lower_bound(ring.nodes.begin(), ring.nodes.end(), x.angle - kAngleEps,
                                 [&](std::uint32_t v, double a) { return nodes_[v].angle < a; });
      pick = it == ring.nodes.end() ? 0 : std::size_t(it - ring.nodes.begin());
      if (angle(m - 1) - kTwoPi >= x.angle - kAngleEps) pick = m - 1;
    } else {
      auto it = std::upper_bound(ring.nodes.begin(), ring.nodes.end(), x.angle + kAngleEps,
                                 [&](double a, std::uint32_t v) { return a < nodes_[v].angle; });
      pick = it == ring.nodes.begin() ? m - 1 : std::size_t(it - ring.nodes.begin()) - 1;
      if (angle(0) + kTwoPi <= x.angle + kAngleEps) pick = 0;
    }
    const std::uint32_t to = ring.nodes[pick];
    const Arc arc = arc_between(c_[k], x.angle, nodes_[to].angle, x.dir);
    const std::int32_t by = arc_blocker(k, arc);
    ++stats_.hugging_tests;
    if (obs_) report_test(Shape::arc(arc), by);
    if (by != kNoCircle) return;
    ++stats_.hugging_edges;
    x.hug_state = 1;
    x.hug_to = to;
  }

  double cost(std::uint32_t from, std::uint32_t to) const {
    const Node &a = nodes_[from], &b = nodes_[to];
    if (b.type == NodeType::Departure)
      return std::abs(sweep_between(a.angle, b.angle, a.dir)) * c_[size_t(b.circle)].r;
    return distance(a.p, b.p);
  }

  PathPiece piece(std::uint32_t from, std::uint32_t to) const {
    const Node &a = nodes_[from], &b = nodes_[to];
    PathPiece p;
    if (b.type == NodeType::Departure) {
      p.kind = PathPiece::Kind::Arc;
      p.arc = arc_between(c_[size_t(b.circle)], a.angle, b.angle, a.dir);
    } else {
      p.kind = PathPiece::Kind::Line;
      p.line = {a.p, b.p};
    }
    return p;
  }

  bool cull_ = true;
  // The rows of earlier queries: moved into data_ when the graph is made, and given back
  // (give_back) after the search.
  CircleGraphCache::State* cache_ = nullptr;
  std::vector<std::uint32_t>* why_ = nullptr;  // the `why` of the circle being built, if cached
  PairBitangents* bt_cache_ = nullptr;
  mutable std::int32_t partner_ = kNoCircle;  // blocks(): the other circle of a contact point
  bool shaded_ = false;                       // shadow_ belongs to the circle being built
  std::vector<Circle> c_;
  std::vector<std::uint32_t> orig_;
  RunContext ctx_;
  SearchObserver* obs_;
  Vec2 start_p_, goal_p_;
  CircleGrid grid_;
  Vec2 box_lo_, box_hi_;  // holds every circle, the start and the goal
  std::vector<CircleData> data_;
  // Per circle, its `los` row while it holds one (built now, or kept by the cache), else
  // nullptr: a build looks up the other circle's entry for every candidate, and a CircleData
  // is about 130 bytes.
  std::vector<const std::uint8_t*> row_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> start_targets_;
  bool start_done_ = false;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t now_ = 0;
  std::array<std::int32_t, 4> recent_ = {kNoCircle, kNoCircle, kNoCircle, kNoCircle};
  TangentShadow shadow_;
  std::vector<std::uint32_t> cand_;
  std::vector<std::uint32_t> look_;        // cached_sector(): the pairs to look at
  std::vector<std::uint32_t> departures_;  // the departure nodes of the circle being built
  bool partial_ = true;  // rings are built a sector at a time (not in eager mode without a cache)
  double r_max_ = 0;
  std::uint32_t start_ = 0, goal_ = 0;
  bool cancelled_ = false;
  CircleGraphStats stats_;
};

// The open list's order: smaller f, then larger g, then the smaller canonical key. Keys make
// the order total and independent of node ids, so eager and lazy mode pop the same nodes in
// the same order. g is read from the pool and the key from the graph through pointers to the
// containers, which stay valid while both grow.
class CircleOrder {
 public:
  // A relaxed node keeps its h; when its smaller g gives a sum that rounds to the same f, the
  // node ranks lower than before (larger g first), so the heap re-sifts it both ways.
  static constexpr bool kKeyMayWorsen = true;

  CircleOrder(const NodePool<double>* pool, const std::vector<Node>* nodes)
      : pool_(pool), nodes_(nodes) {}
  bool less(OpenEntry a, OpenEntry b) const {
    if (a.f != b.f) return a.f < b.f;
    const double ga = pool_->g(a.node), gb = pool_->g(b.node);
    if (ga != gb) return ga > gb;
    return (*nodes_)[a.node].key < (*nodes_)[b.node].key;
  }

 private:
  const NodePool<double>* pool_;
  const std::vector<Node>* nodes_;
};

// The circle graph as a problem of the search machinery (core/search.hpp). Ids are the graph's
// node ids; lazy mode creates nodes while expanding, so the pool grows with the graph.
class CircleProblem {
 public:
  using Cost = double;
  using Order = CircleOrder;
  // The next-pop slot is not exact under this order: an arc of no length (an arrival node and
  // a departure node at the same point) gives a successor the f and g of its parent, and then
  // the keys decide against nodes already open.
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = true;

  CircleProblem(CircleGraph& graph, bool lazy, bool mark_edges)
      : graph_(graph),
        lazy_(lazy),
        mark_edges_(mark_edges),
        h0_(std::max(graph.h(graph.start()), 1e-9)) {}

  std::uint32_t start() const { return graph_.start(); }
  std::size_t node_bound() const { return graph_.nodes().size(); }
  void evaluate(std::uint32_t n, double g, double& f, double& h) const {
    h = graph_.h(n);
    f = g + h;
  }
  bool stop(std::uint32_t n) const { return n == graph_.goal(); }
  // Lazy mode: how close the best open node is to the goal. Eager mode reported its progress
  // while building the graph, and the search after it is short.
  float progress(const OpenEntry& top) const {
    return lazy_ ? float(std::clamp(1.0 - double(top.h) / h0_, 0.0, 1.0)) : -1.0f;
  }

  template <class Out>
  void expand(std::uint32_t n, double g, Out& out) {
    auto& l = out.listener();
    // Whatever the expansion builds (lazy mode's tests and counters) follows the node's close.
    if constexpr (std::decay_t<decltype(l)>::kActive) l.flush();
    edges_.clear();
    graph_.edges(n, edges_);
    for (const Edge& e : edges_) {
      if constexpr (std::decay_t<decltype(l)>::kActive) {
        if (mark_edges_) l.mark(graph_.edge_shape(n, e.to), Role::Candidate);
      }
      out.reach(e.to, g + e.cost);
    }
  }

  std::uint32_t id(std::uint32_t n) const { return n; }
  // Node events are batched, so a label must outlive the call: each one is kept until the
  // search ends (one per node opened, watched searches only).
  NodeDesc desc(std::uint32_t n) const {
    NodeDesc d = graph_.desc(n);
    const Node& v = graph_.nodes()[n];
    if (v.type == NodeType::Start || v.type == NodeType::Goal) {
      d.label = v.type == NodeType::Start ? "start" : "goal";
      return d;
    }
    // "circle 12, cw, arrival": the scene's circle index, as in test tags; cw = increasing angle.
    // At most 7 + 10 + 5 + 11 characters and the terminator.
    std::array<char, 48>& buf = labels_.emplace_back();
    char* p = std::copy_n("circle ", 7, buf.data());
    p = std::to_chars(p, p + 10, graph_.scene_index(v.circle)).ptr;
    for (const char* part :
         {v.dir > 0 ? ", cw" : ", ccw", v.type == NodeType::Arrival ? ", arrival" : ", departure"})
      p = std::copy_n(part, std::strlen(part), p);
    *p = '\0';
    d.label = buf.data();
    return d;
  }

 private:
  CircleGraph& graph_;
  bool lazy_, mark_edges_;
  double h0_;
  std::vector<Edge> edges_;
  mutable std::deque<std::array<char, 48>> labels_;
};

// What a search of the graph leaves behind.
struct CircleSearchResult {
  SearchOutcome outcome;
  double length = kInf;              // the goal's g when it was reached
  std::vector<std::uint32_t> chain;  // the nodes from the start to the goal
  double ms = 0;
  std::size_t memory_bytes = 0;  // pool and open list
};

// A* on the graph (growing it in lazy mode), on the shared best-first loop.
CircleSearchResult search_graph(CircleGraph& graph, const CirclePlanOptions& opt,
                                const RunContext& ctx) {
  CircleSearchResult res;
  if (graph.cancelled()) {  // during eager construction
    res.outcome.cancelled = true;
    return res;
  }
  const Stopwatch clock;
  NodePool<double> pool;
  OpenList<CircleOrder> open(CircleOrder(&pool, &graph.nodes()));
  CircleProblem problem(graph, opt.mode == CircleGraphMode::Lazy, opt.mark_searched_edges);
  res.outcome = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(NodeSpace::points(0, 0, "circle graph"));
      l.observer()->phase("search");
    }
    return best_first(problem, pool, open, l, ctx, 256);
  });
  if (res.outcome.stopped) {
    res.length = pool.g_value(res.outcome.last);
    res.chain = pool.chain(res.outcome.last);
  }
  res.ms = clock.ms();
  res.memory_bytes = pool.memory_bytes() + open.memory_bytes();
  return res;
}

// Heading of travel along a piece at parameter `at_end` (false = its start).
double heading_of(const PathPiece& p, bool at_end) {
  if (p.kind == PathPiece::Kind::Line) {
    const Vec2 d = p.line.b - p.line.a;
    return d.x == 0 && d.y == 0 ? 0.0 : angle_of(d);
  }
  const double a = at_end ? p.arc.end_angle() : p.arc.start_angle;
  return normalize_angle(a + (p.arc.sweep >= 0 ? kPi / 2 : -kPi / 2));
}

std::vector<Pose> sample_pieces(const std::vector<PathPiece>& pieces, double step) {
  std::vector<Pose> out;
  if (pieces.empty()) return out;
  const Vec2 s = pieces.front().kind == PathPiece::Kind::Line ? pieces.front().line.a
                                                              : pieces.front().arc.start();
  out.push_back({s.x, s.y, heading_of(pieces.front(), false)});
  for (const PathPiece& p : pieces) {
    if (p.kind == PathPiece::Kind::Line) {
      out.push_back({p.line.b.x, p.line.b.y, heading_of(p, true)});
      continue;
    }
    const std::vector<Vec2> pts = sample_arc(p.arc, step);
    const int dir = p.arc.sweep >= 0 ? 1 : -1;
    for (size_t i = 1; i < pts.size(); ++i) {
      const double a = p.arc.start_angle + p.arc.sweep * double(i) / double(pts.size() - 1);
      out.push_back({pts[i].x, pts[i].y, normalize_angle(a + dir * kPi / 2)});
    }
  }
  return out;
}

void add_stats(PlanResult& r, const CircleGraphStats& s) {
  r.stats.emplace_back("circles", double(s.circles));
  r.stats.emplace_back("redundant circles", double(s.redundant));
  r.stats.emplace_back("circles built", double(s.circles_built));
  r.stats.emplace_back("circles reused", double(s.circles_reused));
  r.stats.emplace_back("pairs reset", double(s.pairs_reset));
  r.stats.emplace_back("circles reset", double(s.circles_reset));
  r.stats.emplace_back("graph nodes", double(s.nodes));
  r.stats.emplace_back("surfing tests", double(s.surfing_tests));
  r.stats.emplace_back("surfing edges", double(s.surfing_edges));
  r.stats.emplace_back("surfing culled", double(s.surfing_culled));
  r.stats.emplace_back("hugging tests", double(s.hugging_tests));
  r.stats.emplace_back("hugging edges", double(s.hugging_edges));
  r.stats.emplace_back("build ms", s.build_ms);
  r.stats.emplace_back("search ms", s.search_ms);
}

}  // namespace

CircleGraphCache::CircleGraphCache() : state(std::make_unique<State>()) {}
CircleGraphCache::~CircleGraphCache() = default;
CircleGraphCache::CircleGraphCache(CircleGraphCache&&) noexcept = default;
CircleGraphCache& CircleGraphCache::operator=(CircleGraphCache&&) noexcept = default;
void CircleGraphCache::clear() {
  *state = State{};
}
std::size_t CircleGraphCache::memory_bytes() const {
  std::size_t b = state->kept.capacity() * sizeof(Circle) + state->kept_index.capacity() * 4;
  for (const auto& row : state->rows)
    b += sizeof(row) + row.los.capacity() +
         (row.why.capacity() + row.pending.capacity() + row.frees.capacity()) * 4;
  // Each entry of the map: key and value, and about two pointers of node and bucket.
  b += state->bitangents.size() * (sizeof(std::uint64_t) + sizeof(Bitangents) + 3 * sizeof(void*));
  return b;
}

namespace {

// Brings the cache up to date with the circles of a new query: the same circles kept in the
// same order, a few of them moved or resized, keeps what those moves cannot have changed.
// A moved circle's old place can only unblock bitangents, and only those whose rejection rested
// on it. Each row lists the circles its rejections rest on (CircleData::why), so a row that
// lists no moved circle keeps every blocked pair, and one that lists one is dropped (a row
// records no rejection that rests on another row's list). The moved circles have new
// bitangents with every circle: in each row kept they become pending (its sectors done would
// otherwise say their slots there are blocked). The new place can only block, so it matters
// for free bitangents alone: a pair with one becomes pending when a free bitangent passes
// within the touching margin of it (a bound on the pair's hull, within max(r_a, r_b) of the
// segment between the centres, first).
void update_cache(CircleGraphCache::State& st, const std::vector<Circle>& kept,
                  const std::vector<std::uint32_t>& kept_index, CircleGraphStats& stats) {
  const std::size_t n = kept.size();
  std::vector<std::uint32_t> moved;
  bool keep = st.kept_index == kept_index && st.rows.size() == n;
  for (std::uint32_t i = 0; keep && i < n; ++i)
    if (kept[i].x != st.kept[i].x || kept[i].y != st.kept[i].y || kept[i].r != st.kept[i].r) {
      moved.push_back(i);
      keep = moved.size() <= CircleGraphCache::kMaxMoved;
    }
  if (!keep) {
    st.rows.assign(n, {});
    st.bitangents.clear();
    stats.cache_resets = 1;
  } else if (!moved.empty()) {
    std::vector<std::uint8_t> is_moved(n, 0);
    for (std::uint32_t m : moved) is_moved[m] = 1;
    // The moved circles' pairs have new bitangents.
    for (auto it = st.bitangents.begin(); it != st.bitangents.end();)
      it = is_moved[it->first / n] || is_moved[it->first % n] ? st.bitangents.erase(it)
                                                              : std::next(it);
    for (std::uint32_t k = 0; k < n; ++k) {
      CircleGraphCache::State::Row& row = st.rows[k];
      if (row.los.empty()) continue;
      // Rows dropped: the moved circles' own, and those whose rejections rest on one.
      bool drop = is_moved[k] != 0;
      for (std::size_t i = 0; i < moved.size() && !drop; ++i)
        drop = std::binary_search(row.why.begin(), row.why.end(), moved[i]);
      if (drop) {
        row = {};
        ++stats.circles_reset;
        continue;
      }
      std::vector<std::uint8_t>& los = row.los;
      auto make_pending = [&](std::uint32_t b) {
        if (los[b] & 0x0F) std::erase_if(row.frees, [&](std::uint32_t f) { return f >> 4 == b; });
        los[b] = 0;
        if (std::find(row.pending.begin(), row.pending.end(), b) == row.pending.end())
          row.pending.push_back(b);
        ++stats.pairs_reset;
      };
      for (std::uint32_t m : moved) make_pending(m);
      const Vec2 a = kept[k].center();
      // The pairs with a free bitangent.
      each_set(los.data(), 0, std::uint32_t(n), 0x0F, [&](std::uint32_t b) {
        const Vec2 ab = kept[b].center() - a;
        const double len2 = dot(ab, ab), wide = std::max(kept[k].r, kept[b].r) + 1e-6;
        for (std::uint32_t m : moved) {
          const Circle& c = kept[m];
          const double reach = wide + c.r;
          const Vec2 ac = c.center() - a;
          // Quick reject by the side distance, then the clamped distance to the segment.
          const double side = cross(ac, ab);
          if (side * side > reach * reach * len2) continue;
          const double u = len2 > 0 ? std::clamp(dot(ac, ab) / len2, 0.0, 1.0) : 0.0;
          const Vec2 e = ac - ab * u;
          if (dot(e, e) > reach * reach) continue;
          // Near the hull: look at the free bitangents themselves (the ones the graph builds).
          const std::uint32_t lo = std::min(k, b), hi = std::max(k, b);
          const auto known = st.bitangents.find(std::uint64_t(lo) * n + hi);
          const Bitangents bt =
              known != st.bitangents.end() ? known->second : bitangents(kept[lo], kept[hi]);
          bool near = false;
          for (int sl = 0; sl < 4 && !near; ++sl) {
            if (!bt.ok[size_t(sl)] || !(los[b] >> sl & 1)) continue;
            const Bitangent& t = bt.t[size_t(sl)];
            near = segment_point_distance(t.a, t.b, c.center()).distance <= c.r + 1e-6;
          }
          if (!near) continue;
          make_pending(b);
          break;
        }
      });
    }
  }
  st.kept = kept;
  st.kept_index = kept_index;
}

}  // namespace

PlanResult plan_among_circles(std::span<const Circle> circles, const Query& query,
                              const CirclePlanOptions& options, const RunContext& ctx,
                              CircleGraphStats* stats_out, CircleGraphCache* cache) {
  const Stopwatch clock;
  PlanResult result;
  SearchObserver* obs = ctx.observer;
  const double grow = std::isfinite(query.radius) ? std::max(0.0, query.radius) : 0.0;
  const Vec2 s = query.start.position(), g = query.goal.position();

  // Grown circles; ones with no size never block anything (a segment may graze a point).
  std::vector<Circle> grown;
  std::vector<std::uint32_t> index;
  for (std::uint32_t i = 0; i < circles.size(); ++i) {
    const Circle& c = circles[i];
    if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.r)) continue;
    const Circle k{c.x, c.y, c.r + grow};
    if (k.r <= kCircleEps) continue;
    grown.push_back(k);
    index.push_back(i);
  }
  CircleGraphStats stats;
  auto finish = [&](PlanResult& r) -> PlanResult {
    r.time_ms = clock.ms();
    add_stats(r, stats);
    if (stats_out) *stats_out = stats;
    if (obs) {
      obs->counter("expanded", double(r.expanded));
      obs->frame();
    }
    return std::move(r);
  };
  if (obs) obs->phase("prepare");
  if (!std::isfinite(s.x) || !std::isfinite(s.y) || !std::isfinite(g.x) || !std::isfinite(g.y)) {
    result.message = "start or goal is not a finite point";
    return finish(result);
  }
  for (const auto& [p, what] : {std::pair{s, "start"}, std::pair{g, "goal"}}) {
    for (size_t i = 0; i < grown.size(); ++i)
      // (hypot is at least the larger of |dx| and |dy|: most circles are ruled out by them.)
      if (std::max(std::abs(p.x - grown[i].x), std::abs(p.y - grown[i].y)) <
              grown[i].r - kCircleEps &&
          distance(p, grown[i].center()) < grown[i].r - kCircleEps) {
        result.message = std::string(what) + " is inside obstacle " + std::to_string(index[i]);
        return finish(result);
      }
  }

  // Drop circles inside another one: every point they cover is covered already, and they would
  // only add nodes that are always blocked. Of two equal circles the first stays.
  std::vector<std::uint8_t> redundant(grown.size(), 0);
  {
    std::vector<std::uint32_t> order(grown.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    // By the x of the left edge: a circle's container starts left of it, and nothing right of
    // a circle's right edge can lie inside it.
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return grown[a].x - grown[a].r < grown[b].x - grown[b].r;
    });
    auto contains = [&](std::uint32_t a, std::uint32_t b) {
      const double room = grown[a].r + kCircleEps - grown[b].r;
      if (room < 0) return false;
      const Vec2 v = grown[a].center() - grown[b].center();
      return dot(v, v) <= room * room;
    };
    auto left = [&](std::uint32_t i) { return grown[i].x - grown[i].r; };
    for (size_t ia = 0; ia < order.size(); ++ia) {
      const std::uint32_t a = order[ia];
      const double right = grown[a].x + grown[a].r + kCircleEps;
      const size_t first =
          size_t(std::lower_bound(order.begin(), order.end(), left(a) - 2 * kCircleEps,
                                  [&](std::uint32_t i, double x) { return left(i) < x; }) -
                 order.begin());
      for (size_t ib = first; ib < order.size(); ++ib) {
        const std::uint32_t b = order[ib];
        if (grown[b].x - grown[b].r > right) break;
        if (a == b || redundant[b]) continue;
        if (contains(a, b) && !(contains(b, a) && b < a)) redundant[b] = 1;
      }
    }
  }
  std::vector<Circle> kept;
  std::vector<std::uint32_t> kept_index;
  for (size_t i = 0; i < grown.size(); ++i) {
    if (redundant[i]) {
      ++stats.redundant;
      continue;
    }
    kept.push_back(grown[i]);
    kept_index.push_back(index[i]);
  }
  if (obs) {
    for (size_t i = 0; i < kept.size(); ++i) {
      Shape sh = Shape::circle(kept[i].center(), kept[i].r);
      sh.tag = kept_index[i];
      obs->mark(sh, Role::Obstacle);
    }
    obs->mark(Shape::point(s), Role::Start);
    obs->mark(Shape::point(g), Role::Goal);
    obs->frame();
  }

  CircleGraphStats cache_stats;
  if (cache) update_cache(*cache->state, kept, kept_index, cache_stats);
  CircleGraph graph(std::move(kept), std::move(kept_index), query, ctx, options.cull,
                    cache ? cache->state.get() : nullptr);
  if (options.mode == CircleGraphMode::Eager) graph.build_all();
  const CircleSearchResult found = search_graph(graph, options, ctx);
  // Every built circle is whole (a cancel comes between circles), so its masks can be kept.
  graph.give_back();
  stats = graph.stats();
  stats.cache_resets = cache_stats.cache_resets;
  stats.pairs_reset = cache_stats.pairs_reset;
  stats.circles_reset = cache_stats.circles_reset;
  stats.search_ms = found.ms;
  stats.redundant = std::size_t(std::count(redundant.begin(), redundant.end(), 1));
  result.expanded = found.outcome.expanded;
  result.generated = found.outcome.generated;
  result.memory_bytes = graph.memory_bytes() + found.memory_bytes;
  result.cancelled = found.outcome.cancelled;
  if (result.cancelled) {
    result.message = "cancelled";
  } else if (!found.outcome.stopped) {
    result.message = "no path: the grown circles wall the goal off from the start";
  } else {
    result.found = true;
    result.length = found.length;
    result.pieces = graph.pieces(found.chain);
    result.points = sample_pieces(result.pieces, options.arc_step);
    if (obs) obs->path(result.pieces);
  }
  if (obs) graph.report_graph_counters();
  return finish(result);
}

std::size_t circle_nearest_middle(const CircleForest& f) {
  const Vec2 mid = (f.query.start.position() + f.query.goal.position()) * 0.5;
  std::size_t best = 0;
  for (std::size_t k = 1; k < f.circles.size(); ++k)
    if (distance(f.circles[k].center(), mid) < distance(f.circles[best].center(), mid)) best = k;
  return best;
}

CircleForest make_circle_forest(const CircleForestSpec& spec) {
  CircleForest f;
  const int n = std::max(0, spec.count);
  f.side = spec.side_per_10 * std::sqrt(std::max(1.0, double(n)));
  std::mt19937 rng(spec.seed);
  std::uniform_real_distribution<double> pos(0, f.side), rad(spec.min_radius, spec.max_radius);
  // Without overlap, a circle that lands too close to another is drawn again; after many misses
  // the forest is as full as it gets and keeps fewer circles.
  for (int i = 0, misses = 0; i < n && misses < 1000 * n + 1000;) {
    const Circle c{pos(rng), pos(rng), rad(rng)};
    bool ok = true;
    if (!spec.overlap)
      for (const Circle& o : f.circles)
        if (distance(c.center(), o.center()) < c.r + o.r + spec.gap) {
          ok = false;
          break;
        }
    if (!ok) {
      ++misses;
      continue;
    }
    f.circles.push_back(c);
    ++i;
  }
  // Start near the left edge, goal near the right one, moved along the edge until free.
  auto free_point = [&](double x) {
    std::uniform_real_distribution<double> y(0.25 * f.side, 0.75 * f.side);
    for (int tries = 0;; ++tries) {
      const Vec2 p{x, y(rng)};
      bool ok = true;
      for (const Circle& c : f.circles) ok &= distance(p, c.center()) > c.r + spec.agent_radius;
      if (ok || tries > 10000) return p;
    }
  };
  const Vec2 s = free_point(0.02 * f.side), g = free_point(0.98 * f.side);
  f.query.start = {s.x, s.y, 0};
  f.query.goal = {g.x, g.y, 0};
  f.query.radius = spec.agent_radius;
  return f;
}

PlanResult CirclesPlanner::plan(const Scene& scene, const Query& query, const RunContext& ctx) {
  PlanResult r = plan_among_circles(scene.circles, query, options_, ctx, nullptr, &cache_);
  const int w = scene.map.width(), h = scene.map.height();
  if (r.found && w > 0 && h > 0) {
    bool leaves = false;
    for (const Pose& p : r.points) leaves |= p.x < 0 || p.y < 0 || p.x > w || p.y > h;
    r.stats.emplace_back("leaves_map", leaves ? 1.0 : 0.0);
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Registry entry: circles.

namespace {

void add_circles(Registry& r) {
  r.add({"circles",
         "continuous",
         "A* among circular obstacles grown by the agent's radius: bitangent surfing edges and "
         "hugging arcs (Red Blob Games), cw/ccw nodes; exact lengths. The circles are the whole "
         "world: grid terrain and the map border are ignored",
         true,
         {ParamDesc::choice(
              "mode",
              "lazy: a circle's surfing edges are computed when the search first reaches it; "
              "eager: the whole graph is built before the search (same path, for comparison)",
              {"lazy", "eager"}, "lazy")
              .labelled("graph building"),
          ParamDesc::real("arc_step",
                          "Largest distance between the path's sampled points along an arc (map "
                          "units)",
                          0.001, 1000, "0.25")
              .labelled("arc sample step"),
          ParamDesc::boolean("mark_searched",
                             "When watched, mark every edge the search touched (role candidate) "
                             "beside the tested graph",
                             "true")
              .labelled("mark searched edges")},
         [](const ParamSet& ps) {
           CirclePlanOptions o;
           o.mode = ps.get("mode") == "eager" ? CircleGraphMode::Eager : CircleGraphMode::Lazy;
           o.arc_step = ps.get_double("arc_step");
           o.mark_searched_edges = ps.get_bool("mark_searched");
           return std::make_unique<CirclesPlanner>(o);
         },
         AgentInputs(AgentInput::Radius)});
}

const PlannerRegistration kRegistration(30, add_circles);

}  // namespace

}  // namespace pl

#undef PL_OUT_OF_LINE

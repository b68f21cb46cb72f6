// Directional A* on the shared search machinery: the hit-check tables, the padded blocked map,
// the heuristics, and the registration of `directional`.
#include "planners/directional.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "core/grid_query.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {

constexpr double kMaxTurningRadius = 32;  // cells; larger tables and margins are refused
constexpr double kMaxReach = 16;          // footprint reach in cells
constexpr std::uint64_t kMaxNodes = std::uint64_t(1) << 24;  // cells x headings (~30 bytes each)

double turned(const Curve& c) {
  double t = 0;
  for (const CurveSegment& s : c.used())
    if (s.steer != Steer::Straight) t += std::abs(s.length) / c.radius;
  return t;
}

Footprint footprint_of(const Query& q, bool square) {
  return square ? Footprint::square(double(std::max(1, q.size))) : Footprint::disc(q.radius);
}

}  // namespace

size_t DirectionalSearch::memory_bytes() const {
  return pool_.memory_bytes() + open_.memory_bytes() + edges_.capacity() * sizeof(Edge) +
         cells_.capacity() * sizeof(CellXY) + blocked_.capacity() + cost_.capacity() * sizeof(float) +
         offs_.capacity() * sizeof(std::int32_t) + dist2d_.capacity() * sizeof(float) +
         hcache_.capacity() * sizeof(float) + hstamp_.capacity() * sizeof(std::uint32_t);
}

bool DirectionalSearch::build_tables(const Options& opt, double r, const Footprint& fp) {
  if (opt.headings == k_ && opt.neighbours == nb_ && r == radius_ && fp.shape == fp_.shape &&
      fp.size == fp_.size && opt.words == words_)
    return false;
  k_ = opt.headings;
  nb_ = opt.neighbours;
  radius_ = r;
  fp_ = fp;
  words_ = opt.words;
  const int rings = nb_ == 8 ? 1 : nb_ == 24 ? 2 : 3;
  std::vector<CellXY> offsets;
  for (int dy = -rings; dy <= rings; ++dy)
    for (int dx = -rings; dx <= rings; ++dx)
      if (dx != 0 || dy != 0) offsets.push_back({dx, dy});
  per_heading_ = offsets.size() * std::size_t(k_);
  edges_.clear();
  cells_.clear();
  edges_.reserve(per_heading_ * std::size_t(k_));
  margin_ = rings;
  const double step = kTwoPi / k_;
  for (int i = 0; i < k_; ++i)
    for (const CellXY o : offsets)
      for (int j = 0; j < k_; ++j) {
        Edge e;
        e.dx = o.x;
        e.dy = o.y;
        e.to_heading = j;
        e.curve = dubins({0.5, 0.5, i * step}, {0.5 + o.x, 0.5 + o.y, j * step}, r, opt.words);
        e.length = e.curve.length;
        e.turn = turned(e.curve);
        e.first = std::uint32_t(cells_.size());
        const std::vector<PathPiece> pieces = e.curve.pieces();
        std::vector<CellXY> cells = swept_cells(pieces, fp);
        // The start cell (and the target) are the likeliest to be free; test the rest first
        // by ordering cells far from both ends first? Keep row-major: cheap and deterministic.
        for (CellXY c : cells) {
          cells_.push_back(c);
          margin_ = std::max({margin_, std::abs(c.x), std::abs(c.y)});
        }
        e.count = std::uint32_t(cells.size());
        edges_.push_back(e);
      }
  offs_pw_ = -1;
  ++table_builds_;
  return true;
}

// The mask is placed with its start cell on `at`: the cells it marks are the ones a search
// standing there would test; those blocked on this map are the ones that would reject the edge.
void DirectionalSearch::report_mask(const GridMap& map, CellXY at, const Options& opt,
                                    SearchObserver& o) const {
  const int rings = nb_ == 8 ? 1 : nb_ == 24 ? 2 : 3;
  const int dx = opt.mask_dx, dy = opt.mask_dy;
  const int from = ((opt.mask_from % k_) + k_) % k_, to = ((opt.mask_to % k_) + k_) % k_;
  const std::string what = "hit-check mask: heading " + std::to_string(from) + " -> " +
                           std::to_string(to) + ", offset (" + std::to_string(dx) + ", " +
                           std::to_string(dy) + ")";
  if ((dx == 0 && dy == 0) || std::max(std::abs(dx), std::abs(dy)) > rings) {
    o.phase(what + " is not a neighbour of Directional-" + std::to_string(nb_));
    o.frame();
    return;
  }
  // Offsets are stored row-major over the (2 rings + 1)^2 square without its centre.
  int idx = (dy + rings) * (2 * rings + 1) + (dx + rings);
  if (idx > rings * (2 * rings + 1) + rings) --idx;
  const Edge& e = edges_from(from)[std::size_t(idx) * std::size_t(k_) + std::size_t(to)];
  const std::span<const CellXY> cells = cells_of(e);
  o.role_name(Role::Candidate, "hit-check mask cell");
  o.role_name(Role::Transition, "the curve's end poses");
  o.phase(what + ", " + std::to_string(cells.size()) + " cells");
  o.counter("mask cells", double(cells.size()));
  int hits = 0;
  for (CellXY c : cells) {
    const int x = at.x + c.x, y = at.y + c.y;
    o.mark(Shape::cell(x, y), Role::Candidate);
    const bool inside = x >= 0 && y >= 0 && x < map.width() && y < map.height();
    if (!inside || !map.passable(x, y, cap_)) {
      ++hits;
      o.mark(Shape::cell(x, y), Role::Rejected);
    }
  }
  o.counter("mask cells blocked here", double(hits));
  Curve c = e.curve;
  c.start.x += at.x;
  c.start.y += at.y;
  std::vector<PathPiece> pieces;
  c.append_pieces(pieces);
  for (const PathPiece& p : pieces)
    o.test(p.kind == PathPiece::Kind::Arc ? Shape::arc(p.arc) : Shape::segment(p.line.a, p.line.b), hits == 0);
  o.mark(Shape::pose(c.start), Role::Transition);
  o.mark(Shape::pose(c.end()), Role::Transition);
  o.frame();
}

void DirectionalSearch::prepare_map(const GridMap& map, CapabilityMask cap) {
  const int m = margin_ + 1;
  if (map.uid() != map_uid_ || map.version() != map_version_ || cap != cap_ || m != map_margin_) {
    map_uid_ = map.uid();
    map_version_ = map.version();
    cap_ = cap;
    map_margin_ = m;
    const int w = map.width(), h = map.height();
    pw_ = w + 2 * m;
    blocked_.assign(std::size_t(pw_) * std::size_t(h + 2 * m), 1);
    cost_.assign(std::size_t(w) * std::size_t(h), 1.0f);
    const Palette& pal = map.palette();
    uniform_ = pal.uniform_costs();
    min_cost_ = uniform_ ? 1.0 : pal.min_cost(cap);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        blocked_[std::size_t(y + m) * std::size_t(pw_) + std::size_t(x + m)] = !map.passable(x, y, cap);
        cost_[std::size_t(y) * std::size_t(w) + std::size_t(x)] = float(pal[map.at(x, y)].cost);
      }
    dist_goal_ = -1;
  }
  if (offs_pw_ != pw_) {
    offs_.resize(cells_.size());
    for (std::size_t c = 0; c < cells_.size(); ++c) offs_[c] = cells_[c].y * pw_ + cells_[c].x;
    offs_pw_ = pw_;
  }
}

// Octile Dijkstra from the goal over the cells the capability may enter (no corner cutting: a
// footprint of positive size cannot pass where two blocked cells touch at a corner).
void DirectionalSearch::build_distance(const GridMap& map, int gx, int gy, int x0, int y0, int x1,
                                       int y1) {
  const int w = map.width();
  const int goal = gy * w + gx;
  const std::array<int, 4> box = {x0, y0, x1, y1};
  if (goal == dist_goal_ && box == dist_box_ && map.uid() == dist_uid_ &&
      map.version() == dist_version_ && cap_ == dist_cap_)
    return;
  dist_goal_ = goal;
  dist_box_ = box;
  dist_uid_ = map.uid();
  dist_version_ = map.version();
  dist_cap_ = cap_;
  const float inf = std::numeric_limits<float>::infinity();
  dist2d_.assign(std::size_t(w) * std::size_t(map.height()), inf);
  const int m = map_margin_;
  const auto free_cell = [&](int x, int y) {
    return !blocked_[std::size_t(y + m) * std::size_t(pw_) + std::size_t(x + m)];
  };
  using Item = std::pair<float, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
  dist2d_[std::size_t(goal)] = 0;
  q.push({0.0f, goal});
  static constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  while (!q.empty()) {
    const auto [d, c] = q.top();
    q.pop();
    if (d > dist2d_[std::size_t(c)]) continue;
    const int x = c % w, y = c / w;
    for (int dir = 0; dir < 8; ++dir) {
      const int nx = x + kDx[dir], ny = y + kDy[dir];
      if (nx < x0 || ny < y0 || nx > x1 || ny > y1 || !free_cell(nx, ny)) continue;
      if (dir >= 4 && (!free_cell(nx, y) || !free_cell(x, ny))) continue;
      const float nd = d + float(dir < 4 ? 1.0 : kSqrt2);
      float& cur = dist2d_[std::size_t(ny) * std::size_t(w) + std::size_t(nx)];
      if (nd < cur) {
        cur = nd;
        q.push({nd, ny * w + nx});
      }
    }
  }
}

struct DirectionalSearch::Problem {
  using Cost = double;
  using Order = TieLargerG;
  static constexpr bool kFastSlot = false;  // the heuristics are not consistent everywhere
  static constexpr bool kGrowing = false;

  DirectionalSearch* s;
  const Options* opt;
  int w, h, k, m;
  int bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;  // the cells searched (Options::box), inclusive
  double r, step;
  Pose start_pose, goal_pose;
  bool exact_start;
  bool reverse = false;
  std::uint32_t start_node, goal_node;
  int goal_cell, start_cell;
  double h0 = 1;
  std::uint64_t exact_edges = 0, tested = 0, rejected = 0;

  // Ids: (y * w + x) * k + heading, and one more, w * h * k, for a start pose that is not a
  // grid pose (off the cell centre or between headings), declared as a Points space.
  std::uint32_t start() const { return start_node; }
  std::uint32_t grid_nodes() const { return std::uint32_t(w) * std::uint32_t(h) * std::uint32_t(k); }
  std::size_t node_bound() const { return std::size_t(grid_nodes()) + 1; }
  bool stop(std::uint32_t n) const {
    if (n == grid_nodes()) return false;
    return opt->goal_heading_free ? int(n / std::uint32_t(k)) == goal_cell : n == goal_node;
  }
  float progress(const OpenEntry& top) const {
    return float(std::clamp(1.0 - double(top.h) / h0, 0.0, 1.0));
  }
  Pose pose_of(std::uint32_t n) const {
    if (n == grid_nodes()) return start_pose;
    const int c = int(n / std::uint32_t(k)), i = int(n % std::uint32_t(k));
    return {c % w + 0.5, c / w + 0.5, i * step};
  }

  double heuristic(std::uint32_t n) const {
    const Pose p = n == start_node ? start_pose : pose_of(n);
    const Vec2 goal{goal_pose.x, goal_pose.y};
    double curve;
    if (opt->heuristic == Heuristic::Article || opt->goal_heading_free) {
      const Curve c = pose_to_point(p, goal, r);
      curve = c.ok() ? c.length : distance(p.position(), goal);
    } else {
      curve = reverse ? reeds_shepp(p, goal_pose, r).length : dubins(p, goal_pose, r, opt->words).length;
      if (!std::isfinite(curve)) curve = distance(p.position(), goal);
    }
    double hv = curve;
    if (opt->heuristic == Heuristic::Max)
      hv = std::max(hv, double(s->dist2d_[n == grid_nodes() ? std::size_t(start_cell)
                                                             : std::size_t(n / std::uint32_t(k))]));
    return hv * s->min_cost_;
  }
  void evaluate(std::uint32_t n, double g, double& f, double& hv) const {
    if (s->hstamp_[n] == s->hsearch_) {
      hv = s->hcache_[n];
    } else {
      hv = heuristic(n);
      s->hcache_[n] = float(hv);
      s->hstamp_[n] = s->hsearch_;
      hv = s->hcache_[n];  // the stored value, so f and h agree with later lookups
    }
    f = g + hv;
  }

  bool skip(std::uint32_t nb, double ng) const {
    NodePool<double>& pool = s->pool_;
    if (!pool.seen(nb)) return false;
    return pool.positions()[nb] == NodePool<double>::kClosed || !(ng < pool.g(nb));
  }
  double step_cost(int from_cell, int to_cell, double length, double turn) const {
    return terrain_step_cost(length, s->cost_[std::size_t(from_cell)], s->cost_[std::size_t(to_cell)]) +
           opt->turn_penalty * turn;
  }
  bool blocked_at(int x, int y) const {
    const int px = x + m, py = y + m;
    if (px < 0 || py < 0 || px >= s->pw_ || py >= h + 2 * m) return true;
    return s->blocked_[std::size_t(py) * std::size_t(s->pw_) + std::size_t(px)] != 0;
  }

  template <class L>
  void report(L& l, const Curve& c, bool ok, std::span<const CellXY> cells, int bx, int by) {
    std::vector<PathPiece> pieces;
    c.append_pieces(pieces);
    for (const PathPiece& p : pieces)
      l.test(p.kind == PathPiece::Kind::Arc ? Shape::arc(p.arc) : Shape::segment(p.line.a, p.line.b), ok);
    if (!ok)
      for (CellXY cell : cells)
        if (blocked_at(bx + cell.x, by + cell.y)) l.mark(Shape::cell(bx + cell.x, by + cell.y), Role::Rejected);
  }

  template <class Out>
  void expand(std::uint32_t n, double g, Out& out) {
    if (n == grid_nodes()) {
      expand_exact(int(std::floor(start_pose.x)), int(std::floor(start_pose.y)), g, out);
      return;
    }
    const int cell = int(n / std::uint32_t(k)), i = int(n % std::uint32_t(k));
    const int x = cell % w, y = cell / w;
    const bool use_max = opt->heuristic == Heuristic::Max;
    const std::uint8_t* blocked = s->blocked_.data() + std::size_t(y + m) * std::size_t(s->pw_) + std::size_t(x + m);
    const std::int32_t* offs = s->offs_.data();
    for (int gear = 0; gear < (reverse ? 2 : 1); ++gear) {
      // Backwards: the table's forward curves from the heading turned round.
      const int half = gear ? k / 2 : 0;
      const double factor = gear ? opt->reverse_penalty : 1.0;
      const std::span<const Edge> edges = s->edges_from((i + half) % k);
      for (std::size_t e0 = 0; e0 < edges.size(); e0 += std::size_t(k)) {
        const int tx = x + edges[e0].dx, ty = y + edges[e0].dy;
        if (tx < bx0 || ty < by0 || tx > bx1 || ty > by1) continue;
        const int tcell = ty * w + tx;
        if (blocked[edges[e0].dy * s->pw_ + edges[e0].dx]) continue;
        if (use_max && !std::isfinite(s->dist2d_[std::size_t(tcell)])) continue;
        for (int j = 0; j < k; ++j) {
          const Edge& e = edges[e0 + std::size_t(j)];
          const std::uint32_t nb = std::uint32_t(tcell) * std::uint32_t(k) + std::uint32_t((j + half) % k);
          const double ng = g + factor * step_cost(cell, tcell, e.length, e.turn);
          if (skip(nb, ng)) continue;
          ++tested;
          bool ok = true;
          for (std::uint32_t c = e.first, end = e.first + e.count; c < end; ++c)
            if (blocked[offs[c]]) {
              ok = false;
              break;
            }
          if constexpr (std::decay_t<decltype(out.listener())>::kActive) {
            Curve c = e.curve;
            c.start.x += x;
            c.start.y += y;
            report(out.listener(), c, ok, s->cells_of(e), x, y);
          }
          if (!ok) {
            ++rejected;
            continue;
          }
          if (out.reach(nb, ng)) s->gear_[nb] = std::uint8_t(gear);
        }
      }
    }
  }

  // The start pose off the cell centre or between headings: every curve computed and swept.
  template <class Out>
  void expand_exact(int x, int y, double g, Out& out) {
    const int rings = opt->neighbours == 8 ? 1 : opt->neighbours == 24 ? 2 : 3;
    const int cell = y * w + x;
    for (int dy = -rings; dy <= rings; ++dy)
      for (int dx = -rings; dx <= rings; ++dx) {
        if (dx == 0 && dy == 0) continue;
        const int tx = x + dx, ty = y + dy;
        if (tx < bx0 || ty < by0 || tx > bx1 || ty > by1 || blocked_at(tx, ty)) continue;
        const int tcell = ty * w + tx;
        for (int gear = 0; gear < (reverse ? 2 : 1); ++gear)
          for (int j = 0; j < k; ++j) {
            const double flip = gear ? kPi : 0.0;
            const Curve c = dubins({start_pose.x, start_pose.y, start_pose.heading + flip},
                                   {tx + 0.5, ty + 0.5, j * step + flip}, r, opt->words);
            if (!c.ok()) continue;
            const std::uint32_t nb = std::uint32_t(tcell) * std::uint32_t(k) + std::uint32_t(j);
            const double ng = g + (gear ? opt->reverse_penalty : 1.0) * step_cost(cell, tcell, c.length, turned(c));
            if (skip(nb, ng)) continue;
            ++tested;
            ++exact_edges;
            const std::vector<CellXY> cells = swept_cells(c.pieces(), s->fp_);
            bool ok = true;
            for (CellXY q : cells)
              if (blocked_at(q.x, q.y)) {
                ok = false;
                break;
              }
            if constexpr (std::decay_t<decltype(out.listener())>::kActive) report(out.listener(), c, ok, cells, 0, 0);
            if (!ok) {
              ++rejected;
              continue;
            }
            if (out.reach(nb, ng)) s->gear_[nb] = std::uint8_t(gear);
          }
      }
  }

  std::uint32_t id(std::uint32_t n) const { return n; }
  // Grid nodes by id alone (their space places them); the off-grid start with its pose.
  NodeDesc desc(std::uint32_t n) const {
    NodeDesc d;
    d.id = n;
    if (n == grid_nodes()) {
      d.x = float(start_pose.x);
      d.y = float(start_pose.y);
      d.heading = float(start_pose.heading);
      d.label = "start pose";
    }
    return d;
  }
};

PlanResult DirectionalSearch::run(const GridMap& map, const Query& query, const Options& opt,
                                  const RunContext& ctx) {
  const Stopwatch clock;
  Query q = query;
  if (q.capability == 0) q.capability = map.palette().movingai_default_capability();
  PlanResult res;
  const auto fail = [&](std::string msg, bool bad) {
    res.message = std::move(msg);
    res.bad_query = bad;
    res.time_ms = clock.ms();
    return res;
  };
  const auto sc = cell_of(map, q.start), gc = cell_of(map, q.goal);
  if (!sc || !gc) return fail(outside_reason(map, q.start, q.goal), true);
  if (!(q.turning_radius > 0) || q.turning_radius > kMaxTurningRadius)
    return fail("directional needs a turning radius > 0 and at most 32 cells (--turning-radius), got " +
                    std::to_string(q.turning_radius),
                true);
  const Footprint fp = footprint_of(q, opt.square);
  const double reach = fp.shape == Footprint::Shape::Disc ? fp.size : fp.size / 2;
  if (!(reach > 0) || reach > kMaxReach)
    return fail("directional needs a footprint reach in (0, 16] cells (--radius, or --size with "
                "footprint=square)",
                true);
  const int w = map.width(), h = map.height(), k = opt.headings;
  if (std::uint64_t(w) * std::uint64_t(h) * std::uint64_t(k) > kMaxNodes)
    return fail("map too large for directional: " + std::to_string(w) + " x " + std::to_string(h) +
                    " cells x " + std::to_string(k) + " headings is over 2^24 nodes",
                false);
  {
    const Stopwatch prep;
    bool built = build_tables(opt, q.turning_radius, fp);
    if (built && ctx.observer) {
      ctx.observer->phase("hit-check tables");
      ctx.observer->counter("table curves", double(edges_.size()));
      ctx.observer->counter("table cells", double(cells_.size()));
    }
    prepare_map(map, q.capability);
    res.prepare_ms = prep.ms();
    if (opt.show_mask && ctx.observer) report_mask(map, *sc, opt, *ctx.observer);
    if (!built) res.prepare_ms = 0;
  }
  if (!map.passable(sc->x, sc->y, q.capability) || !map.passable(gc->x, gc->y, q.capability))
    return fail(blocked_reason(map, q.capability, 1, false,
                               map.passable(sc->x, sc->y, q.capability) ? "goal" : "start",
                               map.passable(sc->x, sc->y, q.capability) ? *gc : *sc),
                false);
  int bx0 = 0, by0 = 0, bx1 = w - 1, by1 = h - 1;
  if (opt.box > 0) {
    bx0 = std::max(0, std::min(sc->x, gc->x) - opt.box);
    by0 = std::max(0, std::min(sc->y, gc->y) - opt.box);
    bx1 = std::min(w - 1, std::max(sc->x, gc->x) + opt.box);
    by1 = std::min(h - 1, std::max(sc->y, gc->y) + opt.box);
  }
  if (opt.heuristic == Heuristic::Max) build_distance(map, gc->x, gc->y, bx0, by0, bx1, by1);

  Problem p;
  p.s = this;
  p.opt = &opt;
  p.w = w;
  p.h = h;
  p.bx0 = bx0;
  p.by0 = by0;
  p.bx1 = bx1;
  p.by1 = by1;
  p.k = k;
  p.m = map_margin_;
  p.r = q.turning_radius;
  p.step = kTwoPi / k;
  p.start_pose = {q.start.x, q.start.y, normalize_angle(q.start.heading)};
  const int si = int(std::lround(p.start_pose.heading / p.step)) % k;
  const int gi = int(std::lround(normalize_angle(q.goal.heading) / p.step)) % k;
  p.reverse = opt.reverse == Options::Reverse::Yes || (opt.reverse == Options::Reverse::Agent && q.can_reverse);
  p.exact_start = !(q.start.x == sc->x + 0.5 && q.start.y == sc->y + 0.5 &&
                    std::abs(p.start_pose.heading - si * p.step) < 1e-12);
  if (!p.exact_start) p.start_pose.heading = si * p.step;
  p.start_node = p.exact_start ? p.grid_nodes() : std::uint32_t((sc->y * w + sc->x) * k + si);
  p.goal_cell = gc->y * w + gc->x;
  p.start_cell = sc->y * w + sc->x;
  p.goal_node = std::uint32_t(p.goal_cell * k + gi);
  p.goal_pose = {gc->x + 0.5, gc->y + 0.5, gi * p.step};

  const std::size_t nodes = p.node_bound();
  if (pool_.size() != nodes) pool_.reset(nodes);
  if (gear_.size() != nodes) gear_.assign(nodes, 0);
  if (hcache_.size() != nodes) {
    hcache_.assign(nodes, 0.0f);
    hstamp_.assign(nodes, 0);
    hsearch_ = 0;
  }
  if (++hsearch_ == 0) {
    std::fill(hstamp_.begin(), hstamp_.end(), 0u);
    hsearch_ = 1;
  }
  {
    double f;
    p.evaluate(p.start_node, 0.0, f, p.h0);
    p.h0 = std::max(p.h0, 1e-9);
  }
  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(NodeSpace::cell_headings(w, h, k));
      if (p.exact_start) l.observer()->space(NodeSpace::points(1, p.grid_nodes(), "start pose"));
      l.observer()->phase("search");
      l.mark(Shape::pose(p.start_pose), Role::Start);
      l.mark(Shape::pose(p.goal_pose), Role::Goal);
    }
    return best_first(p, pool_, open_, l, ctx);
  });
  res.expanded = out.expanded;
  res.generated = out.generated;
  res.found = out.stopped;
  res.stats = {{"curves tested", double(p.tested)},
               {"curves rejected", double(p.rejected)},
               {"exact start curves", double(p.exact_edges)},
               {"table curves", double(edges_.size())},
               {"table cells", double(cells_.size())}};
  if (out.cancelled) {
    res.cancelled = true;
    res.message = "cancelled";
  }
  last_gears_.clear();
  if (res.found) {
    const std::vector<std::uint32_t> chain = pool_.chain(out.last);
    Pose cur = p.start_pose;
    res.points.push_back(cur);
    last_gears_.push_back(0);
    double length = 0;
    int reversed = 0;
    for (std::size_t i = 1; i < chain.size(); ++i) {
      const Pose next = p.pose_of(chain[i]);
      if (gear_[chain[i]]) {  // driven backwards: the forward curve of the turned-round poses
        const Curve c = dubins({cur.x, cur.y, cur.heading + kPi}, {next.x, next.y, next.heading + kPi}, p.r, opt.words);
        const std::size_t first = res.pieces.size();
        c.append_pieces(res.pieces);
        for (std::size_t q2 = first; q2 < res.pieces.size(); ++q2) res.pieces[q2].reverse = true;
        length += c.length;
        ++reversed;
      } else {
        const Curve c = dubins(cur, next, p.r, opt.words);
        c.append_pieces(res.pieces);
        length += c.length;
      }
      res.points.push_back(next);
      last_gears_.push_back(gear_[chain[i]]);
      cur = next;
    }
    res.length = length;
    res.stats.push_back({"cost", pool_.g_value(out.last)});
    res.stats.push_back({"reversed edges", double(reversed)});
    res.stats.push_back({"illegal turns", 0});  // every edge's swept cells were tested
    if (SearchObserver* o = ctx.observer) {
      o->counter("expanded", double(res.expanded));
      o->counter("curves tested", double(p.tested));
      o->counter("curves rejected", double(p.rejected));
      o->path(res.pieces);
      o->frame();
    }
  } else if (!res.cancelled) {
    res.message = "no path: no legal sequence of curves reaches the goal (Directional-" +
                  std::to_string(opt.neighbours) + ", " + std::to_string(k) + " headings)";
  }
  res.memory_bytes = memory_bytes();
  res.time_ms = clock.ms();
  return res;
}

// ---------------------------------------------------------------------------------------------
// Smoothing-48 along a grid path.

bool DirectionalSearch::curve_clear(const Pose& a, const Pose& b) const {
  if (pw_ == 0 || !(radius_ > 0)) return false;  // nothing prepared yet
  const Curve c = dubins(a, b, radius_, words_);
  if (!c.ok()) return false;
  const int m = map_margin_, ph = int(blocked_.size() / std::size_t(pw_));
  for (CellXY q : swept_cells(c.pieces(), fp_)) {
    const int px = q.x + m, py = q.y + m;
    if (px < 0 || py < 0 || px >= pw_ || py >= ph) return false;
    if (blocked_[std::size_t(py) * std::size_t(pw_) + std::size_t(px)]) return false;
  }
  return true;
}

namespace {

struct AlongProblem {
  using Cost = double;
  using Order = TieLargerG;
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = false;

  const DirectionalSearch* s;
  const std::vector<CellXY>* path;
  const std::vector<double>* remaining;  // length along the path from each cell to the end
  const std::uint8_t* blocked;           // padded map, row width pw
  const std::int32_t* offs;
  int pw, m, rings, goal_heading;        // goal_heading < 0: any
  std::uint32_t start_node;
  std::size_t farthest = 0;
  std::uint32_t farthest_node = kNoNode;  // the first node closed at `farthest`
  bool gave_up = false;
  int map_w = 0;

  static constexpr int k = 8;
  std::uint32_t start() const { return start_node; }
  std::size_t node_bound() const { return path->size() * k; }
  bool stop(std::uint32_t n) {
    const std::size_t i = n / k;
    if (farthest_node == kNoNode || i > farthest) {
      farthest = i;
      farthest_node = n;
    }
    if (i + 1 == path->size() && (goal_heading < 0 || int(n % k) == goal_heading)) return true;
    if (i + 6 <= farthest) {  // searched back six or more points behind the farthest: give up
      gave_up = true;
      return true;
    }
    return false;
  }
  float progress(const OpenEntry&) const { return -1.0f; }
  void evaluate(std::uint32_t n, double g, double& f, double& h) const {
    h = (*remaining)[n / k];
    f = g + h;
  }
  template <class Out>
  void expand(std::uint32_t n, double g, Out& out) const {
    const std::size_t i = n / k;
    const int hd = int(n % k);
    const CellXY c = (*path)[i];
    const std::span<const DirectionalSearch::Edge> edges = s->edges_from(hd);
    const std::uint8_t* base = blocked + std::size_t(c.y + m) * std::size_t(pw) + std::size_t(c.x + m);
    for (std::size_t j = i + 1; j <= i + 3 && j < path->size(); ++j) {
      const int dx = (*path)[j].x - c.x, dy = (*path)[j].y - c.y;
      if (std::max(std::abs(dx), std::abs(dy)) > rings || (dx == 0 && dy == 0)) continue;
      int o = (dy + rings) * (2 * rings + 1) + (dx + rings);
      if (o > rings * (2 * rings + 1) + rings) --o;  // the centre is not an offset
      for (int t = 0; t < k; ++t) {
        const DirectionalSearch::Edge& e = edges[std::size_t(o) * k + std::size_t(t)];
        bool ok = true;
        for (std::uint32_t q = e.first, end = e.first + e.count; q < end; ++q)
          if (base[offs[q]]) {
            ok = false;
            break;
          }
        if (!ok) continue;
        out.reach(std::uint32_t(j * k + std::size_t(t)), g + e.length);
      }
    }
  }
  // Reported in the cells x 8 headings space of the map.
  std::uint32_t id(std::uint32_t n) const {
    const CellXY c = (*path)[n / k];
    return std::uint32_t((c.y * map_w + c.x) * k) + n % k;
  }
};

}  // namespace

DirectionalSearch::AlongResult DirectionalSearch::along(const GridMap& map, const Query& query,
                                                        bool square, const std::vector<CellXY>& path,
                                                        double start_heading, double goal_heading,
                                                        const RunContext& ctx) {
  AlongResult res;
  Query q = query;
  if (q.capability == 0) q.capability = map.palette().movingai_default_capability();
  if (path.empty()) {
    res.message = "empty path";
    return res;
  }
  if (!(q.turning_radius > 0) || q.turning_radius > kMaxTurningRadius) {
    res.message = "Smoothing-48 needs a turning radius in (0, 32]";
    return res;
  }
  Options o;
  o.headings = 8;
  o.neighbours = 48;
  o.square = square;
  const Footprint fp = footprint_of(q, square);
  build_tables(o, q.turning_radius, fp);
  prepare_map(map, q.capability);
  std::vector<double> remaining(path.size(), 0.0);
  for (std::size_t i = path.size() - 1; i-- > 0;)
    remaining[i] = remaining[i + 1] + std::hypot(path[i + 1].x - path[i].x, path[i + 1].y - path[i].y);
  const double step = kTwoPi / 8;
  AlongProblem p;
  p.s = this;
  p.path = &path;
  p.remaining = &remaining;
  p.blocked = blocked_.data();
  p.offs = offs_.data();
  p.pw = pw_;
  p.m = map_margin_;
  p.rings = 3;
  p.map_w = map.width();
  p.goal_heading = std::isnan(goal_heading) ? -1 : int(std::lround(normalize_angle(goal_heading) / step)) % 8;
  p.start_node = std::uint32_t(int(std::lround(normalize_angle(start_heading) / step)) % 8);
  if (along_pool_.size() < p.node_bound()) along_pool_.reset(std::max(p.node_bound(), along_pool_.size() * 2));
  const SearchOutcome out = with_listener(ctx.observer, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(NodeSpace::cell_headings(map.width(), map.height(), 8));
      l.observer()->phase("Smoothing-48");
    }
    return best_first(p, along_pool_, along_open_, l, ctx);
  });
  res.expanded = out.expanded;
  res.farthest = p.farthest;
  const bool ok = out.stopped && !p.gave_up;
  if (ok || p.farthest_node != kNoNode) {
    for (std::uint32_t n : along_pool_.chain(ok ? out.last : p.farthest_node)) {
      const CellXY c = path[n / 8];
      res.poses.push_back({c.x + 0.5, c.y + 0.5, int(n % 8) * step});
      res.indices.push_back(n / 8);
    }
  }
  if (!ok) {
    res.message = p.gave_up ? "Smoothing-48 gave up six points behind path point " + std::to_string(p.farthest)
                            : "Smoothing-48 found no legal curves along the path";
    return res;
  }
  res.found = true;
  return res;
}

// ---------------------------------------------------------------------------------------------
namespace {

using DirectionalPlanner = GridWorldPlanner<DirectionalSearch, DirectionalSearch::Options>;

DirectionalSearch::Options options_from(const ParamSet& ps) {
  DirectionalSearch::Options o;
  o.headings = ps.get("headings") == "16" ? 16 : 8;
  const std::string& nb = ps.get("neighbours");
  o.neighbours = nb == "8" ? 8 : nb == "48" ? 48 : 24;
  o.heuristic = ps.get("heuristic") == "article" ? DirectionalSearch::Heuristic::Article
                                                  : DirectionalSearch::Heuristic::Max;
  o.goal_heading_free = ps.get("goal_heading") == "free";
  o.turn_penalty = ps.get_double("turn_penalty");
  o.square = ps.get("footprint") == "square";
  o.words = ps.get("words") == "csc" ? DubinsWords::Csc : DubinsWords::All;
  const std::string& rv = ps.get("reverse");
  o.reverse = rv == "yes" ? DirectionalSearch::Options::Reverse::Yes
              : rv == "no" ? DirectionalSearch::Options::Reverse::No
                           : DirectionalSearch::Options::Reverse::Agent;
  o.reverse_penalty = ps.get_double("reverse_penalty");
  o.show_mask = ps.get_bool("show_mask");
  o.mask_from = ps.get_int("mask_from");
  o.mask_to = ps.get_int("mask_to");
  o.mask_dx = ps.get_int("mask_dx");
  o.mask_dy = ps.get_int("mask_dy");
  return o;
}

void add(Registry& r) {
  r.add({"directional", "turning radius",
         "Directional A* (Pinter 2001): cells x headings, edges are the shortest Dubins curves to "
         "cells 1-3 rings away, legal only when the agent's footprint swept along them hits no "
         "blocked cell (hit-check tables per heading pair and offset)",
         false,
         {ParamDesc::choice("neighbours", "Cells tried from each node: 8 (1 ring), 24 (2), 48 (3)",
                            {"8", "24", "48"}, "24")
              .labelled("neighbour cells"),
          ParamDesc::choice("headings", "Headings per cell", {"8", "16"}, "8"),
          ParamDesc::choice("heuristic",
                            "max: the larger of the obstacle-free curve and an obstacle-aware 2D "
                            "distance; article: Pinter's arc-then-line to the goal point",
                            {"max", "article"}, "max"),
          ParamDesc::choice("goal_heading",
                            "fixed: arrive facing the goal heading (nearest of the k); free: any",
                            {"fixed", "free"}, "fixed")
              .labelled("goal heading"),
          ParamDesc::real("turn_penalty", "Extra cost per radian turned", 0, 100, "0")
              .labelled("turn penalty"),
          ParamDesc::choice("footprint",
                            "disc: a disc of the agent's radius; square: an axis-aligned square "
                            "of the agent's size, centred on the path",
                            {"disc", "square"}, "disc"),
          ParamDesc::choice("words", "Dubins words: all six, or Pinter's four CSC words",
                            {"all", "csc"}, "all")
              .labelled("Dubins words"),
          ParamDesc::choice("reverse",
                            "Edges driven backwards too: agent = when the agent can reverse, yes, no",
                            {"agent", "yes", "no"}, "agent"),
          ParamDesc::real("reverse_penalty", "Cost factor of an edge driven backwards", 1, 100, "2")
              .labelled("reverse penalty"),
          ParamDesc::boolean("show_mask",
                             "Before searching, show the hit-check mask of one table entry "
                             "(start heading, end heading, offset) at the start cell: its curve, "
                             "the cells it marks as hit, and which of them are blocked there",
                             "false")
              .labelled("show hit-check mask"),
          ParamDesc::integer("mask_from", "Mask: start heading index (0 = east, clockwise)", 0, 15, "0")
              .labelled("mask start heading"),
          ParamDesc::integer("mask_to", "Mask: end heading index", 0, 15, "1").labelled("mask end heading"),
          ParamDesc::integer("mask_dx", "Mask: offset to the end cell, x", -3, 3, "2").labelled("mask dx"),
          ParamDesc::integer("mask_dy", "Mask: offset to the end cell, y", -3, 3, "1").labelled("mask dy"),
          circles_param()},
         [](const ParamSet& ps) {
           return std::make_unique<DirectionalPlanner>(GridWorld(ps), options_from(ps));
         },
         AgentInput::Capability | AgentInput::Size | AgentInput::Radius |
             AgentInput::TurningRadius | AgentInput::Headings | AgentInput::Reverse});
}

const PlannerRegistration kRegistration(60, add);

}  // namespace

}  // namespace pl

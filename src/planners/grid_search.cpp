#include "planners/grid_search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <queue>
#include <string>

namespace pl {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct NoObserve {
  static constexpr bool kActive = false;
  StepReporter* o = nullptr;
};
struct Observe {
  static constexpr bool kActive = true;
  StepReporter* o = nullptr;
};

// Neighbour order: 4 cardinals first (E, S, W, N), then diagonals (SE, SW, NW, NE).
constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

bool cell_of(const GridMap& map, const Pose& p, int& x, int& y) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  const double fx = std::floor(p.x), fy = std::floor(p.y);
  if (fx < 0 || fy < 0 || fx >= map.width() || fy >= map.height()) return false;
  x = static_cast<int>(fx);
  y = static_cast<int>(fy);
  return true;
}

std::string cell_text(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}


// Why a query endpoint is unusable, for the result message.
std::string blocked_reason(const GridMap& map, const Query& q, const char* which, int x, int y,
                           bool annotated) {
  const Terrain& t = map.palette()[map.at(x, y)];
  std::string s = std::string(which) + " " + cell_text(x, y) + " is not traversable: ";
  if (!(q.capability >> map.at(x, y) & 1u))
    return s + "terrain '" + t.name + "' is outside the capability";
  if (annotated) return s + "clearance is below the agent size " + std::to_string(q.size);
  return s + "blocked";
}

}  // namespace

// Turns a list of cell centres into points with headings and straight pieces (collinear steps
// merged into one piece).
void fill_cell_path(PlanResult& r, const std::vector<Vec2>& cells) {
  r.points.clear();
  r.pieces.clear();
  const size_t n = cells.size();
  for (size_t i = 0; i < n; ++i) {
    Vec2 d = i + 1 < n ? cells[i + 1] - cells[i] : (i > 0 ? cells[i] - cells[i - 1] : Vec2{1, 0});
    r.points.push_back({cells[i].x, cells[i].y, std::atan2(d.y, d.x)});
  }
  for (size_t i = 0; i + 1 < n;) {
    size_t j = i + 1;
    const Vec2 d = cells[j] - cells[i];
    while (j + 1 < n && cells[j + 1] - cells[j] == d) ++j;
    PathPiece p;
    p.kind = PathPiece::Kind::Line;
    p.line = {cells[i], cells[j]};
    r.pieces.push_back(p);
    i = j;
  }
}

size_t GridSearch::memory_bytes() const {
  return nodes_.capacity() * sizeof(Node) + pos_.capacity() * sizeof(std::int32_t) +
         gw_.capacity() * sizeof(double) +
         heap_.capacity() * sizeof(HeapEntry) +
         pass_.capacity() + cost_.capacity() * sizeof(float) + clearance_.memory_bytes();
}

void GridSearch::prepare(const GridMap& map, const Query& q, const Options& opt) {
  const int size = opt.annotated ? q.size : 1;
  if (map.uid() == map_uid_ && map.version() == map_version_ && q.capability == cap_ &&
      size == size_ && opt.annotated == annotated_ && opt.metric == metric_)
    return;
  map_uid_ = map.uid();
  map_version_ = map.version();
  cap_ = q.capability;
  size_ = size;
  annotated_ = opt.annotated;
  metric_ = opt.metric;
  const int w = map.width(), h = map.height();
  pw_ = w + 2;
  ph_ = h + 2;
  pass_.assign(size_t(pw_) * ph_, 0);
  const auto& cells = map.cells();
  if (opt.annotated) {
    const ClearanceGrid& cl = clearance_.get(map, q.capability, opt.metric);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        pass_[size_t(y + 1) * pw_ + x + 1] = cl[size_t(y) * w + x] >= size;
  } else {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        pass_[size_t(y + 1) * pw_ + x + 1] = (q.capability >> cells[size_t(y) * w + x]) & 1u;
  }
  const Palette& pal = map.palette();
  uniform_ = pal.uniform_costs();
  min_cost_ = uniform_ ? 1.0 : pal.min_cost(q.capability);
  cost_.clear();
  if (!uniform_) {
    cost_.assign(size_t(pw_) * ph_, 1.0f);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        cost_[size_t(y + 1) * pw_ + x + 1] = static_cast<float>(pal[cells[size_t(y) * w + x]].cost);
  }
  if (nodes_.size() != pass_.size()) {
    nodes_.assign(pass_.size(), Node{0, 0, kNoNode, 0});
    pos_.assign(pass_.size(), kNotQueued);
    gw_.clear();
    search_id_ = 0;
  }
}

PlanResult GridSearch::run(const GridMap& map, const Query& query, const Options& opt,
                           const RunContext& ctx) {
  const auto t0 = std::chrono::steady_clock::now();
  Query q = query;
  if (q.capability == 0) q.capability = map.palette().movingai_default_capability();
  if (q.size < 1) q.size = 1;
  PlanResult r;
  int sx, sy, gx, gy;
  if (!cell_of(map, q.start, sx, sy) || !cell_of(map, q.goal, gx, gy)) {
    r.message = cell_of(map, q.start, sx, sy) ? "goal is outside the map" : "start is outside the map";
    r.time_ms = elapsed_ms(t0);
    return r;
  }
  prepare(map, q, opt);
  const auto pad = [&](int x, int y) { return size_t(y + 1) * pw_ + x + 1; };
  const bool start_ok = pass_[pad(sx, sy)] != 0, goal_ok = pass_[pad(gx, gy)] != 0;
  if (!start_ok || !goal_ok) {
    r.message = !start_ok ? blocked_reason(map, q, "start", sx, sy, opt.annotated)
                          : blocked_reason(map, q, "goal", gx, gy, opt.annotated);
    if (ctx.observer) {  // show the user which endpoint is unusable
      ctx.observer->phase("check endpoints");
      ctx.observer->test(Shape::cell(sx, sy), start_ok);
      ctx.observer->test(Shape::cell(gx, gy), goal_ok);
      ctx.observer->frame();
    }
  } else {
    NoObserve none;
    StepReporter reporter(ctx.observer);
    Observe some{&reporter};
    if (ctx.observer)
      r = uniform_ ? search<Observe, true>(map, q, opt, ctx, some)
                   : search<Observe, false>(map, q, opt, ctx, some);
    else
      r = uniform_ ? search<NoObserve, true>(map, q, opt, ctx, none)
                   : search<NoObserve, false>(map, q, opt, ctx, none);
  }
  r.memory_bytes = memory_bytes();
  r.time_ms = elapsed_ms(t0);
  return r;
}

template <class Obs, bool kUniform>
PlanResult GridSearch::search(const GridMap& map, const Query& q, const Options& opt,
                              const RunContext& ctx, Obs obs) {
  PlanResult r;
  const int w = map.width();
  const int pw = pw_;
  const int sx = int(std::floor(q.start.x)), sy = int(std::floor(q.start.y));
  const int gx = int(std::floor(q.goal.x)), gy = int(std::floor(q.goal.y));
  const std::uint32_t start = std::uint32_t((sy + 1) * pw + sx + 1);
  const std::uint32_t goal = std::uint32_t((gy + 1) * pw + gx + 1);
  const std::uint8_t* pass = pass_.data();
  const float* cost = kUniform ? nullptr : cost_.data();
  if constexpr (!kUniform) gw_.resize(nodes_.size());
  double* gw = kUniform ? nullptr : gw_.data();
  Node* nodes = nodes_.data();
  std::int32_t* pos = pos_.data();
  const bool eight = opt.eight_connected;
  const bool use_h = opt.heuristic;
  int off[8];
  for (int d = 0; d < 8; ++d) off[d] = kDy[d] * pw + kDx[d];

  // New search number; on wrap-around, clear the pool once.
  if (++search_id_ == 0) {
    for (auto& n : nodes_) n.search = 0;
    search_id_ = 1;
  }
  const std::uint32_t sid = search_id_;

  // With uniform costs, g and h are kept as exact counts of straight and diagonal moves:
  // cost = straight + diagonal * sqrt(2) is then the same double for the same counts, so equal
  // f values really compare equal and ties break as specified (toward larger g).
  auto value = [](std::uint32_t straight, std::uint32_t diagonal) {
    return double(straight) + double(diagonal) * kSqrt2;
  };
  auto h_counts = [&](int x, int y, std::uint32_t& hs, std::uint32_t& hd) {
    const int dx = std::abs(x - gx), dy = std::abs(y - gy);
    if (!use_h) {
      hs = hd = 0;
    } else if (eight) {
      const int mn = std::min(dx, dy);
      hs = std::uint32_t(std::max(dx, dy) - mn);
      hd = std::uint32_t(mn);
    } else {
      hs = std::uint32_t(dx + dy);
      hd = 0;
    }
  };
  const double hscale = min_cost_;
  auto h_weighted = [&](int x, int y) -> double {
    std::uint32_t hs, hd;
    h_counts(x, y, hs, hd);
    return hscale * value(hs, hd);
  };
  auto g_of = [&](std::uint32_t p) -> double {
    if constexpr (kUniform) return value(nodes[p].gs, nodes[p].gd);
    else return gw[p];
  };
  auto desc_at = [&](int x, int y) {
    NodeDesc d;
    d.id = std::uint32_t(y * w + x);
    d.x = float(x + 0.5);
    d.y = float(y + 0.5);
    return d;
  };

  // Binary min-heap on (f, then smaller h = larger g), with positions kept in pos_ for
  // decrease-key. `less` drives the loops whose branch predicts well; `less_bits` is the same
  // order without branches, for the child choice that is a coin toss.
  auto less = [](const HeapEntry& a, const HeapEntry& b) {
    return a.f < b.f || (a.f == b.f && a.h < b.h);
  };
  auto less_bits = [](const HeapEntry& a, const HeapEntry& b) {
    return int(a.f < b.f) | (int(a.f == b.f) & int(a.h < b.h));
  };
  HeapEntry* heap = heap_.data();
  std::int32_t heap_size = 0;
  auto sift_up = [&](std::int32_t i, HeapEntry e) {
    while (i > 0) {
      const std::int32_t up = (i - 1) >> 1;
      if (!less(e, heap[up])) break;
      heap[i] = heap[up];
      pos[heap[i].node] = i;
      i = up;
    }
    heap[i] = e;
    pos[e.node] = i;
  };
  auto push = [&](HeapEntry e) {
    if (std::size_t(heap_size) == heap_.size()) {
      heap_.resize(std::max<std::size_t>(1024, heap_.size() * 2));
      heap = heap_.data();
    }
    sift_up(heap_size++, e);
  };
  // Pop, bottom-up (Floyd): the hole left by the top walks down to a leaf along the smaller
  // children, chosen without branches, and the last entry is then sifted up from there. The
  // usual early-exit test mispredicts about half the time; the last entry is nearly always
  // large, so the sift up is short.
  auto pop = [&]() -> HeapEntry {
    const HeapEntry top = heap[0];
    const HeapEntry last = heap[--heap_size];
    const std::int32_t n = heap_size;
    if (n > 0) {
      std::int32_t i = 0;
      for (;;) {
        std::int32_t c = 2 * i + 1;
        if (c >= n) break;
        c += std::int32_t((c + 1 < n) & less_bits(heap[c + 1], heap[c]));
        heap[i] = heap[c];
        pos[heap[i].node] = i;
        i = c;
      }
      sift_up(i, last);
    }
    return top;
  };

  double h_start;
  {
    Node& s = nodes[start];
    s.search = sid;
    s.gs = s.gd = 0;
    s.parent = kNoNode;
    if constexpr (!kUniform) gw[start] = 0;
    h_start = use_h ? h_weighted(sx, sy) : 0.0;
    push({h_start, float(h_start), start});
    if constexpr (Obs::kActive) {
      obs.o->observer()->phase("search");
      obs.o->open(desc_at(sx, sy), kNoNode, 0.0, h_start);
      obs.o->frame();
    }
  }

  // The fast slot holds the best successor whose f is not above the f of the node it came
  // from. Such a successor is provably the open list's minimum under (f, smaller h): every
  // entry has f >= the popped f, and entries with that same f have h >= the popped h, which
  // is larger than the successor's. So it is expanded next without a trip through the heap,
  // and the order of expansions is exactly the heap's. On octile maps most expansions take
  // this path (straight runs toward the goal).
  bool slot_full = false;
  HeapEntry slot{};
  std::uint64_t expanded = 0, generated = 1;
  bool found = false;
  const double h0 = std::max(h_start, 1e-9);
  while (slot_full || heap_size > 0) {
    HeapEntry top;
    if (slot_full) {
      top = slot;
      slot_full = false;
    } else {
      top = pop();
    }
    const std::uint32_t cur = top.node;
    Node& cn = nodes[cur];
    pos[cur] = kClosed;
    ++expanded;
    const int cy = int(cur) / pw - 1, cx = int(cur) % pw - 1;
    [[maybe_unused]] const std::uint32_t cur_id = std::uint32_t(cy * w + cx);
    if constexpr (Obs::kActive) obs.o->close(cur_id);
    if (cur == goal) {
      found = true;
      break;
    }
    if ((expanded & 4095) == 0) {
      if (ctx.cancelled()) {
        r.cancelled = true;
        r.message = "cancelled";
        break;
      }
      if (ctx.progress && use_h)
        ctx.progress->store(float(std::clamp(1.0 - double(top.h) / h0, 0.0, 1.0)),
                            std::memory_order_relaxed);
    }
    const std::uint32_t cgs = cn.gs, cgd = cn.gd;
    const double cg = kUniform ? 0.0 : gw[cur];
    // Moves allowed from here, one bit per direction (no corner cutting: a diagonal needs both
    // cardinal side cells), computed branch-free from the padded passability bytes.
    const std::uint8_t* pc = pass + cur;
    const unsigned e = pc[1], so = pc[pw], we = pc[-1], no = pc[-pw];
    unsigned moves = e | so << 1 | we << 2 | no << 3;
    if (eight) {
      moves |= (pc[pw + 1] & e & so) << 4 | (pc[pw - 1] & we & so) << 5 |
               (pc[-pw - 1] & we & no) << 6 | (pc[-pw + 1] & e & no) << 7;
    }
    while (moves) {
      const int d = __builtin_ctz(moves);
      moves &= moves - 1;
      const std::uint32_t nb = std::uint32_t(int(cur) + off[d]);
      Node& n = nodes[nb];
      bool fresh = false;
      if (n.search != sid) {
        n.search = sid;
        fresh = true;
      } else if (pos[nb] == kClosed) {
        continue;
      }
      // Tentative g, exact counts (uniform) or weighted.
      const std::uint32_t ngs = cgs + (d < 4), ngd = cgd + (d >= 4);
      double ng;
      if constexpr (kUniform) {
        ng = value(ngs, ngd);
        if (!fresh && !(ng < value(n.gs, n.gd))) continue;
        n.gs = ngs;
        n.gd = ngd;
      } else {
        ng = cg + (d < 4 ? 1.0 : kSqrt2) * 0.5 * (double(cost[cur]) + double(cost[nb]));
        if (!fresh && !(ng < gw[nb])) continue;
        gw[nb] = ng;
      }
      n.parent = cur;
      const int nx = cx + kDx[d], ny = cy + kDy[d];
      double f, h;
      if constexpr (kUniform) {
        std::uint32_t hs, hd;
        h_counts(nx, ny, hs, hd);
        f = value(ngs + hs, ngd + hd);
        h = value(hs, hd);
      } else {
        h = use_h ? h_weighted(nx, ny) : 0.0;
        f = ng + h;
      }
      if (fresh) {
        const HeapEntry en{f, float(h), nb};
        if (en.f <= top.f && (!slot_full || less(en, slot))) {
          if (slot_full) push(slot);
          slot = en;
          slot_full = true;
          pos[nb] = kInSlot;
        } else {
          push(en);
        }
        ++generated;
        if constexpr (Obs::kActive) obs.o->open(desc_at(nx, ny), cur_id, ng, h);
      } else {
        if (pos[nb] == kInSlot) {
          slot.f = f;  // unreachable on grids (a node is seen once per expansion); kept exact
        } else {
          sift_up(pos[nb], HeapEntry{f, float(h), nb});
        }
        if constexpr (Obs::kActive) obs.o->relax(std::uint32_t(ny * w + nx), cur_id, ng);
      }
    }
    if constexpr (Obs::kActive) obs.o->frame();
  }
  if constexpr (Obs::kActive) obs.o->flush();

  r.expanded = expanded;
  r.generated = generated;
  r.found = found;
  if (found) {
    r.length = g_of(goal);
    std::vector<Vec2> cells;
    for (std::uint32_t p = goal; p != kNoNode; p = nodes[p].parent)
      cells.push_back({double(int(p) % pw - 1) + 0.5, double(int(p) / pw - 1) + 0.5});
    std::reverse(cells.begin(), cells.end());
    fill_cell_path(r, cells);
    if constexpr (Obs::kActive) {
      obs.o->observer()->counter("expanded", double(expanded));
      obs.o->observer()->path(r.pieces);
      obs.o->observer()->frame();
    }
  } else if (!r.cancelled) {
    r.message = "no path: the goal is not reachable for this agent";
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
PlanResult textbook_astar(const GridMap& map, const Query& query, bool eight_connected,
                          SearchObserver* obs) {
  const auto t0 = std::chrono::steady_clock::now();
  PlanResult r;
  const CapabilityMask cap =
      query.capability ? query.capability : map.palette().movingai_default_capability();
  int sx, sy, gx, gy;
  if (!cell_of(map, query.start, sx, sy) || !cell_of(map, query.goal, gx, gy) ||
      !map.passable(sx, sy, cap) || !map.passable(gx, gy, cap)) {
    r.message = "start or goal is outside the map or blocked";
    r.time_ms = elapsed_ms(t0);
    return r;
  }
  const int w = map.width(), h = map.height();
  const size_t n = size_t(w) * h;
  std::vector<double> g(n, kInf);
  std::vector<int> parent(n, -1);
  std::vector<char> closed(n, 0);
  using Item = std::pair<double, int>;  // (f, cell)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  auto hfun = [&](int x, int y) {
    double dx = std::abs(x - gx), dy = std::abs(y - gy);
    return eight_connected ? octile_distance(dx, dy) : dx + dy;
  };
  const int start = sy * w + sx, goal = gy * w + gx;
  auto desc = [&](int c) {
    NodeDesc d;
    d.id = std::uint32_t(c);
    d.x = float(c % w + 0.5);
    d.y = float(c / w + 0.5);
    return d;
  };
  g[size_t(start)] = 0;
  open.push({hfun(sx, sy), start});
  r.generated = 1;
  if (obs) {
    obs->phase("search");
    obs->open(desc(start), kNoNode, 0.0, hfun(sx, sy));
    obs->frame();
  }
  const int ndirs = eight_connected ? 8 : 4;
  while (!open.empty()) {
    auto [f, c] = open.top();
    open.pop();
    if (closed[size_t(c)]) continue;  // stale entry (lazy deletion)
    closed[size_t(c)] = 1;
    ++r.expanded;
    if (obs) obs->close(std::uint32_t(c));
    if (c == goal) {
      r.found = true;
      break;
    }
    const int cx = c % w, cy = c / w;
    for (int d = 0; d < ndirs; ++d) {
      const int nx = cx + kDx[d], ny = cy + kDy[d];
      if (!map.passable(nx, ny, cap)) continue;
      if (d >= 4 && (!map.passable(cx + kDx[d], cy, cap) || !map.passable(cx, cy + kDy[d], cap)))
        continue;
      const int nb = ny * w + nx;
      const double ng = g[size_t(c)] + (d < 4 ? 1.0 : kSqrt2);
      if (ng < g[size_t(nb)]) {
        const bool fresh = g[size_t(nb)] == kInf;
        g[size_t(nb)] = ng;
        parent[size_t(nb)] = c;
        open.push({ng + hfun(nx, ny), nb});
        if (fresh) ++r.generated;
        if (obs) {
          if (fresh)
            obs->open(desc(nb), std::uint32_t(c), ng, hfun(nx, ny));
          else
            obs->relax(std::uint32_t(nb), std::uint32_t(c), ng);
        }
      }
    }
    if (obs) obs->frame();
  }
  if (r.found) {
    r.length = g[size_t(goal)];
    std::vector<Vec2> cells;
    for (int p = goal; p != -1; p = parent[size_t(p)])
      cells.push_back({p % w + 0.5, p / w + 0.5});
    std::reverse(cells.begin(), cells.end());
    fill_cell_path(r, cells);
    if (obs) {
      obs->counter("expanded", double(r.expanded));
      obs->path(r.pieces);
      obs->frame();
    }
  } else {
    r.message = "no path: the goal is not reachable for this agent";
  }
  r.memory_bytes = n * (sizeof(double) + sizeof(int) + 1) + open.size() * sizeof(Item);
  r.time_ms = elapsed_ms(t0);
  return r;
}

}  // namespace pl

#include "planners/subgoal_graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <queue>

namespace pl {

namespace {

OctileCost octile_counts(int dx, int dy) {
  dx = std::abs(dx);
  dy = std::abs(dy);
  const int mn = std::min(dx, dy);
  return {std::uint32_t(std::max(dx, dy) - mn), std::uint32_t(mn)};
}

}  // namespace

bool SubgoalGraph::usable(int x, int y) const {
  if (x < 0 || y < 0 || x >= vw_ || y >= vh_) return false;
  if (form_ == Form::Cells) return !cg_.blocked(x, y);
  // A corner with an open cell around it.
  return !cg_.blocked(x - 1, y - 1) || !cg_.blocked(x, y - 1) || !cg_.blocked(x - 1, y) ||
         !cg_.blocked(x, y);
}

void SubgoalGraph::build(
    Form form, int w, int h, std::span<const std::uint8_t> blocked, int max_levels,
    const std::function<void(std::uint32_t, std::uint32_t, std::uint32_t)>& on_added) {
  form_ = form;
  w_ = w;
  h_ = h;
  vw_ = form == Form::Cells ? w : w + 1;
  vh_ = form == Form::Cells ? h : h + 1;
  pw_ = vw_ + 2;
  for (int d = 0; d < 8; ++d) off8_[d] = std::ptrdiff_t(kDx[d]) + std::ptrdiff_t(kDy[d]) * pw_;
  stats_ = {};
  // The blocked cells as a CornerGrid in both forms: its padded lookups serve the cells form
  // too, and the corners form needs its moves and line of sight.
  cg_ = CornerGrid(w, h, blocked);
  const std::size_t np = std::size_t(pw_) * std::size_t(vh_ + 2);

  Stopwatch t_sub;
  v_.assign(np, Vertex{{0, 0, 0, 0}, kNoNode, 0});
  // The moves as geometry allows them, before the rule that a pinch corner is never entered
  // (the same as the moves in the cells form): a vertex whose way on bends around a pinch corner
  // (a path that starts there, say) is a convex corner of it.
  std::vector<std::uint8_t> raw(np, 0);
  for (int y = 0; y < vh_; ++y)
    for (int x = 0; x < vw_; ++x) {
      std::uint8_t m = 0;
      for (int d = 0; d < 8; ++d) {
        const int tx = x + kDx[d], ty = y + kDy[d];
        bool ok;
        if (form == Form::Cells) {
          ok = !cg_.blocked(x, y) && tx >= 0 && ty >= 0 && tx < vw_ && ty < vh_ &&
               !cg_.blocked(tx, ty) && !cg_.blocked(tx, y) && !cg_.blocked(x, ty);
        } else {
          ok = cg_.in_corners(tx, ty) && cg_.step_ok(x, y, kDx[d], kDy[d]);
          if (ok) raw[pidx(x, y)] = std::uint8_t(raw[pidx(x, y)] | (1u << d));
          ok = ok && !cg_.pinch(tx, ty);
        }
        if (ok) m = std::uint8_t(m | (1u << d));
      }
      v_[pidx(x, y)].moves = m;
      if (form == Form::Cells) raw[pidx(x, y)] = m;
    }
  sx_.clear();
  sy_.clear();
  spos_.clear();
  for (int y = 0; y < vh_; ++y)
    for (int x = 0; x < vw_; ++x) {
      const std::size_t p = pidx(x, y);
      if (form == Form::Corners && cg_.pinch(x, y)) continue;
      bool sub = false;
      for (int q = 0; q < 4 && !sub; ++q)
        sub = ((raw[p] >> kCa[q]) & 1u) && ((raw[p] >> kCb[q]) & 1u) && !can(p, 4 + q);
      // Corners form: a corner where exactly two blocked cells touch diagonally is a point no
      // path passes between two open cells, an obstacle without cells of its own; its open
      // neighbours are where paths bend around it. (A corner with three blocked cells is a
      // pinch too, but nothing could pass through it anyway.)
      if (form == Form::Corners && !sub && v_[p].moves != 0)
        for (int d = 0; d < 8 && !sub; ++d) {
          const int nx = x + kDx[d], ny = y + kDy[d];
          sub = cg_.in_corners(nx, ny) && cg_.pinch(nx, ny) &&
                int(cg_.blocked(nx - 1, ny - 1)) + int(cg_.blocked(nx, ny - 1)) +
                        int(cg_.blocked(nx - 1, ny)) + int(cg_.blocked(nx, ny)) == 2;
        }
      if (!sub) continue;
      v_[p].sub = std::uint32_t(sx_.size());
      sx_.push_back(x);
      sy_.push_back(y);
      spos_.push_back(std::uint32_t(p));
    }
  // Clearances: legal straight moves onto vertices that are not subgoals, swept so that the
  // next vertex in the direction is done first.
  for (int c = 0; c < 4; ++c) {
    const int dx = kDx[c], dy = kDy[c];
    const int y0 = dy > 0 ? vh_ - 1 : 0, y1 = dy > 0 ? -1 : vh_, ys = dy > 0 ? -1 : 1;
    const int x0 = dx > 0 ? vw_ - 1 : 0, x1 = dx > 0 ? -1 : vw_, xs = dx > 0 ? -1 : 1;
    for (int y = y0; y != y1; y += ys)
      for (int x = x0; x != x1; x += xs) {
        const std::size_t p = pidx(x, y);
        if (!can(p, c)) continue;
        const std::size_t n = p + std::size_t(off8_[c]);
        if (is_sub(n)) continue;
        v_[p].clear[c] = std::uint16_t(std::min<std::uint32_t>(65535u, 1u + v_[n].clear[c]));
      }
  }
  build_diagonal_steps();
  stats_.subgoals_ms = t_sub.ms();

  // S_1: every direct-h-reachable pair, made symmetric (the programme walks diagonals first, so
  // each side finds the other; symmetrising guards against a route found from one side only).
  Stopwatch t_edges;
  const std::uint32_t n = size();
  std::vector<std::vector<Edge>> adj(n);
  for (std::uint32_t s = 0; s < n; ++s) {
    direct_h_reachable(sx_[s], sy_[s], [&](std::uint32_t t, OctileCost oc) {
      if (t == s) return;
      double len = oc.value();
      if (form == Form::Corners) {
        if (!cg_.visible(sx_[s], sy_[s], sx_[t], sy_[t])) {
          ++stats_.rejected_no_sight;
          return;
        }
        len = std::hypot(double(sx_[t] - sx_[s]), double(sy_[t] - sy_[s]));
      }
      adj[s].push_back({t, kNoNode, oc, len});
      adj[t].push_back({s, kNoNode, oc, len});
    });
  }
  for (auto& a : adj) {
    std::sort(a.begin(), a.end(), [](const Edge& e, const Edge& f) { return e.to < f.to; });
    a.erase(std::unique(a.begin(), a.end(), [](const Edge& e, const Edge& f) { return e.to == f.to; }),
            a.end());
    stats_.base_edges += a.size();
  }
  stats_.base_edges /= 2;
  stats_.edges_ms = t_edges.ms();

  level_.assign(n, 1);
  rank_.assign(n, kTopRank);
  Stopwatch t_part;
  if (max_levels != 1 && n > 0) partition(max_levels, on_added, adj);
  stats_.partition_ms = t_part.ms();

  // Flatten; each list with ascending edges first (to higher rank), the order a query wants.
  off_.assign(std::size_t(n) + 1, 0);
  edges_.clear();
  for (std::uint32_t s = 0; s < n; ++s) {
    auto& a = adj[s];
    std::stable_sort(a.begin(), a.end(), [&](const Edge& e, const Edge& f) {
      return rank_[e.to] > rank_[f.to];
    });
    off_[s] = std::uint32_t(edges_.size());
    edges_.insert(edges_.end(), a.begin(), a.end());
  }
  off_[n] = std::uint32_t(edges_.size());
  edges_.shrink_to_fit();
  up_off_.assign(std::size_t(n) + 1, 0);
  up_to_.clear();
  up_oc_.clear();
  up_w_.clear();
  for (std::uint32_t s = 0; s < n; ++s) {
    up_off_[s] = std::uint32_t(up_to_.size());
    for (const Edge& e : edges(s)) {
      if (top(s) ? !top(e.to) : rank_[e.to] <= rank_[s]) break;
      up_to_.push_back(e.to);
      if (form == Form::Cells) up_oc_.push_back(e.oc);
      else up_w_.push_back(e.w);
    }
  }
  up_off_[n] = std::uint32_t(up_to_.size());
  up_to_.shrink_to_fit();
  up_oc_.shrink_to_fit();
  up_w_.shrink_to_fit();
  // Corners form: the ascending arcs of the lower levels reversed, per target (a counting
  // sort, sources in id order), for Theta*'s descent into the goal's side.
  down_off_.assign(form == Form::Corners ? std::size_t(n) + 1 : 0, 0);
  down_from_.clear();
  down_w_.clear();
  if (form == Form::Corners) {
    for (std::uint32_t s = 0; s < n; ++s)
      if (!top(s))
        for (std::uint32_t k = up_off_[s]; k < up_off_[s + 1]; ++k) ++down_off_[up_to_[k] + 1];
    for (std::uint32_t t = 0; t < n; ++t) down_off_[t + 1] += down_off_[t];
    down_from_.resize(down_off_[n]);
    down_w_.resize(down_off_[n]);
    std::vector<std::uint32_t> fill(down_off_.begin(), down_off_.end() - 1);
    for (std::uint32_t s = 0; s < n; ++s)
      if (!top(s))
        for (std::uint32_t k = up_off_[s]; k < up_off_[s + 1]; ++k) {
          const std::uint32_t at = fill[up_to_[k]]++;
          down_from_[at] = s;
          down_w_[at] = up_w_[k];
        }
  }
  build_landmarks(form == Form::Corners);
  // Cells form, for refining a path without searching edge lists or walking moves: per edge,
  // whether its route goes diagonals first from either end, and for a partitioning edge the
  // edges of its two halves (the shortest edge joining each pair, as find_edge() picks).
  order_.assign(form == Form::Cells ? edges_.size() : 0, 0);
  halves_.assign(form == Form::Cells ? 2 * edges_.size() : 0, kNoNode);
  if (form == Form::Cells)
    for (std::uint32_t s = 0; s < n; ++s)
      for (std::uint32_t e = off_[s]; e < off_[s + 1]; ++e) {
        const Edge& edge = edges_[e];
        if (edge.via == kNoNode) {
          const std::uint32_t t = edge.to;
          order_[e] = std::uint8_t((diagonal_first(x(s), y(s), x(t), y(t)) ? 1 : 0) |
                                   (diagonal_first(x(t), y(t), x(s), y(s)) ? 2 : 0));
          continue;
        }
        const Edge* h0 = find_edge(s, edge.via);
        const Edge* h1 = find_edge(edge.via, edge.to);
        halves_[2 * std::size_t(e)] = h0 ? std::uint32_t(h0 - edges_.data()) : kNoNode;
        halves_[2 * std::size_t(e) + 1] = h1 ? std::uint32_t(h1 - edges_.data()) : kNoNode;
      }
}

void SubgoalGraph::build_landmarks(bool corners_form) {
  const std::uint32_t n = size();
  lm_.clear();
  lmd_.clear();
  if (n == 0) return;
  if (corners_form)
    lm_.assign(std::size_t(n) * kLandmarks, kFar);
  else
    lmd_.assign(std::size_t(n) * kLandmarks, double(kFar));
  // Farthest-first: the first landmark is the subgoal farthest from subgoal 0, each next one the
  // subgoal farthest from every landmark so far (its smallest distance to them largest).
  // Subgoals no landmark reaches so far (another component) count as farthest, so every
  // component of some size gets one.
  std::vector<double> dist(n), nearest(n, std::numeric_limits<double>::infinity());
  using QE = std::pair<double, std::uint32_t>;
  std::priority_queue<QE, std::vector<QE>, std::greater<QE>> pq;
  auto dijkstra = [&](std::uint32_t src) {
    std::fill(dist.begin(), dist.end(), std::numeric_limits<double>::infinity());
    dist[src] = 0;
    pq.push({0.0, src});
    while (!pq.empty()) {
      const auto [d, u] = pq.top();
      pq.pop();
      if (d > dist[u]) continue;
      for (const Edge& e : edges(u))
        if (d + e.w < dist[e.to]) {
          dist[e.to] = d + e.w;
          pq.push({dist[e.to], e.to});
        }
    }
  };
  auto farthest = [&](const std::vector<double>& d) {
    std::uint32_t best = 0;
    for (std::uint32_t s = 1; s < n; ++s)
      if (d[s] > d[best]) best = s;
    return best;
  };
  dijkstra(0);
  std::uint32_t next = farthest(dist);
  for (int l = 0; l < kLandmarks; ++l) {
    dijkstra(next);
    for (std::uint32_t s = 0; s < n; ++s) {
      const std::size_t at = std::size_t(s) * kLandmarks + std::size_t(l);
      if (corners_form)
        lm_[at] = dist[s] < kFar ? float(dist[s]) : kFar;
      else
        lmd_[at] = dist[s] < kFar ? dist[s] : double(kFar);
      nearest[s] = std::min(nearest[s], dist[s]);
    }
    next = farthest(nearest);
  }
}

void SubgoalGraph::partition(
    int max_levels, const std::function<void(std::uint32_t, std::uint32_t, std::uint32_t)>& on_added,
    std::vector<std::vector<Edge>>& adj) {
  const std::uint32_t n = size();
  std::vector<std::uint8_t> removed(n, 0);
  // Witness searches: Dijkstra from a neighbour, around the candidate, bounded by the longest
  // way through it and by a number of settled nodes (when the bound is hit the pair counts as
  // unwitnessed: a shortcut too many, never one too few).
  std::vector<double> dist(n, 0);
  std::vector<std::uint32_t> seen(n, 0), target(n, 0);
  std::uint32_t stamp = 0, tstamp = 0;
  using QE = std::pair<double, std::uint32_t>;
  std::priority_queue<QE, std::vector<QE>, std::greater<QE>> pq;
  constexpr int kSettleLimit = 256;
  constexpr std::size_t kMaxDegree = 32;
  constexpr double kEps = 1e-9;
  std::uint32_t next_rank = 0;
  int round = 0;
  struct Need {
    std::uint32_t a, b;
    OctileCost oc;
    double w;
  };
  std::vector<Need> need;
  std::vector<Edge> nb;
  std::vector<std::uint32_t> order;
  // A subgoal that stayed is tried again only when its neighbourhood changed since (a
  // neighbour was removed): otherwise it would fail the same way.
  std::vector<std::uint8_t> dirty(n, 1);
  for (;;) {
    ++round;
    order.clear();
    for (std::uint32_t s = 0; s < n; ++s)
      if (!removed[s] && dirty[s]) order.push_back(s);
    for (std::uint32_t s : order) dirty[s] = 0;
    auto degree = [&](std::uint32_t s) {
      std::size_t d = 0;
      for (const Edge& e : adj[s]) d += removed[e.to] ? 0 : 1;
      return d;
    };
    std::vector<std::size_t> deg(n, 0);
    for (std::uint32_t s : order) deg[s] = degree(s);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return deg[a] < deg[b]; });
    std::size_t removed_now = 0;
    for (std::uint32_t s : order) {
      nb.clear();
      for (const Edge& e : adj[s])
        if (!removed[e.to]) nb.push_back(e);
      if (nb.size() > kMaxDegree) continue;
      need.clear();
      bool ok = true;
      for (std::size_t i = 0; i < nb.size() && ok; ++i) {
        double bound = 0;
        for (std::size_t j = i + 1; j < nb.size(); ++j) bound = std::max(bound, nb[i].w + nb[j].w);
        if (i + 1 == nb.size()) break;
        // Dijkstra from nb[i] without s.
        ++stamp;
        while (!pq.empty()) pq.pop();
        pq.push({0.0, nb[i].to});
        seen[nb[i].to] = stamp;
        dist[nb[i].to] = 0;
        seen[s] = stamp;
        dist[s] = -1;  // excluded
        // Stops when every later neighbour is settled (the targets), or at the bounds.
        ++tstamp;
        std::size_t targets = 0;
        for (std::size_t j = i + 1; j < nb.size(); ++j)
          if (target[nb[j].to] != tstamp) target[nb[j].to] = tstamp, ++targets;
        int settled = 0;
        while (!pq.empty() && settled < kSettleLimit && targets > 0) {
          const auto [d, u] = pq.top();
          pq.pop();
          if (d > dist[u] + kEps || d > bound + kEps) continue;
          ++settled;
          if (target[u] == tstamp) {
            target[u] = 0;
            --targets;
          }
          for (const Edge& e : adj[u]) {
            if (removed[e.to] || e.to == s) continue;
            const double nd = d + e.w;
            if (nd > bound + kEps) continue;
            if (seen[e.to] != stamp || nd < dist[e.to]) {
              seen[e.to] = stamp;
              dist[e.to] = nd;
              pq.push({nd, e.to});
            }
          }
        }
        for (std::size_t j = i + 1; j < nb.size(); ++j) {
          const std::uint32_t b = nb[j].to;
          const double via = nb[i].w + nb[j].w;
          if (seen[b] == stamp && dist[b] <= via * (1 + kEps)) continue;
          const std::uint32_t a = nb[i].to;
          const OctileCost oc = nb[i].oc + nb[j].oc;
          if (form_ == Form::Cells) {
            const OctileCost h = octile_counts(sx_[b] - sx_[a], sy_[b] - sy_[a]);
            if (h.straight != oc.straight || h.diagonal != oc.diagonal) {
              ok = false;
              break;
            }
            need.push_back({a, b, oc, oc.value()});
          } else {
            if (!cg_.visible(sx_[a], sy_[a], sx_[b], sy_[b])) {
              ok = false;
              break;
            }
            need.push_back({a, b, oc, std::hypot(double(sx_[b] - sx_[a]), double(sy_[b] - sy_[a]))});
          }
        }
      }
      if (!ok) continue;
      for (const Need& e : need) {
        adj[e.a].push_back({e.b, s, e.oc, e.w});
        adj[e.b].push_back({e.a, s, e.oc, e.w});
        ++stats_.added_edges;
        if (on_added) on_added(e.a, e.b, s);
      }
      removed[s] = 1;
      for (const Edge& e : nb) dirty[e.to] = 1;
      level_[s] = std::uint8_t(std::min(round, 254));
      rank_[s] = next_rank++;
      ++removed_now;
    }
    const bool all_gone = std::all_of(removed.begin(), removed.end(), [](std::uint8_t r) { return r != 0; });
    if (removed_now == 0 || all_gone || (max_levels > 0 && round + 1 >= max_levels) || round >= 250) {
      // Nothing removed this round: the rest are level `round`; else they form level round + 1.
      const int top = removed_now == 0 ? round : round + 1;
      for (std::uint32_t s = 0; s < n; ++s)
        if (!removed[s]) level_[s] = std::uint8_t(top);
      stats_.levels = all_gone ? round : top;
      break;
    }
  }
}

bool SubgoalGraph::direct_route(int x0, int y0, int x1, int y1) const {
  const int dx = x1 - x0, dy = y1 - y0;
  if (dx == 0 && dy == 0) return true;
  const int ax = std::abs(dx), ay = std::abs(dy);
  const int i = std::min(ax, ay), k = std::max(ax, ay) - i;
  const int c = ax > ay ? (dx > 0 ? 0 : 2) : (dy > 0 ? 1 : 3);
  int d = 4;
  for (int q = 0; q < 4; ++q)
    if (kDx[4 + q] == (dx > 0 ? 1 : -1) && kDy[4 + q] == (dy > 0 ? 1 : -1)) d = 4 + q;
  std::size_t p = pidx(x0, y0);
  std::uint32_t m = v_[p].clear[c];
  for (int s = 0; s < i; ++s) {
    if (!can(p, d)) return false;
    p += std::size_t(off8_[d]);
    if (is_sub(p)) return false;
    m = std::min<std::uint32_t>(m, v_[p].clear[c]);
  }
  return std::uint32_t(k) <= m;
}

void SubgoalGraph::append_route(int x0, int y0, int x1, int y1, std::vector<CellRun>& out) const {
  emit_route(x0, y0, x1, y1, diagonal_first(x0, y0, x1, y1), out);
}

bool SubgoalGraph::diagonal_first(int x0, int y0, int x1, int y1) const {
  const int dx = x1 - x0, dy = y1 - y0;
  const int ax = std::abs(dx), ay = std::abs(dy);
  const int i = std::min(ax, ay), k = std::max(ax, ay) - i;
  const int sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
  const int cx = ax > ay ? sx : 0, cy = ax > ay ? 0 : sy;
  auto dir_of = [](int ddx, int ddy) {
    for (int d = 0; d < 8; ++d)
      if (kDx[d] == ddx && kDy[d] == ddy) return d;
    return 0;
  };
  // Diagonals first from (x0, y0), if every move is legal.
  bool ok = true;
  std::size_t p = pidx(x0, y0);
  if (i > 0) {
    const int dd = dir_of(sx, sy);
    for (int s = 0; s < i && ok; ++s) {
      ok = can(p, dd);
      p += std::size_t(off8_[dd]);
    }
  }
  if (k > 0 && ok) {
    const int dc = dir_of(cx, cy);
    for (int s = 0; s < k && ok; ++s) {
      ok = can(p, dc);
      p += std::size_t(off8_[dc]);
    }
  }
  return ok;
}

void SubgoalGraph::emit_route(int x0, int y0, int x1, int y1, bool diagonal_first,
                              std::vector<CellRun>& out) const {
  const int dx = x1 - x0, dy = y1 - y0;
  const int ax = std::abs(dx), ay = std::abs(dy);
  const int i = std::min(ax, ay), k = std::max(ax, ay) - i;
  const int sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
  const int cx = ax > ay ? sx : 0, cy = ax > ay ? 0 : sy;
  const CellRun diag{sx, sy, std::uint32_t(i)}, straight{cx, cy, std::uint32_t(k)};
  if (diagonal_first) {
    out.push_back(diag);
    out.push_back(straight);
  } else {
    // A pair found from the other side only: diagonals first from (x1, y1), so from (x0, y0)
    // the straight run comes first.
    out.push_back(straight);
    out.push_back(diag);
  }
}

void SubgoalGraph::append_edge_route(std::uint32_t a, std::uint32_t b, std::uint32_t e,
                                     std::vector<CellRun>& out, int depth) const {
  const Edge& edge = edges_[e];
  const bool from_source = edge.to == b;  // a is the end whose list holds the edge
  if (edge.via != kNoNode) {
    const std::uint32_t to_via = halves_[2 * std::size_t(e)],
                        from_via = halves_[2 * std::size_t(e) + 1];
    if (depth < 200 && to_via != kNoNode && from_via != kNoNode) {
      append_edge_route(a, edge.via, from_source ? to_via : from_via, out, depth + 1);
      append_edge_route(edge.via, b, from_source ? from_via : to_via, out, depth + 1);
      return;
    }
    append_route(x(a), y(a), x(b), y(b), out);
    return;
  }
  emit_route(x(a), y(a), x(b), y(b), (order_[e] >> (from_source ? 0 : 1)) & 1u, out);
}

const SubgoalGraph::Edge* SubgoalGraph::find_edge(std::uint32_t s, std::uint32_t t) const {
  // Every edge is an ascending arc of its lower end (both ends' on the top level): its targets
  // are a compact array, shorter than the whole list of 24-byte edges.
  const std::uint32_t lo = rank_[t] < rank_[s] ? t : s, hi = lo == s ? t : s;
  const Edge* best = nullptr;
  for (std::uint32_t k = up_off_[lo]; k < up_off_[lo + 1]; ++k)
    if (up_to_[k] == hi) {
      const Edge& e = up_edge(lo, k);
      if (!best || e.w < best->w) best = &e;
    }
  return best;
}

void SubgoalGraph::build_diagonal_steps() {
  const std::size_t ph = std::size_t(vh_ + 2), pw = std::size_t(pw_);
  // Line starts: line lengths counted over the padded grid, then summed.
  for (int o = 0; o < 2; ++o) dline_[o].assign(pw + ph, 0);
  for (std::size_t Y = 0; Y < ph; ++Y)
    for (std::size_t X = 0; X < pw; ++X) {
      ++dline_[0][X + ph - 1 - Y + 1];
      ++dline_[1][X + Y + 1];
    }
  for (int o = 0; o < 2; ++o)
    for (std::size_t c = 1; c < dline_[o].size(); ++c) dline_[o][c] += dline_[o][c - 1];
  for (int q = 0; q < 4; ++q) {
    const int a = kCa[q], b = kCb[q];
    // Whether the clear run along direction c from p ends at a subgoal (as the walk asks it).
    const auto run_sub = [&](std::size_t p, int c) {
      const std::size_t e = p + std::size_t(std::ptrdiff_t(v_[p].clear[c]) * off8_[c]);
      return can(e, c) && is_sub(e + std::size_t(off8_[c]));
    };
    dg_[q].assign(v_.size(), DiagStep{0, 0, 0});
    for (std::size_t p = 0; p < v_.size(); ++p) {
      std::uint8_t fl = 0;
      if (can(p, 4 + q)) fl |= kStepOn;
      if (is_sub(p)) fl |= kStepSub;
      if (run_sub(p, a)) fl |= kRunASub;
      if (run_sub(p, b)) fl |= kRunBSub;
      dg_[q][diag_index(q, p)] = {v_[p].clear[a], v_[p].clear[b], fl};
    }
  }
}

std::size_t SubgoalGraph::memory_bytes() const {
  std::size_t m =
      v_.capacity() * sizeof(Vertex) + sx_.capacity() * 4 + sy_.capacity() * 4 +
      spos_.capacity() * 4 + level_.capacity() + rank_.capacity() * 4 + off_.capacity() * 4 +
      edges_.capacity() * sizeof(Edge) + (up_off_.capacity() + up_to_.capacity()) * 4 +
      up_oc_.capacity() * sizeof(OctileCost) + up_w_.capacity() * 8 +
      (down_off_.capacity() + down_from_.capacity()) * 4 + down_w_.capacity() * 8 +
      order_.capacity() + halves_.capacity() * 4 + lm_.capacity() * 4 + lmd_.capacity() * 8 + cg_.memory_bytes();
  for (const auto& d : dg_) m += d.capacity() * sizeof(DiagStep);
  for (const auto& l : dline_) m += l.capacity() * 4;
  return m;
}

}  // namespace pl

// Fixed-angle paths (Pinter 2001, Figure 15). See fixed_angle.hpp.
#include "core/fixed_angle.hpp"

#include <algorithm>
#include <cmath>

namespace pl {

namespace {

constexpr double kTiny = 1e-9;  // shorter pieces are dropped
constexpr int kMaxParts = 64;   // finest cut of one line when the corner is blocked

Vec2 unit(double a) {
  return {std::cos(a), std::sin(a)};
}

struct Builder {
  double step;
  const FixedAngleOptions& opt;
  const std::function<bool(Vec2, Vec2)>& clear;
  std::vector<PathPiece> out;
  std::string message;

  bool ok(Vec2 a, Vec2 b) const { return !clear || clear(a, b); }

  void push(Vec2 a, Vec2 b, bool reverse) {
    if (distance(a, b) < kTiny) return;
    PathPiece p;
    p.kind = PathPiece::Kind::Line;
    p.line = {a, b};
    p.reverse = reverse;
    out.push_back(p);
  }
  // Direction of travel of the last piece written, NaN before the first.
  double last_direction() const {
    if (out.empty()) return std::nan("");
    const Segment& s = out.back().line;
    return std::atan2(s.b.y - s.a.y, s.b.x - s.a.x);
  }

  // A to B as straight pieces at legal headings (Figure 15, right). False, with a message, when
  // no split up to kMaxParts parts is clear.
  bool legs(Vec2 a, Vec2 b, bool reverse) {
    const Vec2 d = b - a;
    const double len = std::hypot(d.x, d.y);
    if (len < kTiny) return true;
    const double theta = std::atan2(d.y, d.x);
    const double m = theta / step;
    if (std::abs(m - std::round(m)) < 1e-9 * std::max(1.0, std::abs(m))) {
      if (!ok(a, b)) return fail("segment (" + fmt(a) + ") to (" + fmt(b) + ") is blocked");
      push(a, b, reverse);
      return true;
    }
    const double lo = std::floor(m) * step, hi = lo + step;
    const Vec2 ul = unit(lo), uh = unit(hi);
    const double det = cross(ul, uh);
    const double alpha = cross(d, uh) / det, beta = cross(ul, d) / det;  // d = alpha ul + beta uh
    const double dev = alpha * std::sin(theta - lo);                     // corner to line AB
    int parts = std::max(1, int(std::ceil(dev / std::max(opt.max_deviation, 1e-6) - 1e-12)));
    // Continue the heading already drawn when it is one of the two: one frame change fewer.
    const double prev = last_direction();
    const bool lo_first_pref =
        !std::isfinite(prev) ||
        std::abs(std::remainder(prev - lo, kTwoPi)) <= std::abs(std::remainder(prev - hi, kTwoPi));
    for (; parts <= kMaxParts; parts *= 2) {
      for (int side = 0; side < 2; ++side) {
        const bool lo_first = lo_first_pref != (side == 1);
        const Vec2 first = lo_first ? ul * (alpha / parts) : uh * (beta / parts);
        std::vector<Vec2> pts{a};
        for (int i = 0; i < parts; ++i) {
          const Vec2 base = a + d * (double(i) / parts);
          pts.push_back(base + first);
          pts.push_back(i + 1 == parts ? b : a + d * (double(i + 1) / parts));
        }
        bool all = true;
        for (std::size_t i = 0; all && i + 1 < pts.size(); ++i) all = ok(pts[i], pts[i + 1]);
        if (!all) continue;
        for (std::size_t i = 0; i + 1 < pts.size(); ++i) push(pts[i], pts[i + 1], reverse);
        return true;
      }
      if (!clear) break;  // unreachable: without a test the first try is taken
    }
    return fail("no legal-angle replacement of the line (" + fmt(a) + ") to (" + fmt(b) +
                ") is clear, even cut into " + std::to_string(kMaxParts) + " parts");
  }

  bool fail(std::string why) {
    message = std::move(why);
    return false;
  }
  static std::string fmt(Vec2 p) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f, %.3f", p.x, p.y);
    return buf;
  }

  // Where the ray from the arc's centre at `angle` meets the circumscribed polygon.
  Vec2 project(const Arc& arc, double angle) const {
    const double off = angle - std::round(angle / step) * step;
    return arc.center + unit(angle) * (arc.radius / std::cos(off));
  }
};

}  // namespace

bool legal_heading(double direction, int k, double tolerance) {
  const double step = kTwoPi / k;
  const double r = std::remainder(direction, step);
  return std::abs(r) <= tolerance;
}

FixedAngleResult fixed_angle_path(std::span<const PathPiece> pieces, const FixedAngleOptions& opt,
                                  const std::function<bool(Vec2, Vec2)>& clear) {
  FixedAngleResult res;
  if (opt.headings < 4 || opt.headings % 4 != 0) {
    res.message = "fixed-angle art needs a multiple of 4 headings";
    return res;
  }
  if (pieces.empty()) {
    res.ok = true;
    return res;
  }
  Builder b{kTwoPi / opt.headings, opt, clear, {}, {}};
  const double grow = 1 / std::cos(kPi / opt.headings) - 1;
  double r_max = 0;
  const auto start_of = [](const PathPiece& p) {
    return p.kind == PathPiece::Kind::Line ? p.line.a : p.arc.start();
  };
  // Where the fixed-angle path meets piece i: an arc's start moves out to its polygon.
  const auto entry = [&](std::size_t i) {
    const PathPiece& p = pieces[i];
    return p.kind == PathPiece::Kind::Arc ? b.project(p.arc, p.arc.start_angle) : p.line.a;
  };
  Vec2 cur = start_of(pieces[0]);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const PathPiece& p = pieces[i];
    const bool last = i + 1 == pieces.size();
    if (p.kind == PathPiece::Kind::Line) {
      const Vec2 target = last ? p.line.b : entry(i + 1);
      if (!b.legs(cur, target, p.reverse)) break;
      cur = target;
      continue;
    }
    Arc arc = p.arc;
    r_max = std::max(r_max, arc.radius);
    const Vec2 in = entry(i);
    bool joined = false;
    if (distance(cur, in) > kTiny) {
      // Onto the arc from the path's start or from another arc: `cur` lies on the circle or on
      // the previous polygon's edge, `in` on this polygon's edge; the edge runs along the legal
      // heading h nearest the tangent, so `cur` is beside its line. Joining them straight (out
      // along the radius) would turn the sprite by two steps and back; one leg at h +- one
      // step to the edge line turns it by one.
      const double travel = arc.start_angle + (arc.sweep >= 0 ? kPi / 2 : -kPi / 2);
      const double h = std::round(travel / b.step) * b.step;
      const Vec2 n = unit(h + kPi / 2);
      const double side = (in.x - cur.x) * n.x + (in.y - cur.y) * n.y;
      const Vec2 q =
          cur + unit(h + (side > 0 ? b.step : -b.step)) * (std::abs(side) / std::sin(b.step));
      const double qa = std::atan2(q.y - arc.center.y, q.x - arc.center.x);
      if (std::abs(side) > kTiny && arc.contains_angle(qa) &&
          distance(b.project(arc, qa), q) < 1e-9 && b.ok(cur, q)) {
        b.push(cur, q, p.reverse);
        // Drive the rest of this arc from q's angle on.
        const double rel =
            normalize_angle(arc.sweep >= 0 ? qa - arc.start_angle : arc.start_angle - qa);
        const double done = arc.sweep >= 0 ? rel : -rel;
        arc.start_angle += done;
        arc.sweep -= done;
        cur = q;
        joined = true;
      }
    }
    if (!joined) {
      if (!b.legs(cur, in, p.reverse)) break;
      cur = in;
    }
    // The polygon's corners strictly inside the sweep, in driving order (Figure 15, left).
    // Off the last arc to the goal the same way: leave the polygon's edge line at q, one step
    // off its heading, to arrive at the arc's end.
    Vec2 leave = arc.end();
    bool leave_early = false;
    if (last) {
      const double travel = arc.end_angle() + (arc.sweep >= 0 ? kPi / 2 : -kPi / 2);
      const double h = std::round(travel / b.step) * b.step;
      const Vec2 n = unit(h + kPi / 2), out = b.project(arc, arc.end_angle());
      const double side = (leave.x - out.x) * n.x + (leave.y - out.y) * n.y;
      const Vec2 q =
          leave - unit(h + (side > 0 ? b.step : -b.step)) * (std::abs(side) / std::sin(b.step));
      const double qa = std::atan2(q.y - arc.center.y, q.x - arc.center.x);
      if (std::abs(side) > kTiny && arc.contains_angle(qa) &&
          distance(b.project(arc, qa), q) < 1e-9) {
        const double rel =
            normalize_angle(arc.sweep >= 0 ? qa - arc.start_angle : arc.start_angle - qa);
        arc.sweep = arc.sweep >= 0 ? rel : -rel;
        leave_early = true;
      }
    }
    const double a0 = arc.start_angle, a1 = arc.end_angle(), eps = 1e-9;
    std::vector<Vec2> corners;
    const double corner_r = arc.radius / std::cos(b.step / 2);
    if (arc.sweep > 0)
      for (double j = std::floor(a0 / b.step - 0.5) + 1; (j + 0.5) * b.step < a1 - eps; ++j) {
        if ((j + 0.5) * b.step > a0 + eps)
          corners.push_back(arc.center + unit((j + 0.5) * b.step) * corner_r);
      }
    else
      for (double j = std::ceil(a0 / b.step - 0.5) - 1; (j + 0.5) * b.step > a1 + eps; --j) {
        if ((j + 0.5) * b.step < a0 - eps)
          corners.push_back(arc.center + unit((j + 0.5) * b.step) * corner_r);
      }
    corners.push_back(b.project(arc, a1));
    bool fine = true;
    for (const Vec2& c : corners) {
      // Along one polygon edge: a legal heading by construction (k is a multiple of 4, so a
      // tangent at a multiple of 2 pi / k is one too).
      if (!b.ok(cur, c)) {
        fine = b.fail("the outside of the arc round (" + Builder::fmt(arc.center) +
                      ") is blocked at (" + Builder::fmt(c) + ")");
        break;
      }
      b.push(cur, c, p.reverse);
      cur = c;
    }
    if (!fine) break;
    if (last && leave_early) {
      if (!b.ok(cur, leave)) {
        b.fail("the way off the last arc to (" + Builder::fmt(leave) + ") is blocked");
        break;
      }
      b.push(cur, leave, p.reverse);
    } else if (last && !b.legs(cur, arc.end(), p.reverse)) {
      break;
    }
    if (last) cur = arc.end();
  }
  res.deviation_bound = opt.max_deviation + r_max * grow;
  if (!b.message.empty()) {
    res.message = std::move(b.message);
    return res;
  }
  // A join the construction could not make with one heading step (two arcs whose polygons do
  // not meet within the next arc, a line shorter than its neighbours' offsets): the sprite
  // would have to spin on the spot, so say so rather than return it.
  for (std::size_t i = 1; i < b.out.size(); ++i) {
    const Segment &x = b.out[i - 1].line, &y = b.out[i].line;
    const double turn = std::abs(std::remainder(
        std::atan2(y.b.y - y.a.y, y.b.x - y.a.x) - std::atan2(x.b.y - x.a.y, x.b.x - x.a.x),
        kTwoPi));
    if (b.out[i - 1].reverse == b.out[i].reverse && turn > b.step + 1e-6) {
      res.message = "the join at (" + Builder::fmt(y.a) + ") turns by more than one heading step";
      return res;
    }
  }
  res.ok = true;
  res.pieces = std::move(b.out);
  return res;
}

}  // namespace pl

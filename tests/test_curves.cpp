// Curves (issue 11, part 1): pose to point, Dubins (six words and the CSC four), Reeds-Shepp and
// sampling along lines and arcs. Lengths are checked against an independent dense search that
// knows no word formula: it drives the first arc through a fine grid of angles (in pathlab's own
// screen frame, no mirroring), finds where the rest of the word can close on the goal by sign
// changes and local refinement of a residual, and reads the lengths off the geometry it built.
// Plus every known trap as a named test, and a fuzz for NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/atan2.hpp"
#include "core/curves.hpp"

namespace pl {
namespace {

// ---------------------------------------------------------------------------------------------
// The independent side: plain kinematics in pathlab's convention (y down, heading clockwise,
// a right turn increases the heading) and root finding. Nothing here calls core/curves.
// ---------------------------------------------------------------------------------------------

double wrap_turn(double a) {  // [0, 2 pi); within 1e-9 of a full turn counts as no turn
  a = std::fmod(a, kTwoPi);
  if (a < 0) a += kTwoPi;
  return a > kTwoPi - 1e-9 ? 0.0 : a;
}

// The centre of the turning circle on side `right` (true) or left.
Vec2 turn_centre(const Pose& p, bool right, double r) {
  const double s = right ? 1.0 : -1.0;
  return {p.x - s * r * std::sin(p.heading), p.y + s * r * std::cos(p.heading)};
}

// Drive an arc of `angle` radians (>= 0) forward on side `right`.
Pose drive_arc(const Pose& p, bool right, double angle, double r) {
  const Vec2 c = turn_centre(p, right, r);
  const double s = right ? 1.0 : -1.0;
  const double a0 = std::atan2(p.y - c.y, p.x - c.x);
  const double a1 = a0 + s * angle;
  return {c.x + r * std::cos(a1), c.y + r * std::sin(a1), p.heading + s * angle};
}

// Heading on a circle of centre c at point q when driving it on side `right`.
double heading_on(Vec2 c, Vec2 q, bool right) {
  const double a = std::atan2(q.y - c.y, q.x - c.x);
  return right ? a + kPi / 2 : a - kPi / 2;
}

// Roots of f on [lo, hi]: a grid of n intervals, sign changes bisected, and every interior local
// minimum of |f| refined by golden section (two roots closer than the grid step, or a double
// root, show no sign change).
template <class F>
std::vector<double> roots(F f, double lo, double hi, int n, double tol) {
  std::vector<double> xs(size_t(n) + 1), fs(size_t(n) + 1), out;
  for (int i = 0; i <= n; ++i) {
    xs[size_t(i)] = lo + (hi - lo) * i / n;
    fs[size_t(i)] = f(xs[size_t(i)]);
  }
  auto bisect = [&](double a, double fa, double b) {
    for (int k = 0; k < 200 && b - a > 1e-15 * (1 + std::abs(a)); ++k) {
      const double m = 0.5 * (a + b), fm = f(m);
      if (fm == 0) return m;
      if ((fm < 0) == (fa < 0)) {
        a = m;
        fa = fm;
      } else {
        b = m;
      }
    }
    return 0.5 * (a + b);
  };
  for (int i = 0; i < n; ++i) {
    const double fa = fs[size_t(i)], fb = fs[size_t(i) + 1];
    if (fa == 0)
      out.push_back(xs[size_t(i)]);
    else if ((fa < 0) != (fb < 0) && fb != 0)
      out.push_back(bisect(xs[size_t(i)], fa, xs[size_t(i) + 1]));
  }
  if (fs[size_t(n)] == 0) out.push_back(xs[size_t(n)]);
  for (int i = 1; i < n; ++i) {
    const double fa = fs[size_t(i) - 1], fm = fs[size_t(i)], fb = fs[size_t(i) + 1];
    if (!(std::abs(fm) <= std::abs(fa) && std::abs(fm) <= std::abs(fb))) continue;
    if ((fa < 0) != (fm < 0) || (fb < 0) != (fm < 0) || fm == 0) continue;  // handled above
    // Golden section on s * f (s makes the extremum a minimum), over [x_{i-1}, x_{i+1}].
    const double sg = fm > 0 ? 1.0 : -1.0;
    double a = xs[size_t(i) - 1], b = xs[size_t(i) + 1];
    const double g = 0.5 * (std::sqrt(5.0) - 1);
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = sg * f(c), fd = sg * f(d);
    for (int k = 0; k < 120; ++k) {
      if (fc < fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - g * (b - a);
        fc = sg * f(c);
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + g * (b - a);
        fd = sg * f(d);
      }
    }
    const double xm = 0.5 * (a + b), vm = f(xm);
    if ((vm < 0) != (fm < 0) && vm != 0) {  // two roots either side of the extremum
      out.push_back(bisect(xs[size_t(i) - 1], fa, xm));
      out.push_back(bisect(xm, vm, xs[size_t(i) + 1]));
    } else if (std::abs(vm) <= tol) {
      out.push_back(xm);
    }
  }
  return out;
}

constexpr int kGrid = 192;

// The shortest word "a S b" (a, b: true = right) by search over the first arc's angle t: the
// line leaving the first circle at t must be tangent to the goal's circle on side b.
double dense_csc(const Pose& s, const Pose& g, double r, bool a, bool b) {
  const Vec2 cb = turn_centre(g, b, r);
  const double want = b ? r : -r;  // signed offset of cb to the right of the line
  auto lat = [&](double t) {
    const Pose p = drive_arc(s, a, t, r);
    return -(cb.x - p.x) * std::sin(p.heading) + (cb.y - p.y) * std::cos(p.heading) - want;
  };
  double best = INFINITY;
  const double scale = r + std::abs(g.x - s.x) + std::abs(g.y - s.y);
  for (const double t : roots(lat, 0, kTwoPi, kGrid, 1e-13 * scale)) {
    const Pose p = drive_arc(s, a, t, r);
    const double u = (cb.x - p.x) * std::cos(p.heading) + (cb.y - p.y) * std::sin(p.heading);
    if (u < -1e-9 * scale) continue;
    const double v = wrap_turn(b ? g.heading - p.heading : p.heading - g.heading);
    best = std::min(best, r * (wrap_turn(t) + v) + std::max(u, 0.0));
  }
  return best;
}

// The shortest word "a b a" (b the other side): the middle circle, tangent to the first at the
// point reached after t, must touch the goal's circle on side a.
double dense_ccc(const Pose& s, const Pose& g, double r, bool a) {
  const Vec2 cg = turn_centre(g, a, r);
  auto gap = [&](double t) {
    const Pose p = drive_arc(s, a, t, r);
    const Vec2 cm = turn_centre(p, !a, r);
    return std::hypot(cm.x - cg.x, cm.y - cg.y) - 2 * r;
  };
  double best = INFINITY;
  for (const double t : roots(gap, 0, kTwoPi, kGrid, 1e-13 * r)) {
    const Pose p = drive_arc(s, a, t, r);
    const Vec2 cm = turn_centre(p, !a, r);
    const Vec2 q{0.5 * (cm.x + cg.x), 0.5 * (cm.y + cg.y)};
    const double hq = heading_on(cm, q, !a);
    const double mid = wrap_turn(a ? p.heading - hq : hq - p.heading);
    const double last = wrap_turn(a ? g.heading - hq : hq - g.heading);
    best = std::min(best, r * (wrap_turn(t) + mid + last));
  }
  return best;
}

double dense_word(const Pose& s, const Pose& g, double r, DubinsWord w) {
  switch (w) {
    case DubinsWord::LSL:
      return dense_csc(s, g, r, false, false);
    case DubinsWord::RSR:
      return dense_csc(s, g, r, true, true);
    case DubinsWord::LSR:
      return dense_csc(s, g, r, false, true);
    case DubinsWord::RSL:
      return dense_csc(s, g, r, true, false);
    case DubinsWord::RLR:
      return dense_ccc(s, g, r, true);
    case DubinsWord::LRL:
      return dense_ccc(s, g, r, false);
  }
  return NAN;
}

// Pose to point on one side: the line leaving the circle at t must pass through the target.
double dense_to_point(const Pose& s, Vec2 q, double r, bool right) {
  auto lat = [&](double t) {
    const Pose p = drive_arc(s, right, t, r);
    return -(q.x - p.x) * std::sin(p.heading) + (q.y - p.y) * std::cos(p.heading);
  };
  double best = INFINITY;
  const double scale = r + std::abs(q.x - s.x) + std::abs(q.y - s.y);
  for (const double t : roots(lat, 0, kTwoPi, kGrid, 1e-13 * scale)) {
    const Pose p = drive_arc(s, right, t, r);
    const double u = (q.x - p.x) * std::cos(p.heading) + (q.y - p.y) * std::sin(p.heading);
    if (u >= -1e-9 * scale) best = std::min(best, r * wrap_turn(t) + std::max(u, 0.0));
  }
  return best;
}

// ---- Reeds-Shepp, independently: the same first-arc search over word shapes with any gears ----
// Every segment may be driven either way, so each shape below is a superset of the Reeds-Shepp
// words of that family (CSC, CCC, CCCC with equal middle arcs, CCSC and CSCC, CCSCC); the
// search's minimum is the length of a real path, so Reeds-Shepp can never be longer, and by
// Reeds and Shepp's theorem the two are equal.

// Drive a signed length on side -1 (left), 0 (straight), +1 (right); negative = reverse.
Pose drive(const Pose& p, int side, double len, double r) {
  if (side == 0)
    return {p.x + len * std::cos(p.heading), p.y + len * std::sin(p.heading), p.heading};
  const Vec2 c = turn_centre(p, side > 0, r);
  const double dh = side * len / r;
  const double a = std::atan2(p.y - c.y, p.x - c.x) + dh;
  return {c.x + r * std::cos(a), c.y + r * std::sin(a), p.heading + dh};
}

// The shortest way round a circle between two points on it, either gear: |angle| <= pi.
double arc_between(Vec2 c, Vec2 from, Vec2 to) {
  return std::abs(std::remainder(
      std::atan2(to.y - c.y, to.x - c.x) - std::atan2(from.y - c.y, from.x - c.x), kTwoPi));
}

// `prefix(t)`: the pose after the word's first arc(s), with the fixed-length arcs it adds (in
// radians); then a line tangent to the goal's circle on side `last`, and that circle's arc.
template <class Prefix>
double dense_rs_cs(const Pose& s, const Pose& g, double r, int last, Prefix prefix) {
  const Vec2 cl = turn_centre(g, last > 0, r);
  const double want = last > 0 ? r : -r;
  auto lat = [&](double t) {
    double fixed = 0;
    const Pose p = prefix(t, fixed);
    return -(cl.x - p.x) * std::sin(p.heading) + (cl.y - p.y) * std::cos(p.heading) - want;
  };
  double best = INFINITY;
  const double scale = r + std::abs(g.x - s.x) + std::abs(g.y - s.y);
  for (const double t : roots(lat, -kPi, kPi, kGrid, 1e-13 * scale)) {
    double fixed = 0;
    const Pose p = prefix(t, fixed);
    const double u = (cl.x - p.x) * std::cos(p.heading) + (cl.y - p.y) * std::sin(p.heading);
    const Vec2 q{p.x + u * std::cos(p.heading), p.y + u * std::sin(p.heading)};
    best =
        std::min(best, r * (std::abs(t) + fixed + arc_between(cl, q, g.position())) + std::abs(u));
  }
  return best;
}

// C C C with any gears: the middle circle at the point after t must touch the goal's circle.
double dense_rs_ccc(const Pose& s, const Pose& g, double r, int a) {
  const Vec2 cg = turn_centre(g, a > 0, r);
  auto gap = [&](double t) {
    const Vec2 cm = turn_centre(drive(s, a, t * r, r), a < 0, r);
    return std::hypot(cm.x - cg.x, cm.y - cg.y) - 2 * r;
  };
  double best = INFINITY;
  for (const double t : roots(gap, -kPi, kPi, kGrid, 1e-13 * r)) {
    const Pose p = drive(s, a, t * r, r);
    const Vec2 cm = turn_centre(p, a < 0, r);
    const Vec2 q{0.5 * (cm.x + cg.x), 0.5 * (cm.y + cg.y)};
    best = std::min(best, r * (std::abs(t) + arc_between(cm, p.position(), q) +
                               arc_between(cg, q, g.position())));
  }
  return best;
}

// C C(pi/2) S C(pi/2) C with any gears (the last two sides opposite, either pair): after the
// line, the fourth circle's centre is the goal's fifth circle's centre minus a vector fixed by
// the line's heading, and must sit r beside the line.
double dense_rs_ccscc(const Pose& s, const Pose& g, double r, int a, double g2, int c, double g4) {
  const Vec2 c5 = turn_centre(g, c < 0, r);
  auto at = [&](double t, Vec2& c4, double& u) {
    const Pose p = drive(drive(s, a, t * r, r), -a, g2 * kPi / 2 * r, r);
    // Q on the line, C4 = Q + r n (n: side c's normal); after a quarter turn on C4 the point Q'
    // has C5 = 2 Q' - C4, so C5 - C4 = 2 (Q' - C4) = 2 r rot(dh)(-n), dh = c g4 pi/2.
    const double nx = -c * std::sin(p.heading), ny = c * std::cos(p.heading);
    const double dh = c * g4 * kPi / 2;
    const double vx = 2 * r * (-nx * std::cos(dh) + ny * std::sin(dh));
    const double vy = 2 * r * (-nx * std::sin(dh) - ny * std::cos(dh));
    c4 = {c5.x - vx, c5.y - vy};
    u = (c4.x - p.x) * std::cos(p.heading) + (c4.y - p.y) * std::sin(p.heading);
    return -(c4.x - p.x) * std::sin(p.heading) + (c4.y - p.y) * std::cos(p.heading) - c * r;
  };
  auto lat = [&](double t) {
    Vec2 c4;
    double u;
    return at(t, c4, u);
  };
  double best = INFINITY;
  for (const double t : roots(lat, -kPi, kPi, kGrid, 1e-13 * r)) {
    Vec2 c4;
    double u;
    at(t, c4, u);
    const Vec2 q2{0.5 * (c4.x + c5.x), 0.5 * (c4.y + c5.y)};
    best =
        std::min(best, r * (std::abs(t) + kPi + arc_between(c5, q2, g.position())) + std::abs(u));
  }
  return best;
}

// C C C C with any gears, the two middle arcs of equal size (both CCCC families): the second
// circle is fixed by the first arc, the fourth is the goal's, the third sits 2r from both (two
// places); the residual is the difference of the middle arcs. Roots are kept only where it
// truly vanishes (the residual jumps where an arc passes a half turn, and is undefined where
// the circles are too far apart).
double dense_rs_cccc(const Pose& s, const Pose& g, double r, int a) {
  const Vec2 c4 = turn_centre(g, a < 0, r);
  double best = INFINITY;
  for (const double side : {-1.0, 1.0}) {
    auto at = [&](double t, double& len) {
      const Pose p = drive(s, a, t * r, r);
      const Vec2 c2 = turn_centre(p, a < 0, r);
      const double dx = c4.x - c2.x, dy = c4.y - c2.y, d = std::hypot(dx, dy);
      if (d > 4 * r || d == 0) return double(NAN);
      const double h = std::sqrt(4 * r * r - d * d / 4);
      const Vec2 c3{0.5 * (c2.x + c4.x) - side * h * dy / d,
                    0.5 * (c2.y + c4.y) + side * h * dx / d};
      const Vec2 t23{0.5 * (c2.x + c3.x), 0.5 * (c2.y + c3.y)};
      const Vec2 t34{0.5 * (c3.x + c4.x), 0.5 * (c3.y + c4.y)};
      const double m2 = arc_between(c2, p.position(), t23), m3 = arc_between(c3, t23, t34);
      len = r * (std::abs(t) + m2 + m3 + arc_between(c4, t34, g.position()));
      return m2 - m3;
    };
    auto f = [&](double t) {
      double len;
      const double v = at(t, len);
      return std::isnan(v) ? 1e3 : v;
    };
    for (const double t : roots(f, -kPi, kPi, kGrid, 1e-13)) {
      double len = INFINITY;
      const double v = at(t, len);
      if (std::abs(v) < 1e-9) best = std::min(best, len);
    }
  }
  return best;
}

double dense_rs_forward(const Pose& s, const Pose& g, double r) {
  double best = INFINITY;
  for (const int a : {-1, 1}) best = std::min(best, dense_rs_cccc(s, g, r, a));
  for (const int a : {-1, 1}) {
    for (const int b : {-1, 1}) {  // CSC
      best = std::min(
          best, dense_rs_cs(s, g, r, b, [&](double t, double&) { return drive(s, a, t * r, r); }));
      for (const double g2 : {-1.0, 1.0})  // C C(pi/2) S C
        best = std::min(best, dense_rs_cs(s, g, r, b, [&](double t, double& fixed) {
                          fixed = kPi / 2;
                          return drive(drive(s, a, t * r, r), -a, g2 * kPi / 2 * r, r);
                        }));
    }
    best = std::min(best, dense_rs_ccc(s, g, r, a));
    for (const int c : {-1, 1})
      for (const double g2 : {-1.0, 1.0})
        for (const double g4 : {-1.0, 1.0})
          best = std::min(best, dense_rs_ccscc(s, g, r, a, g2, c, g4));
  }
  return best;
}

// Forwards, and the C S C(pi/2) C shapes as the reversed drive from the goal to the start (the
// same pieces in reverse order, gears flipped: the same length).
double dense_rs(const Pose& s, const Pose& g, double r) {
  return std::min(dense_rs_forward(s, g, r), dense_rs_forward(g, s, r));
}

// ---------------------------------------------------------------------------------------------

double angle_diff(double a, double b) {
  return std::abs(std::remainder(a - b, kTwoPi));
}

// The curve ends on the goal: sampled by the curve itself and by walking its pieces.
void expect_reaches(const Curve& c, const Pose& goal, const char* what) {
  ASSERT_TRUE(c.ok()) << what;
  const double scale = std::max({1.0, c.radius, std::abs(goal.x), std::abs(goal.y)});
  const Pose e = c.end();
  EXPECT_LE(std::hypot(e.x - goal.x, e.y - goal.y), 1e-9 * scale) << what;
  EXPECT_LE(angle_diff(e.heading, goal.heading), 1e-9) << what;
  const std::vector<PathPiece> pieces = c.pieces();
  if (pieces.empty()) {
    EXPECT_EQ(c.length, 0) << what;
    return;
  }
  EXPECT_NEAR(path_length(pieces), c.length, 1e-12 * scale) << what;
  const Pose q = pose_along(pieces, c.length);
  EXPECT_LE(std::hypot(q.x - goal.x, q.y - goal.y), 1e-9 * scale) << what;
  // A line's heading is only as good as its end points allow: check it on arcs and on lines
  // long enough to carry one (the curve's own pose above has it regardless).
  const PathPiece& last = pieces.back();
  if (last.kind == PathPiece::Kind::Arc || last.length() > 1e-3 * scale) {
    EXPECT_LE(angle_diff(q.heading, goal.heading), 1e-9) << what;
  }
}

void expect_rel(double got, double want, double rel, const std::string& what) {
  if (std::isinf(want) || std::isinf(got)) {
    EXPECT_EQ(std::isinf(got), std::isinf(want)) << what << " got " << got << " want " << want;
    return;
  }
  EXPECT_LE(std::abs(got - want), rel * std::max(1.0, std::abs(want)))
      << what << " got " << got << " want " << want;
}

std::string describe(const Pose& a, const Pose& b, double r) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "(%.17g,%.17g,%.17g) -> (%.17g,%.17g,%.17g) r=%.17g", a.x, a.y,
                a.heading, b.x, b.y, b.heading, r);
  return buf;
}

#ifdef PATHLAB_SANITIZED
constexpr int kRandomPairs = 3000;
#else
constexpr int kRandomPairs = 100000;
#endif

struct RandomPair {
  Pose a, b;
  double r;
};

RandomPair random_pair(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u01(0, 1);
  RandomPair p;
  p.r = std::exp(std::log(0.2) + u01(rng) * std::log(25.0));  // 0.2 .. 5
  // Half near (where the CCC words and the Reeds-Shepp families live), half far.
  const double span = u01(rng) < 0.5 ? 3 * p.r : 20.0;
  p.a = {(u01(rng) - 0.5) * 20, (u01(rng) - 0.5) * 20, (u01(rng) - 0.5) * 4 * kPi};
  p.b = {p.a.x + (u01(rng) - 0.5) * 2 * span, p.a.y + (u01(rng) - 0.5) * 2 * span,
         u01(rng) * kTwoPi};
  return p;
}

// ---------------------------------------------------------------------------------------------

// The formulas' own atan2 and asin against the C library: within 4 units in the last place
// everywhere (results near zero included: the relative error is what counts), and the same
// signed-zero, infinity and NaN answers.
TEST(Curves, FastAtan2AndAsinAgreeWithTheCLibrary) {
  auto close = [](double got, double want) {
    return std::abs(got - want) <= 4 * std::numeric_limits<double>::epsilon() * std::abs(want);
  };
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-1, 1), e(-300, 300);
  int bad = 0;
  for (int i = 0; i < 1000000 && bad < 10; ++i) {
    // Half plain, half with the two sides' sizes far apart; every eighth near an octant or
    // table boundary (|y| / |x| close to k / 16).
    double x = u(rng), y = u(rng);
    if (i % 2) y *= std::pow(10.0, e(rng) / 20);
    if (i % 8 == 0)
      y = std::copysign(std::abs(x) * std::floor(std::min(std::abs(y), 1.0) * 17) / 16, y) *
          (1 + 1e-16 * u(rng));
    const double got = atan2_fast(y, x), want = std::atan2(y, x);
    if (!close(got, want)) {
      ++bad;
      ADD_FAILURE() << "atan2(" << y << ", " << x << ") = " << got << ", C library " << want;
    }
    const double h = u(rng) * (i % 3 ? 1.0 : std::pow(10.0, e(rng) / 20 - 15));
    const double ga = asin_fast(std::max(-1.0, std::min(1.0, h))),
                 wa = std::asin(std::max(-1.0, std::min(1.0, h)));
    if (!close(ga, wa)) {
      ++bad;
      ADD_FAILURE() << "asin(" << h << ") = " << ga << ", C library " << wa;
    }
  }
  const double inf = INFINITY;
  const double special[] = {0.0, -0.0, 1.0, -1.0, 1e-310, -1e-310, 1e300, -1e300, inf, -inf};
  for (const double y : special)
    for (const double x : special) {
      const double got = atan2_fast(y, x), want = std::atan2(y, x);
      EXPECT_TRUE(close(got, want) && std::signbit(got) == std::signbit(want))
          << "atan2(" << y << ", " << x << ") = " << got << ", C library " << want;
    }
  EXPECT_TRUE(std::isnan(atan2_fast(NAN, 1.0)));
  EXPECT_TRUE(std::isnan(atan2_fast(1.0, NAN)));
  for (const double h : {-1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1e-300})
    EXPECT_TRUE(close(asin_fast(h), std::asin(h)) && std::signbit(asin_fast(h)) == std::signbit(h))
        << h;
}

TEST(Curves, DubinsWordsAgreeWithDenseSearchOnRandomPairs) {
  std::mt19937_64 rng(11);
  int ccc_shorter = 0, failures = 0;
  for (int i = 0; i < kRandomPairs && failures < 20; ++i) {
    const RandomPair p = random_pair(rng);
    double best = INFINITY, best_csc = INFINITY;
    for (const DubinsWord w : kDubinsWords) {
      const Curve c = dubins_word(p.a, p.b, p.r, w);
      const double want = dense_word(p.a, p.b, p.r, w);
      const double got = c.ok() ? c.length : INFINITY;
      const bool bad = std::isinf(got) != std::isinf(want) ||
                       (!std::isinf(want) && std::abs(got - want) > 1e-9 * std::max(1.0, want));
      if (bad) {
        ++failures;
        ADD_FAILURE() << dubins_word_name(w) << " " << describe(p.a, p.b, p.r) << " got " << got
                      << " dense " << want;
      }
      if (c.ok()) expect_reaches(c, p.b, dubins_word_name(w));
      best = std::min(best, want);
      if (int(w) < 4) best_csc = std::min(best_csc, want);
    }
    const Curve all = dubins(p.a, p.b, p.r);
    const Curve csc = dubins(p.a, p.b, p.r, DubinsWords::Csc);
    expect_rel(all.length, best, 1e-9, "dubins " + describe(p.a, p.b, p.r));
    expect_rel(csc.length, best_csc, 1e-9, "dubins csc " + describe(p.a, p.b, p.r));
    expect_reaches(all, p.b, "dubins");
    expect_reaches(csc, p.b, "dubins csc");
    ccc_shorter += best < best_csc - 1e-9;
    // Reeds-Shepp may reverse, so it is never longer; it reaches the goal too.
    const Curve rs = reeds_shepp(p.a, p.b, p.r);
    EXPECT_LE(rs.length, all.length * (1 + 1e-12)) << describe(p.a, p.b, p.r);
    expect_reaches(rs, p.b, "reeds-shepp");
  }
  // The near half of the pairs must exercise the CCC words.
  EXPECT_GT(ccc_shorter, kRandomPairs / 100);
}

TEST(Curves, ReedsSheppAgreesWithDenseSearch) {
  std::mt19937_64 rng(23);
#ifdef PATHLAB_SANITIZED
  const int n = 300;
#else
  const int n = 2000;
#endif
  int cccc = 0, failures = 0;
  for (int i = 0; i < n && failures < 20; ++i) {
    const RandomPair p = random_pair(rng);
    const Curve c = reeds_shepp(p.a, p.b, p.r);
    ASSERT_TRUE(c.ok());
    const double want = dense_rs(p.a, p.b, p.r);
    int arcs = 0;
    for (const CurveSegment& sg : c.used()) arcs += sg.steer != Steer::Straight;
    cccc += c.count == 4 && arcs == 4;
    if (std::abs(c.length - want) > 1e-9 * std::max(1.0, want)) {
      ++failures;
      ADD_FAILURE() << c.word() << " " << describe(p.a, p.b, p.r) << " got " << c.length
                    << " dense " << want;
    }
  }
  EXPECT_GT(cccc, 0);  // the CCCC families were exercised
}

TEST(Curves, PoseToPointAgreesWithDenseSearch) {
  std::mt19937_64 rng(5);
  const int n = kRandomPairs / 10;
  int inside = 0;
  for (int i = 0; i < n; ++i) {
    const RandomPair p = random_pair(rng);
    const Vec2 q{p.b.x, p.b.y};
    for (const TurnSide side : {TurnSide::Left, TurnSide::Right}) {
      const bool right = side == TurnSide::Right;
      const Curve c = pose_to_point(p.a, q, p.r, side);
      const Vec2 centre = turn_centre(p.a, right, p.r);
      const bool in = std::hypot(q.x - centre.x, q.y - centre.y) < p.r;
      if (in) {
        ++inside;
        EXPECT_EQ(c.status, CurveStatus::InsideTurningCircle) << describe(p.a, p.b, p.r);
        continue;
      }
      const double want = dense_to_point(p.a, q, p.r, right);
      expect_rel(c.length, want, 1e-9, std::string(right ? "R " : "L ") + describe(p.a, p.b, p.r));
      ASSERT_TRUE(c.ok());
      const Pose e = c.end();
      EXPECT_LE(std::hypot(e.x - q.x, e.y - q.y),
                1e-9 * std::max(1.0, std::abs(q.x) + std::abs(q.y)));
    }
    const Curve best = pose_to_point(p.a, q, p.r);
    EXPECT_TRUE(best.ok());
    EXPECT_NEAR(best.length,
                std::min(pose_to_point(p.a, q, p.r, TurnSide::Left).length,
                         pose_to_point(p.a, q, p.r, TurnSide::Right).length),
                0);
  }
  EXPECT_GT(inside, 0);
}

// A widely used C library returns 7.854 (a full extra loop) here: the centres of the start's and
// the goal's right circles coincide up to rounding, and a tiny negative angle wraps to 2 pi.
TEST(Curves, TrapGoalOnStartTurningCircle) {
  const Pose a{0, 0, 0}, b{1, 1, kPi / 2};
  EXPECT_NEAR(dubins(a, b, 1).length, kPi / 2, 1e-12);
  EXPECT_EQ(dubins(a, b, 1).word(), "RSR");
  EXPECT_NEAR(dubins(a, b, 1, DubinsWords::Csc).length, kPi / 2, 1e-12);
  EXPECT_NEAR(reeds_shepp(a, b, 1).length, kPi / 2, 1e-12);
  EXPECT_NEAR(dubins_word(a, b, 1, DubinsWord::RSR).length, kPi / 2, 1e-12);
  expect_reaches(dubins(a, b, 1), b, "trap");
  // The same on both sides, anywhere, at any start heading, any radius, any arc up to a half turn:
  // the length is the arc.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int i = 0; i < 2000; ++i) {
    const double r = 0.1 + 10 * u01(rng);
    const Pose s{(u01(rng) - 0.5) * 1000, (u01(rng) - 0.5) * 1000, u01(rng) * kTwoPi};
    const bool right = i % 2 == 0;
    const double arc = (i % 7 == 0) ? kPi / 2 : u01(rng) * kPi;
    const Pose g = drive_arc(s, right, arc, r);
    const Pose gn{g.x, g.y, std::fmod(g.heading, kTwoPi)};
    const std::string what = describe(s, gn, r);
    EXPECT_NEAR(dubins(s, gn, r).length, r * arc, 1e-9 * r * (1 + 1000 / r)) << what;
    EXPECT_NEAR(dubins(s, gn, r, DubinsWords::Csc).length, r * arc, 1e-9 * r * (1 + 1000 / r))
        << what;
    EXPECT_LE(reeds_shepp(s, gn, r).length, r * arc + 1e-9 * (r + 1000)) << what;
  }
}

// CCC words: the middle circle has two places; the one with the middle arc above a half turn is
// the one that can be globally shortest, but the word's shortest is the shorter of the two.
// Checked against paths built by driving R-L-R and L-R-L with known angles.
TEST(Curves, TrapCccWordsAgainstDrivenPaths) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int i = 0; i < 5000; ++i) {
    const double r = 0.5 + 3 * u01(rng);
    const Pose s{(u01(rng) - 0.5) * 10, (u01(rng) - 0.5) * 10, u01(rng) * kTwoPi};
    const bool right = i % 2 == 0;
    const double t = u01(rng) * kPi, m = kPi + u01(rng) * (kPi - 0.01), q = u01(rng) * kPi;
    const Pose g = drive_arc(drive_arc(drive_arc(s, right, t, r), !right, m, r), right, q, r);
    const DubinsWord w = right ? DubinsWord::RLR : DubinsWord::LRL;
    const Curve c = dubins_word(s, g, r, w);
    ASSERT_TRUE(c.ok()) << describe(s, g, r);
    EXPECT_LE(c.length, r * (t + m + q) * (1 + 1e-12)) << describe(s, g, r);
    expect_rel(c.length, dense_word(s, g, r, w), 1e-9, describe(s, g, r));
    expect_reaches(c, g, dubins_word_name(w));
    EXPECT_EQ(c.segments[0].steer, right ? Steer::Right : Steer::Left);
    EXPECT_EQ(c.segments[1].steer, right ? Steer::Left : Steer::Right);
  }
  // Beyond touching distance of the end circles there is no CCC path at all.
  EXPECT_EQ(dubins_word({0, 0, 0}, {10, 0, 0}, 1, DubinsWord::LRL).status, CurveStatus::NoSuchPath);
  EXPECT_EQ(dubins_word({0, 0, 0}, {10, 0, 0}, 1, DubinsWord::RLR).status, CurveStatus::NoSuchPath);
}

TEST(Curves, TrapSamePose) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int i = 0; i < 1000; ++i) {
    const Pose p{(u01(rng) - 0.5) * 100, (u01(rng) - 0.5) * 100, (u01(rng) - 0.5) * 20};
    const double r = 0.01 + 10 * u01(rng);
    EXPECT_EQ(dubins(p, p, r).length, 0) << describe(p, p, r);
    EXPECT_EQ(dubins(p, p, r, DubinsWords::Csc).length, 0);
    EXPECT_EQ(reeds_shepp(p, p, r).length, 0) << describe(p, p, r);
    EXPECT_EQ(pose_to_point(p, p.position(), r).length, 0);
    EXPECT_TRUE(dubins(p, p, r).pieces().empty());
    EXPECT_TRUE(reeds_shepp(p, p, r).pieces().empty());
    // The same pose written with another turn of heading.
    const Pose q{p.x, p.y, p.heading + kTwoPi * 3};
    EXPECT_NEAR(dubins(p, q, r).length, 0, 1e-9 * r);
    EXPECT_NEAR(reeds_shepp(p, q, r).length, 0, 1e-9 * r);
  }
}

TEST(Curves, TrapCollinearPoses) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int i = 0; i < 2000; ++i) {
    const double r = 0.1 + 5 * u01(rng), d = 0.001 + 30 * u01(rng);
    const Pose s{(u01(rng) - 0.5) * 100, (u01(rng) - 0.5) * 100, u01(rng) * kTwoPi};
    const Pose ahead{s.x + d * std::cos(s.heading), s.y + d * std::sin(s.heading), s.heading};
    const Pose behind{s.x - d * std::cos(s.heading), s.y - d * std::sin(s.heading), s.heading};
    const std::string what = describe(s, ahead, r);
    // Straight ahead: the line, no loop.
    EXPECT_NEAR(dubins(s, ahead, r).length, d, 1e-9 * 100) << what;
    EXPECT_NEAR(dubins(s, ahead, r, DubinsWords::Csc).length, d, 1e-9 * 100) << what;
    EXPECT_NEAR(reeds_shepp(s, ahead, r).length, d, 1e-9 * 100) << what;
    EXPECT_NEAR(pose_to_point(s, ahead.position(), r).length, d, 1e-9 * 100) << what;
    // Straight behind: Reeds-Shepp backs up; Dubins must turn round (dense search).
    EXPECT_NEAR(reeds_shepp(s, behind, r).length, d, 1e-9 * 100) << describe(s, behind, r);
    double dense = INFINITY;
    for (const DubinsWord w : kDubinsWords) dense = std::min(dense, dense_word(s, behind, r, w));
    expect_rel(dubins(s, behind, r).length, dense, 1e-9, describe(s, behind, r));
    expect_reaches(dubins(s, behind, r), behind, "behind");
    expect_reaches(reeds_shepp(s, behind, r), behind, "rs behind");
  }
  EXPECT_EQ(reeds_shepp({0, 0, 0}, {-3, 0, 0}, 1).word(), "S-");
  EXPECT_EQ(pose_to_point({0, 0, 0}, {5, 0}, 1).word(), "LS");  // zero arc kept in the word
}

// acos(1 - u^2 / 8) rounds to acos(1) = 0 once u^2 / 8 falls below 1e-16: the middle arcs
// vanish and the path no longer reaches the goal. 2 asin(u / 4) keeps the digits.
TEST(Curves, TrapNearIdenticalPosesReedsShepp) {
  double prev = 0;
  for (const double eps : {1e-12, 1e-10, 1e-8, 1e-6, 1e-4}) {
    for (const double h : {0.0, 0.7, 2.0, -2.5}) {
      const Pose a{3, 4, h};
      const Pose lateral{3 - eps * std::sin(h), 4 + eps * std::cos(h), h};
      const Pose turned{3, 4, h + eps};
      for (const Pose& b : {lateral, turned}) {
        const Curve c = reeds_shepp(a, b, 1);
        ASSERT_TRUE(c.ok());
        const Pose e = c.end();
        EXPECT_LE(std::hypot(e.x - b.x, e.y - b.y), 1e-3 * eps + 1e-14) << describe(a, b, 1);
        EXPECT_LE(angle_diff(e.heading, b.heading), 1e-3 * eps + 1e-14) << describe(a, b, 1);
        EXPECT_GT(c.length, 0);
        EXPECT_LE(c.length, 10 * std::sqrt(eps));
      }
    }
    // A lateral shift costs about sqrt(eps) (Reeds-Shepp is sub-Riemannian): strictly growing.
    const double len = reeds_shepp({0, 0, 0}, {0, eps, 0}, 1).length;
    EXPECT_GT(len, prev);
    prev = len;
  }
}

TEST(Curves, TrapNeverNaN) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u01(0, 1);
  auto wild = [&] {
    const double m = std::pow(10.0, -300 + 600 * u01(rng));
    return (u01(rng) < 0.5 ? -m : m) * (u01(rng) < 0.1 ? 0.0 : 1.0);
  };
  const int n = kRandomPairs / 5;
  int ok = 0;
  for (int i = 0; i < n; ++i) {
    const int mode = i % 4;
    const Pose a{mode == 0 ? wild() : 0.0, mode == 0 ? wild() : 0.0, wild()};
    const Pose b{mode < 2 ? wild() : u01(rng), mode < 2 ? wild() : u01(rng),
                 mode == 3 ? u01(rng) : wild()};
    const double r = mode == 3 ? 1.0 : std::abs(wild());
    for (const Curve& c : {dubins(a, b, r), dubins(a, b, r, DubinsWords::Csc), reeds_shepp(a, b, r),
                           pose_to_point(a, b.position(), r)}) {
      ASSERT_FALSE(std::isnan(c.length)) << describe(a, b, r);
      if (!c.ok()) continue;
      ++ok;
      ASSERT_TRUE(std::isfinite(c.length)) << describe(a, b, r);
      for (const CurveSegment& s : c.used()) ASSERT_TRUE(std::isfinite(s.length));
      const Pose e = c.end();
      ASSERT_FALSE(std::isnan(e.x) || std::isnan(e.y) || std::isnan(e.heading));
    }
  }
  EXPECT_GT(ok, n);  // most inputs are in range
  const Pose o{0, 0, 0};
  for (const double bad : {NAN, INFINITY, -INFINITY}) {
    EXPECT_EQ(dubins({bad, 0, 0}, o, 1).status, CurveStatus::BadInput);
    EXPECT_EQ(dubins(o, {0, 0, bad}, 1).status, CurveStatus::BadInput);
    EXPECT_EQ(reeds_shepp(o, {bad, 1, 0}, 1).status, CurveStatus::BadInput);
    EXPECT_EQ(reeds_shepp(o, o, bad).status, CurveStatus::BadInput);
    EXPECT_EQ(pose_to_point(o, {1, bad}, 1).status, CurveStatus::BadInput);
  }
  EXPECT_EQ(dubins(o, o, 0).status, CurveStatus::BadInput);
  EXPECT_EQ(dubins(o, o, -1).status, CurveStatus::BadInput);
  EXPECT_EQ(dubins(o, {1e300, 0, 0}, 1e-300).status, CurveStatus::BadInput);  // ratio 1e600
}

TEST(Curves, PoseToPointInsideTheTurningCircle) {
  // Start at the origin facing east; the right circle's centre is (0, 1) (y down).
  const Curve right = pose_to_point({0, 0, 0}, {0.2, 1.1}, 1, TurnSide::Right);
  EXPECT_EQ(right.status, CurveStatus::InsideTurningCircle);
  EXPECT_FALSE(right.ok());
  EXPECT_STREQ(curve_status_text(right.status), "the point lies inside the turning circle");
  // Turning left reaches it.
  const Curve left = pose_to_point({0, 0, 0}, {0.2, 1.1}, 1, TurnSide::Left);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(pose_to_point({0, 0, 0}, {0.2, 1.1}, 1).word(), "LS");
  expect_rel(left.length, dense_to_point({0, 0, 0}, {0.2, 1.1}, 1, false), 1e-9, "left");
  // On the circle: the arc alone (a quarter turn to (1, 1), facing south).
  const Curve on = pose_to_point({0, 0, 0}, {1, 1}, 1, TurnSide::Right);
  ASSERT_TRUE(on.ok());
  EXPECT_NEAR(on.length, kPi / 2, 1e-12);
  // Behind: half a turn and more, either way the same by symmetry.
  EXPECT_NEAR(pose_to_point({0, 0, 0}, {-5, 0}, 1, TurnSide::Left).length,
              pose_to_point({0, 0, 0}, {-5, 0}, 1, TurnSide::Right).length, 1e-12);
  expect_rel(pose_to_point({0, 0, 0}, {-5, 0}, 1).length,
             dense_to_point({0, 0, 0}, {-5, 0}, 1, true), 1e-9, "behind");
}

TEST(Curves, ConventionRightTurnIsClockwiseOnScreen) {
  // y grows down: from the origin facing east, a right turn heads south (+y).
  const Curve c = dubins({0, 0, 0}, {1, 1, kPi / 2}, 1);
  ASSERT_EQ(c.count, 3);
  EXPECT_EQ(c.segments[0].steer, Steer::Right);
  const std::vector<PathPiece> pieces = c.pieces();
  ASSERT_EQ(pieces.size(), 1u);
  ASSERT_EQ(pieces[0].kind, PathPiece::Kind::Arc);
  EXPECT_NEAR(pieces[0].arc.center.y, 1, 1e-15);
  EXPECT_GT(pieces[0].arc.sweep, 0);  // clockwise on screen
  EXPECT_FALSE(pieces[0].reverse);
  const Pose mid = c.pose_at(kPi / 4);
  EXPECT_NEAR(mid.x, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(mid.y, 1 - std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(mid.heading, kPi / 4, 1e-12);
  // Left: north-east, towards -y.
  const Curve l = dubins({0, 0, 0}, {1, -1, -kPi / 2}, 1);
  EXPECT_EQ(l.word(), "LSL");
  EXPECT_NEAR(l.length, kPi / 2, 1e-12);
}

TEST(Curves, ReedsSheppGearChangesArePiecesWithTheReverseFlag) {
  // A three-point-turn-like case: facing east, end a little ahead facing west.
  const Pose a{0, 0, 0}, b{0.5, 0, kPi};
  const Curve c = reeds_shepp(a, b, 1);
  ASSERT_TRUE(c.ok());
  EXPECT_LT(c.length, dubins(a, b, 1).length);
  bool any_reverse = false;
  for (const CurveSegment& s : c.used()) any_reverse |= s.length < 0;
  EXPECT_TRUE(any_reverse);
  EXPECT_NE(c.word().find('-'), std::string::npos);
  const std::vector<PathPiece> pieces = c.pieces();
  bool flagged = false;
  for (const PathPiece& p : pieces) flagged |= p.reverse;
  EXPECT_TRUE(flagged);
  // The pieces join up: each one starts where the previous ended, facing the same way.
  for (size_t i = 1; i < pieces.size(); ++i) {
    const Pose e = piece_end_pose(pieces[i - 1]), s = piece_start_pose(pieces[i]);
    EXPECT_NEAR(e.x, s.x, 1e-12);
    EXPECT_NEAR(e.y, s.y, 1e-12);
    EXPECT_LE(angle_diff(e.heading, s.heading), 1e-9);
  }
  expect_reaches(c, b, "three-point");
}

TEST(Curves, PoseAlongFollowsListingTwo) {
  // A line east of length 2, then a forward right quarter arc of radius 2 about (2, 2), then
  // the same arc driven back in reverse.
  std::vector<PathPiece> path(3);
  path[0].kind = PathPiece::Kind::Line;
  path[0].line = {{0, 0}, {2, 0}};
  path[1].kind = PathPiece::Kind::Arc;
  path[1].arc = Arc{{2, 2}, 2, -kPi / 2, kPi / 2};
  path[2].kind = PathPiece::Kind::Arc;
  path[2].arc = Arc{{2, 2}, 2, 0, -kPi / 2};
  path[2].reverse = true;
  EXPECT_NEAR(path_length(path), 2 + 2 * kPi, 1e-12);
  Pose p = pose_along(path, 1);
  EXPECT_NEAR(p.x, 1, 1e-15);
  EXPECT_NEAR(p.heading, 0, 1e-15);
  p = pose_along(path, 2 + kPi / 2);  // half the arc: 45 degrees round, facing south-east
  EXPECT_NEAR(p.x, 2 + std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(p.y, 2 - std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(p.heading, kPi / 4, 1e-12);
  p = pose_along(path, 2 + kPi);  // the end of the arc: (4, 2) facing south
  EXPECT_NEAR(p.x, 4, 1e-12);
  EXPECT_NEAR(p.heading, kPi / 2, 1e-12);
  p = pose_along(path, 2 + 1.5 * kPi);  // backing up the same arc: still facing along it
  EXPECT_NEAR(p.x, 2 + std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(p.heading, kPi / 4, 1e-12);
  p = pose_along(path, 100);  // clamped to the end: back at the arc's start, facing east
  EXPECT_NEAR(p.x, 2, 1e-12);
  EXPECT_NEAR(p.y, 0, 1e-12);
  EXPECT_LE(angle_diff(p.heading, 0), 1e-12);
  p = pose_along(path, -1);
  EXPECT_EQ(p.x, 0);
  // On curves, walking the pieces agrees with the curve's own sampling everywhere.
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int i = 0; i < 2000; ++i) {
    const RandomPair rp = random_pair(rng);
    const Curve c = i % 2 ? reeds_shepp(rp.a, rp.b, rp.r) : dubins(rp.a, rp.b, rp.r);
    const std::vector<PathPiece> pieces = c.pieces();
    if (pieces.empty()) continue;
    const double s = u01(rng) * c.length;
    const Pose x = c.pose_at(s), y = pose_along(pieces, s);
    EXPECT_NEAR(x.x, y.x, 1e-9 * (1 + std::abs(x.x)));
    EXPECT_NEAR(x.y, y.y, 1e-9 * (1 + std::abs(x.y)));
  }
}

}  // namespace
}  // namespace pl

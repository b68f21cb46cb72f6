// Turning-radius curves. All word formulas work in a normalised frame: the start pose at the
// origin heading along +x, lengths in turning radii, and y mirrored so that the usual
// mathematical orientation holds (a left turn, counter-clockwise on screen, increases the
// angle there). The mirror is the only place where pathlab's y-down, clockwise convention meets
// the textbook one; every result is handed back as screen-sense Steer values and map units.
// docs/curves.md explains the words and the traps (goal on the turning circle, CCC middle
// circles, near-identical poses, NaN).
#include "core/curves.hpp"

#include "core/atan2.hpp"

#include <cmath>

namespace pl {
namespace {

constexpr double kHalfPi = kPi / 2;
// Beyond this distance / radius ratio squares overflow: BadInput rather than inf or NaN.
constexpr double kMaxRatio = 1e150;

// [0, 2 pi). An angle within `snap` below a full turn is a zero angle that rounding pushed below
// zero: the "goal on the turning circle" trap, where wrapping -1e-17 gives a whole extra loop.
inline double mod2pi(double a, double snap) {
  if (a < 0 && a > -kTwoPi)
    a += kTwoPi;
  else if (!(a >= 0 && a < kTwoPi)) {
    a = std::fmod(a, kTwoPi);
    if (a < 0) a += kTwoPi;
  }
  return a > kTwoPi - snap ? 0.0 : a;
}

// (-pi, pi].
inline double wrap_pi(double a) {
  if (a > kPi) {
    a -= kTwoPi;
    if (a > kPi) a = std::remainder(a, kTwoPi);
  } else if (a <= -kPi) {
    a += kTwoPi;
    if (a <= -kPi) a = std::remainder(a, kTwoPi);
  }
  return a == -kPi ? kPi : a;
}

inline double hyp(double x, double y) {
  return std::sqrt(x * x + y * y);
}

// The goal in the start's frame, normalised and mirrored (see the file comment).
struct Local {
  double x = 0, y = 0, phi = 0, s = 0, c = 1;  // s, c: sin and cos of phi
  // What rounding of the inputs can blur, in radii (and radians): 1e-14 of the coordinates'
  // size over the radius. Below it two centres are one, an angle is zero, a word's sign
  // constraint holds, a segment is empty. It is this small so that near-identical poses keep
  // their digits (a fixed 1e-10 would swallow a 1e-10 offset).
  double tol = 1e-14;
};

bool finite_pose(const Pose& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.heading);
}

bool to_local(const Pose& a, double bx, double by, double bh, double r, Local& l) {
  if (!finite_pose(a) || !std::isfinite(bx) || !std::isfinite(by) || !std::isfinite(bh) ||
      !(r > 0) || !std::isfinite(r))
    return false;
  const double dx = (bx - a.x) / r, dy = (by - a.y) / r;
  if (!(std::abs(dx) <= kMaxRatio && std::abs(dy) <= kMaxRatio)) return false;
  const double h0 = normalize_angle(a.heading);
  const double ch = std::cos(h0), sh = std::sin(h0);
  l.x = dx * ch + dy * sh;
  l.y = -(-dx * sh + dy * ch);
  l.phi = -wrap_pi(normalize_angle(bh) - h0);
  ::sincos(l.phi, &l.s, &l.c);
  const double m =
      std::max(std::max(std::abs(a.x), std::abs(a.y)), std::max(std::abs(bx), std::abs(by)));
  l.tol = std::min(1e-14 * (1 + m / r), 1e-6);
  return true;
}

Curve bad_input(const Pose& a, double r) {
  Curve c;
  c.status = CurveStatus::BadInput;
  c.start = a;
  c.radius = r;
  return c;
}

// Normalised segment: steer in the screen sense (the mirror makes a textbook L a screen left).
struct NSeg {
  Steer steer;
  double len;  // radii, signed
};

// Segments shorter than `tol` radii are rounding residue: made exactly empty.
Curve make_curve(const Pose& a, double r, const NSeg* segs, int n, double tol) {
  Curve c;
  c.status = CurveStatus::Ok;
  c.start = a;
  c.radius = r;
  c.count = n;
  double total = 0;
  for (int i = 0; i < n; ++i) {
    const double len = std::abs(segs[i].len) < tol ? 0.0 : segs[i].len;
    c.segments[size_t(i)] = {segs[i].steer, len * r};
    total += std::abs(len);
  }
  c.length = total * r;
  return c;
}

// ---- Dubins words in the normalised frame: fills t, u, v (u is the middle arc for CCC) ----

struct Tuv {
  double t = 0, u = 0, v = 0;
  double total() const { return t + u + v; }
};

// Centres closer than this are the same circle: the line between them has no direction, and
// the arc angles are chosen so that no spurious loop appears.
inline double same_centre_eps(const Local& l) {
  return 10 * l.tol;
}

// The vectors between end circles that the words share: LSL and LRL join the start's left
// circle (0, 1) to the goal's left circle, RSR and RLR the two right circles. Their length is
// needed for the lower bounds, their angle (an atan2) only by a word that is evaluated.
struct Centres {
  double x = 0, y = 0, d = 0, eps = 0;
  double ang = 0;
  bool have = false;
  Centres(const Local& l, double dx, double dy)
      : x(dx), y(dy), d(hyp(dx, dy)), eps(same_centre_eps(l)) {}
  double angle() {
    if (!have) ang = d > eps ? atan2_fast(y, x) : 0.0, have = true;
    return ang;
  }
};
inline Centres left_centres(const Local& l) {
  return {l, l.x - l.s, l.y - 1 + l.c};
}
inline Centres right_centres(const Local& l) {
  return {l, l.x + l.s, l.y + 1 - l.c};
}

// Each word: false when it does not exist or cannot be shorter than `bound` (checked before
// the costly part).
bool dubins_lsl(const Local& l, Centres& k, Tuv& o) {
  o.u = k.d;
  o.t = mod2pi(k.angle(), l.tol);
  o.v = mod2pi(l.phi - k.angle(), l.tol);
  return true;
}

bool dubins_rsr(const Local& l, Centres& k, Tuv& o) {
  o.u = k.d;
  o.t = mod2pi(-k.angle(), l.tol);
  o.v = mod2pi(k.angle() - l.phi, l.tol);
  return true;
}

// The line leaves at angle(D) +- atan2(2, u): one atan2 of D rotated by (u, +-2).
bool dubins_lsr(const Local& l, double bound, Tuv& o) {
  const double dx = l.x + l.s, dy = l.y - 1 - l.c;
  const double d = hyp(dx, dy);
  if (d < 2 - l.tol) return false;
  o.u = d > 2 ? std::sqrt((d - 2) * (d + 2)) : 0.0;
  if (o.u >= bound) return false;
  const double th = atan2_fast(dx * 2 + dy * o.u, dx * o.u - dy * 2);
  o.t = mod2pi(th, l.tol);
  o.v = mod2pi(th - l.phi, l.tol);
  return true;
}

bool dubins_rsl(const Local& l, double bound, Tuv& o) {
  const double dx = l.x - l.s, dy = l.y + 1 + l.c;
  const double d = hyp(dx, dy);
  if (d < 2 - l.tol) return false;
  o.u = d > 2 ? std::sqrt((d - 2) * (d + 2)) : 0.0;
  if (o.u >= bound) return false;
  const double th = atan2_fast(dy * o.u - dx * 2, dx * o.u + dy * 2);
  o.t = mod2pi(-th, l.tol);
  o.v = mod2pi(l.phi - th, l.tol);
  return true;
}

// CCC: the middle circle (radius 1, centre 2 from both end circles' centres) sits on either
// side of the line between them; each gives a path of the word, and the shorter is kept. The
// isosceles triangle of the three centres gives the middle arc without another atan2.
bool dubins_lrl(const Local& l, Centres& k, Tuv& o) {
  if (k.d > 4 + l.tol) return false;
  const double base = k.angle(), alpha = std::acos(std::min(k.d / 4, 1.0));
  bool have = false;
  for (const double sg : {1.0, -1.0}) {
    Tuv c;
    c.t = mod2pi(base + sg * alpha + kHalfPi, l.tol);
    c.u = mod2pi(kPi + 2 * sg * alpha, l.tol);
    c.v = mod2pi(l.phi - 1.5 * kPi - base + sg * alpha, l.tol);
    if (!have || c.total() < o.total()) o = c;
    have = true;
  }
  return true;
}

bool dubins_rlr(const Local& l, Centres& k, Tuv& o) {
  if (k.d > 4 + l.tol) return false;
  const double base = k.angle(), alpha = std::acos(std::min(k.d / 4, 1.0));
  bool have = false;
  for (const double sg : {1.0, -1.0}) {
    Tuv c;
    c.t = mod2pi(kHalfPi - base - sg * alpha, l.tol);
    c.u = mod2pi(-kPi - 2 * sg * alpha, l.tol);
    c.v = mod2pi(base - sg * alpha + kHalfPi - l.phi, l.tol);
    if (!have || c.total() < o.total()) o = c;
    have = true;
  }
  return true;
}

constexpr Steer L = Steer::Left, R = Steer::Right, S = Steer::Straight;
// Steering of each word, in DubinsWord order.
constexpr Steer kDubinsSteer[6][3] = {{L, S, L}, {R, S, R}, {L, S, R},
                                      {R, S, L}, {R, L, R}, {L, R, L}};

bool solve_dubins_word(const Local& l, DubinsWord w, double bound, Centres& left, Centres& right,
                       Tuv& o) {
  switch (w) {
    case DubinsWord::LSL:
      return dubins_lsl(l, left, o);
    case DubinsWord::RSR:
      return dubins_rsr(l, right, o);
    case DubinsWord::LSR:
      return dubins_lsr(l, bound, o);
    case DubinsWord::RSL:
      return dubins_rsl(l, bound, o);
    case DubinsWord::RLR:
      return dubins_rlr(l, right, o);
    case DubinsWord::LRL:
      return dubins_lrl(l, left, o);
  }
  return false;
}

Curve dubins_curve(const Pose& a, double r, DubinsWord w, const Tuv& p, double tol) {
  const Steer* st = kDubinsSteer[int(w)];
  const NSeg segs[3] = {{st[0], p.t}, {st[1], p.u}, {st[2], p.v}};
  return make_curve(a, r, segs, 3, tol);
}

// ---- Reeds-Shepp (Reeds & Shepp 1990, formulas 8.1-8.11, in the normalised frame) ----

struct RsBest {
  double tol;  // Local::tol
  NSeg segs[5];
  int n = 0;
  double total = std::numeric_limits<double>::infinity();
};

// The base problem (x, y, phi) and its time-flipped and reflected variants share their vectors
// between end circles up to sign: with A = (x - s, y - 1 + c) (start's left circle to the
// goal's left circle), B = (x + s, y - 1 - c) (to the goal's right circle), P = (x + s,
// y + 1 - c) and Q = (x - s, y + 1 + c), the four variants (x, y, phi), (-x, y, -phi),
// (x, -y, -phi), (-x, -y, phi) have A = A, mirror(A), conj(P), -P and B = B, mirror(B),
// conj(Q), -Q. The backward problem's vectors are these four reflected in the line at angle
// phi / 2 (M = [c s; s -c]): its A, P, B, Q are M A, M P, M Q, M B, so their lengths are the
// same four and their angles phi - angle(v). So four atan2 give all eight problems' angles,
// and the problems come in pairs of equal lengths, whose further atan2 and asin (a word's
// rotation or middle arc, which depend only on a length) are shared too: slot 0 of a length
// is |A| or |B|, slot 1 |P| or |Q|. Everything is computed on first use, after a word's cheap
// lower bound.
struct RsShared {
  double phi;                 // the base problem's
  double len_a[2], len_b[2];  // |A|, |P|; |B|, |Q|
  double vec_a[2][2], vec_b[2][2];
  double ang_a[2], ang_b[2];
  bool have_a[2] = {false, false}, have_b[2] = {false, false};
  enum { kLsr, kLrl, kLrsl, kLrlrAu, kLrlrA, kLrlrBu, kLrlrB, kLrslr, kRots };
  double rot[kRots][2];
  bool have_rot[kRots][2] = {};

  RsShared(double x, double y, double ph, double s, double c) : phi(ph) {
    vec_a[0][0] = x - s;
    vec_a[0][1] = y - 1 + c;
    vec_a[1][0] = x + s;
    vec_a[1][1] = y + 1 - c;
    vec_b[0][0] = x + s;
    vec_b[0][1] = y - 1 - c;
    vec_b[1][0] = x - s;
    vec_b[1][1] = y + 1 + c;
    for (int i = 0; i < 2; ++i) {
      len_a[i] = hyp(vec_a[i][0], vec_a[i][1]);
      len_b[i] = hyp(vec_b[i][0], vec_b[i][1]);
    }
  }
  double base_a(int i) {
    if (!have_a[i]) ang_a[i] = atan2_fast(vec_a[i][1], vec_a[i][0]), have_a[i] = true;
    return ang_a[i];
  }
  double base_b(int i) {
    if (!have_b[i]) ang_b[i] = atan2_fast(vec_b[i][1], vec_b[i][0]), have_b[i] = true;
    return ang_b[i];
  }
  // `slot`: which length the value depends on (RsProblem::ia or ib).
  template <class F>
  double rotation(int which, int slot, F f) {
    if (!have_rot[which][slot]) rot[which][slot] = f(), have_rot[which][slot] = true;
    return rot[which][slot];
  }
};

// One variant k (0..3) of the base problem or, with `back`, of the backward one (the word read
// backwards). ia, ib: the slots of its A and B vectors in RsShared.
struct RsProblem {
  RsShared* sh;
  int k;
  double phi;
  bool flip, swap, back;
  int ia, ib;
  RsProblem(RsShared* s, int kk, bool b)
      : sh(s),
        k(kk),
        phi(kk == 1 || kk == 2 ? -s->phi : s->phi),
        flip(kk & 1),
        swap(kk & 2),
        back(b),
        ia(kk >> 1),
        ib(b ? 1 - (kk >> 1) : kk >> 1) {}
  double ad() const { return sh->len_a[ia]; }
  double bd() const { return sh->len_b[ib]; }
  static double variant_angle(int k, double base) {
    switch (k) {
      case 0:
        return base;
      case 1:
        return wrap_pi(kPi - base);
      case 2:
        return wrap_pi(-base);
      default:
        return wrap_pi(base + kPi);
    }
  }
  double base(double a) const { return back ? wrap_pi(sh->phi - a) : a; }
  double angle_a() const { return variant_angle(k, base(sh->base_a(ia))); }
  double angle_b() const { return variant_angle(k, base(sh->base_b(ib))); }
};

inline Steer swapped(Steer s) {
  return s == Steer::Left ? Steer::Right : s == Steer::Right ? Steer::Left : s;
}

template <int N>
void offer(RsBest& best, const RsProblem& p, const Steer (&st)[N], const double (&len)[N]) {
  double total = 0;
  for (int i = 0; i < N; ++i) total += std::abs(len[i]);
  if (!(total < best.total)) return;
  best.total = total;
  best.n = N;
  for (int i = 0; i < N; ++i) {
    const int k = p.back ? N - 1 - i : i;
    best.segs[i] = {p.swap ? swapped(st[k]) : st[k], p.flip ? -len[k] : len[k]};
  }
}

// Each base formula offers what it finds. Lengths a word requires to be >= 0 (or <= 0) are
// clamped once inside the tolerance, so a rounding residue never shows as a gear change.

// CSC, same turns (8.1).
void rs_lsl(const RsProblem& p, RsBest& b) {
  const double u = p.ad();
  // The arcs turn the heading by phi in all: |t| + |w| >= |phi| (and likewise below).
  if (u + std::abs(p.phi) >= b.total) return;
  const double t = u > 10 * b.tol ? p.angle_a() : 0.0;
  const double w = wrap_pi(p.phi - t);
  if (t >= -b.tol && w >= -b.tol) {
    static constexpr Steer st[3] = {L, S, L};
    offer(b, p, st, {std::max(t, 0.0), u, std::max(w, 0.0)});
  }
}

// CSC, opposite turns (8.2): the line leaves at angle(B) + atan2(2, u).
void rs_lsr(const RsProblem& p, RsBest& b) {
  const double d = p.bd();
  if (d < 2 - b.tol) return;
  const double u = d > 2 ? std::sqrt((d - 2) * (d + 2)) : 0.0;
  if (u + std::abs(p.phi) >= b.total) return;
  const double t = wrap_pi(
      p.angle_b() + p.sh->rotation(RsShared::kLsr, p.ib, [u] { return atan2_fast(2.0, u); }));
  const double w = wrap_pi(t - p.phi);
  if (t >= -b.tol && w >= -b.tol) {
    static constexpr Steer st[3] = {L, S, R};
    offer(b, p, st, {std::max(t, 0.0), u, std::max(w, 0.0)});
  }
}

// C|C|C and C|CC (8.3). 2 asin(d / 4), not acos(1 - d^2 / 8): the latter loses every digit
// when the poses nearly coincide.
void rs_lrl(const RsProblem& p, RsBest& b) {
  const double d = p.ad();
  if (d > 4 + b.tol || d / 2 >= b.total) return;  // |u| >= d / 2
  const double u =
      p.sh->rotation(RsShared::kLrl, p.ia, [d] { return -2 * asin_fast(std::min(d / 4, 1.0)); });
  if (-u + std::abs(wrap_pi(p.phi + u)) >= b.total) return;  // t - u + w = phi
  const double t = wrap_pi((d > 10 * b.tol ? p.angle_a() : 0.0) + u / 2 + kPi);
  const double w = wrap_pi(p.phi - t + u);
  if (t >= -b.tol && u <= b.tol) {
    static constexpr Steer st[3] = {L, R, L};
    offer(b, p, st, {std::max(t, 0.0), std::min(u, 0.0), w});
  }
}

// The first arc of 8.7 and 8.8 once the middle ones are known ("tau"), from sin and cos of the
// middle arcs: (su, cu) of u, (sd, cd) of u - v, cv of v. The atan2 of the textbook form is
// angle(B) + atan2(-(cu - cd - 1), su - sd), the second term shared by a pair of variants.
inline double rs_tau(const RsProblem& p, int which, double su, double cu, double sd, double cd,
                     double cv) {
  const double A = su - sd, B = cu - cd - 1;
  const double t1 = p.angle_b() + p.sh->rotation(which, p.ib, [A, B] { return atan2_fast(-B, A); });
  const double t2 = 2 * (cd - cv - cu) + 3;
  return t2 < 0 ? wrap_pi(t1 + kPi) : wrap_pi(t1);
}

// CCu|CuC (8.7): cos u = (2 + |B|) / 4, u written as 2 asin(sqrt((2 - |B|) / 8)) to keep its
// digits near u = 0; u - v = 2u.
void rs_lrlr_a(const RsProblem& p, RsBest& b) {
  const double d = p.bd();
  if (d > 2) return;
  const double u = p.sh->rotation(RsShared::kLrlrAu, p.ib,
                                  [d] { return 2 * asin_fast(std::sqrt((2 - d) / 8)); });
  if (2 * u + std::abs(wrap_pi(p.phi + 2 * u)) >= b.total) return;  // t - 2u - w = phi
  const double cu = (2 + d) / 4, su = std::sqrt((1 - cu) * (1 + cu));
  const double t = rs_tau(p, RsShared::kLrlrA, su, cu, 2 * su * cu, 2 * cu * cu - 1, cu);
  const double w = wrap_pi(t - 2 * u - p.phi);
  if (t >= -b.tol && w <= b.tol) {
    static constexpr Steer st[4] = {L, R, L, R};
    offer(b, p, st, {std::max(t, 0.0), u, -u, std::min(w, 0.0)});
  }
}

// C|CuCu|C (8.8): cos u = (20 - |B|^2) / 16, u = -2 asin(sqrt((|B|^2 - 4) / 32)); u - v = 0.
void rs_lrlr_b(const RsProblem& p, RsBest& b) {
  const double d = p.bd();
  const double w2 = (d - 2) * (d + 2) / 32;
  if (w2 < 0 || w2 > 0.5) return;  // u in [-pi/2, 0]
  const double h = std::sqrt(w2);
  const double u = p.sh->rotation(RsShared::kLrlrBu, p.ib, [h] { return -2 * asin_fast(h); });
  if (-2 * u + std::abs(p.phi) >= b.total) return;  // t - w = phi
  const double cu = 1 - 2 * w2, su = -2 * h * std::sqrt(1 - w2);
  const double t = rs_tau(p, RsShared::kLrlrB, su, cu, 0.0, 1.0, cu);
  const double w = wrap_pi(t - p.phi);
  if (t >= -b.tol && w >= -b.tol) {
    static constexpr Steer st[4] = {L, R, L, R};
    offer(b, p, st, {std::max(t, 0.0), u, u, std::max(w, 0.0)});
  }
}

// C|C(pi/2)SC (8.9). After L(t) R(-pi/2) S(u) the last circle meets the goal's left circle
// when A = (2 - u) e(t - pi/2) - 2 e(t), e(a) = (cos a, sin a): |A| gives u, and
// t = angle(A) - atan2(-(2 - u), -2).
void rs_lrsl(const RsProblem& p, RsBest& b) {
  const double d = p.ad();
  if (d < 2) return;
  const double r = std::sqrt((d - 2) * (d + 2));
  const double u = 2 - r;
  // t + pi/2 + w = phi
  if (kHalfPi + std::abs(u) + std::abs(wrap_pi(p.phi - kHalfPi)) >= b.total) return;
  const double t = wrap_pi(
      p.angle_a() - p.sh->rotation(RsShared::kLrsl, p.ia, [r] { return atan2_fast(-r, -2.0); }));
  const double w = wrap_pi(p.phi - kHalfPi - t);
  if (t >= -b.tol && u <= b.tol && w <= b.tol) {
    static constexpr Steer st[4] = {L, R, S, L};
    offer(b, p, st, {std::max(t, 0.0), -kHalfPi, std::min(u, 0.0), std::min(w, 0.0)});
  }
}

// C|C(pi/2)SC, the other turn at the end (8.10): t = angle(B) + pi/2.
void rs_lrsr(const RsProblem& p, RsBest& b) {
  const double d = p.bd();
  if (d < 2) return;
  const double u = 2 - d;
  // t + pi/2 - w = phi
  if (kHalfPi + std::abs(u) + std::abs(wrap_pi(p.phi - kHalfPi)) >= b.total) return;
  const double t = wrap_pi(p.angle_b() + kHalfPi);
  const double w = wrap_pi(t + kHalfPi - p.phi);
  if (t >= -b.tol && u <= b.tol && w <= b.tol) {
    static constexpr Steer st[4] = {L, R, S, R};
    offer(b, p, st, {std::max(t, 0.0), -kHalfPi, std::min(u, 0.0), std::min(w, 0.0)});
  }
}

// C|C(pi/2)SC(pi/2)|C (8.11): t = angle(B) + atan2(4 - u, -2).
void rs_lrslr(const RsProblem& p, RsBest& b) {
  const double d = p.bd();
  if (d < 2) return;
  const double u = 4 - std::sqrt((d - 2) * (d + 2));
  if (u > b.tol || kPi + std::abs(u) + std::abs(p.phi) >= b.total) return;  // t - w = phi
  const double t = wrap_pi(p.angle_b() + p.sh->rotation(RsShared::kLrslr, p.ib,
                                                        [u] { return atan2_fast(4 - u, -2.0); }));
  const double w = wrap_pi(t - p.phi);
  if (t >= -b.tol && w >= -b.tol) {
    static constexpr Steer st[5] = {L, R, S, L, R};
    offer(b, p, st, {std::max(t, 0.0), -kHalfPi, std::min(u, 0.0), -kHalfPi, std::max(w, 0.0)});
  }
}

}  // namespace

const char* curve_status_text(CurveStatus s) {
  switch (s) {
    case CurveStatus::Ok:
      return "ok";
    case CurveStatus::NoSuchPath:
      return "no path of this word";
    case CurveStatus::InsideTurningCircle:
      return "the point lies inside the turning circle";
    case CurveStatus::BadInput:
      return "bad input (non-finite value, radius <= 0, or distance / radius beyond 1e150)";
  }
  return "?";
}

const char* dubins_word_name(DubinsWord w) {
  static constexpr const char* kNames[6] = {"LSL", "RSR", "LSR", "RSL", "RLR", "LRL"};
  return kNames[int(w)];
}

std::string Curve::word() const {
  if (!ok()) return {};
  bool gears = false;
  for (const CurveSegment& s : used()) gears |= s.length < 0;
  std::string w;
  for (const CurveSegment& s : used()) {
    w += s.steer == Steer::Left ? 'L' : s.steer == Steer::Right ? 'R' : 'S';
    if (gears) w += s.length < 0 ? '-' : '+';
  }
  return w;
}

namespace {

// Drives `len` (signed) from p. Arcs rotate p about the turning centre; the chord is written
// with sin^2(dh / 2) so a tiny arc keeps its digits.
Pose advance(Pose p, Steer st, double len, double r) {
  const double ch = std::cos(p.heading), sh = std::sin(p.heading);
  if (st == Steer::Straight) {
    p.x += len * ch;
    p.y += len * sh;
    return p;
  }
  const double sg = st == Steer::Right ? 1.0 : -1.0;
  const double dh = sg * len / r;
  // p - centre = sg * r * (sin h, -cos h); rotating it by dh.
  const double ox = sg * r * sh, oy = -sg * r * ch;
  const double sd = std::sin(dh), hs = std::sin(dh / 2);
  const double cm1 = -2 * hs * hs;
  p.x += ox * cm1 - oy * sd;
  p.y += ox * sd + oy * cm1;
  p.heading = normalize_angle(p.heading + dh);
  return p;
}

}  // namespace

Pose Curve::pose_at(double s) const {
  Pose p = start;
  p.heading = normalize_angle(p.heading);
  if (!ok()) return p;
  double rem = std::max(0.0, std::min(s, length));
  for (const CurveSegment& seg : used()) {
    const double a = std::abs(seg.length);
    if (rem >= a) {
      p = advance(p, seg.steer, seg.length, radius);
      rem -= a;
    } else {
      return advance(p, seg.steer, std::copysign(rem, seg.length), radius);
    }
  }
  return p;
}

void Curve::append_pieces(std::vector<PathPiece>& out) const {
  if (!ok()) return;
  Pose p = start;
  p.heading = normalize_angle(p.heading);
  for (const CurveSegment& seg : used()) {
    if (seg.length == 0) continue;
    const Pose q = advance(p, seg.steer, seg.length, radius);
    PathPiece piece;
    piece.reverse = seg.length < 0;
    if (seg.steer == Steer::Straight) {
      piece.kind = PathPiece::Kind::Line;
      piece.line = {{p.x, p.y}, {q.x, q.y}};
    } else {
      const double sg = seg.steer == Steer::Right ? 1.0 : -1.0;
      piece.kind = PathPiece::Kind::Arc;
      piece.arc.center = {p.x - sg * radius * std::sin(p.heading),
                          p.y + sg * radius * std::cos(p.heading)};
      piece.arc.radius = radius;
      piece.arc.start_angle = normalize_angle(p.heading - sg * kHalfPi);
      piece.arc.sweep = sg * seg.length / radius;
    }
    out.push_back(piece);
    p = q;
  }
}

Curve pose_to_point(const Pose& start, Vec2 target, double radius, TurnSide side) {
  Local l;
  if (!to_local(start, target.x, target.y, 0.0, radius, l)) return bad_input(start, radius);
  Curve best;
  best.start = start;
  best.radius = radius;
  bool inside = false;
  for (const Steer st : {Steer::Left, Steer::Right}) {
    if (side == TurnSide::Left && st != Steer::Left) continue;
    if (side == TurnSide::Right && st != Steer::Right) continue;
    // Mirrored frame: the left circle's centre is (0, 1), the right one's (0, -1).
    const double sg = st == Steer::Left ? 1.0 : -1.0;
    const double px = l.x, py = l.y - sg;
    const double h = hyp(px, py);
    if (h < 1 - l.tol) {
      inside = true;
      continue;
    }
    const double d = h > 1 ? std::sqrt((h - 1) * (h + 1)) : 0.0;
    // The target is the tangent point rotated on along the line: P - C = rot(th) (d, -sg).
    const double th = std::atan2(py, px) + sg * std::atan2(1.0, d);
    const double t = mod2pi(sg * th, l.tol);
    if (t + d < best.length / radius) {
      const NSeg segs[2] = {{st, t}, {Steer::Straight, d}};
      best = make_curve(start, radius, segs, 2, l.tol);
    }
  }
  if (!best.ok() && inside) best.status = CurveStatus::InsideTurningCircle;
  return best;
}

Curve dubins_word(const Pose& a, const Pose& b, double radius, DubinsWord w) {
  Local l;
  if (!to_local(a, b.x, b.y, b.heading, radius, l)) return bad_input(a, radius);
  Tuv p;
  Centres left = left_centres(l), right = right_centres(l);
  if (!solve_dubins_word(l, w, std::numeric_limits<double>::infinity(), left, right, p)) {
    Curve c;
    c.start = a;
    c.radius = radius;
    return c;
  }
  return dubins_curve(a, radius, w, p, l.tol);
}

Curve dubins(const Pose& a, const Pose& b, double radius, DubinsWords words) {
  Local l;
  if (!to_local(a, b.x, b.y, b.heading, radius, l)) return bad_input(a, radius);
  Centres left = left_centres(l), right = right_centres(l);
  // Lower bounds that cost a sqrt at most, so that the atan2 and acos of most words are never
  // paid: a CSC word is at least its line, plus the net turn its arcs must make (same turns:
  // t + v = phi mod 2 pi with both in [0, 2 pi); opposite turns: |t - v| = |phi| mod 2 pi); a
  // CCC word at least the straight distance.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double turn = std::abs(l.phi);      // l.phi is in [-pi, pi)
  auto inner = [&](double dx, double dy) {  // the inner tangent's length, or inf
    const double d = hyp(dx, dy);
    return d < 2 - l.tol ? kInf : d > 2 ? std::sqrt((d - 2) * (d + 2)) : 0.0;
  };
  const double straight = hyp(l.x, l.y);
  const bool ccc = words == DubinsWords::All;
  struct Cand {
    double bound;
    DubinsWord w;
  };
  Cand cand[6] = {{left.d + mod2pi(l.phi, l.tol), DubinsWord::LSL},
                  {right.d + mod2pi(-l.phi, l.tol), DubinsWord::RSR},
                  {inner(l.x + l.s, l.y - 1 - l.c) + turn, DubinsWord::LSR},
                  {inner(l.x - l.s, l.y + 1 + l.c) + turn, DubinsWord::RSL},
                  {ccc && right.d <= 4 + l.tol ? straight : kInf, DubinsWord::RLR},
                  {ccc && left.d <= 4 + l.tol ? straight : kInf, DubinsWord::LRL}};
  // The lower of LSL and RSR first (one of them is usually the answer or close to it).
  if (cand[1].bound < cand[0].bound) std::swap(cand[0], cand[1]);
  Tuv best, p;
  best.t = kInf;
  DubinsWord word = DubinsWord::LSL;
  for (const Cand& c : cand) {
    if (!(c.bound < best.total())) continue;  // the first one (LSL or RSR) always exists
    if (solve_dubins_word(l, c.w, best.total(), left, right, p) && p.total() < best.total()) {
      best = p;
      word = c.w;
    }
  }
  return dubins_curve(a, radius, word, best, l.tol);
}

Curve reeds_shepp(const Pose& a, const Pose& b, double radius) {
  Local l;
  if (!to_local(a, b.x, b.y, b.heading, radius, l)) return bad_input(a, radius);
  RsBest best{l.tol, {}, 0, std::numeric_limits<double>::infinity()};
  const double x = l.x, y = l.y, phi = l.phi, s = l.s, c = l.c;
  // The base problem under time-flip and reflection, then the backward problem (a path read in
  // reverse order with the same lengths joins the origin to (x cos phi + y sin phi,
  // x sin phi - y cos phi, phi): the reversed drive seen from the goal, time-flipped).
  RsShared sh(x, y, phi, s, c);
  const RsProblem fw[4] = {{&sh, 0, false}, {&sh, 1, false}, {&sh, 2, false}, {&sh, 3, false}};
  const RsProblem bw[4] = {{&sh, 0, true}, {&sh, 1, true}, {&sh, 2, true}, {&sh, 3, true}};
  // Cheap, often short families first, so the lower bounds of the others prune more.
  for (const RsProblem& p : fw) rs_lsl(p, best);  // CSC
  for (const RsProblem& p : fw) rs_lsr(p, best);
  for (const RsProblem& p : fw) rs_lrl(p, best);  // CCC
  for (const RsProblem& p : bw) rs_lrl(p, best);
  for (const RsProblem& p : fw) rs_lrlr_a(p, best);  // CCCC
  for (const RsProblem& p : fw) rs_lrlr_b(p, best);
  for (const RsProblem& p : fw) rs_lrsl(p, best);  // CCSC
  for (const RsProblem& p : fw) rs_lrsr(p, best);
  for (const RsProblem& p : bw) rs_lrsl(p, best);
  for (const RsProblem& p : bw) rs_lrsr(p, best);
  for (const RsProblem& p : fw) rs_lrslr(p, best);  // CCSCC
  // Zero-length segments say nothing about gears: "S-" for a straight reverse, not "L+S-L+".
  NSeg kept[5];
  int n = 0;
  for (int i = 0; i < best.n; ++i)
    if (best.segs[i].len != 0) kept[n++] = best.segs[i];
  return make_curve(a, radius, kept, n, l.tol);
}

Pose piece_start_pose(const PathPiece& p) {
  if (p.kind == PathPiece::Kind::Line) {
    const Vec2 d = p.line.b - p.line.a;
    return {p.line.a.x, p.line.a.y,
            normalize_angle(std::atan2(d.y, d.x) + (p.reverse ? kPi : 0.0))};
  }
  const Vec2 s = p.arc.start();
  const double travel = p.arc.start_angle + (p.arc.sweep > 0 ? kHalfPi : -kHalfPi);
  return {s.x, s.y, normalize_angle(travel + (p.reverse ? kPi : 0.0))};
}

Pose piece_end_pose(const PathPiece& p) {
  if (p.kind == PathPiece::Kind::Line) {
    Pose q = piece_start_pose(p);
    q.x = p.line.b.x;
    q.y = p.line.b.y;
    return q;
  }
  const double a = p.arc.end_angle();
  const double travel = a + (p.arc.sweep > 0 ? kHalfPi : -kHalfPi);
  const Vec2 e = p.arc.point_at(a);
  return {e.x, e.y, normalize_angle(travel + (p.reverse ? kPi : 0.0))};
}

double path_length(std::span<const PathPiece> pieces) {
  double total = 0;
  for (const PathPiece& p : pieces) total += p.length();
  return total;
}

// Listing 2: walk the pieces, subtracting each length, until s falls inside one.
Pose pose_along(std::span<const PathPiece> pieces, double s) {
  double rem = std::max(0.0, s);
  for (size_t i = 0; i < pieces.size(); ++i) {
    const PathPiece& p = pieces[i];
    const double len = p.length();
    if (rem >= len && i + 1 < pieces.size()) {
      rem -= len;
      continue;
    }
    if (rem >= len) return piece_end_pose(p);
    Pose q = piece_start_pose(p);
    if (p.kind == PathPiece::Kind::Line) {
      const double f = len > 0 ? rem / len : 0.0;
      q.x = p.line.a.x + (p.line.b.x - p.line.a.x) * f;
      q.y = p.line.a.y + (p.line.b.y - p.line.a.y) * f;
      return q;
    }
    const double a = p.arc.start_angle + std::copysign(rem / p.arc.radius, p.arc.sweep);
    const Vec2 e = p.arc.point_at(a);
    const double travel = a + (p.arc.sweep > 0 ? kHalfPi : -kHalfPi);
    return {e.x, e.y, normalize_angle(travel + (p.reverse ? kPi : 0.0))};
  }
  return {};
}

}  // namespace pl

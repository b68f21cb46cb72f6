// atan2 and asin for the curve formulas' inner loops (issue 11: a Reeds-Shepp query pays about
// ten of them, and the C library's atan2 costs some 120 instructions each, with its error
// handling wrappers). Accurate to a few units in the last place, not correctly rounded: the
// curves are checked to 1e-9 relative, and tests/test_curves.cpp checks these two against the
// C library on millions of arguments and on the special values.
//
// Method: fold the argument into z = min / max of |y|, |x| in [0, 1]; pick the nearest of the
// nine points c = k / 8 and use atan(z) = atan(c) + atan((z - c) / (1 + z c)), whose argument
// is at most 1/16 in size; there the odd Taylor series to r^13 is exact to about 1e-19 relative
// (the first dropped term is r^15 / 15). Zeros, infinities and NaN go to the C library, which
// knows their signed-zero rules.
#pragma once

#include <cmath>

namespace pl {

namespace detail {
// atan(k / 8), k = 0..8, correctly rounded.
inline constexpr double kAtanEighths[9] = {
    0.0,
    0x1.fd5ba9aac2f6ep-4,
    0x1.f5b75f92c80ddp-3,
    0x1.6f61941e4def1p-2,
    0x1.dac670561bb4fp-2,
    0x1.1e00babdefeb4p-1,
    0x1.4978fa3269ee1p-1,
    0x1.700a7c5784634p-1,
    0x1.921fb54442d18p-1,
};

// atan(z) for z in [0, 1].
inline double atan_unit(double z) {
  const int k = int(z * 8 + 0.5);
  const double c = k * 0.125;
  const double r = (z - c) / (1 + z * c);
  const double r2 = r * r;
  const double p =
      1 +
      r2 * (-1.0 / 3 +
            r2 * (1.0 / 5 + r2 * (-1.0 / 7 + r2 * (1.0 / 9 + r2 * (-1.0 / 11 + r2 * (1.0 / 13))))));
  return kAtanEighths[k] + r * p;
}
}  // namespace detail

// Same quadrant and sign rules as std::atan2; (-pi, pi].
inline double atan2_fast(double y, double x) {
  const double ax = std::abs(x), ay = std::abs(y);
  const bool steep = ay > ax;
  const double num = steep ? ax : ay, den = steep ? ay : ax;
  // den == 0 (both zero, signed-zero rules), not finite (inf / inf), or a NaN anywhere (the
  // table index must not be taken from a NaN).
  if (!(den > 0 && den < INFINITY && num <= den)) return std::atan2(y, x);
  double a = detail::atan_unit(num / den);
  if (steep) a = 0x1.921fb54442d18p0 - a;            // pi / 2 - a
  if (std::signbit(x)) a = 0x1.921fb54442d18p1 - a;  // pi - a
  return std::signbit(y) ? -a : a;
}

// asin(h) for h in [-1, 1], as the angle of (sqrt(1 - h^2), h): exact near 0 and near +-1
// (where 1 - h^2 is written (1 - h)(1 + h)).
inline double asin_fast(double h) {
  return atan2_fast(h, std::sqrt((1 - h) * (1 + h)));
}

}  // namespace pl

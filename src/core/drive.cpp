#include "core/drive.hpp"

#include <algorithm>
#include <cmath>

#include "core/curves.hpp"

namespace pl {

bool drive_limits_valid(const DriveLimits& l) {
  auto ok = [](double v) { return std::isfinite(v) && v > 0; };
  return ok(l.max_speed) && ok(l.accel) && ok(l.lateral_accel);
}

namespace {

double heading_jump(const PathPiece& a, const PathPiece& b) {
  const double d = normalize_angle(piece_start_pose(b).heading - piece_end_pose(a).heading);
  return std::min(d, kTwoPi - d);
}

}  // namespace

DriveProfile::DriveProfile(std::span<const PathPiece> pieces, const DriveLimits& limits) {
  if (!drive_limits_valid(limits)) return;
  // Zero-length pieces carry no motion; drop them (their heading only matters at a corner,
  // which the neighbours' headings show).
  for (const PathPiece& p : pieces) {
    const double len = p.length();
    if (std::isfinite(len) && len > 0) pieces_.push_back(p);
  }
  if (pieces_.empty()) return;
  const std::size_t n = pieces_.size();
  const double a = limits.accel;
  std::vector<double> cap(n), len(n);
  for (std::size_t i = 0; i < n; ++i) {
    len[i] = pieces_[i].length();
    cap[i] = limits.max_speed;
    if (pieces_[i].kind == PathPiece::Kind::Arc)
      cap[i] = std::min(cap[i], std::sqrt(limits.lateral_accel * pieces_[i].arc.radius));
    length_ += len[i];
  }
  // Junction speeds: 0 at both ends, at gear changes and at corners.
  junction_.assign(n + 1, 0.0);
  for (std::size_t k = 1; k < n; ++k) {
    const PathPiece& p = pieces_[k - 1];
    const PathPiece& q = pieces_[k];
    if (p.reverse != q.reverse || heading_jump(p, q) > kDriveCornerTolerance) {
      ++stops_;
      continue;
    }
    junction_[k] = std::min(cap[k - 1], cap[k]);
  }
  for (std::size_t k = 1; k <= n; ++k)  // forward pass: can we get there that fast?
    junction_[k] = std::min(junction_[k], std::sqrt(junction_[k - 1] * junction_[k - 1] +
                                                    2 * a * len[k - 1]));
  for (std::size_t k = n; k-- > 0;)  // backward pass: can we brake in time?
    junction_[k] =
        std::min(junction_[k], std::sqrt(junction_[k + 1] * junction_[k + 1] + 2 * a * len[k]));

  // Each piece: speed up from w0 to the peak, cruise, brake to w1.
  double t = 0, s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w0 = junction_[i], w1 = junction_[i + 1];
    const double peak =
        std::max({w0, w1, std::min(cap[i], std::sqrt((w0 * w0 + w1 * w1) / 2 + a * len[i]))});
    const double s_up = std::clamp((peak * peak - w0 * w0) / (2 * a), 0.0, len[i]);
    const double s_down = std::clamp((peak * peak - w1 * w1) / (2 * a), 0.0, len[i] - s_up);
    const double s_cruise = std::max(0.0, len[i] - s_up - s_down);
    const double t_up = (peak - w0) / a, t_down = (peak - w1) / a;
    const double t_cruise = peak > 0 ? s_cruise / peak : 0.0;
    if (t_up > 0) legs_.push_back({t, s, w0, a, t_up});
    t += t_up;
    s += s_up;
    if (t_cruise > 0) legs_.push_back({t, s, peak, 0.0, t_cruise});
    t += t_cruise;
    s += s_cruise;
    if (t_down > 0) legs_.push_back({t, s, peak, -a, t_down});
    t += t_down;
    s += s_down;
  }
  travel_time_ = t;
  if (legs_.empty()) pieces_.clear();
}

const DriveProfile::Leg* DriveProfile::leg_at(double t) const {
  if (legs_.empty()) return nullptr;
  auto it = std::upper_bound(legs_.begin(), legs_.end(), t,
                             [](double v, const Leg& l) { return v < l.t0; });
  return it == legs_.begin() ? &legs_.front() : &*std::prev(it);
}

double DriveProfile::distance_at(double t) const {
  const Leg* l = leg_at(t);
  if (!l) return 0;
  if (!(t > 0)) return 0;  // also NaN
  if (t >= travel_time_) return length_;
  const double dt = std::clamp(t - l->t0, 0.0, l->duration);
  return std::clamp(l->s0 + l->v0 * dt + 0.5 * l->a * dt * dt, 0.0, length_);
}

double DriveProfile::speed_at(double t) const {
  const Leg* l = leg_at(t);
  if (!l || !(t > 0) || t >= travel_time_) return 0;
  const double dt = std::clamp(t - l->t0, 0.0, l->duration);
  return std::max(0.0, l->v0 + l->a * dt);
}

Pose DriveProfile::pose_at(double t) const {
  return pose_along(pieces_, distance_at(t));
}

}  // namespace pl

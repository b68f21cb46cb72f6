// `pathlab-cli validate SCENE PATH.json`: an independent check that a path of lines and arcs (as
// `path --json` or `curve --json` print them) can be driven by an agent with a footprint and a
// turning radius on the scene's grid (issue 11, item 11).
//
// Independent on purpose: it shares no collision code with the planners (core/footprint.* and
// the turning planners' hit tables are not used). The method here is "critical parameters":
// along a piece (a line parametrised by t, an arc by its angle), whether the footprint overlaps a
// cell can only change where the piece crosses the boundary of the cell grown by the footprint
// (for a square of half side h: four lines; for a disc of radius R: four lines and four corner
// circles). All those crossings are computed, sorted, and the footprint is tested at every
// crossing and at the middle of every interval between them with an exact point test (Chebyshev
// or Euclidean distance from the agent's centre to the cell's box). Overlap means a shared area
// deeper than 1e-9 map units: grazing an edge is allowed. Cells outside the map are blocked.
//
// Checks, in order, each piece: finite numbers (else exit 2); starts where the previous piece
// ends (1e-6) with the same vehicle heading (1e-6 rad; a gear change keeps the heading); an arc's
// radius not below the turning radius (1e-9 relative); the footprint clear of blocked cells.
// Exit 1 names the first offending piece.
//
// --art K (fixed-angle character art, Pinter 2001): every piece must be a line along a multiple
// of 2 pi / K (1e-6 rad), and a kink between two pieces is allowed when it turns by at most one
// step of 2 pi / K (the sprite changes frame); arcs are refused.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "core/circle_raster.hpp"
#include "core/error.hpp"
#include "core/io.hpp"

namespace pl::cli {
namespace {

using nlohmann::json;

constexpr double kDepth = 1e-9;  // overlap deeper than this counts

struct ValidateOptions {
  std::string scene, path;
  std::optional<double> size, radius, turning_radius;
  std::string capability;
  std::string circles = "centre";
  int art = 0;
  bool json = false;
};

// One piece as read from the file, in its own words (the validator does not use PathPiece's
// helpers, so a mistake there cannot hide here).
struct Piece {
  bool arc = false;
  double ax = 0, ay = 0, bx = 0, by = 0;           // line
  double cx = 0, cy = 0, r = 0, start = 0, sweep = 0;  // arc
  bool reverse = false;

  double length() const { return arc ? std::abs(sweep) * r : std::hypot(bx - ax, by - ay); }
  // Position at parameter u in [0, 1].
  void at(double u, double& x, double& y) const {
    if (arc) {
      const double a = start + sweep * u;
      x = cx + r * std::cos(a);
      y = cy + r * std::sin(a);
    } else {
      x = ax + (bx - ax) * u;
      y = ay + (by - ay) * u;
    }
  }
  // Direction of travel at parameter u (radians), NaN for a zero-length piece.
  double travel(double u) const {
    if (arc) {
      if (sweep == 0) return NAN;
      const double a = start + sweep * u;
      // d/du of the position: sweep * r * (-sin a, cos a).
      return std::atan2(sweep * std::cos(a), -sweep * std::sin(a));
    }
    if (bx == ax && by == ay) return NAN;
    return std::atan2(by - ay, bx - ax);
  }
  // The vehicle's heading: the travel direction, turned round when driven backwards.
  double heading(double u) const { return travel(u) + (reverse ? M_PI : 0.0); }
};

std::string describe(const Piece& p, std::size_t i) {
  char buf[200];
  if (p.arc)
    std::snprintf(buf, sizeof buf, "piece %zu (arc centre (%.6g, %.6g) radius %.6g start %.6g sweep %.6g%s)",
                  i, p.cx, p.cy, p.r, p.start, p.sweep, p.reverse ? ", reverse" : "");
  else
    std::snprintf(buf, sizeof buf, "piece %zu (line (%.6g, %.6g) to (%.6g, %.6g)%s)", i, p.ax, p.ay,
                  p.bx, p.by, p.reverse ? ", reverse" : "");
  return buf;
}

double number(const json& v, const std::string& where) {
  if (!v.is_number()) throw InputError(where + " is not a number");
  const double d = v.get<double>();
  if (!std::isfinite(d) || std::abs(d) > 1e12) throw InputError(where + " is not a finite number");
  return d;
}

// `file` names the text's origin in messages.
std::vector<Piece> parse_pieces(const std::string& text, const std::string& file) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(file + ": not JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("pieces") || !j["pieces"].is_array())
    throw InputError(file + ": no \"pieces\" array (expected the output of `path --json`)");
  std::vector<Piece> out;
  std::size_t i = 0;
  for (const json& jp : j["pieces"]) {
    const std::string where = file + ": piece " + std::to_string(i);
    if (!jp.is_object()) throw InputError(where + " is not an object");
    Piece p;
    if (jp.contains("line")) {
      const json& l = jp["line"];
      if (!l.is_array() || l.size() != 4) throw InputError(where + ": \"line\" is not [ax, ay, bx, by]");
      p.ax = number(l[0], where + " line[0]");
      p.ay = number(l[1], where + " line[1]");
      p.bx = number(l[2], where + " line[2]");
      p.by = number(l[3], where + " line[3]");
    } else if (jp.contains("arc")) {
      const json& a = jp["arc"];
      if (!a.is_object() || !a.contains("center") || !a["center"].is_array() ||
          a["center"].size() != 2 || !a.contains("radius") || !a.contains("start") ||
          !a.contains("sweep"))
        throw InputError(where + ": \"arc\" needs center [x, y], radius, start and sweep");
      p.arc = true;
      p.cx = number(a["center"][0], where + " arc centre x");
      p.cy = number(a["center"][1], where + " arc centre y");
      p.r = number(a["radius"], where + " arc radius");
      p.start = number(a["start"], where + " arc start");
      p.sweep = number(a["sweep"], where + " arc sweep");
      if (!(p.r > 0)) throw InputError(where + ": arc radius must be > 0");
      if (std::abs(p.sweep) > 64 * M_PI) throw InputError(where + ": arc sweep beyond 32 turns");
    } else {
      throw InputError(where + ": neither \"line\" nor \"arc\"");
    }
    if (jp.contains("reverse")) {
      if (!jp["reverse"].is_boolean()) throw InputError(where + ": \"reverse\" is not true/false");
      p.reverse = jp["reverse"].get<bool>();
    }
    out.push_back(p);
    ++i;
  }
  return out;
}

// The footprint's point test: does an agent centred at (x, y) share area (deeper than kDepth)
// with the cell [cx, cx + 1] x [cy, cy + 1]?
struct Agent {
  bool disc = true;
  double reach = 0.5;  // disc radius, or half the square's side
  bool overlaps(double x, double y, int cx, int cy) const {
    const double dx = std::max({double(cx) - x, x - double(cx + 1), 0.0});
    const double dy = std::max({double(cy) - y, y - double(cy + 1), 0.0});
    if (disc) return dx * dx + dy * dy < (reach - kDepth) * (reach - kDepth) && reach > kDepth;
    return std::max(dx, dy) < reach - kDepth;
  }
};

// Parameters u in [0, 1] where the piece crosses the boundary of cell (x, y) grown by the agent.
void crossings(const Piece& p, const Agent& ag, int x, int y, std::vector<double>& us) {
  const double e = ag.reach;
  const double xs[2] = {x - e, x + 1 + e}, ys[2] = {y - e, y + 1 + e};
  const auto keep = [&](double u) {
    if (u >= 0 && u <= 1) us.push_back(u);
  };
  // Arc angles -> u, every turn of the angle within the sweep.
  const auto keep_angle = [&](double a) {
    if (p.sweep == 0) return;
    const double turn = 2 * M_PI;
    double rel = (a - p.start) / p.sweep;  // u for this representative of the angle
    const double step = turn / std::abs(p.sweep);
    rel -= std::floor(rel / step) * step;  // smallest u >= 0 for this angle
    for (double u = rel; u <= 1; u += step) keep(u);
  };
  if (!p.arc) {
    const double dx = p.bx - p.ax, dy = p.by - p.ay;
    for (double c : xs)
      if (dx != 0) keep((c - p.ax) / dx);
    for (double c : ys)
      if (dy != 0) keep((c - p.ay) / dy);
    if (ag.disc) {
      const double a2 = dx * dx + dy * dy;
      if (a2 == 0) return;
      for (int cx : {x, x + 1})
        for (int cy : {y, y + 1}) {
          const double fx = p.ax - cx, fy = p.ay - cy;
          const double b = 2 * (fx * dx + fy * dy), c = fx * fx + fy * fy - e * e;
          const double disc = b * b - 4 * a2 * c;
          if (disc < 0) continue;
          const double s = std::sqrt(disc);
          keep((-b - s) / (2 * a2));
          keep((-b + s) / (2 * a2));
        }
    }
    return;
  }
  // Arc: the circle (cx, cy, r) against the lines and the corner circles.
  for (double c : xs) {
    const double v = (c - p.cx) / p.r;
    if (v < -1 || v > 1) continue;
    const double a = std::acos(v);
    keep_angle(a);
    keep_angle(-a);
  }
  for (double c : ys) {
    const double v = (c - p.cy) / p.r;
    if (v < -1 || v > 1) continue;
    const double a = std::asin(v);
    keep_angle(a);
    keep_angle(M_PI - a);
  }
  if (ag.disc) {
    for (int qx : {x, x + 1})
      for (int qy : {y, y + 1}) {
        const double dx = qx - p.cx, dy = qy - p.cy, d = std::hypot(dx, dy);
        if (d == 0 || d > p.r + e || d < std::abs(p.r - e)) continue;
        // Law of cosines: angle at the arc's centre between the corner and the crossing.
        const double cosv = std::clamp((p.r * p.r + d * d - e * e) / (2 * p.r * d), -1.0, 1.0);
        const double base = std::atan2(dy, dx), off = std::acos(cosv);
        keep_angle(base + off);
        keep_angle(base - off);
      }
  }
}

// Whether the agent swept along the piece overlaps cell (x, y).
bool piece_hits_cell(const Piece& p, const Agent& ag, int x, int y, std::vector<double>& us) {
  us.clear();
  us.push_back(0);
  us.push_back(1);
  crossings(p, ag, x, y, us);
  std::sort(us.begin(), us.end());
  double px, py;
  for (std::size_t i = 0; i < us.size(); ++i) {
    p.at(us[i], px, py);
    if (ag.overlaps(px, py, x, y)) return true;
    if (i + 1 < us.size()) {
      p.at(0.5 * (us[i] + us[i + 1]), px, py);
      if (ag.overlaps(px, py, x, y)) return true;
    }
  }
  return false;
}

// The bounding box of the piece (arcs: endpoints plus the axis extremes they pass).
void bounds(const Piece& p, double& x0, double& y0, double& x1, double& y1) {
  double px, py;
  p.at(0, x0, y0);
  x1 = x0;
  y1 = y0;
  const auto add = [&](double x, double y) {
    x0 = std::min(x0, x);
    x1 = std::max(x1, x);
    y0 = std::min(y0, y);
    y1 = std::max(y1, y);
  };
  p.at(1, px, py);
  add(px, py);
  if (p.arc) {
    if (std::abs(p.sweep) >= 2 * M_PI) {
      add(p.cx - p.r, p.cy - p.r);
      add(p.cx + p.r, p.cy + p.r);
    } else {
      const double lo = std::min(p.start, p.start + p.sweep), hi = std::max(p.start, p.start + p.sweep);
      for (double k = std::ceil(lo / (M_PI / 2)); k * (M_PI / 2) <= hi; k += 1) {
        const double a = k * (M_PI / 2);
        add(p.cx + p.r * std::cos(a), p.cy + p.r * std::sin(a));
      }
    }
  }
}

double angle_gap(double a, double b) {
  double d = std::fmod(std::abs(a - b), 2 * M_PI);
  return std::min(d, 2 * M_PI - d);
}

struct Verdict {
  double total = 0;     // length of the pieces checked
  std::string problem;  // empty: the path passes
  std::size_t bad = 0;  // the first offending piece
};

// The checks of the file comment, on pieces already read. `o` gives the footprint, turning
// radius, capability (empty: the scene's first agent's, else ground and swamp), circles, art.
Verdict check_pieces(const Scene& scene, const std::vector<Piece>& pieces,
                     const ValidateOptions& o) {
  const double turning = o.turning_radius.value_or(0.0);
  const CapabilityMask cap = o.capability.empty()
                                 ? (scene.agents.empty() ? scene.map.palette().movingai_default_capability()
                                                         : scene.capability_of(scene.agents[0]))
                                 : scene.map.palette().parse_capability(o.capability);
  const int w = scene.map.width(), h = scene.map.height();
  std::vector<std::uint8_t> circle_mask;
  if (o.circles != "ignore" && !scene.circles.empty()) {
    CircleRasterOptions ro;
    ro.rule = o.circles == "touch" ? CircleRasterRule::Touch : CircleRasterRule::Centre;
    circle_mask = circle_cell_mask(w, h, scene.circles, ro);
  }
  const auto blocked = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= w || y >= h) return true;
    if (!circle_mask.empty() && circle_mask[std::size_t(y) * std::size_t(w) + std::size_t(x)]) return true;
    return !scene.map.passable(x, y, cap);
  };
  std::vector<Agent> agents;
  if (o.radius) agents.push_back({true, *o.radius});
  if (o.size) agents.push_back({false, *o.size / 2});
  Verdict v;
  std::vector<double> us;
  for (std::size_t i = 0; i < pieces.size() && v.problem.empty(); ++i) {
    const Piece& p = pieces[i];
    v.total += p.length();
    if (i > 0) {
      const Piece& q = pieces[i - 1];
      double ex, ey, sx, sy;
      q.at(1, ex, ey);
      p.at(0, sx, sy);
      char buf[160];
      if (std::hypot(ex - sx, ey - sy) > 1e-6) {
        std::snprintf(buf, sizeof buf, ": starts at (%.9g, %.9g), not where piece %zu ends (%.9g, %.9g)",
                      sx, sy, i - 1, ex, ey);
        v.problem = describe(p, i) + buf;
        v.bad = i;
        break;
      }
      const double hq = q.heading(1), hp = p.heading(0);
      const double allowed = o.art ? 2 * M_PI / o.art + 1e-6 : 1e-6;
      if (std::isfinite(hq) && std::isfinite(hp) && angle_gap(hq, hp) > allowed) {
        std::snprintf(buf, sizeof buf,
                      ": starts with heading %.9g, piece %zu ends with %.9g (a kink: an infinitely "
                      "tight turn)",
                      hp, i - 1, hq);
        v.problem = describe(p, i) + buf;
        v.bad = i;
        break;
      }
    }
    if (o.art) {
      const double step = 2 * M_PI / o.art, hd = p.heading(0);
      const char* why = p.arc ? ": an arc (fixed-angle art draws only straight pieces)"
                        : std::isfinite(hd) && std::abs(std::remainder(hd, step)) > 1e-6
                            ? ": its heading is not one of the legal fixed-angle headings"
                            : nullptr;
      if (why) {
        v.problem = describe(p, i) + why;
        v.bad = i;
        break;
      }
    }
    if (p.arc && p.r < turning * (1 - 1e-9)) {
      char buf[120];
      std::snprintf(buf, sizeof buf, ": radius %.9g is tighter than the turning radius %.9g", p.r,
                    turning);
      v.problem = describe(p, i) + buf;
      v.bad = i;
      break;
    }
    double x0, y0, x1, y1;
    bounds(p, x0, y0, x1, y1);
    for (const Agent& ag : agents) {
      const int cx0 = int(std::floor(x0 - ag.reach)) - 1, cx1 = int(std::floor(x1 + ag.reach)) + 1;
      const int cy0 = int(std::floor(y0 - ag.reach)) - 1, cy1 = int(std::floor(y1 + ag.reach)) + 1;
      for (int y = cy0; y <= cy1 && v.problem.empty(); ++y)
        for (int x = cx0; x <= cx1 && v.problem.empty(); ++x) {
          if (!blocked(x, y) || !piece_hits_cell(p, ag, x, y, us)) continue;
          char buf[200];
          std::snprintf(buf, sizeof buf, ": the %s %.6g overlaps blocked cell (%d,%d)%s",
                        ag.disc ? "disc of radius" : "square of side",
                        ag.disc ? ag.reach : 2 * ag.reach, x, y,
                        (x < 0 || y < 0 || x >= w || y >= h) ? " (outside the map)" : "");
          v.problem = describe(p, i) + buf;
          v.bad = i;
        }
      if (!v.problem.empty()) break;
    }
  }
  return v;
}

int run_validate(const ValidateOptions& o) {
  if (!o.size && !o.radius)
    throw InputError(
        "validate: give the agent's footprint: --radius R (a disc) and/or --size S "
        "(an axis-aligned square of side S centred on the path)");
  if (o.size && !(*o.size > 0)) throw InputError("--size: must be > 0");
  if (o.radius && !(*o.radius > 0)) throw InputError("--radius: must be > 0");
  Scene scene = load_any(o.scene);
  const std::vector<Piece> pieces = parse_pieces(read_file(o.path, std::size_t(64) << 20), o.path);
  const Verdict v = check_pieces(scene, pieces, o);
  const double total = v.total, turning = o.turning_radius.value_or(0.0);
  const std::string& problem = v.problem;
  const std::size_t bad = v.bad;
  if (o.json) {
    json j;
    j["ok"] = problem.empty();
    j["pieces"] = pieces.size();
    j["length"] = total;
    if (!problem.empty()) {
      j["piece"] = bad;
      j["problem"] = problem;
    }
    std::printf("%s\n", j.dump(2).c_str());
  } else if (problem.empty()) {
    std::printf("ok: %zu pieces, length %.9g, clear of blocked cells, no turn tighter than %.9g\n",
                pieces.size(), total, turning);
  }
  if (!problem.empty()) {
    std::fprintf(stderr, "pathlab-cli: validate: %s: %s\n", o.path.c_str(), problem.c_str());
    return kFailed;
  }
  return kOk;
}

}  // namespace

std::string validate_path_text(const Scene& scene, const std::string& json_text,
                               const std::string& origin, double radius, double turning_radius) {
  ValidateOptions o;
  o.radius = radius;
  o.turning_radius = turning_radius;
  return check_pieces(scene, parse_pieces(json_text, origin), o).problem;
}

void add_validate_commands(CLI::App& app, std::vector<Command>& out) {
  auto o = std::make_shared<ValidateOptions>();
  auto* c = app.add_subcommand(
      "validate",
      "Check a path (the pieces of `path --json`) independently: connected, no kink, no arc "
      "tighter than the turning radius, the footprint clear of blocked cells; exit 1 names the "
      "first offending piece");
  c->add_option("scene", o->scene, "Map (.map), scene (.json) or PNG file")->required();
  c->add_option("path", o->path, "JSON with a \"pieces\" array (output of `path --json`)")->required();
  c->add_option("--size", o->size, "Footprint: an axis-aligned square of this side, centred");
  c->add_option("--radius", o->radius, "Footprint: a disc of this radius");
  c->add_option("--turning-radius", o->turning_radius, "No arc may be tighter (default 0)");
  c->add_option("--capability", o->capability,
                "Terrains the agent may enter (default: the scene's first agent, else ground,swamp)");
  c->add_option("--circles", o->circles, "The scene's circles as obstacles: centre, touch, ignore")
      ->check(CLI::IsMember({"centre", "touch", "ignore"}))
      ->capture_default_str();
  c->add_option("--art", o->art,
                "Fixed-angle art with this many headings: straight pieces at legal headings only, "
                "kinks of at most one heading step allowed")
      ->check(CLI::IsMember({8, 16}));
  c->add_flag("--json", o->json, "Machine-readable verdict");
  out.push_back({c, [o] { return run_validate(*o); }});
}

}  // namespace pl::cli

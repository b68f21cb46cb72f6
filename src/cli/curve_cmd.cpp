// `pathlab-cli curve`: one turning-radius curve (core/curves.hpp) between two poses (Dubins, or
// Reeds-Shepp with --reverse), or from a pose to a point (Pinter's arc then line) when --to has
// no heading. Headings in radians, 0 = east, clockwise on screen (y down).
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "core/curves.hpp"
#include "core/error.hpp"

namespace pl::cli {
namespace {

using nlohmann::json;

struct CurveOptions {
  std::string from, to, radius, words = "all", turn = "best";
  bool reverse = false;
  bool json = false;
};

// "X,Y" or "X,Y,H", all finite; `heading` says whether a third value was there.
Pose parse_curve_pose(const std::string& text, const char* option, bool& heading) {
  std::vector<double> v;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    char* stop = nullptr;
    const double d = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0' || !std::isfinite(d) || v.size() == 3)
      throw InputError(std::string(option) + ": '" + text +
                       "' is not X,Y,HEADING (finite numbers)");
    v.push_back(d);
    pos = end + 1;
  }
  if (v.size() < 2)
    throw InputError(std::string(option) + ": '" + text + "' is not X,Y,HEADING (finite numbers)");
  heading = v.size() == 3;
  return {v[0], v[1], heading ? v[2] : 0.0};
}

double parse_radius(const std::string& text) {
  char* stop = nullptr;
  const double r = std::strtod(text.c_str(), &stop);
  if (text.empty() || *stop != '\0' || !std::isfinite(r) || !(r > 0))
    throw InputError("--radius: '" + text + "' is not a finite number > 0");
  return r;
}

const char* steer_name(Steer s) {
  return s == Steer::Left ? "left" : s == Steer::Right ? "right" : "straight";
}

// The same piece format as `path --json`, plus `reverse`.
json pieces_json(const std::vector<PathPiece>& pieces) {
  json out = json::array();
  for (const PathPiece& p : pieces) {
    json j;
    if (p.kind == PathPiece::Kind::Line)
      j["line"] = {p.line.a.x, p.line.a.y, p.line.b.x, p.line.b.y};
    else
      j["arc"] = {{"center", {p.arc.center.x, p.arc.center.y}},
                  {"radius", p.arc.radius},
                  {"start", p.arc.start_angle},
                  {"sweep", p.arc.sweep}};
    j["reverse"] = p.reverse;
    out.push_back(j);
  }
  return out;
}

json pose_json(const Pose& p) {
  return json::array({p.x, p.y, p.heading});
}

int run_curve(const CurveOptions& o) {
  bool from_heading = false, to_heading = false;
  const Pose from = parse_curve_pose(o.from, "--from", from_heading);
  if (!from_heading) throw InputError("--from: '" + o.from + "' needs a heading: X,Y,HEADING");
  const Pose to = parse_curve_pose(o.to, "--to", to_heading);
  const double r = parse_radius(o.radius);
  const bool point = !to_heading;
  if (point && o.reverse)
    throw InputError("--reverse: needs a goal heading (--to X,Y,HEADING); a point has none");
  if (point && o.words != "all")
    throw InputError("--words: applies between two poses; --to '" + o.to + "' is a point");
  if (!point && o.turn != "best")
    throw InputError("--turn: applies to a point goal (--to X,Y); --to '" + o.to + "' is a pose");

  std::string mode;
  Curve c;
  if (point) {
    mode = "pose-to-point";
    const TurnSide side = o.turn == "left"    ? TurnSide::Left
                          : o.turn == "right" ? TurnSide::Right
                                              : TurnSide::Best;
    c = pose_to_point(from, to.position(), r, side);
  } else if (o.reverse) {
    mode = "reeds-shepp";
    c = reeds_shepp(from, to, r);
  } else {
    mode = o.words == "csc" ? "dubins-csc" : "dubins";
    c = dubins(from, to, r, o.words == "csc" ? DubinsWords::Csc : DubinsWords::All);
  }
  if (c.status == CurveStatus::BadInput)  // finite inputs: only a distance / radius beyond 1e150
    throw InputError(std::string("--radius: ") + curve_status_text(c.status));

  std::string message;
  if (!c.ok()) {
    const std::string circle =
        o.turn == "best" ? "both turning circles" : "the " + o.turn + " turning circle";
    char buf[256];
    std::snprintf(
        buf, sizeof buf,
        "(%g, %g) lies strictly inside %s (radius %g): an arc then a line cannot reach it", to.x,
        to.y, circle.c_str(), r);
    message = buf;
  }

  const std::vector<PathPiece> pieces = c.pieces();
  if (o.json) {
    json j;
    j["mode"] = mode;
    j["from"] = pose_json(from);
    j["to"] = point ? json::array({to.x, to.y}) : pose_json(to);
    j["radius"] = r;
    j["found"] = c.ok();
    if (!c.ok()) {
      j["message"] = message;
    } else {
      j["length"] = c.length;
      j["word"] = c.word();
      json segs = json::array();
      for (const CurveSegment& s : c.used())
        segs.push_back({{"steer", steer_name(s.steer)}, {"length", s.length}});
      j["segments"] = segs;
      j["pieces"] = pieces_json(pieces);
      j["end"] = pose_json(c.end());
    }
    if (mode == "dubins" || mode == "dubins-csc") {
      // Every word's own shortest length (null when the word cannot join the poses): what the
      // CCC words add when the poses are close.
      json words = json::object();
      for (const DubinsWord w : kDubinsWords) {
        const Curve wc = dubins_word(from, to, r, w);
        words[dubins_word_name(w)] = wc.ok() ? json(wc.length) : json(nullptr);
      }
      j["words"] = words;
    }
    std::printf("%s\n", j.dump(2).c_str());
  } else if (c.ok()) {
    std::printf("mode    %s\nword    %s\nlength  %.12g\n", mode.c_str(), c.word().c_str(),
                c.length);
    for (const PathPiece& p : pieces) {
      if (p.kind == PathPiece::Kind::Line)
        std::printf("  line  (%.9g, %.9g) -> (%.9g, %.9g)%s\n", p.line.a.x, p.line.a.y, p.line.b.x,
                    p.line.b.y, p.reverse ? "  reverse" : "");
      else
        std::printf("  arc   centre (%.9g, %.9g) radius %.9g start %.9g sweep %.9g%s\n",
                    p.arc.center.x, p.arc.center.y, p.arc.radius, p.arc.start_angle, p.arc.sweep,
                    p.reverse ? "  reverse" : "");
    }
    const Pose e = c.end();
    std::printf("end     (%.9g, %.9g, %.9g)\n", e.x, e.y, e.heading);
  }
  if (!c.ok()) {
    std::fprintf(stderr, "pathlab-cli: curve: %s\n", message.c_str());
    return kFailed;
  }
  return kOk;
}

}  // namespace

void add_curve_commands(CLI::App& app, std::vector<Command>& out) {
  auto o = std::make_shared<CurveOptions>();
  auto* c = app.add_subcommand(
      "curve",
      "Shortest turning-radius curve: Dubins between two poses (--reverse: Reeds-Shepp), or arc "
      "then line from a pose to a point (--to X,Y). Headings in radians, 0 = east, clockwise on "
      "screen (y down)");
  c->add_option("--from", o->from, "Start pose X,Y,HEADING")->required();
  c->add_option("--to", o->to, "Goal pose X,Y,HEADING, or a point X,Y")->required();
  c->add_option("--radius", o->radius, "Turning radius (map units, > 0)")->required();
  c->add_option("--words", o->words, "Dubins words: all six, or Pinter's four CSC words")
      ->check(CLI::IsMember({"all", "csc"}))
      ->capture_default_str();
  c->add_flag("--reverse", o->reverse, "Allow reversing: the shortest Reeds-Shepp curve");
  c->add_option("--turn", o->turn, "Point goal: turn left, right, or the shorter (best)")
      ->check(CLI::IsMember({"best", "left", "right"}))
      ->capture_default_str();
  c->add_flag("--json", o->json, "Machine-readable output (pieces as in `path --json`)");
  out.push_back({c, [o] { return run_curve(*o); }});
}

}  // namespace pl::cli

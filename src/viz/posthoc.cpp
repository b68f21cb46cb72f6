#include "viz/posthoc.hpp"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <vector>

namespace pl {

namespace {

// Written by hand rather than through a JSON DOM: a DOM of a million events would need several
// times the memory of the trace itself.
class Writer {
 public:
  explicit Writer(std::ostream& out) : out_(out) {}

  void raw(std::string_view s) { out_ << s; }
  void number(double v) {
    if (!std::isfinite(v)) {
      out_ << "null";  // JSON has no infinity: an unreached node's g
      return;
    }
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out_.write(buf, end - buf);
  }
  void integer(std::uint64_t v) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out_.write(buf, end - buf);
  }
  void string(std::string_view s) { out_ << nlohmann::json(std::string(s)).dump(); }

  void key(std::string_view k) {
    out_ << ",\"" << k << "\":";  // every event starts with "type", so a comma always precedes
  }
  void field(std::string_view k, double v) {
    key(k);
    number(v);
  }

  void points(const std::vector<Vec2>& pts) {
    key("points");
    out_ << '[';
    for (std::size_t i = 0; i < pts.size(); ++i) {
      out_ << (i ? ",{\"x\":" : "{\"x\":");
      number(pts[i].x);
      out_ << ",\"y\":";
      number(pts[i].y);
      out_ << '}';
    }
    out_ << ']';
  }

 private:
  std::ostream& out_;
};

void sample_arc(Vec2 c, double r, double start, double sweep, std::vector<Vec2>& out) {
  const int n = std::max(2, int(std::ceil(std::abs(sweep) / (kPi / 16))) + 1);
  for (int i = 0; i < n; ++i) {
    const double a = start + sweep * i / (n - 1);
    out.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
  }
}

const char* shape_kind_name(Shape::Kind k) {
  switch (k) {
    case Shape::Kind::Point:
      return "point";
    case Shape::Kind::Cell:
      return "cell";
    case Shape::Kind::Segment:
      return "segment";
    case Shape::Kind::Arc:
      return "arc";
    case Shape::Kind::Circle:
      return "circle";
    case Shape::Kind::Pose:
      return "pose";
    case Shape::Kind::Polyline:
      return "polyline";
  }
  return "?";
}

std::vector<Vec2> shape_points(const Shape& s) {
  std::vector<Vec2> p;
  switch (s.kind) {
    case Shape::Kind::Point:
      p = {s.a};
      break;
    case Shape::Kind::Cell:
      p = {s.a, s.a + Vec2{1, 0}, s.a + Vec2{1, 1}, s.a + Vec2{0, 1}, s.a};
      break;
    case Shape::Kind::Segment:
      p = {s.a, s.b};
      break;
    case Shape::Kind::Arc:
      sample_arc(s.a, s.radius, s.angle, s.sweep, p);
      break;
    case Shape::Kind::Circle:
      sample_arc(s.a, s.radius, 0, kTwoPi, p);
      break;
    case Shape::Kind::Pose:
      // A short stroke in the heading's direction, so the pose's orientation shows.
      p = {s.a, s.a + Vec2{0.5 * std::cos(s.angle), 0.5 * std::sin(s.angle)}};
      break;
    case Shape::Kind::Polyline:
      p = s.points;
      break;
  }
  return p;
}

std::vector<Vec2> path_points(std::span<const PathPiece> pieces) {
  std::vector<Vec2> p;
  auto add = [&](Vec2 v) {
    if (p.empty() || !(p.back() == v)) p.push_back(v);
  };
  for (const PathPiece& piece : pieces) {
    if (piece.kind == PathPiece::Kind::Line) {
      add(piece.line.a);
      add(piece.line.b);
    } else {
      std::vector<Vec2> arc;
      sample_arc(piece.arc.center, piece.arc.radius, piece.arc.start_angle, piece.arc.sweep, arc);
      for (Vec2 v : arc) add(v);
    }
  }
  return p;
}

// Posthoc draws what `views` say; these draw nodes as in pathlab's legend (open orange, closed
// blue), tests green or red for one step, marks purple and the path red.
constexpr std::string_view kViews = R"({"main":[
{"$":"circle","$if":"${{ $.type == 'generating' || $.type == 'updating' }}","x":"${{ $.x }}","y":"${{ $.y }}","radius":0.3,"fill":"#f5a623","clear":"expanding"},
{"$":"rect","$if":"${{ $.type == 'expanding' }}","x":"${{ $.x - 0.5 }}","y":"${{ $.y - 0.5 }}","width":1,"height":1,"fill":"#4a90e2","alpha":0.6},
{"$":"path","$if":"${{ $.type == 'test' }}","points":"${{ $.points }}","fill":"${{ $.ok ? '#7ed321' : '#d0021b' }}","line-width":0.08,"clear":true},
{"$":"path","$if":"${{ $.type == 'mark' }}","points":"${{ $.points }}","fill":"#9013fe","line-width":0.1},
{"$":"path","$if":"${{ $.type == 'path' }}","points":"${{ $.points }}","fill":"#d0021b","line-width":0.2}
]})";

}  // namespace

void write_posthoc(const Trace& trace, std::ostream& out) {
  Writer w(out);
  w.raw("{\"version\":\"1.4.0\",\n\"views\":");
  w.raw(kViews);
  w.raw(",\n\"events\":[");

  // What a node looks like so far: relax and close events carry only ids.
  struct Known {
    double g = INFINITY, h = 0;
    std::uint32_t parent = kNoNode;
    std::uint32_t desc = kNoNode;
  };
  std::vector<Known> known(trace.node_count());
  const auto descs = trace.descriptions();

  auto node_fields = [&](std::uint32_t n) {
    const Known& k = known[n];
    w.key("id");
    w.integer(trace.node_id(n));
    w.key("pId");
    if (k.parent == kNoNode)
      w.raw("null");
    else
      w.integer(trace.node_id(k.parent));
    // Positions, headings and levels through the node's declared space (a grid node named only
    // by relax or close still has its cell); a free point has what its description said.
    NodeInfo d;
    d.id = trace.node_id(n);
    d.space = trace.node_space(n);
    if (k.desc != kNoNode) d = descs[k.desc];
    if (k.desc != kNoNode || trace.space_of(d)) {
      const Vec2 p = trace.position_of(d);
      w.field("x", p.x);
      w.field("y", p.y);
      if (const double h = trace.heading_of(d); !std::isnan(h)) w.field("heading", h);
      if (const int level = trace.level_of(d); level != 0) w.field("level", level);
    }
    if (d.label != kNoLabel) {
      w.key("label");
      w.string(trace.labels()[d.label]);
    }
    w.field("g", k.g);
    w.field("h", k.h);
    w.field("f", k.g + k.h);
  };

  bool first = true;
  using K = TraceEvent::Kind;
  for (const TraceEvent& e : trace.events()) {
    w.raw(first ? "\n{\"type\":" : ",\n{\"type\":");
    first = false;
    switch (e.kind) {
      case K::Phase:
        w.raw("\"phase\"");
        w.key("name");
        w.string(trace.phase_name(e.a));
        break;
      case K::Open:
        known[e.a] = Known{e.x, e.y, e.b, e.c};
        w.raw("\"generating\"");
        node_fields(e.a);
        break;
      case K::Relax:
        known[e.a].g = e.x;
        known[e.a].parent = e.b;
        w.raw("\"updating\"");
        node_fields(e.a);
        break;
      case K::Close:
        w.raw("\"expanding\"");
        node_fields(e.a);
        break;
      case K::Test:
      case K::Mark: {
        const ShapeRecord& r = trace.shapes()[e.a];
        w.raw(r.is_test ? "\"test\"" : "\"mark\"");
        if (r.is_test) {
          w.key("ok");
          w.raw(r.ok ? "true" : "false");
        } else {
          w.key("role");
          w.string(role_name(r.role));
          if (const std::string_view meaning = trace.role_name(r.role); !meaning.empty()) {
            w.key("meaning");  // what the planner's marks of this role stand for
            w.string(meaning);
          }
        }
        w.key("shape");
        w.string(shape_kind_name(r.shape.kind));
        w.field("x", r.shape.a.x);
        w.field("y", r.shape.a.y);
        if (r.shape.kind == Shape::Kind::Circle || r.shape.kind == Shape::Kind::Arc)
          w.field("radius", r.shape.radius);
        if (r.shape.tag != kNoNode) w.field("tag", r.shape.tag);
        if (r.shape.level != 0) w.field("level", r.shape.level);
        w.points(shape_points(r.shape));
        break;
      }
      case K::Path: {
        const auto pieces = trace.path(e.a);
        double length = 0;
        for (const PathPiece& p : pieces) length += p.length();
        w.raw("\"path\"");
        w.field("length", length);
        w.points(path_points(pieces));
        break;
      }
      case K::Counter:
        w.raw("\"counter\"");
        w.key("name");
        w.string(trace.counter_name(e.a));
        w.field("value", e.x);
        break;
    }
    w.raw("}");
  }
  w.raw("\n]}\n");
}

std::string to_posthoc(const Trace& trace) {
  std::ostringstream s;
  write_posthoc(trace, s);
  return s.str();
}

}  // namespace pl

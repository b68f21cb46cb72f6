// The Planner interface and the registry that the app and the CLI both build from: a planner's
// name, family, whether it is optimal, its parameters (with types, ranges and defaults) and a
// factory. Nothing outside this registry knows which planners exist; each planner's own file adds
// it (PlannerRegistration below), so a new planner is one file pair plus its tests and docs.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/geometry.hpp"
#include "core/observer.hpp"
#include "core/search.hpp"  // RunContext
#include "core/scene.hpp"

namespace pl {

struct Query {
  Pose start, goal;  // map units; grid planners use the cells containing the points
  int size = 1;      // agent side in cells (Annotated A*, HAA*)
  CapabilityMask capability = 0;  // 0 = the palette's MovingAI default ({ground, swamp})
  double radius = 0.5;
  double turning_radius = 0.0;
  bool can_reverse = false;

  static Query from_agent(const Scene& scene, const Agent& a);
};

struct PlanResult {
  bool found = false;
  double length = 0;
  std::vector<Pose> points;      // waypoints in map units (cell centres for grid planners)
  std::vector<PathPiece> pieces; // lines and arcs; lengths add up to `length`
  std::uint64_t expanded = 0;
  std::uint64_t generated = 0;
  double time_ms = 0;             // the whole call, preparation included
  // Part of time_ms spent preparing the map for this kind of query (padded grid, clearance,
  // rasterised circles, an abstraction): paid once per map and agent, not per query.
  double prepare_ms = 0;
  size_t memory_bytes = 0;       // planner's working memory after the query
  bool cancelled = false;
  std::string message;           // why no path ("start is blocked"), or empty
  // The query itself is wrong for this planner (an endpoint outside the world it plans in), as
  // opposed to a query without a path: the CLI exits 2 on it.
  bool bad_query = false;
  // Planner-specific figures, e.g. expansions per phase.
  std::vector<std::pair<std::string, double>> stats;
  // What this run's length is, against an 8-connected optimum (MovingAI's scenario files), when
  // a planner's parameters change it (the registry's `optimal` is one flag per planner):
  // Grid8Optimal promises that optimum; AnyAngle paths join arbitrary points, so they may be
  // shorter and are not expected to match. Unknown: the registry's flag decides.
  enum class Metric : std::uint8_t { Unknown, Grid8Optimal, AnyAngle };
  Metric metric = Metric::Unknown;
};


class Planner {
 public:
  virtual ~Planner() = default;
  virtual PlanResult plan(const Scene& scene, const Query& query, const RunContext& ctx = {}) = 0;
  // Working memory held between queries (node pools, caches).
  virtual size_t memory_bytes() const { return 0; }
};

struct ParamDesc {
  enum class Type { Int, Double, Bool, Enum };
  std::string name;
  Type type = Type::Int;
  std::string description;
  double min = 0, max = 0;            // Int and Double
  std::string default_value;
  std::vector<std::string> choices;   // Enum
  // A few words a viewer shows instead of the name ("cluster side"); empty: the name, its
  // underscores read as spaces.
  std::string label;

  // Declarative constructors, so a planner's parameter list reads as data.
  static ParamDesc integer(std::string name, std::string description, double min, double max,
                           std::string def) {
    return {std::move(name), Type::Int, std::move(description), min, max, std::move(def), {}, {}};
  }
  static ParamDesc real(std::string name, std::string description, double min, double max,
                        std::string def) {
    return {std::move(name), Type::Double, std::move(description), min, max, std::move(def), {}, {}};
  }
  static ParamDesc boolean(std::string name, std::string description, std::string def) {
    return {std::move(name), Type::Bool, std::move(description), 0, 0, std::move(def), {}, {}};
  }
  static ParamDesc choice(std::string name, std::string description,
                          std::vector<std::string> choices, std::string def) {
    return {std::move(name), Type::Enum, std::move(description), 0, 0, std::move(def),
            std::move(choices), {}};
  }
  // ParamDesc::integer(...).labelled("cluster side")
  ParamDesc labelled(std::string words) && {
    label = std::move(words);
    return std::move(*this);
  }
  // The label, or the name in words.
  std::string words() const;
};
const char* param_type_name(ParamDesc::Type t);

// Checked parameter values: every parameter of the planner present, as text.
class ParamSet {
 public:
  ParamSet() = default;
  explicit ParamSet(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  const std::string& get(const std::string& name) const;
  int get_int(const std::string& name) const;
  double get_double(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// What of the agent a planner reads (the Query fields it uses), declared in its registration so a
// viewer can grey out agent settings that no planner on screen uses and say which planners do,
// without knowing any planner by name.
enum class AgentInput : unsigned {
  Capability = 1u << 0,     // which terrains it may cross
  Size = 1u << 1,           // side of the square agent in cells
  Radius = 1u << 2,         // radius of a round agent
  TurningRadius = 1u << 3,  // curved turns
  Headings = 1u << 4,       // start and goal headings
  Reverse = 1u << 5,        // may drive backwards
};
using AgentInputs = unsigned;
constexpr AgentInputs operator|(AgentInput a, AgentInput b) { return unsigned(a) | unsigned(b); }
constexpr AgentInputs operator|(AgentInputs a, AgentInput b) { return a | unsigned(b); }
constexpr bool reads(AgentInputs set, AgentInput a) { return (set & unsigned(a)) != 0; }

// The points a planner's queries join: cell centres (grid planners, MovingAI scenarios) or cell
// corners (any-angle planners, the competition's any-angle scenarios, Euclidean optima).
enum class QueryCoordinates { Cells, Corners };
const char* coordinates_name(QueryCoordinates c);

struct PlannerInfo {
  std::string name;         // short and stable: "astar", "annotated-astar", ...
  std::string family;       // "grid search", "multi-size", "continuous", ...
  std::string description;
  bool optimal = false;
  std::vector<ParamDesc> params;
  std::function<std::unique_ptr<Planner>(const ParamSet&)> make;
  AgentInputs agent_inputs = 0;  // what of the agent it reads
  QueryCoordinates coordinates = QueryCoordinates::Cells;  // what its queries' points are
};

class Registry {
 public:
  // Every planner pathlab ships with.
  static const Registry& builtin();

  void add(PlannerInfo info);
  // For a planner that is not optimal: an optimal planner of the registry answering the same
  // queries (same agent model), which viewers run to report "% over optimal".
  void set_reference(const std::string& planner, const std::string& optimal);
  // The reference of `planner`, or an empty string.
  std::string reference_of(const std::string& planner) const;
  const std::vector<PlannerInfo>& all() const { return planners_; }
  const PlannerInfo* find(const std::string& name) const;
  // The planners that read `input` of the agent, in listing order.
  std::vector<std::string> readers_of(AgentInput input) const;
  // Fills defaults and checks names, types and ranges; throws InputError naming the problem.
  ParamSet check(const PlannerInfo& info, const std::map<std::string, std::string>& values) const;
  // find + check + make; throws InputError for an unknown planner or a bad parameter.
  std::unique_ptr<Planner> create(const std::string& name,
                                  const std::map<std::string, std::string>& values = {}) const;

 private:
  std::vector<PlannerInfo> planners_;
  std::map<std::string, std::string> references_;
};

// How a planner joins the registry, from its own file and nobody else's:
//
//   namespace { const PlannerRegistration kRegistration(10, [](Registry& r) { r.add({...}); }); }
//
// Registry::builtin() calls every registration once, in ascending `order` (ties by the order the
// linker ran them in), so listings are stable: grid planners 10, HAA* 20, circles 30, ... . The
// program must link the planners library whole (pathlab_all_planners in CMake), since nothing
// else refers to a planner's file.
class PlannerRegistration {
 public:
  PlannerRegistration(int order, void (*add)(Registry&));
};

}  // namespace pl

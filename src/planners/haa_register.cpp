// Registers HAA* (planners/haa.hpp) as planner `haa`.
#include "planners/haa.hpp"

namespace pl {

namespace {

void add_haa(Registry& r) {
  r.add({"haa",
         "hierarchical",
         "HAA* (Harabor & Botea 2008): one clearance-annotated abstract graph of square clusters "
         "for agents of every size up to max_size and every terrain capability; insertion, "
         "abstract A*, refinement from cached paths. Near-optimal; the abstraction is built on "
         "the first query and reused while the map is unchanged",
         false,
         {ParamDesc::integer("cluster_size",
                    "Side of the square clusters in cells (the paper uses 10, 15, 20; 16 is the "
                    "fastest on the dao maps)",
                    2, 256, "16"),
          ParamDesc::choice("quality",
                     "initial: every edge; hq: strongly dominated edges removed (Theorem 6, "
                     "same optimal abstract paths); lq: clearances truncated to max_size and "
                     "weakly dominated transitions removed (Theorem 7, smaller, longer paths)",
                     {"initial", "hq", "lq"}, "hq"),
          ParamDesc::choice("transitions",
                     "paper: the first pair of an entrance with maximal clearance; middle: the "
                     "middle of the run of pairs with maximal clearance; spread: middle plus the "
                     "entrance's far end on entrances at least half a cluster long",
                     {"paper", "middle", "spread"}, "middle"),
          ParamDesc::integer("max_size", "The abstraction serves agent sizes 1..max_size", 1, 16, "2"),
          ParamDesc::boolean("smoothing", "Shortcut the refined path with octile-canonical stretches",
                     "false"),
          ParamDesc::choice("insertion",
                     "dijkstra: one search per cluster connects start (goal) to every abstract "
                     "node there; astar: one A* per abstract node (the paper); auto: whichever "
                     "promises fewer expansions in that cluster",
                     {"auto", "dijkstra", "astar"}, "auto"),
          ParamDesc::choice("show_graph",
                     "What a watched query on an already built abstraction shows of it: all "
                     "(filter by agent in the view), agent (only what this agent may use), none",
                     {"all", "agent", "none"}, "all"),
          circles_param()},
         [](const ParamSet& ps) {
           HaaParams p;
           p.cluster_size = ps.get_int("cluster_size");
           const std::string q = ps.get("quality");
           p.quality = q == "initial" ? HaaQuality::Initial
                       : q == "lq"    ? HaaQuality::Low
                                      : HaaQuality::High;
           const std::string t = ps.get("transitions");
           p.placement = t == "paper"    ? HaaPlacement::Paper
                         : t == "spread" ? HaaPlacement::Spread
                                         : HaaPlacement::Middle;
           p.sizes.clear();
           for (int s = 1; s <= ps.get_int("max_size"); ++s) p.sizes.push_back(s);
           HaaQueryOptions o;
           o.smoothing = ps.get_bool("smoothing");
           const std::string ins = ps.get("insertion");
           o.insertion = ins == "dijkstra" ? HaaQueryOptions::Insertion::Dijkstra
                         : ins == "astar"  ? HaaQueryOptions::Insertion::AStar
                                           : HaaQueryOptions::Insertion::Auto;
           const std::string g = ps.get("show_graph");
           o.graph = g == "all"     ? HaaQueryOptions::Graph::All
                     : g == "agent" ? HaaQueryOptions::Graph::Agent
                                    : HaaQueryOptions::Graph::None;
           return std::make_unique<HaaPlanner>(p, o, GridWorld(ps));
         }});
  // HAA* answers Annotated A*'s queries (size and capability) near-optimally.
  r.set_reference("haa", "annotated-astar");
}

const PlannerRegistration kRegistration(20, add_haa);

}  // namespace

}  // namespace pl

// Circle planner commands of pathlab-cli (issue 5): circles-bench. None yet.
#include <CLI/CLI.hpp>

#include "cli/cli.hpp"

namespace pl::cli {

void add_circles_commands(CLI::App& /*app*/, std::vector<Command>& /*out*/) {}

}  // namespace pl::cli

// HAA* commands of pathlab-cli (issue 4): abstraction, haa-experiment. None yet.
#include <CLI/CLI.hpp>

#include "cli/cli.hpp"

namespace pl::cli {

void add_haa_commands(CLI::App& /*app*/, std::vector<Command>& /*out*/) {}

}  // namespace pl::cli

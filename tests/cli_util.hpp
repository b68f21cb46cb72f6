// Running the built pathlab-cli from a test: exit code, stdout and stderr of one invocation.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace pl::test {

struct CliRun {
  int code = -1;
  std::string out, err;
};

// A scratch folder of this test process, `pathlab_<tag>_<pid>` under the system's temp folder.
inline std::filesystem::path temp_dir(const std::string& tag) {
  const auto d = std::filesystem::temp_directory_path() / ("pathlab_" + tag + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

// `args` go to a shell after the binary's path (quote file names).
inline CliRun run_cli(const std::string& args) {
  static int counter = 0;
  const std::string err_file =
      (std::filesystem::temp_directory_path() /
       ("pathlab_cli_err_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
          .string();
  const std::string cmd = std::string(PATHLAB_CLI) + " " + args + " 2>" + err_file;
  CliRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  std::filesystem::remove(err_file);
  return r;
}

}  // namespace pl::test

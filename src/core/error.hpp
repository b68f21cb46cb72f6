// Errors for bad input. Every reader throws InputError whose message is one line of the form
// "file:line: what is wrong", so the CLI can print it and exit 2, and the app can show it
// while leaving the open document untouched.
#pragma once

#include <stdexcept>
#include <string>

namespace pl {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
  // "file:line: problem"; line 0 means the problem is not tied to one line.
  InputError(const std::string& file, long line, const std::string& problem)
      : std::runtime_error(line > 0 ? file + ":" + std::to_string(line) + ": " + problem
                                    : file + ": " + problem) {}
};

}  // namespace pl

// Errors for bad input. Every reader throws InputError whose message is one line of the form
// "file:line: what is wrong", so the CLI can print it and exit 2, and the app can show it
// while leaving the open document untouched.
#pragma once

#include <new>
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

// Input that is well formed but needs more memory than pathlab may or can take: a map over the
// cell limit (core/grid.hpp), an allocation that failed while a reader was building something.
// The message names the file and what was being built. An InputError, so every place that
// reports bad input (exit 2, the app's load error) reports this too.
class ResourceError : public InputError {
 public:
  using InputError::InputError;
};

// Runs f(); an allocation failure inside becomes ResourceError("name: out of memory while
// building <what>"), so a reader (or a command) that runs out of memory names the file and
// what it was making.
template <class F>
auto building(const std::string& name, const std::string& what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw ResourceError(name + ": out of memory while building " + what);
  }
}

}  // namespace pl

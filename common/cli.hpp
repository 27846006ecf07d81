// Command-line conventions of every modeltuned program (modeltuned and its subcommands,
// modeltuned-bench, modeltuned-calibrate): a usage error is one line on stderr, "PROGRAM: what
// is wrong, naming the argument (see PROGRAM --help)", and exit status 2; --help prints the help
// on stdout and exits 0. CLI11's own exit codes (105-109) and its second line are not used.
#pragma once
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <system_error>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/exit_status.hpp"

namespace modeltuned::cli {

// A whole number in [lo, hi]. CLI11 prefixes the message with the option's name:
// "--np: '-4' is not a whole number >= 2" (its own Range would print the type's limits in full).
template <class T>
CLI::Validator whole_number(T lo, T hi = std::numeric_limits<T>::max()) {
  const std::string range =
      hi == std::numeric_limits<T>::max() ? fmt::format(">= {}", lo) : fmt::format("in {}..{}", lo, hi);
  return CLI::Validator(
      [lo, hi, range](std::string &value) -> std::string {
        T v{};
        const char *end = value.data() + value.size();
        const auto [at, ec] = std::from_chars(value.data(), end, v);
        if (!value.empty() && ec == std::errc() && at == end && v >= lo && v <= hi) return {};
        return fmt::format("'{}' is not a whole number {}", value, range);
      },
      range);
}

// A finite number in [lo, hi].
inline CLI::Validator number(double lo, double hi = std::numeric_limits<double>::infinity()) {
  const std::string range = std::isinf(hi) ? fmt::format(">= {:g}", lo) : fmt::format("in {:g}..{:g}", lo, hi);
  return CLI::Validator(
      [lo, hi, range](std::string &value) -> std::string {
        try {
          size_t used = 0;
          const double v = std::stod(value, &used);
          if (used == value.size() && std::isfinite(v) && v >= lo && v <= hi) return {};
        } catch (const std::exception &) {
        }
        return fmt::format("'{}' is not a number {}", value, range);
      },
      range);
}

// The help's usage line begins "Usage:" with every CLI11: 2.4 and later leave the label out where
// the program is named (Debian sid's 2.6), which help2man and the tests read.
class UsageFormatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App *app, std::string name) const override {
    std::string usage = CLI::Formatter::make_usage(app, name);
    const size_t start = usage.find_first_not_of('\n');
    if (start != std::string::npos && usage.compare(start, 6, "Usage:") != 0) usage.insert(start, "Usage: ");
    return usage;
  }
};
// Call before adding subcommands, which take their parent's formatter.
inline void use_usage_line(CLI::App &app) { app.formatter(std::make_shared<UsageFormatter>()); }

// The error in one line. CLI11's messages name the option ("--op: scan not in {bcast,reduce}",
// "The following argument was not expected: --bogus"); some span lines.
inline std::string one_line(const CLI::Error &e) {
  std::string text = e.what();
  // ArgumentMismatch: "--np: 1 required INT:>= 2 missing", an option given without its value.
  if (const auto colon = text.find(": ");
      dynamic_cast<const CLI::ArgumentMismatch *>(&e) && colon != std::string::npos && text.ends_with(" missing"))
    return text.substr(0, colon) + " needs a value";
  for (char &c : text)
    if (c == '\n') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// The exit status for a CLI::ParseError from App::parse, after saying what is needed: --help and
// --version print on stdout (status 0); a callback's CLI::RuntimeError has printed its own line
// (its status); anything else is a usage error. `speak`: false on the ranks of an MPI job that
// stay quiet.
inline int handle(const CLI::App &app, const CLI::ParseError &e, const std::string &program, bool speak = true) {
  if (dynamic_cast<const CLI::Success *>(&e) || dynamic_cast<const CLI::RuntimeError *>(&e))
    return speak ? app.exit(e) : e.get_exit_code();
  if (speak) std::fprintf(stderr, "%s: %s (see %s --help)\n", program.c_str(), one_line(e).c_str(), program.c_str());
  return kUsageError;
}

}  // namespace modeltuned::cli

// modeltuned ab's settings (see --help, tools/ab/options.cpp) and its two kinds of error.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// Declared, not included: CLI11's header costs seconds per file, and only the definitions use it.
namespace CLI {
class App;
}  // namespace CLI

namespace modeltuned::ab {

// A bad command line or environment: one line, exit status 2.
struct UsageError : std::invalid_argument {
  using invalid_argument::invalid_argument;
};
// A run that cannot be compared (a job failed, the jobs' tables differ): exit status 1.
struct RunError : std::runtime_error {
  using runtime_error::runtime_error;
};

using Variables = std::vector<std::pair<std::string, std::string>>;  // NAME, VALUE in order given

struct AbOptions {
  int rounds = 6;
  int warmup = 1;
  Variables modeltuned_env, baseline_env;
  std::string table;     // --table: the modeltuned job's calibration file
  double timeout_s = 0;  // per job; 0: none
  bool no_preflight = false;
  bool quiet = false;
  int column = 0;  // 1-based time column of the size tables; 0: IMB's t_avg, else 2
  double level = 0.95;
  std::vector<double> thresholds = {1.00, 1.05, 1.10};
  std::optional<double> fail_above;
  std::string out;  // "" : a temporary directory removed at the end
  bool plot = false;
  bool baseline_may_fail = false;       // score a failing baseline where it completed (completed.hpp)
  std::vector<std::string> components;  // --component-arm: one more job per round each (components.hpp)
  std::vector<std::string> command;     // after --
  bool command_given = false;           // -- was on the command line
};

// Adds the options to `cmd`; `raw` receives the NAME=VALUE strings and MCA settings checked by
// finish_options.
struct RawOptions {
  std::vector<std::string> modeltuned_env, baseline_env;
  Variables modeltuned_mca, baseline_mca;  // NAME VALUE, as mpirun's --mca takes them
  std::vector<double> thresholds;
};
void define_options(CLI::App &cmd, AbOptions &o, RawOptions &raw);
// Checks what CLI11 cannot (NAME=VALUE, --plot without --out, the command) and folds `raw` into
// `o`. Throws UsageError.
void finish_options(AbOptions &o, const RawOptions &raw);

}  // namespace modeltuned::ab

// modeltuned-bench's command line: the flags as given (Options), parsed alike on every rank, and
// what they ask to measure (Plan), checked against each other and the job before any measuring.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/registry/registry.hpp"

namespace modeltuned::bench {

struct Options {
  std::string op = "both";
  uint64_t min_bytes = 1, max_bytes = 4u << 20;
  double octaves_per_step = 1;     // from --steps-per-octave, or 2 with --quick
  std::vector<std::string> sizes;  // explicit list, overrides the range
  int reps = 30, warmup = 2;
  double max_time = 0;  // seconds; 0 = no budget
  std::optional<uint64_t> seed;
  int rotate_buffers = 1;
  int root = 0;
  std::string csv, plot;
  std::string variants;  // restricts the variants measured (comma-separated names)
};

// Parses argv identically on every rank; rank 0 speaks. Returns the exit status when the program
// must stop (--help: 0, a bad flag: 2).
std::optional<int> parse_options(int argc, char **argv, Options &o);

// What to measure.
struct Plan {
  std::vector<Op> ops;
  std::map<Op, std::vector<uint64_t>> sizes;  // reduce: multiples of 4 bytes (whole MPI_INTs)
  std::set<std::string> wanted_variants;      // empty: all
};

// Checks the flags against each other and the job; a usage error ends every rank.
Plan make_plan(const Options &o);

}  // namespace modeltuned::bench

// From the rounds' measurements to ratios with intervals: per round the paired ratio
// modeltuned / baseline (wall time, and each table's time per size); per size the geometric mean
// over rounds and Student's t interval on ln ratio; per table the same over its per-round
// geometric means across sizes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/stats.hpp"
#include "tools/ab/tables.hpp"

namespace modeltuned::ab {

struct JobRecord {
  double wall_s = 0;
  std::vector<SizeTable> tables;
  std::string diagnostic_in_stdout;  // the first stdout line holding a process's diagnostic output
  std::string failed;                // how a baseline job ended that --baseline-may-fail let fail, else ""
};

struct Round {
  JobRecord baseline, modeltuned;
  std::vector<JobRecord> components;  // --component-arm's jobs, in the order given
};

struct SizeResult {
  uint64_t size = 0;
  double baseline = 0, modeltuned = 0;  // geometric means of the time over rounds
  std::vector<double> ratios;           // per round
  RatioCi ratio;                        // NaN where a time was not positive
  bool valid() const;                   // every time positive
};

struct TableResult {
  std::string name;
  int column = 2;
  std::vector<double> ratios;  // per round: the geometric mean over its valid sizes
  RatioCi ratio;
  std::vector<SizeResult> sizes;
};

struct Analysis {
  double wall_baseline = 0, wall_modeltuned = 0;  // geometric means, seconds
  std::vector<double> wall_ratios;
  RatioCi wall;
  std::vector<TableResult> tables;
};

// The rounds' tables are those check_same_tables accepted: the same count and sizes in each job.
Analysis analyse(const std::vector<Round> &rounds, double level);

// What --fail-above X fails on: a size or table significantly slower than x; the wall time where
// there is no table (an application's A/B).
bool any_significantly_above(const Analysis &a, double x);

}  // namespace modeltuned::ab

// Where modeltuned ab keeps its outputs: --out DIR, or a temporary directory removed at the end;
// each job's output file, runs.csv written as the jobs end (so a failed run keeps it), sizes.csv
// and summary.csv at the end.
#pragma once
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/ab/analysis.hpp"

namespace modeltuned::ab {

class Workspace {
 public:
  explicit Workspace(const std::string &out);  // "": a temporary directory
  ~Workspace();
  Workspace(const Workspace &) = delete;
  Workspace &operator=(const Workspace &) = delete;
  const std::filesystem::path &dir() const { return dir_; }
  bool kept() const { return kept_; }

 private:
  std::filesystem::path dir_;
  bool kept_;
};

// "round-03-baseline.txt"; warm-up pairs "warmup-01-baseline.txt".
std::string job_file_name(bool warmup, int round, const std::string &arm);

// runs.csv: round,arm,order,wall_s,status; warm-up rounds are w1, w2, ...
class RunsCsv {
 public:
  explicit RunsCsv(const std::filesystem::path &file);
  ~RunsCsv();
  RunsCsv(const RunsCsv &) = delete;
  RunsCsv &operator=(const RunsCsv &) = delete;
  void add(bool warmup, int round, const std::string &arm, int order, double wall_s, const std::string &status);

 private:
  std::FILE *file_;
};

// sizes.csv: round,arm,table,size,value (counted rounds; table counts from 1).
void write_sizes_csv(const std::filesystem::path &file, const std::vector<Round> &rounds);
// summary.csv: table,size,baseline,modeltuned,ratio,low,high,rounds: a `wall` row (seconds), then
// per table an `all` row (its geometric mean over sizes) and a row per size.
void write_summary_csv(const std::filesystem::path &file, const Analysis &analysis);

}  // namespace modeltuned::ab

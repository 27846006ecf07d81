#include "tools/ab/files.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "tools/ab/options.hpp"

namespace fs = std::filesystem;

namespace modeltuned::ab {
namespace {

std::FILE *open_for_writing(const fs::path &file) {
  std::FILE *f = std::fopen(file.c_str(), "w");
  if (!f) throw RunError(fmt::format("cannot write {}: {}", file.string(), std::strerror(errno)));
  return f;
}

void close_written(std::FILE *f, const fs::path &file) {
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) throw RunError(fmt::format("cannot write {}", file.string()));
}

// A number for a CSV cell: empty where there is none.
std::string cell(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : ""; }

std::string summary_row(const std::string &table, const std::string &size, double baseline, double modeltuned,
                        const RatioCi &ci) {
  return fmt::format("{},{},{},{},{},{},{},{}\n", table, size, cell(baseline), cell(modeltuned), cell(ci.geomean),
                     cell(ci.low), cell(ci.high), ci.n);
}

}  // namespace

Workspace::Workspace(const std::string &out) : kept_(!out.empty()) {
  if (kept_) {
    dir_ = out;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_))
      throw UsageError(fmt::format("--out {}: cannot create it ({})", out, ec.message()));
    return;
  }
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/modeltuned-ab-XXXXXX";
  if (!mkdtemp(pattern.data())) throw RunError(fmt::format("cannot create {}: {}", pattern, std::strerror(errno)));
  dir_ = pattern;
}

Workspace::~Workspace() {
  if (kept_) return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string job_file_name(bool warmup, int round, const std::string &arm) {
  return fmt::format("{}-{:02}-{}.txt", warmup ? "warmup" : "round", round, arm);
}

RunsCsv::RunsCsv(const fs::path &file) : file_(open_for_writing(file)) {
  fmt::print(file_, "round,arm,order,wall_s,status\n");
  std::fflush(file_);
}

RunsCsv::~RunsCsv() { std::fclose(file_); }

void RunsCsv::add(bool warmup, int round, const std::string &arm, int order, double wall_s, const std::string &status) {
  fmt::print(file_, "{}{},{},{},{:.6f},\"{}\"\n", warmup ? "w" : "", round, arm, order, wall_s, status);
  std::fflush(file_);
}

void write_sizes_csv(const fs::path &file, const std::vector<Round> &rounds) {
  std::FILE *f = open_for_writing(file);
  fmt::print(f, "round,arm,table,size,value\n");
  for (size_t r = 0; r < rounds.size(); ++r)
    for (const auto &[arm, job] : {std::pair{"baseline", &rounds[r].baseline}, {"modeltuned", &rounds[r].modeltuned}})
      for (size_t t = 0; t < job->tables.size(); ++t)
        for (size_t i = 0; i < job->tables[t].sizes.size(); ++i)
          fmt::print(f, "{},{},{},{},{:.9g}\n", r + 1, arm, t + 1, job->tables[t].sizes[i], job->tables[t].values[i]);
  close_written(f, file);
}

void write_summary_csv(const fs::path &file, const Analysis &a) {
  std::FILE *f = open_for_writing(file);
  fmt::print(f, "table,size,baseline,modeltuned,ratio,low,high,rounds\n");
  fmt::print(f, "{}", summary_row("wall", "", a.wall_baseline, a.wall_modeltuned, a.wall));
  for (size_t t = 0; t < a.tables.size(); ++t) {
    const TableResult &table = a.tables[t];
    fmt::print(f, "{}", summary_row(std::to_string(t + 1), "all", NAN, NAN, table.ratio));
    for (const SizeResult &s : table.sizes)
      fmt::print(f, "{}",
                 summary_row(std::to_string(t + 1), std::to_string(s.size), s.baseline, s.modeltuned, s.ratio));
  }
  close_written(f, file);
}

}  // namespace modeltuned::ab

#include "tools/ab/components.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "tools/ab/completed.hpp"
#include "tools/ab/files.hpp"
#include "tools/ab/options.hpp"

namespace modeltuned::ab {
namespace {

// One comparison: its rounds (the component's jobs as the baseline, so that they may have failed
// part way), scored, analysed and written under `dir`.
void write_comparison(std::vector<Round> pairs, ReportContext context, const std::filesystem::path &dir) {
  std::filesystem::create_directories(dir);
  context.scored = score_completed(pairs);
  const Analysis analysis = analyse(pairs, context.level);
  const std::filesystem::path report = dir / "report.txt";
  std::FILE *out = std::fopen(report.c_str(), "w");
  if (out == nullptr) throw RunError(fmt::format("{}: cannot be written", report.string()));
  print_report(out, context, analysis);
  if (std::fclose(out) != 0) throw RunError(fmt::format("{}: cannot be written", report.string()));
  write_sizes_csv(dir / "sizes.csv", pairs);
  write_summary_csv(dir / "summary.csv", analysis);
}

}  // namespace

void write_component_comparisons(const Arms &arms, const std::vector<Round> &rounds, const ReportContext &main,
                                 const std::filesystem::path &dir) {
  for (size_t c = 0; c < arms.components.size(); ++c) {
    const std::string &name = arms.components[c].name;
    const std::string switched_on = fmt::format("{}, OMPI_MCA_coll_{}_priority=90", main.baseline_change, name);
    std::vector<Round> against, alone;
    for (const Round &r : rounds) {
      against.push_back({r.components[c], r.modeltuned, {}});
      alone.push_back({r.components[c], r.baseline, {}});
    }
    ReportContext context = main;
    context.baseline_change = switched_on;
    write_comparison(std::move(against), context, dir / ("against-" + name));
    context.modeltuned_change =
        fmt::format("the baseline's settings, {} (Open MPI's own decisions)", main.baseline_change);
    write_comparison(std::move(alone), context, dir / (name + "-alone"));
  }
}

}  // namespace modeltuned::ab

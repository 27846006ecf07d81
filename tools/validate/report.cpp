// Writing report.md (see report.hpp).
#include "tools/validate/report.hpp"

#include <cmath>
#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "tools/validate/format.hpp"

namespace modeltuned::tools::validate {
namespace {

// The seed report's appendix: Tables 1 and 3 (point-to-point model) and 2 and 4 (its linear
// model), R^2 at 1 B, per algorithm and map-by core / socket / node. "-" where it gave none.
struct ReportR2 {
  Op op;
  int algorithm;
  double p2p[3];
  double linear[3];
};
const ReportR2 kReport[] = {
    {Op::bcast, 0, {NAN, NAN, NAN}, {0.924, 0.901, 0.899}},
    {Op::bcast, 1, {0.929, 0.986, 0.916}, {0.995, 0.996, 0.995}},
    {Op::bcast, 2, {0.839, 0.895, 0.959}, {0.971, 0.984, 0.987}},
    {Op::bcast, 5, {0.534, 0.321, 0.421}, {0.976, 0.956, 0.891}},
    {Op::reduce, 0, {NAN, NAN, NAN}, {0.893, 0.877, 0.912}},
    {Op::reduce, 1, {0, 0, 0}, {0.988, 0.882, 0.941}},
    {Op::reduce, 2, {0.734, 0.882, 0.809}, {0.952, 0.966, 0.976}},
    {Op::reduce, 4, {0, 0, 0}, {0.987, 0.961, 0.363}},
};

const AccuracyRow *find_row(const std::vector<AccuracyRow> &rows, const std::string &model, Op op, int alg, int m) {
  for (const auto &r : rows)
    if (r.model == model && r.op == op && r.algorithm == alg && r.mapping == m) return &r;
  return nullptr;
}

std::string cell(const AccuracyRow *r, double AccuracyRow::*field, int digits = 3) {
  return r ? num(r->*field, digits) : "-";
}

// One row of the R^2 table: each model beside the report's figures (`report_p2p`, `report_linear`).
void write_r2_row(std::ostream &out, const std::vector<AccuracyRow> &acc, Op op, int alg, int m,
                  const std::string &report_p2p, const std::string &report_linear) {
  const auto *p = find_row(acc, "p2p", op, alg, m);
  const auto *li = find_row(acc, "linear-in", op, alg, m);
  out << "| " << op_name(op) << " | " << algorithm_label(op, alg) << " | " << kMappings[m] << " | "
      << cell(p, &AccuracyRow::r2_1b) << " | " << cell(find_row(acc, "p2p-stage-sum", op, alg, m), &AccuracyRow::r2_1b)
      << " | " << report_p2p << " | " << cell(li, &AccuracyRow::r2_1b) << " | " << report_linear << " | "
      << cell(find_row(acc, "linear-out", op, alg, m), &AccuracyRow::r2_1b) << " | "
      << cell(find_row(acc, "p2p-completion", op, alg, m), &AccuracyRow::r2_1b) << " | "
      << cell(p, &AccuracyRow::r2_1b_no_spikes) << " | " << cell(li, &AccuracyRow::r2_1b_no_spikes) << " |\n";
}

// R^2 at 1 B per algorithm and mapping, beside the seed report's tables.
void write_r2_section(std::ostream &out, const std::vector<AccuracyRow> &acc) {
  out << "## R^2 at 1 B beside the seed report\n\n"
      << "`p2p` = modeltuned (schedule variant), `stage-sum` = the report's eq. 2-3 on modeltuned's "
      << "calibration, `report p2p` = report Tables 1/3; `linear-in` = eq. 12 fitted on all P (as the report), "
      << "`report linear` = Tables 2/4; `linear-out` = eq. 12 fitted on P <= 126, scored on P >= 130.\n\n"
      << "`p2p vs max` = the model calibrated on nbft.csv's `max` column, against the collectives' `max` "
      << "(the slowest rank: the completion time the model predicts; OSU's `latency` is the mean over ranks).\n\n"
      << "`no spikes` = the same R^2 without measured spikes (a point above " << kSpikeFactor
      << "x the median of its neighbours in P; the report dropped outliers by hand), for every model alike.\n\n"
      << "| op | algorithm | mapping | p2p | stage-sum | report p2p | linear-in | report linear | linear-out "
      << "| p2p vs max | p2p, no spikes | linear-in, no spikes |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto &rep : kReport)
    for (int m = 0; m < kMappingCount; ++m)
      write_r2_row(out, acc, rep.op, rep.algorithm, m, std::isnan(rep.p2p[m]) ? "-" : num(rep.p2p[m]),
                   num(rep.linear[m]));
  for (int m = 0; m < kMappingCount; ++m)  // binomial bcast: measured, not in the report's tables
    write_r2_row(out, acc, Op::bcast, 6, m, "-", "-");
}

// Accuracy over all sizes per algorithm and mapping.
void write_all_sizes_section(std::ostream &out, const std::vector<AccuracyRow> &acc) {
  out << "\n## All sizes (1 B - 1 MiB): R^2 of log latency / median absolute percentage error\n\n"
      << "`p2p rank-mean` = the schedule model predicting each rank's own time averaged over ranks, "
      << "which is what OSU's `latency` column is (docs/model.md, Metric::rank_mean).\n\n"
      << "| op | algorithm | mapping | points | p2p | stage-sum | linear-in | linear-out | p2p vs max "
      << "| p2p rank-mean |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (Op op : {Op::bcast, Op::reduce})
    for (int alg : measured_algorithms(op))
      for (int m = 0; m < kMappingCount; ++m) {
        const auto *p = find_row(acc, "p2p", op, alg, m);
        if (!p) continue;
        auto both = [&](const AccuracyRow *r) {
          return r ? num(r->r2_log) + " / " + num(r->mdape_all, 1) + "%" : std::string("-");
        };
        out << "| " << op_name(op) << " | " << algorithm_label(op, alg) << " | " << kMappings[m] << " | " << p->points
            << " | " << both(p) << " | " << both(find_row(acc, "p2p-stage-sum", op, alg, m)) << " | "
            << both(find_row(acc, "linear-in", op, alg, m)) << " | " << both(find_row(acc, "linear-out", op, alg, m))
            << " | " << both(find_row(acc, "p2p-completion", op, alg, m)) << " | "
            << both(find_row(acc, "p2p-rank-mean", op, alg, m)) << " |\n";
      }
}

void write_selection_section(std::ostream &out, const std::vector<SelectionRow> &sel) {
  out << "\n## Selection among the measured algorithms\n\n"
      << "For every (P, size) where all forced algorithms were measured, the model picks the one it predicts "
      << "fastest; regret = measured latency of the pick / measured best; speedup = measured default / "
      << "measured pick; oracle = measured default / measured best. `p2p+default`: Open MPI's default "
      << "decision is a candidate too (predicted as what its fixed rules run; the component can always "
      << "hand a call back), and the best is taken over it as well. `component`: what the component decides "
      << "among the default and the forced algorithms, with its margin (model/select/margin.hpp) and the "
      << "objective matching the column: rank mean against `latency`, completion against `max` (calibrated "
      << "from nbft.csv's max column). `p2p-completion`: the completion model alone, against `max`.\n\n"
      << "| model | op | mapping | scored against | cases | regret geomean | p95 | worst | speedup vs default "
      << "| oracle speedup |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto &r : sel)
    out << "| " << r.model << " | " << op_name(r.op) << " | " << kMappings[r.mapping] << " | " << r.scored_against
        << " | " << r.cases << " | " << num(r.regret_geomean) << " | " << num(r.regret_p95) << " | "
        << num(r.regret_worst) << " | " << num(r.speedup_vs_default) << " | " << num(r.oracle_speedup_vs_default)
        << " |\n";
}

void write_fixed_rules_section(std::ostream &out, const std::vector<FixedRulesRow> &fixed) {
  out << "\n## What Open MPI 4.1's fixed rules pick\n\n"
      << "`in measured set`: cases where the fixed rule runs one of the measured configurations (its regret "
      << "is then measured). `default / best`: the measured default against the best forced algorithm "
      << "(below 1: the default, running algorithms outside the measured set, is faster).\n\n"
      << "| op | mapping | cases | in measured set | its regret geomean | default / best geomean "
      << "| fixed-rule algorithms (cases) |\n"
      << "|---|---|---|---|---|---|---|\n";
  for (const auto &r : fixed) {
    std::string picks;
    for (const auto &[name, n] : r.picks) picks += (picks.empty() ? "" : ", ") + name + " " + std::to_string(n);
    out << "| " << op_name(r.op) << " | " << kMappings[r.mapping] << " | " << r.cases << " | " << r.in_measured << " | "
        << num(r.in_measured_regret_geomean) << " | " << num(r.default_vs_best_geomean) << " | " << picks << " |\n";
  }
}

// The targets of docs/validation.md, checked.
void write_targets(std::ostream &out, const std::vector<AccuracyRow> &acc, const std::vector<SelectionRow> &sel) {
  out << "\n## Targets\n\n";
  auto target = [&](bool ok, const std::string &what) { out << "- [" << (ok ? "x" : " ") << "] " << what << "\n"; };
  for (Op op : {Op::bcast, Op::reduce}) {
    const double need = op == Op::bcast ? 0.95 : 0.90;
    std::string misses;
    for (const auto &r : acc)
      if (r.model == "p2p" && r.op == op && r.algorithm != 0 && !(r.r2_1b >= need))
        misses += fmt::format(" {}/{} {}", algorithm_label(op, r.algorithm), kMappings[r.mapping], num(r.r2_1b));
    target(misses.empty(), fmt::format("{} R^2 at 1 B >= {} for every algorithm and mapping{}", op_name(op), need,
                                       misses.empty() ? "" : ": misses" + misses));
  }
  std::string mdape_misses;
  for (const auto &r : acc)
    if (r.model == "p2p" && r.algorithm != 0 && !(r.mdape_all < 20))
      mdape_misses += fmt::format(" {}/{}/{} {}%", op_name(r.op), algorithm_label(r.op, r.algorithm),
                                  kMappings[r.mapping], num(r.mdape_all, 1));
  target(mdape_misses.empty(), "median absolute percentage error < 20% over all sizes" +
                                   (mdape_misses.empty() ? std::string() : ": misses" + mdape_misses));
  std::string regret_misses;
  for (const auto &r : sel)
    if (r.model == "p2p" && !(r.regret_geomean <= 1.05 && r.regret_worst <= 1.5))
      regret_misses += fmt::format(" {}/{} {} (worst {})", op_name(r.op), kMappings[r.mapping], num(r.regret_geomean),
                                   num(r.regret_worst));
  target(regret_misses.empty(), "selection regret geomean <= 1.05 and worst <= 1.5" +
                                    (regret_misses.empty() ? std::string() : ": misses" + regret_misses));
}

}  // namespace

void write_report(const fs::path &path, const ValidateOptions &o, const CalibrationTable &table,
                  const std::vector<AccuracyRow> &acc, const std::vector<SelectionRow> &sel,
                  const std::vector<FixedRulesRow> &fixed, const std::vector<std::string> &plots) {
  std::ofstream out(path);
  out << "# modeltuned validation on the ORFEO EPYC measurements\n\n"
      << "Generated by `modeltuned validate --data " << o.data_dir << " --out " << o.out_dir << " --variant "
      << o.variant << (o.quick ? " --quick" : "") << "`. Method and discussion: docs/validation.md.\n\n"
      << "Calibration from p2p.csv and nbft.csv only (checksum " << fmt::format("{:016x}", table.checksum)
      << ", local reduction " << o.reduce_us_per_byte << " us/B, an estimate). Placements: Open MPI 4.1 "
      << "`--map-by core|socket|node` on two emulated 2 x EPYC 7H12 nodes, default binding. Forced algorithms "
      << "as tuned ran them: no segmentation, chain fan-out 4, root 0, MPI_CHAR, MPI_SUM. Repeated (P, size) "
      << "points: median. `default` is Open MPI's fixed decision, predicted with the algorithm it runs.\n\n";
  write_r2_section(out, acc);
  write_all_sizes_section(out, acc);
  write_selection_section(out, sel);
  write_fixed_rules_section(out, fixed);
  write_targets(out, acc, sel);

  if (!plots.empty()) {
    out << "\n## Plots (measured vs predicted against P; left 1 B, right 64 KiB)\n\n";
    for (const auto &p : plots) out << "![" << p << "](plots/" << p << ")\n";
  }
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

}  // namespace modeltuned::tools::validate

// `modeltuned fit`: OSU-style CSVs or modeltuned-calibrate's raw samples -> calibration table
// (fitting rules in calib/fit.hpp), optionally with gnuplot plots of samples and fits.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

#include "calib/fit.hpp"
#include "calib/merge.hpp"
#include "calib/plot.hpp"
#include "calib/regression.hpp"
#include "model/cost/channel_cost.hpp"
#include "config.h"
#include "common/cli.hpp"
#include "common/clock.hpp"
#include "tools/commands.hpp"

namespace modeltuned::tools {
namespace {

using json = nlohmann::json;

struct FitCommandOptions {
  std::string checks_json;  // --checks: residual ranges measured on collectives (modeltuned validate --checks-out)
  std::string p2p_csv, fanout_csv, fanin_csv, samples_csv, like_table, output, source_name, reduce_source,
      topology_signature, plot_dir;
  double reduce_us_per_byte = -1;
  std::vector<std::string> merge;  // tables to combine instead of fitting
};

// Identifies an input file in the provenance; FNV-1a 64 keeps the tool free of a crypto library
// while still telling two versions of a file apart.
json describe_input(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  const std::string bytes = content.str();
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return {{"file", std::filesystem::path(path).filename().string()}, {"bytes", bytes.size()}, {"fnv1a64", hex}};
}

void print_summary(const CalibrationTable &table, std::ostream &out) {
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &ch = table.channels[c];
    if (!ch.present) continue;
    const json &q = table.provenance["fit"][std::string(kChannelNames[c])];
    out << kChannelNames[c] << ": p2p " << ch.p2p.size() << " piece(s), median |error| "
        << q["p2p"]["median_abs_pct_error"].get<double>() << " %, max " << q["p2p"]["max_abs_pct_error"].get<double>()
        << " %";
    for (const auto &p : ch.p2p) {
      out << "; ";
      if (std::isfinite(p.upto_bytes))
        out << "<= " << p.upto_bytes << " B: ";
      else
        out << "above: ";
      out << p.alpha_us << " us + " << p.beta_us_per_byte * 1e3 << " ns/B";
    }
    out << "\n  fanout " << ch.fanout.size() << " sizes, median |error| "
        << q["fanout"]["median_abs_pct_error"].get<double>() << " %";
    if (!ch.fanin.empty()) out << "; fanin " << ch.fanin.size() << " sizes";
    using Curves = std::pair<const char *, const std::vector<FlatTreeFit> &>;
    for (const auto &[kind, fits] : {Curves{"concurrent", ch.concurrent}, Curves{"exchange", ch.exchange}})
      if (!fits.empty()) out << "; " << kind << " " << fits.size() << " sizes up to P = " << fits.back().max_p;
    if (!ch.relay.empty())
      out << "; relay " << ch.relay.front().second << " us at " << ch.relay.front().first << " B to "
          << ch.relay.back().second << " us at " << ch.relay.back().first << " B";
    out << "\n";
    // One line per channel: the kinds of one channel are usually estimated alike.
    std::map<std::string, std::string> estimated;  // note -> kinds
    for (const char *kind : {"fanout", "fanin", "concurrent", "exchange"})
      if (q.contains(kind) && q[kind].contains("extrapolated")) {
        std::string &kinds = estimated[q[kind]["extrapolated"].get<std::string>()];
        kinds += (kinds.empty() ? "" : " and ") + std::string(kind);
      }
    for (const auto &[note, kinds] : estimated)
      out << "  " << kinds << ": " << note << "; measure larger groups on this channel to replace the estimate\n";
  }
  out << "local reduction: " << table.reduce_us_per_byte * 1e3 << " ns/B (" << table.reduce_source << ")\n";
  if (table.fresh_memory_source.empty())
    out << "fresh memory: not measured (reduce temporaries cost nothing in the model)\n";
  else
    out << "fresh memory: " << table.fresh_memory_us_per_byte * 1e3 << " ns/B, one buffer alone "
        << table.fresh_one_buffer_us_per_byte() * 1e3 << " ns/B, from " << table.fresh_memory_from_bytes
        << " B allocated at once (" << table.fresh_memory_source << ")\n";
}

// The inputs first: which files and whether each can be read, before any other flag is judged,
// so that a missing file is what the user hears about.
void check_inputs(const FitCommandOptions &o) {
  if (o.samples_csv.empty() && (o.p2p_csv.empty() || o.fanout_csv.empty()))
    throw calib::FitError(
        "give --samples FILE.csv (modeltuned-calibrate's raw samples) or both --osu-p2p and "
        "--osu-fanout");
  for (const auto &[option, path] : {std::pair<const char *, const std::string &>{"--samples", o.samples_csv},
                                     {"--osu-p2p", o.p2p_csv},
                                     {"--osu-fanout", o.fanout_csv},
                                     {"--osu-fanin", o.fanin_csv},
                                     {"--like", o.like_table}}) {
    if (path.empty()) continue;
    std::ifstream in(path);
    if (!in) throw calib::FitError(std::string(option) + " " + path + ": cannot open: " + std::strerror(errno));
  }
}

// What the table records besides the fits: the reduction and fresh-memory costs and the
// provenance, from the flags or, for a refit (--like), from the run's own table.
struct Recorded {
  json provenance = json::object();
  double reduce_us_per_byte;
  std::string reduce_source;
  double fresh_memory_us_per_byte = 0;
  std::string fresh_memory_source;
  double fresh_memory_one_buffer_us_per_byte = -1;
};

Recorded recorded_costs(const FitCommandOptions &o) {
  Recorded r{json::object(), o.reduce_us_per_byte, o.reduce_source, 0, ""};
  if (!o.like_table.empty()) {
    // Refit of a run: keep what the run recorded (host, topology, MPI, options, reduce cost).
    const CalibrationTable like = load_calibration(o.like_table);
    r.provenance = like.provenance;
    r.provenance.erase("fit");
    r.provenance["refit_of"] = describe_input(o.like_table);
    if (r.reduce_us_per_byte < 0) r.reduce_us_per_byte = like.reduce_us_per_byte;
    if (r.reduce_source.empty()) r.reduce_source = like.reduce_source;
    r.fresh_memory_us_per_byte = like.fresh_memory_us_per_byte;
    r.fresh_memory_source = like.fresh_memory_source;
    r.fresh_memory_one_buffer_us_per_byte = like.fresh_memory_one_buffer_us_per_byte;
  }
  if (!(r.reduce_us_per_byte >= 0) || !std::isfinite(r.reduce_us_per_byte))
    throw calib::FitError(
        "--reduce-us-per-byte is needed: the local reduction cost in microseconds per byte "
        "(or give --like TABLE to take it from a table)");
  if (r.reduce_source.empty())
    throw calib::FitError("--reduce-source is needed: \"measured\" or \"estimate: <why>\" (or give --like TABLE)");
  return r;
}

// Reads every input into `samples`; returns their descriptions for the provenance.
json read_inputs(const FitCommandOptions &o, calib::Samples &samples) {
  json inputs = json::object();
  if (!o.samples_csv.empty()) {
    calib::read_samples_csv(o.samples_csv, samples);
    inputs["samples"] = describe_input(o.samples_csv);
  }
  if (!o.p2p_csv.empty()) {
    calib::read_osu_p2p_csv(o.p2p_csv, samples);
    inputs["p2p"] = describe_input(o.p2p_csv);
  }
  if (!o.fanout_csv.empty()) {
    calib::read_osu_flat_csv(o.fanout_csv, FlatTreeKind::fanout, samples);
    inputs["fanout"] = describe_input(o.fanout_csv);
  }
  if (!o.fanin_csv.empty()) {
    calib::read_osu_flat_csv(o.fanin_csv, FlatTreeKind::fanin, samples);
    inputs["fanin"] = describe_input(o.fanin_csv);
  }
  return inputs;
}

void complete_provenance(const FitCommandOptions &o, const calib::Samples &samples, json inputs, Recorded &r) {
  json &provenance = r.provenance;
  size_t fanout_rows = 0;
  for (const auto &f : samples.flat) fanout_rows += f.kind == FlatTreeKind::fanout;
  if (!o.source_name.empty())
    provenance["source"] = o.source_name;
  else if (!provenance.contains("source") && provenance.contains("host"))
    provenance["source"] = "modeltuned-calibrate run on " + provenance["host"].get<std::string>();
  if (!provenance.contains("source"))
    throw calib::FitError("--source-name is needed: the platform or data set the measurements come from");
  provenance["generated_by"] = "modeltuned fit " PACKAGE_VERSION;
  provenance["date"] = utc_now();
  provenance["inputs"] = std::move(inputs);
  json options = {{"reduce_us_per_byte", r.reduce_us_per_byte}, {"reduce_source", r.reduce_source}};
  if (provenance.contains("options")) options = {{"fit", options}, {"run", provenance["options"]}};
  provenance["options"] = options;
  provenance["samples"] = {
      {"p2p", samples.p2p.size()}, {"fanout", fanout_rows}, {"fanin", samples.flat.size() - fanout_rows}};
  // Only when measured: a table without them stays what it was (version 1, same checksum).
  for (calib::ContentionKind kind : {calib::ContentionKind::concurrent, calib::ContentionKind::exchange}) {
    const size_t rows = std::count_if(samples.contention.begin(), samples.contention.end(),
                                      [&](const calib::ContentionSample &c) { return c.kind == kind; });
    if (rows) provenance["samples"][calib::contention_name(kind)] = rows;
  }
  if (!samples.relay.empty()) provenance["samples"]["relay"] = samples.relay.size() / 2;  // runs: ring and hops
  if (!o.topology_signature.empty())
    provenance["hwloc"] = {{"signature", o.topology_signature}, {"from", "--topology-signature (not measured)"}};
}

// `--merge A.json B.json`: one table from tables measured in separate runs (calib/merge.hpp).
void run_merge(const FitCommandOptions &o) {
  if (!o.samples_csv.empty() || !o.p2p_csv.empty() || !o.fanout_csv.empty() || !o.fanin_csv.empty() ||
      !o.like_table.empty())
    throw calib::FitError("--merge combines finished tables; fit each run first, without --samples, --osu-* or --like");
  std::vector<calib::MergeInput> inputs;
  for (const std::string &path : o.merge) {
    try {
      inputs.push_back({std::filesystem::path(path).filename().string(), load_calibration(path)});
    } catch (const std::exception &e) {
      throw calib::FitError("--merge " + path + ": " + e.what());
    }
  }
  const CalibrationTable table = calib::merge_tables(inputs);
  save_calibration(table, o.output);
  for (const auto &[channel, file] : table.provenance["merged_from"]["channels"].items())
    std::cout << channel << ": from " << file.get<std::string>() << "\n";
  print_summary(table, std::cout);
  // Checks hold only where the merged table predicts what their own table did (calib/merge.cpp).
  for (const auto &[name, counts] : table.provenance["merged_from"]["checks"].items())
    if (counts["dropped"].get<int>() > 0)
      std::printf(
          "note: %d of the %d checks of %s are not carried over: the merged table takes %s from another "
          "table, so its predictions differ from those they were measured against\n",
          counts["dropped"].get<int>(), counts["kept"].get<int>() + counts["dropped"].get<int>(), name.c_str(),
          counts["kept"].get<int>() > 0 ? "the local reduction costs" : "some of its channels");
  if (!table.checks.empty())
    std::printf(
        "checks: %zu ranges; communicators of other shapes, or more than 2x off the sizes measured, keep Open MPI's "
        "default\n",
        table.checks.size());
  else
    std::printf("checks: none; the merged table's margin is its held-out point-to-point error\n");
  std::printf("wrote %s (checksum %016llx)\n", o.output.c_str(), static_cast<unsigned long long>(table.checksum));
}

// The table with the checks of `path` ({"source", "residuals"}, docs/calibration-format.md),
// validated as the component will read them.
CalibrationTable with_checks(const CalibrationTable &table, const std::string &path) {
  std::ifstream in(path);
  if (!in) throw calib::FitError("--checks " + path + ": cannot open");
  try {
    json doc = json::parse(to_json_text(table));
    doc["checks"] = json::parse(in);
    doc["version"] = kCalibrationVersion;
    return parse_calibration(doc.dump(), path);
  } catch (const std::exception &e) {
    throw calib::FitError("--checks " + path + ": " + e.what());
  }
}

void run_fit(const FitCommandOptions &o) {
  if (!o.merge.empty()) return run_merge(o);
  check_inputs(o);
  calib::Samples samples;
  json inputs = read_inputs(o, samples);
  Recorded recorded = recorded_costs(o);
  complete_provenance(o, samples, std::move(inputs), recorded);
  CalibrationTable table =
      calib::fit_table(samples, {recorded.reduce_us_per_byte, recorded.reduce_source, recorded.provenance,
                                 recorded.fresh_memory_us_per_byte, recorded.fresh_memory_source,
                                 recorded.fresh_memory_one_buffer_us_per_byte});
  if (!o.checks_json.empty()) table = with_checks(table, o.checks_json);
  save_calibration(table, o.output);
  print_summary(table, std::cout);
  std::printf("wrote %s (checksum %016llx)\n", o.output.c_str(), static_cast<unsigned long long>(table.checksum));
  if (!o.plot_dir.empty()) calib::write_plots(table, samples, o.plot_dir, std::cout);
}

}  // namespace

void add_fit_command(CLI::App &app) {
  auto options = std::make_shared<FitCommandOptions>();
  CLI::App *fit = app.add_subcommand(
      "fit", "Fit a calibration table from modeltuned-calibrate's raw samples or OSU-style measurement CSVs");
  fit->add_option("--samples", options->samples_csv,
                  "raw samples of modeltuned-calibrate (kind,channel,p,bytes,rep,latency_us), to refit a run");
  fit->add_option("--like", options->like_table,
                  "table whose provenance and reduce cost the refit keeps (the run's own table)");
  fit->add_option("--osu-p2p", options->p2p_csv, "point-to-point latencies (mapby,size,latency,...)");
  fit->add_option("--osu-fanout", options->fanout_csv, "linear bcast flat trees (mapby,p,size,latency,...)");
  fit->add_option("--osu-fanin", options->fanin_csv, "linear reduce flat trees (optional; default: use fanout)");
  fit->add_option("--reduce-us-per-byte", options->reduce_us_per_byte,
                  "local reduction cost, microseconds per byte (default with --like: the table's)")
      ->check(cli::number(0));
  fit->add_option("--reduce-source", options->reduce_source,
                  "where the reduction cost comes from: \"measured\" or \"estimate: <why>\"");
  fit->add_option("-o,--output", options->output, "calibration table to write (JSON)")->required();
  fit->add_option("--source-name", options->source_name,
                  "name of the platform or data set, for the provenance (default with --like: the table's)");
  fit->add_option("--topology-signature", options->topology_signature,
                  "hwloc signature of the measured machine (\"pack:2 numa:8 l3:32 core:128\"), for data that "
                  "do not carry one; the component warns when it differs from the machine it runs on");
  fit->add_option("--merge", options->merge,
                  "combine tables measured in separate runs on the same kind of node and Open MPI (e.g. one on a "
                  "full node, one across nodes): each channel from the table that measured it with the most ranks")
      ->expected(2, 16)
      ->check(CLI::ExistingFile);
  fit->add_option("--checks", options->checks_json,
                  "add the model's measured error on collectives it was not fitted to (JSON from "
                  "`modeltuned validate --checks-out`); the margin then trusts only what they cover "
                  "(docs/model.md#margin)");
  fit->add_option("--plot", options->plot_dir, "write gnuplot PNGs of samples and fits into this directory");
  fit->callback([options] {
    try {
      run_fit(*options);
    } catch (const std::exception &e) {
      std::cerr << "modeltuned fit: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace modeltuned::tools

// `modeltuned fit`: OSU-style CSVs -> calibration table (fitting rules in calib/fit.hpp).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "calib/fit.hpp"
#include "config.h"
#include "tools/commands.hpp"

namespace modeltuned::tools {
namespace {

using json = nlohmann::json;

struct FitCommandOptions {
  std::string p2p_csv, fanout_csv, fanin_csv, output, source_name, reduce_source;
  double reduce_us_per_byte = -1;
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

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

void require_readable(const std::string &option, const std::string &path) {
  std::ifstream in(path);
  if (!in) throw calib::FitError(option + " " + path + ": cannot open: " + std::strerror(errno));
}

void print_summary(const CalibrationTable &table, std::ostream &out) {
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &ch = table.channels[c];
    if (!ch.present) continue;
    const json &q = table.provenance["fit"][std::string(kChannelNames[c])];
    out << kChannelNames[c] << ": p2p " << ch.p2p.size() << " piece(s), median |error| "
        << q["p2p"]["median_abs_pct_error"].get<double>() << " %, max "
        << q["p2p"]["max_abs_pct_error"].get<double>() << " %";
    for (const auto &p : ch.p2p) {
      out << "; ";
      if (std::isfinite(p.upto_bytes)) out << "<= " << p.upto_bytes << " B: ";
      else out << "above: ";
      out << p.alpha_us << " us + " << p.beta_us_per_byte * 1e3 << " ns/B";
    }
    out << "\n  fanout " << ch.fanout.size() << " sizes, median |error| "
        << q["fanout"]["median_abs_pct_error"].get<double>() << " %";
    if (!ch.fanin.empty()) out << "; fanin " << ch.fanin.size() << " sizes";
    out << "\n";
  }
}

void run_fit(const FitCommandOptions &o) {
  if (!(o.reduce_us_per_byte >= 0) || !std::isfinite(o.reduce_us_per_byte))
    throw calib::FitError("--reduce-us-per-byte must be a non-negative number of microseconds per byte");
  require_readable("--osu-p2p", o.p2p_csv);
  require_readable("--osu-fanout", o.fanout_csv);
  if (!o.fanin_csv.empty()) require_readable("--osu-fanin", o.fanin_csv);

  calib::Samples samples;
  calib::read_osu_p2p_csv(o.p2p_csv, samples);
  const size_t p2p_rows = samples.p2p.size();
  calib::read_osu_flat_csv(o.fanout_csv, FlatTreeKind::fanout, samples);
  const size_t fanout_rows = samples.flat.size();
  if (!o.fanin_csv.empty()) calib::read_osu_flat_csv(o.fanin_csv, FlatTreeKind::fanin, samples);

  json inputs = {{"p2p", describe_input(o.p2p_csv)}, {"fanout", describe_input(o.fanout_csv)}};
  if (!o.fanin_csv.empty()) inputs["fanin"] = describe_input(o.fanin_csv);
  calib::FitOptions fit_options{
      o.reduce_us_per_byte, o.reduce_source,
      {{"source", o.source_name},
       {"generated_by", "modeltuned fit " PACKAGE_VERSION},
       {"date", utc_now()},
       {"inputs", inputs},
       {"options", {{"reduce_us_per_byte", o.reduce_us_per_byte}, {"reduce_source", o.reduce_source}}},
       {"samples", {{"p2p", p2p_rows}, {"fanout", fanout_rows}, {"fanin", samples.flat.size() - fanout_rows}}}}};
  const CalibrationTable table = calib::fit_table(samples, fit_options);
  save_calibration(table, o.output);
  print_summary(table, std::cout);
  std::printf("wrote %s (checksum %016llx)\n", o.output.c_str(), static_cast<unsigned long long>(table.checksum));
}

}  // namespace

void add_fit_command(CLI::App &app) {
  auto options = std::make_shared<FitCommandOptions>();
  CLI::App *fit = app.add_subcommand("fit", "Fit a calibration table from OSU-style measurement CSVs");
  fit->add_option("--osu-p2p", options->p2p_csv, "point-to-point latencies (mapby,size,latency,...)")->required();
  fit->add_option("--osu-fanout", options->fanout_csv, "linear bcast flat trees (mapby,p,size,latency,...)")->required();
  fit->add_option("--osu-fanin", options->fanin_csv, "linear reduce flat trees (optional; default: use fanout)");
  fit->add_option("--reduce-us-per-byte", options->reduce_us_per_byte,
                  "local reduction cost, microseconds per byte")->required();
  fit->add_option("--reduce-source", options->reduce_source,
                  "where the reduction cost comes from: \"measured\" or \"estimate: <why>\"")->required();
  fit->add_option("-o,--output", options->output, "calibration table to write (JSON)")->required();
  fit->add_option("--source-name", options->source_name, "name of the platform or data set, for the provenance")
      ->required();
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

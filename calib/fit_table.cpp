// From samples to a calibration table: per-size medians, the piecewise Hockney fit per channel
// (eq. 5) and the flat-tree line over P per size (eq. 6), with fit quality for the provenance.
#include <cmath>
#include <map>

#include "fit.hpp"
#include "regression.hpp"

namespace modeltuned::calib {
namespace {

using json = nlohmann::json;

// Measurements of one quantity keyed by x, reduced to per-x medians: robust against the odd
// slow receiver or repeat.
std::vector<Point> medians(const std::map<double, std::vector<double>> &by_x) {
  std::vector<Point> points;
  for (const auto &[x, ys] : by_x) points.push_back({x, median(ys)});
  return points;
}

double percent_error(double predicted, double measured) { return 100 * std::abs(predicted - measured) / measured; }

// Ordinary coefficient of determination; NaN when the data do not vary.
double r_squared(const std::vector<double> &predicted, const std::vector<double> &measured) {
  double mean = 0;
  for (double y : measured) mean += y / measured.size();
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    ss_res += (predicted[i] - measured[i]) * (predicted[i] - measured[i]);
    ss_tot += (measured[i] - mean) * (measured[i] - mean);
  }
  return ss_tot > 0 ? 1 - ss_res / ss_tot : std::nan("");
}

json number_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json quality(const std::vector<double> &predicted, const std::vector<double> &measured) {
  std::vector<double> errors;
  for (size_t i = 0; i < measured.size(); ++i) errors.push_back(percent_error(predicted[i], measured[i]));
  return {{"points", measured.size()},
          {"r2", number_or_null(r_squared(predicted, measured))},
          {"median_abs_pct_error", median(errors)},
          {"max_abs_pct_error", *std::max_element(errors.begin(), errors.end())}};
}

double piece_time(const HockneyPiece &piece, double bytes) { return piece.alpha_us + piece.beta_us_per_byte * bytes; }

std::vector<HockneyPiece> fit_p2p(Channel channel, const std::map<double, std::vector<double>> &by_size,
                                  json &report) {
  const std::string name(channel_name(channel));
  if (by_size.size() < 2)
    throw FitError("channel " + name + ": point-to-point samples at " + std::to_string(by_size.size()) +
                   " message size(s); at least 2 distinct sizes are needed to fit latency and bandwidth");
  const std::vector<Point> points = medians(by_size);
  auto fit = fit_piecewise_hockney(points, PiecewiseOptions{});
  if (!fit)
    throw FitError("channel " + name + ": no piecewise Hockney fit gives positive times over the measured sizes; "
                   "check the point-to-point data");

  std::vector<double> predicted, measured;
  json pieces = json::array();
  for (size_t k = 0; k < fit->pieces.size(); ++k) {
    const size_t first = fit->first_point[k];
    const size_t last = k + 1 < fit->pieces.size() ? fit->first_point[k + 1] : points.size();
    std::vector<double> piece_predicted, piece_measured;
    for (size_t i = first; i < last; ++i) {
      piece_predicted.push_back(piece_time(fit->pieces[k], points[i].x));
      piece_measured.push_back(points[i].y);
    }
    json q = quality(piece_predicted, piece_measured);
    q["from_bytes"] = points[first].x;
    q["to_bytes"] = points[last - 1].x;
    pieces.push_back(q);
    predicted.insert(predicted.end(), piece_predicted.begin(), piece_predicted.end());
    measured.insert(measured.end(), piece_measured.begin(), piece_measured.end());
  }
  report = quality(predicted, measured);
  report["pieces"] = pieces;
  return fit->pieces;
}

// by_size_and_p[bytes][P] = latencies.
std::vector<FlatTreeFit> fit_flat(Channel channel, FlatTreeKind kind,
                                  const std::map<double, std::map<double, std::vector<double>>> &by_size_and_p,
                                  json &report) {
  const std::string what = "channel " + std::string(channel_name(channel)) +
                           (kind == FlatTreeKind::fanout ? " fanout" : " fanin");
  std::vector<FlatTreeFit> fits;
  std::vector<double> all_errors, r2s;
  for (const auto &[bytes, by_p] : by_size_and_p) {
    if (by_p.size() < 2)
      throw FitError(what + " at " + json(bytes).dump() + " B: flat trees measured at " + std::to_string(by_p.size()) +
                     " value(s) of P; at least 2 are needed for T(P) = alpha + beta*(P-1)");
    std::vector<Point> points;
    for (const Point &m : medians(by_p)) points.push_back({m.x - 1, m.y});  // x = P - 1 peers
    const LineFit line = fit_line(points, Weighting::absolute);
    if (line.intercept + line.slope * points.back().x <= 0)
      throw FitError(what + " at " + json(bytes).dump() + " B: the fit over P gives a non-positive time at P = " +
                     json(by_p.rbegin()->first).dump() + "; check the flat-tree data");
    FlatTreeFit f;
    f.bytes = bytes;
    f.alpha_us = line.intercept;
    f.beta_us = line.slope;
    f.max_p = static_cast<int>(by_p.rbegin()->first);
    fits.push_back(f);
    std::vector<double> predicted, measured;
    for (const Point &p : points) {
      predicted.push_back(line.intercept + line.slope * p.x);
      measured.push_back(p.y);
      all_errors.push_back(percent_error(predicted.back(), p.y));
    }
    if (double r2 = r_squared(predicted, measured); std::isfinite(r2)) r2s.push_back(r2);
  }
  report = {{"sizes", fits.size()},
            {"median_r2_over_sizes", number_or_null(median(r2s))},
            {"min_r2_over_sizes", r2s.empty() ? json(nullptr) : json(*std::min_element(r2s.begin(), r2s.end()))},
            {"median_abs_pct_error", median(all_errors)},
            {"max_abs_pct_error", *std::max_element(all_errors.begin(), all_errors.end())}};
  return fits;
}

}  // namespace

CalibrationTable fit_table(const Samples &samples, const FitOptions &options) {
  if (!std::isfinite(options.reduce_us_per_byte) || options.reduce_us_per_byte < 0)
    throw FitError("reduce cost " + json(options.reduce_us_per_byte).dump() +
                   " us/B is not a non-negative finite number");
  if (options.reduce_source.empty())
    throw FitError("the reduce cost needs a source: \"measured\" or \"estimate: <why>\"");
  if (!options.provenance.is_null() && !options.provenance.is_object())
    throw FitError("provenance must be a JSON object");

  std::array<std::map<double, std::vector<double>>, kChannels> p2p;
  std::array<std::array<std::map<double, std::map<double, std::vector<double>>>, 2>, kChannels> flat;
  auto check_channel = [](Channel c) {
    if (static_cast<unsigned>(c) >= kChannels)
      throw FitError("sample with unknown channel index " + std::to_string(static_cast<int>(c)));
  };
  for (const auto &s : samples.p2p) {
    check_channel(s.channel);
    if (!(s.latency_us > 0) || !std::isfinite(s.latency_us) || !(s.bytes > 0) || !std::isfinite(s.bytes))
      throw FitError("channel " + std::string(channel_name(s.channel)) + ": point-to-point sample of " +
                     json(s.bytes).dump() + " B taking " + json(s.latency_us).dump() +
                     " us; sizes and times must be positive");
    p2p[static_cast<int>(s.channel)][s.bytes].push_back(s.latency_us);
  }
  for (const auto &s : samples.flat) {
    check_channel(s.channel);
    if (!(s.latency_us > 0) || !std::isfinite(s.latency_us) || !(s.bytes > 0) || !std::isfinite(s.bytes) || s.p < 2)
      throw FitError("channel " + std::string(channel_name(s.channel)) + ": flat-tree sample P = " +
                     std::to_string(s.p) + ", " + json(s.bytes).dump() + " B, " + json(s.latency_us).dump() +
                     " us; P must be >= 2 and sizes and times positive");
    flat[static_cast<int>(s.channel)][s.kind == FlatTreeKind::fanin][s.bytes][s.p].push_back(s.latency_us);
  }

  CalibrationTable table;
  table.reduce_us_per_byte = options.reduce_us_per_byte;
  table.reduce_source = options.reduce_source;
  table.provenance = options.provenance.is_object() ? options.provenance : json::object();
  json quality_report = json::object();
  for (int c = 0; c < kChannels; ++c) {
    const Channel channel = static_cast<Channel>(c);
    const std::string name(channel_name(channel));
    const bool has_p2p = !p2p[c].empty(), has_fanout = !flat[c][0].empty(), has_fanin = !flat[c][1].empty();
    if (!has_p2p && !has_fanout && !has_fanin) continue;
    if (!has_p2p) throw FitError("channel " + name + ": flat-tree samples but no point-to-point samples; measure both");
    if (!has_fanout)
      throw FitError("channel " + name + ": point-to-point samples but no fanout (linear bcast) samples; measure both");
    ChannelTable &ch = table.channels[c];
    ch.present = true;
    json &report = quality_report[name];
    ch.p2p = fit_p2p(channel, p2p[c], report["p2p"]);
    ch.fanout = fit_flat(channel, FlatTreeKind::fanout, flat[c][0], report["fanout"]);
    if (has_fanin) ch.fanin = fit_flat(channel, FlatTreeKind::fanin, flat[c][1], report["fanin"]);
  }
  if (quality_report.empty()) throw FitError("no samples: nothing to fit");
  table.provenance["fit"] = quality_report;

  // The component must accept whatever the fitter writes.
  try {
    (void)parse_calibration(to_json_text(table), "fitted table");
    update_checksum(table);
  } catch (const CalibrationError &e) {
    throw FitError(std::string("the fitted table does not validate: ") + e.what());
  }
  return table;
}

}  // namespace modeltuned::calib

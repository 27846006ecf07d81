// From samples to a calibration table: per-size medians, the piecewise Hockney fit per channel
// (eq. 5) and the flat-tree line over P per size (eq. 6), the contention curves alike, with fit
// quality for the provenance.
#include <algorithm>
#include <cmath>
#include <map>
#include <span>

#include "calib/fit.hpp"
#include "calib/regression.hpp"

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

json number_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json quality(const std::vector<double> &predicted, const std::vector<double> &measured) {
  std::vector<double> errors;
  for (size_t i = 0; i < measured.size(); ++i) errors.push_back(percent_error(predicted[i], measured[i]));
  return {{"points", measured.size()},
          {"r2", number_or_null(r_squared(measured, predicted))},
          {"median_abs_pct_error", median(errors)},
          {"max_abs_pct_error", *std::max_element(errors.begin(), errors.end())}};
}

// The provenance's "extrapolated" note, also printed by `modeltuned fit`.
std::string fmt_single_p(size_t sizes, size_t of, double p) {
  const std::string group = "P = " + std::to_string(static_cast<int>(p));
  return std::to_string(sizes) + " of " + std::to_string(of) + " sizes measured at " + group +
         " only: times for more ranks are not measured but estimated, the " + group +
         " time scaled by the number of peers";
}

// k-fold cross-validation of the robust line fits: the held-out figures say how well the table
// predicts a measurement it has not seen, which in-sample figures overstate.
constexpr int kFolds = 5;
constexpr uint64_t kFoldSeed = 20120208;  // fixed: the same data give the same report

// Quality of predictions of raw samples the fits did not see: R^2 (of the raw times; near 0 on a
// flat noisy range, where size explains nothing), mean and median absolute percentage error.
json held_out_quality(std::span<const Point> points, const std::vector<double> &predicted) {
  if (predicted.empty()) return {{"samples", points.size()}, {"folds", kFolds}, {"note", "too few samples"}};
  std::vector<double> measured, errors;
  for (const auto &p : points) measured.push_back(p.y);
  double mean_error = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    errors.push_back(percent_error(predicted[i], measured[i]));
    mean_error += errors.back() / points.size();
  }
  return {{"samples", points.size()},
          {"folds", kFolds},
          {"r2", number_or_null(r_squared(measured, predicted))},
          {"mape", mean_error},
          {"median_ape", median(errors)}};
}

// Relative residuals (t - T) / T of raw samples around a fit.
std::vector<double> relative_residuals(std::span<const Point> points, const LineFit &fit) {
  std::vector<double> r;
  for (const auto &p : points) r.push_back((p.y - fit.at(p.x)) / fit.at(p.x));
  return r;
}

json noise_report(const std::vector<double> &relative) {
  return {{"rel_mad", robust_scale(relative)},
          {"rel_p05", quantile(relative, 0.05)},
          {"rel_p50", quantile(relative, 0.5)},
          {"rel_p95", quantile(relative, 0.95)}};
}

// Nothing is measured between the last size of a piece and the first of the next, so where the
// protocol switches inside that gap is unknown. If the two lines cross inside the gap, the break
// is put at the crossing (the time is then continuous and no line is extrapolated past the
// other). Otherwise it stays at the last measured size of the lower piece: a jump up (the eager
// limit) or a drop (a faster protocol taking over, as above 128 KiB on ORFEO's core and socket
// channels, where 256 KiB takes 30 us and the lower line would say 52) happens right after it.
// Open MPI's thresholds are powers of two like the OSU sizes; on the ORFEO data, moving a drop's
// break to the end of the gap instead made 29 bcast/reduce validation figures worse.
void place_breakpoints(std::vector<HockneyPiece> &pieces, const std::vector<size_t> &first_point,
                       const std::vector<Point> &points) {
  for (size_t k = 1; k < pieces.size(); ++k) {
    HockneyPiece &lower = pieces[k - 1];
    const HockneyPiece &upper = pieces[k];
    const double last_lower = points[first_point[k] - 1].x, first_upper = points[first_point[k]].x;
    auto gap = [&](double m) {
      return (upper.alpha_us + upper.beta_us_per_byte * m) - (lower.alpha_us + lower.beta_us_per_byte * m);
    };
    double upto = last_lower;
    if (gap(last_lower) < 0 && gap(first_upper) > 0)
      upto = std::floor((lower.alpha_us - upper.alpha_us) / (upper.beta_us_per_byte - lower.beta_us_per_byte));
    upto = std::clamp(upto, last_lower, std::max(last_lower, first_upper - 1));
    if (upper.alpha_us + upper.beta_us_per_byte * upto > 0) lower.upto_bytes = upto;
  }
}

// The fallback when no piecewise fit starts above zero (every first piece's least-squares line
// goes through the origin or below): one piece, alpha the smallest per-size median, beta >= 0 the
// least-squares slope through the origin of what is left above it. Positive everywhere, so the
// calibrator still writes a table.
PiecewiseFit positive_single_piece(const std::vector<Point> &points) {
  double alpha = points.front().y, xx = 0, xy = 0;
  for (const Point &p : points) alpha = std::min(alpha, p.y);
  for (const Point &p : points) {
    xx += p.x * p.x;
    xy += p.x * (p.y - alpha);
  }
  HockneyPiece piece;
  piece.alpha_us = alpha;
  piece.beta_us_per_byte = xx > 0 ? std::max(0.0, xy / xx) : 0;
  PiecewiseFit fit;
  fit.pieces = {piece};
  fit.first_point = {0};
  return fit;
}

// Piecewise Hockney per channel. The breakpoints come from the per-size medians (exact dynamic
// programming, regression.hpp), which a slow repeat cannot move; each piece is then refitted by
// median regression (IRLS) on the raw samples of its sizes, so the table reflects every
// measurement and half of them may be outliers without moving the line.
// The pieces to refit: the piecewise Hockney fit of the per-size medians, or one piece from the
// smallest median where that fit starts at 0 us or is steeper than a table may hold; `refit` says
// which and why (empty: the piecewise fit).
PiecewiseFit p2p_segmentation(const std::vector<Point> &points, std::string &refit) {
  auto segmented = fit_piecewise_hockney(points, PiecewiseOptions{});
  if (!segmented) {
    segmented = positive_single_piece(points);
    refit =
        "no piecewise Hockney fit starts above 0 us (the smallest sizes measured as fast as the line through "
        "the larger ones, noise); one piece from the smallest per-size median, slope >= 0 above it";
  } else if (std::any_of(segmented->pieces.begin(), segmented->pieces.end(),
                         [](const HockneyPiece &p) { return p.beta_us_per_byte > kMaxTableUsPerByte; })) {
    segmented = positive_single_piece(points);
    refit =
        "a piece of the piecewise fit is steeper than a table may hold (a few sizes with slow repeats, noise); "
        "one piece from the smallest per-size median, slope >= 0 above it";
  }
  return *segmented;
}

// One piece refitted on its raw samples (sizes points[first, last)), with its report and what the
// channel's report gathers from it.
struct P2pPieceFit {
  HockneyPiece piece;
  json report;
  std::vector<Point> raw;
  std::vector<double> predicted, measured, held_out;
};

P2pPieceFit fit_p2p_piece(HockneyPiece piece, double range_start, const std::vector<Point> &points, size_t first,
                          size_t last, const std::map<double, std::vector<double>> &by_size) {
  P2pPieceFit fit;
  std::vector<Point> &raw = fit.raw;
  for (size_t i = first; i < last; ++i)
    for (double t : by_size.at(points[i].x)) raw.push_back({points[i].x, t});

  const LineFit robust = fit_line_robust(raw, Weighting::relative);
  json &q = fit.report;
  // The robust line of a piece spanning few bytes can be steeper than any machine when most of one
  // size's repeats were slow; the medians' line is kept then, as where the robust one starts below 0.
  if (robust.at(range_start) > 0 && robust.slope <= kMaxTableUsPerByte) {
    piece.alpha_us = robust.intercept;
    piece.beta_us_per_byte = robust.slope;
    q["method"] = "median regression (IRLS) on raw samples";
  } else {
    q["method"] =
        "least squares on medians (the robust line is not positive at the start of the range, or is steeper "
        "than a table may hold)";
  }
  // Still steeper (a few sizes a byte or two apart, most repeats slow): at the table's limit, so
  // that the table loads, as for the noise below; the report says so.
  if (piece.beta_us_per_byte > kMaxTableUsPerByte) {
    piece.beta_us_per_byte = kMaxTableUsPerByte;
    q["clamped"] = "steeper than a table may hold (noise); the slope is the table's limit";
  }
  const LineFit used{piece.alpha_us, piece.beta_us_per_byte, 0};
  const std::vector<double> relative = relative_residuals(raw, used);
  // At the table's limit at most: an oversubscribed, loaded run can have 5 % of its small
  // messages wait a scheduler quantum (ms against us); the table must still load. The report
  // below keeps the measured spread.
  piece.noise_rel_mad = std::min(robust_scale(relative), kMaxTableNoise);
  piece.noise_rel_p95 = std::min(quantile(relative, 0.95), kMaxTableNoise);
  fit.piece = piece;

  for (size_t i = first; i < last; ++i) {
    fit.predicted.push_back(used.at(points[i].x));
    fit.measured.push_back(points[i].y);
  }
  q.update(quality(fit.predicted, fit.measured));
  q["from_bytes"] = points[first].x;
  q["to_bytes"] = points[last - 1].x;
  q["sizes"] = last - first;
  fit.held_out = cross_validated_predictions(
      raw, kFolds, kFoldSeed, [](std::span<const Point> p) { return fit_line_robust(p, Weighting::relative); });
  q["held_out"] = held_out_quality(raw, fit.held_out);
  q["noise"] = noise_report(relative);
  return fit;
}

std::vector<HockneyPiece> fit_p2p(Channel channel, const std::map<double, std::vector<double>> &by_size, json &report) {
  const std::string name(channel_name(channel));
  if (by_size.size() < 2)
    throw FitError("channel " + name + ": point-to-point samples at " + std::to_string(by_size.size()) +
                   " message size(s); at least 2 distinct sizes are needed to fit latency and bandwidth");
  const std::vector<Point> points = medians(by_size);
  std::string refit;
  const PiecewiseFit segmented = p2p_segmentation(points, refit);

  std::vector<HockneyPiece> pieces;
  std::vector<double> predicted, measured;
  std::vector<Point> all_raw;
  std::vector<double> all_held_out;
  json piece_reports = json::array();
  for (size_t k = 0; k < segmented.pieces.size(); ++k) {
    const size_t first = segmented.first_point[k];
    const size_t last = k + 1 < segmented.pieces.size() ? segmented.first_point[k + 1] : points.size();
    const double range_start = k == 0 ? 0 : pieces.back().upto_bytes;
    P2pPieceFit fit = fit_p2p_piece(segmented.pieces[k], range_start, points, first, last, by_size);
    pieces.push_back(fit.piece);
    piece_reports.push_back(fit.report);
    predicted.insert(predicted.end(), fit.predicted.begin(), fit.predicted.end());
    measured.insert(measured.end(), fit.measured.begin(), fit.measured.end());
    if (!fit.held_out.empty()) {
      all_raw.insert(all_raw.end(), fit.raw.begin(), fit.raw.end());
      all_held_out.insert(all_held_out.end(), fit.held_out.begin(), fit.held_out.end());
    }
  }
  place_breakpoints(pieces, segmented.first_point, points);
  report = quality(predicted, measured);  // in sample, on the per-size medians
  report["samples"] = 0;
  for (const auto &[bytes, ts] : by_size) report["samples"] = report["samples"].get<size_t>() + ts.size();
  report["held_out"] = held_out_quality(all_raw, all_held_out);
  report["pieces"] = piece_reports;
  if (!refit.empty()) report["refit"] = refit;
  return pieces;
}

// The measured flat-tree curve, made non-decreasing in P (more peers never cost less: pool
// adjacent violators over the per-P medians), kept at P = 2..8 and then every ~25% of P. Trees
// run flat trees of 2-8 peers, where the line over all P misses most: on ORFEO's node channel at
// 1 B, P = 4..7 cost 1.4-2.6 us but the line says 4.4-5.5 us (docs/calibration-format.md).
std::vector<std::pair<int, double>> isotonic_knots(const std::map<double, std::vector<double>> &by_p) {
  struct Block {
    double sum, weight;
    size_t first, last;
  };
  std::vector<double> ps, ts;
  for (const auto &[p, v] : by_p) {
    ps.push_back(p);
    ts.push_back(median(v));
  }
  std::vector<Block> blocks;
  for (size_t i = 0; i < ps.size(); ++i) {
    blocks.push_back({ts[i], 1, i, i});
    while (blocks.size() > 1 && blocks[blocks.size() - 2].sum / blocks[blocks.size() - 2].weight >=
                                    blocks.back().sum / blocks.back().weight) {
      Block b = blocks.back();
      blocks.pop_back();
      blocks.back().sum += b.sum;
      blocks.back().weight += b.weight;
      blocks.back().last = b.last;
    }
  }
  std::vector<double> fitted(ps.size());
  for (const Block &b : blocks)
    for (size_t i = b.first; i <= b.last; ++i) fitted[i] = b.sum / b.weight;
  std::vector<std::pair<int, double>> knots;
  auto add = [&](size_t i) {
    if (knots.empty() || knots.back().first != static_cast<int>(ps[i]))
      knots.emplace_back(static_cast<int>(ps[i]), fitted[i]);
  };
  size_t next_grid = 2;
  for (size_t i = 0; i < ps.size(); ++i) {
    if (ps[i] >= static_cast<double>(next_grid) || i + 1 == ps.size()) {
      add(i);
      while (static_cast<double>(next_grid) <= ps[i])
        next_grid = next_grid < 8 ? next_grid + 1 : next_grid + next_grid / 4;
    }
  }
  return knots;
}

// by_size_and_p[bytes][P] = latencies. Per size, T(P) = alpha + beta (P - 1) by least squares
// over the per-P medians of the raw samples: the median makes each P robust against heavy-tailed
// repeats, and every P counts fully, because a P that leaves the line (a group crossing a cache or
// NUMA boundary) is how the machine behaves, not noise. (Huber IRLS over P on the raw samples was
// tried: on the ORFEO data it made the bcast/reduce validation worse, docs/calibration-format.md.)
// A size measured at a single P (a channel where rank 0 has one peer) gets the line through the
// origin and that point, T(P) = T(P0) (P - 1) / (P0 - 1): for P0 = 2 it is the fully serialized
// bound of eq. 1 (gamma <= P - 1), and max_p = P0 marks everything beyond as extrapolated.
// Consumers use the line beyond the measured P only; within, the isotonic curve above.
// The contention curves (concurrent pairs, exchange rounds) are fitted the same way, over their P.
std::vector<FlatTreeFit> fit_flat(Channel channel, const std::string &kind,
                                  const std::map<double, std::map<double, std::vector<double>>> &by_size_and_p,
                                  json &report) {
  const std::string what = "channel " + std::string(channel_name(channel)) + " " + kind;
  std::vector<FlatTreeFit> fits;
  std::vector<double> all_errors, r2s, noise;
  std::vector<Point> all_raw;
  std::vector<double> all_held_out;
  size_t samples = 0, single_p_sizes = 0;
  for (const auto &[bytes, by_p] : by_size_and_p) {
    std::vector<Point> raw;  // x = P - 1 peers
    for (const auto &[p, ts] : by_p)
      for (double t : ts) raw.push_back({p - 1, t});
    samples += raw.size();
    FlatTreeFit f;
    f.bytes = bytes;
    f.max_p = static_cast<int>(by_p.rbegin()->first);
    LineFit line;
    if (by_p.size() == 1) {
      ++single_p_sizes;
      line = {0, median(by_p.begin()->second) / (f.max_p - 1), 0};
    } else {
      line = fit_line_to_medians(raw, Weighting::absolute);
      if (line.at(f.max_p - 1) <= 0)
        throw FitError(what + " at " + json(bytes).dump() + " B: the fit over P gives a non-positive time at P = " +
                       std::to_string(f.max_p) + "; check the flat-tree data");
      const std::vector<double> held_out = cross_validated_predictions(
          raw, kFolds, kFoldSeed, [](std::span<const Point> p) { return fit_line_to_medians(p, Weighting::absolute); });
      if (!held_out.empty()) {
        all_raw.insert(all_raw.end(), raw.begin(), raw.end());
        all_held_out.insert(all_held_out.end(), held_out.begin(), held_out.end());
      }
    }
    f.alpha_us = line.intercept;
    f.beta_us = line.slope;
    if (by_p.size() > 1) f.knots = isotonic_knots(by_p);
    fits.push_back(f);
    noise.push_back(robust_scale(relative_residuals(raw, line)));
    std::vector<double> predicted, measured;
    for (const Point &m : medians(by_p)) {
      predicted.push_back(line.at(m.x - 1));
      measured.push_back(m.y);
      all_errors.push_back(percent_error(predicted.back(), m.y));
    }
    if (double r2 = r_squared(measured, predicted); std::isfinite(r2)) r2s.push_back(r2);
  }
  report = {{"sizes", fits.size()},
            {"samples", samples},
            {"median_r2_over_sizes", number_or_null(median(r2s))},
            {"min_r2_over_sizes", r2s.empty() ? json(nullptr) : json(*std::min_element(r2s.begin(), r2s.end()))},
            {"median_abs_pct_error", median(all_errors)},
            {"max_abs_pct_error", *std::max_element(all_errors.begin(), all_errors.end())},
            {"median_noise_rel_mad", median(noise)},
            {"held_out", held_out_quality(all_raw, all_held_out)}};
  if (single_p_sizes)
    report["extrapolated"] = fmt_single_p(single_p_sizes, fits.size(), by_size_and_p.begin()->second.rbegin()->first);
  return fits;
}

// Relay per size: (median ring - median hops) / 2, the ring having two forwarding ranks, at least
// 0 (a turnaround cannot make a message faster; a negative difference is noise), then the median
// of each size and its two neighbours (at an end, the two next to it): a difference of two times
// is noisier than either, and a turnaround does not change from one size to the next. Medians:
// one descheduled repeat, or one size, must not move it.
std::vector<std::pair<double, double>> fit_relay(const std::map<double, std::array<std::vector<double>, 2>> &by_size,
                                                 json &report) {
  std::vector<std::pair<double, double>> points;
  json sizes = json::array();
  size_t samples = 0;
  for (const auto &[bytes, runs] : by_size) {
    const auto &[ring, hops] = runs;
    if (ring.empty() || hops.empty()) continue;
    samples += ring.size();
    const double ring_us = median(ring), hops_us = median(hops);
    const double relay = std::max(0.0, (ring_us - hops_us) / 2);
    points.emplace_back(bytes, relay);
    sizes.push_back(
        {{"bytes", bytes}, {"ring_us", ring_us}, {"hops_us", hops_us}, {"relay_us", relay}, {"runs", ring.size()}});
  }
  std::vector<std::pair<double, double>> smoothed = points;
  for (size_t i = 0; i < points.size(); ++i) {
    std::vector<double> window;
    // Three sizes, shifted inwards at the ends (a mean of two would pass a spike at an end).
    const size_t first = points.size() < 3 ? 0 : std::min(i > 0 ? i - 1 : 0, points.size() - 3);
    for (size_t j = first; j < std::min(first + 3, points.size()); ++j) window.push_back(points[j].second);
    smoothed[i].second = median(window);
    sizes[i]["smoothed_us"] = smoothed[i].second;
  }
  points = std::move(smoothed);
  report = {{"method",
             "(median ring - median of its hops as half round trips) / 2, at least 0; "
             "median with the neighbouring sizes"},
            {"samples", samples},
            {"sizes", sizes}};
  return points;
}

// The samples by channel and kind, each checked: per channel, p2p[bytes], flat[fanin][bytes][P],
// contention[ContentionKind][bytes][P] and relay[bytes] = {ring times, hops times}.
struct Grouped {
  std::array<std::map<double, std::vector<double>>, kChannels> p2p;
  std::array<std::array<std::map<double, std::map<double, std::vector<double>>>, 2>, kChannels> flat, contention;
  std::array<std::map<double, std::array<std::vector<double>, 2>>, kChannels> relay;
};

void check_channel(Channel c) {
  if (static_cast<unsigned>(c) >= kChannels)
    throw FitError("sample with unknown channel index " + std::to_string(static_cast<int>(c)));
}

bool positive(double x) { return x > 0 && std::isfinite(x); }

Grouped group_samples(const Samples &samples) {
  Grouped g;
  for (const auto &s : samples.p2p) {
    check_channel(s.channel);
    if (!positive(s.latency_us) || !positive(s.bytes))
      throw FitError("channel " + std::string(channel_name(s.channel)) + ": point-to-point sample of " +
                     json(s.bytes).dump() + " B taking " + json(s.latency_us).dump() +
                     " us; sizes and times must be positive");
    g.p2p[static_cast<int>(s.channel)][s.bytes].push_back(s.latency_us);
  }
  for (const auto &s : samples.flat) {
    check_channel(s.channel);
    if (!positive(s.latency_us) || !positive(s.bytes) || s.p < 2)
      throw FitError("channel " + std::string(channel_name(s.channel)) +
                     ": flat-tree sample P = " + std::to_string(s.p) + ", " + json(s.bytes).dump() + " B, " +
                     json(s.latency_us).dump() + " us; P must be >= 2 and sizes and times positive");
    g.flat[static_cast<int>(s.channel)][s.kind == FlatTreeKind::fanin][s.bytes][s.p].push_back(s.latency_us);
  }
  for (const auto &s : samples.contention) {
    check_channel(s.channel);
    if (!positive(s.latency_us) || !positive(s.bytes) || s.p < 2 || s.p % 2 != 0)
      throw FitError("channel " + std::string(channel_name(s.channel)) + ": " + contention_name(s.kind) +
                     " sample P = " + std::to_string(s.p) + ", " + json(s.bytes).dump() + " B, " +
                     json(s.latency_us).dump() + " us; P must be even and >= 2 and sizes and times positive");
    g.contention[static_cast<int>(s.channel)][static_cast<int>(s.kind)][s.bytes][s.p].push_back(s.latency_us);
  }
  for (const auto &s : samples.relay) {
    check_channel(s.channel);
    if (!positive(s.latency_us) || !positive(s.bytes))
      throw FitError("channel " + std::string(channel_name(s.channel)) + ": " + relay_name(s.kind) + " sample of " +
                     json(s.bytes).dump() + " B taking " + json(s.latency_us).dump() +
                     " us; sizes and times must be positive");
    g.relay[static_cast<int>(s.channel)][s.bytes][static_cast<int>(s.kind)].push_back(s.latency_us);
  }
  return g;
}

// What the options give the table: the local costs and the provenance.
CalibrationTable table_from_options(const FitOptions &options) {
  if (!std::isfinite(options.reduce_us_per_byte) || options.reduce_us_per_byte < 0)
    throw FitError("reduce cost " + json(options.reduce_us_per_byte).dump() +
                   " us/B is not a non-negative finite number");
  if (options.reduce_source.empty())
    throw FitError("the reduce cost needs a source: \"measured\" or \"estimate: <why>\"");
  if (!options.provenance.is_null() && !options.provenance.is_object())
    throw FitError("provenance must be a JSON object");
  CalibrationTable table;
  table.reduce_us_per_byte = options.reduce_us_per_byte;
  table.reduce_source = options.reduce_source;
  if (!options.fresh_memory_source.empty()) {
    if (!std::isfinite(options.fresh_memory_us_per_byte) || options.fresh_memory_us_per_byte < 0)
      throw FitError("fresh-memory cost " + json(options.fresh_memory_us_per_byte).dump() +
                     " us/B is not a non-negative finite number");
    table.fresh_memory_us_per_byte = options.fresh_memory_us_per_byte;
    table.fresh_memory_source = options.fresh_memory_source;
    if (std::isfinite(options.fresh_memory_one_buffer_us_per_byte) && options.fresh_memory_one_buffer_us_per_byte >= 0)
      table.fresh_memory_one_buffer_us_per_byte = options.fresh_memory_one_buffer_us_per_byte;
    if (std::isfinite(options.fresh_memory_from_bytes) && options.fresh_memory_from_bytes > 0)
      table.fresh_memory_from_bytes = options.fresh_memory_from_bytes;
  }
  table.provenance = options.provenance.is_object() ? options.provenance : json::object();
  return table;
}

// Channel c's fits into `ch`, their quality into `report`; false when it has no samples.
bool fit_channel(const Grouped &g, int c, ChannelTable &ch, json &quality_report) {
  const Channel channel = static_cast<Channel>(c);
  const std::string name(channel_name(channel));
  const bool has_p2p = !g.p2p[c].empty(), has_fanout = !g.flat[c][0].empty(), has_fanin = !g.flat[c][1].empty();
  const bool has_contention = !g.contention[c][0].empty() || !g.contention[c][1].empty();
  const bool has_relay = !g.relay[c].empty();
  if (!has_p2p && !has_fanout && !has_fanin && !has_contention && !has_relay) return false;
  if (!has_p2p)
    throw FitError("channel " + name + ": " +
                   (has_fanout || has_fanin ? "flat-tree"
                    : has_contention        ? "contention"
                                            : "relay") +
                   " samples but no point-to-point samples; measure both");
  if (!has_fanout)
    throw FitError("channel " + name + ": point-to-point samples but no fanout (linear bcast) samples; measure both");
  ch.present = true;
  json &report = quality_report[name];
  ch.p2p = fit_p2p(channel, g.p2p[c], report["p2p"]);
  ch.fanout = fit_flat(channel, "fanout", g.flat[c][0], report["fanout"]);
  if (has_fanin) ch.fanin = fit_flat(channel, "fanin", g.flat[c][1], report["fanin"]);
  for (ContentionKind kind : {ContentionKind::concurrent, ContentionKind::exchange}) {
    const auto &by_size_and_p = g.contention[c][static_cast<int>(kind)];
    if (by_size_and_p.empty()) continue;
    (kind == ContentionKind::concurrent ? ch.concurrent : ch.exchange) =
        fit_flat(channel, contention_name(kind), by_size_and_p, report[contention_name(kind)]);
  }
  if (has_relay) ch.relay = fit_relay(g.relay[c], report["relay"]);
  return true;
}

}  // namespace

CalibrationTable fit_table(const Samples &samples, const FitOptions &options) {
  CalibrationTable table = table_from_options(options);
  const Grouped grouped = group_samples(samples);
  json quality_report = json::object();
  for (int c = 0; c < kChannels; ++c) fit_channel(grouped, c, table.channels[c], quality_report);
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

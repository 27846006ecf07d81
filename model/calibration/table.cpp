// Calibration table: JSON reading with strict validation (writing: table_write.cpp).
// Format and rules: docs/calibration-format.md.
#include "model/calibration/table.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>

namespace modeltuned {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string &where, const std::string &problem) {
  throw CalibrationError(where + ": " + problem);
}

std::string type_of(const json &value) {
  if (value.is_null()) return "null";
  return value.type_name();
}

const json &require_key(const json &object, const char *key, const std::string &where, const std::string &fix) {
  auto it = object.find(key);
  if (it == object.end()) fail(where.empty() ? key : where + "." + key, "missing; " + fix);
  return *it;
}

// Keys outside the format are rejected: a misspelt "upto_bytes" would otherwise silently turn a
// bounded piece into an unbounded one.
void reject_unknown_keys(const json &object, std::initializer_list<std::string_view> known, const std::string &where) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool ok = false;
    for (auto k : known) ok = ok || it.key() == k;
    if (!ok) {
      std::string list;
      for (auto k : known) list += (list.empty() ? "\"" : ", \"") + std::string(k) + "\"";
      fail(where.empty() ? it.key() : where + "." + it.key(), "unknown field; allowed here: " + list);
    }
  }
}

const json &require_object(const json &value, const std::string &where) {
  if (!value.is_object()) fail(where, "must be a JSON object, found " + type_of(value));
  return value;
}

// JSON has no NaN or infinity, but nlohmann turns 1e999 into inf, and null or a string may sit
// where a number belongs; all of these are refused here.
double finite_number(const json &value, const std::string &where) {
  if (!value.is_number())
    fail(where, "must be a number, found " + type_of(value) + (value.is_string() ? " " + value.dump() : ""));
  double x = value.get<double>();
  if (!std::isfinite(x)) fail(where, "must be a finite number (out of range: " + value.dump() + ")");
  return x;
}

double non_negative_number(const json &value, const std::string &where) {
  double x = finite_number(value, where);
  if (x < 0) fail(where, "must not be negative, found " + value.dump());
  return x;
}

double positive_number(const json &value, const std::string &where) {
  double x = finite_number(value, where);
  if (x <= 0) fail(where, "must be positive, found " + value.dump());
  return x;
}

// |x| <= limit: the physical bounds of table.hpp.
double bounded(double x, double limit, const char *unit, const std::string &where) {
  if (std::abs(x) > limit)
    fail(where, json(x).dump() + " " + unit + " is beyond " + json(limit).dump() + " " + unit +
                    ", no machine measures that; recalibrate or correct the value");
  return x;
}
double time_us(double x, const std::string &where) { return bounded(x, kMaxTableUs, "us", where); }
double us_per_byte(double x, const std::string &where) { return bounded(x, kMaxTableUsPerByte, "us/B", where); }
double byte_count(double x, const std::string &where) { return bounded(x, kMaxTableBytes, "B", where); }
double noise(double x, const std::string &where) { return bounded(x, kMaxTableNoise, "(relative)", where); }

std::string number_text(double x) {
  if (x == std::floor(x) && std::abs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  return json(x).dump();
}

std::vector<HockneyPiece> parse_p2p(const json &value, const std::string &where) {
  if (!value.is_array() || value.empty())
    fail(where,
         "must be a non-empty list of Hockney pieces {\"upto_bytes\", \"alpha_us\", "
         "\"beta_us_per_byte\"}, found " +
             (value.is_array() ? std::string("an empty list") : type_of(value)));
  std::vector<HockneyPiece> pieces;
  double previous_upto = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    const json &piece = require_object(value[i], at);
    reject_unknown_keys(piece, {"upto_bytes", "alpha_us", "beta_us_per_byte", "noise_rel_mad", "noise_rel_p95"}, at);
    const bool last = i + 1 == value.size();
    HockneyPiece p;
    if (auto it = piece.find("upto_bytes"); it != piece.end()) {
      if (last)
        fail(at + ".upto_bytes",
             "the last piece must be unbounded; remove its upto_bytes or add "
             "a piece without upto_bytes after it");
      p.upto_bytes = byte_count(positive_number(*it, at + ".upto_bytes"), at + ".upto_bytes");
      if (p.upto_bytes <= previous_upto)
        fail(at + ".upto_bytes", number_text(p.upto_bytes) + " is not above the previous piece's " +
                                     number_text(previous_upto) + "; list pieces by strictly increasing upto_bytes");
    } else if (!last) {
      fail(at + ".upto_bytes", "missing; only the last piece may be unbounded");
    }
    p.alpha_us =
        time_us(finite_number(require_key(piece, "alpha_us", at, "give the piece's latency intercept in microseconds"),
                              at + ".alpha_us"),
                at + ".alpha_us");
    p.beta_us_per_byte = us_per_byte(
        non_negative_number(
            require_key(piece, "beta_us_per_byte", at, "give the piece's inverse bandwidth in microseconds per byte"),
            at + ".beta_us_per_byte"),
        at + ".beta_us_per_byte");
    if (auto it = piece.find("noise_rel_mad"); it != piece.end())
      p.noise_rel_mad = noise(non_negative_number(*it, at + ".noise_rel_mad"), at + ".noise_rel_mad");
    if (auto it = piece.find("noise_rel_p95"); it != piece.end())
      p.noise_rel_p95 = noise(finite_number(*it, at + ".noise_rel_p95"), at + ".noise_rel_p95");
    // A linear piece is extreme at its ends; beta >= 0 makes the lower end the minimum, so the
    // unbounded last piece needs no upper check. The first piece starts at 0 bytes.
    const double time_at_start = p.alpha_us + p.beta_us_per_byte * previous_upto;
    if (time_at_start <= 0)
      fail(at, "gives a non-positive time (" + number_text(time_at_start) + " us) at " + number_text(previous_upto) +
                   " bytes, the start of its range; refit the piece or move its bounds");
    if (!last) previous_upto = p.upto_bytes;
    pieces.push_back(p);
  }
  return pieces;
}

// The measured curve: [[P, us], ...], P strictly increasing within [2, max_p], times positive and
// non-decreasing (more peers never cost less).
std::vector<std::pair<int, double>> parse_curve(const json &value, int max_p, const std::string &where) {
  if (!value.is_array() || value.empty())
    fail(where, "must be a non-empty list of [P, us] points, found " +
                    (value.is_array() ? std::string("an empty list") : type_of(value)));
  std::vector<std::pair<int, double>> knots;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    const json &point = value[i];
    if (!point.is_array() || point.size() != 2 || !point[0].is_number_integer())
      fail(at, "must be a pair [P, us] with an integer P, found " + point.dump());
    const long long p = point[0].get<long long>();
    if (p < 2 || p > max_p)
      fail(at, "P = " + std::to_string(p) + " is outside [2, max_p = " + std::to_string(max_p) + "]");
    if (!knots.empty() && p <= knots.back().first)
      fail(at, "P = " + std::to_string(p) + " is not above the previous point's; list points by increasing P");
    const double us = time_us(positive_number(point[1], at + "[1]"), at + "[1]");
    if (!knots.empty() && us < knots.back().second)
      fail(at, number_text(us) + " us is below the previous point's " + number_text(knots.back().second) +
                   " us; the curve must not decrease with P (refit it)");
    knots.emplace_back(static_cast<int>(p), us);
  }
  return knots;
}

std::vector<FlatTreeFit> parse_flat(const json &value, const std::string &where) {
  if (!value.is_array() || value.empty())
    fail(where,
         "must be a non-empty list of flat-tree fits {\"bytes\", \"alpha_us\", \"beta_us\", "
         "\"max_p\"}, found " +
             (value.is_array() ? std::string("an empty list") : type_of(value)));
  std::vector<FlatTreeFit> fits;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    const json &fit_json = require_object(value[i], at);
    reject_unknown_keys(fit_json, {"bytes", "alpha_us", "beta_us", "max_p", "curve"}, at);
    FlatTreeFit f;
    f.bytes =
        byte_count(positive_number(require_key(fit_json, "bytes", at, "give the message size in bytes"), at + ".bytes"),
                   at + ".bytes");
    if (!fits.empty() && f.bytes <= fits.back().bytes)
      fail(at + ".bytes", number_text(f.bytes) + " is not above the previous fit's " + number_text(fits.back().bytes) +
                              "; list fits by strictly increasing bytes");
    f.alpha_us = time_us(
        finite_number(require_key(fit_json, "alpha_us", at, "give T(P) = alpha + beta*(P-1)'s alpha in microseconds"),
                      at + ".alpha_us"),
        at + ".alpha_us");
    f.beta_us = time_us(
        non_negative_number(require_key(fit_json, "beta_us", at, "give the cost per extra peer in microseconds"),
                            at + ".beta_us"),
        at + ".beta_us");
    const json &max_p = require_key(fit_json, "max_p", at, "give the largest measured P");
    if (!max_p.is_number_integer()) fail(at + ".max_p", "must be an integer, found " + max_p.dump());
    if (max_p.get<long long>() < 2 || max_p.get<long long>() > 1 << 30)
      fail(at + ".max_p", "must be at least 2 (a root and one peer), found " + max_p.dump());
    f.max_p = static_cast<int>(max_p.get<long long>());
    // alpha may be negative: the line is fitted over all measured P and consumers clamp
    // gamma = T_flat / T_p2p to at least 1 (eq. 1), but a fit that is nowhere positive is garbage.
    const double time_at_max_p = f.alpha_us + f.beta_us * (f.max_p - 1);
    if (time_at_max_p <= 0)
      fail(at, "gives a non-positive time (" + number_text(time_at_max_p) +
                   " us) even at its largest P = " + std::to_string(f.max_p) + "; refit it");
    if (auto curve = fit_json.find("curve"); curve != fit_json.end())
      f.knots = parse_curve(*curve, f.max_p, at + ".curve");
    fits.push_back(f);
  }
  return fits;
}

// The relay costs: [{"bytes": B, "us": extra}, ...], bytes strictly increasing, extra >= 0.
std::vector<std::pair<double, double>> parse_relay(const json &value, const std::string &where) {
  if (!value.is_array() || value.empty())
    fail(where, "must be a non-empty list of {\"bytes\", \"us\"} points, found " +
                    (value.is_array() ? std::string("an empty list") : type_of(value)));
  std::vector<std::pair<double, double>> points;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    const json &point = require_object(value[i], at);
    reject_unknown_keys(point, {"bytes", "us"}, at);
    const double bytes =
        byte_count(positive_number(require_key(point, "bytes", at, "give the message size in bytes"), at + ".bytes"),
                   at + ".bytes");
    if (!points.empty() && bytes <= points.back().first)
      fail(at + ".bytes", number_text(bytes) + " is not above the previous point's " +
                              number_text(points.back().first) + "; list points by strictly increasing bytes");
    const double us = time_us(
        non_negative_number(
            require_key(point, "us", at, "give the forwarding cost beyond a point-to-point message in microseconds"),
            at + ".us"),
        at + ".us");
    points.emplace_back(bytes, us);
  }
  return points;
}

ChannelTable parse_channel(const json &value, const std::string &where, int version) {
  require_object(value, where);
  reject_unknown_keys(value, {"p2p", "fanout", "fanin", "concurrent", "exchange", "relay"}, where);
  ChannelTable channel;
  channel.present = true;
  channel.p2p = parse_p2p(require_key(value, "p2p", where, "a calibrated channel needs its point-to-point pieces"),
                          where + ".p2p");
  channel.fanout = parse_flat(require_key(value, "fanout", where, "a calibrated channel needs its flat-tree fits"),
                              where + ".fanout");
  if (auto it = value.find("fanin"); it != value.end()) {
    if (it->is_array() && it->empty())
      fail(where + ".fanin", "is an empty list; omit \"fanin\" to use the fanout fits");
    channel.fanin = parse_flat(*it, where + ".fanin");
  }
  for (auto [key, into] : {std::pair{"concurrent", &channel.concurrent}, std::pair{"exchange", &channel.exchange}})
    if (auto it = value.find(key); it != value.end()) {
      if (version < 2) fail(where + "." + key, "needs \"version\": 2 (version 1 tables have no contention curves)");
      *into = parse_flat(*it, where + "." + key);
    }
  if (auto it = value.find("relay"); it != value.end()) {
    if (version < 4) fail(where + ".relay", "needs \"version\": 4 (older tables have no relay costs)");
    channel.relay = parse_relay(*it, where + ".relay");
  }
  return channel;
}

// Byte counts are whole numbers in practice; writing them as integers keeps the files readable.
// Largest |ln(measured / predicted)| a check may record: a factor of e^10 (22026) either way.
constexpr double kMaxLogResidual = 10;

// A check's optional communicator sizes (version 3): both or neither.
void parse_check_ranks(const json &r, const std::string &where, int table_version, CheckResidual &out) {
  const bool from_ranks = r.contains("from_ranks"), below_ranks = r.contains("below_ranks");
  if (from_ranks != below_ranks)
    fail(where + (from_ranks ? ".below_ranks" : ".from_ranks"),
         "is missing; give both from_ranks and below_ranks, or neither");
  if (!from_ranks) return;
  if (table_version < 3)
    fail(where + ".from_ranks", "needs \"version\": 3 (version 2 checks hold for any communicator size)");
  auto ranks = [&](const char *key) {
    const json &v = r.at(key);
    if (!v.is_number_integer() || v.get<long long>() < 2 || v.get<long long>() > (1LL << 30))
      fail(where + "." + key, std::string("must be a number of ranks from 2 to 2^30, found ") + v.dump());
    return static_cast<int>(v.get<long long>());
  };
  out.from_ranks = ranks("from_ranks");
  out.below_ranks = ranks("below_ranks");
  if (out.below_ranks <= out.from_ranks) fail(where + ".below_ranks", "must exceed from_ranks");
}

// "checks"."unusable": other components' algorithms that crashed or hung in calibration.
void parse_unusable(const json &unusable, CalibrationTable &table) {
  if (!unusable.is_array()) fail("checks.unusable", "must be an array, found " + type_of(unusable));
  for (size_t i = 0; i < unusable.size(); ++i) {
    const std::string where = "checks.unusable[" + std::to_string(i) + "]";
    const json &u = require_object(unusable[i], where);
    reject_unknown_keys(u, {"op", "algorithm", "from_bytes", "why", "ranks"}, where);
    auto text = [&](const char *key) {
      const json &v = require_key(u, key, where, "see docs/calibration-format.md, \"checks\"");
      if (!v.is_string() || v.get<std::string>().empty())
        fail(where + "." + key, "must be a non-empty string, found " + v.dump());
      return v.get<std::string>();
    };
    UnusableCandidate out;
    out.op = text("op");
#define MT_UNUSABLE_OP(name, NAME, version) #name,
    const std::initializer_list<std::string_view> ops = {MT_COLLECTIVES(MT_UNUSABLE_OP)};
#undef MT_UNUSABLE_OP
    if (std::find(ops.begin(), ops.end(), out.op) == ops.end())
      fail(where + ".op", "\"" + out.op + "\" is not a collective modeltuned decides");
    out.algorithm = text("algorithm");
    out.why = text("why");
    if (out.why != "crashed" && out.why != "hung") fail(where + ".why", "must be \"crashed\" or \"hung\"");
    out.from_bytes = byte_count(
        non_negative_number(require_key(u, "from_bytes", where, "give the size it failed at"), where + ".from_bytes"),
        where + ".from_bytes");
    const json &ranks = require_key(u, "ranks", where, "give the communicator's size it failed on");
    if (!ranks.is_number_integer() || ranks.get<long long>() < 1 || ranks.get<long long>() > (1LL << 30))
      fail(where + ".ranks", "must be a number of ranks from 1 to 2^30, found " + ranks.dump());
    out.ranks = static_cast<int>(ranks.get<long long>());
    table.unusable.push_back(std::move(out));
  }
}

void parse_checks(const json &checks, CalibrationTable &table, int table_version) {
  reject_unknown_keys(checks, {"source", "residuals", "unusable"}, "checks");
  if (auto it = checks.find("unusable"); it != checks.end()) {
    if (table_version < 10) fail("checks.unusable", "needs \"version\": 10 (older tables have none)");
    parse_unusable(*it, table);
  }
  const json &source = require_key(checks, "source", "checks", "say which collectives were measured, where");
  if (!source.is_string() || source.get<std::string>().empty())
    fail("checks.source", "must be a non-empty string saying what was measured, found " + source.dump());
  table.checks_source = source.get<std::string>();
  const json &residuals = require_key(checks, "residuals", "checks", "give the list of residual ranges");
  if (!residuals.is_array()) fail("checks.residuals", "must be an array, found " + type_of(residuals));
  table.checks.reserve(residuals.size());  // grown once: see load_calibration on large blocks
  for (size_t i = 0; i < residuals.size(); ++i) {
    const std::string where = "checks.residuals[" + std::to_string(i) + "]";
    const json &r = require_object(residuals[i], where);
    reject_unknown_keys(r,
                        {"op", "algorithm", "segsize", "fanout", "objective", "neighbors", "widest", "from_bytes",
                         "below_bytes", "from_ranks", "below_ranks", "log_lo", "log_hi", "samples", "relative_to"},
                        where);
    CheckResidual out;
    auto text = [&](const char *key, std::initializer_list<std::string_view> allowed) {
      const json &v = require_key(r, key, where, "see docs/calibration-format.md, \"checks\"");
      if (!v.is_string() || v.get<std::string>().empty())
        fail(where + "." + key, "must be a non-empty string, found " + v.dump());
      std::string value = v.get<std::string>();
      if (allowed.size() && std::find(allowed.begin(), allowed.end(), value) == allowed.end())
        fail(where + "." + key, v.dump() + " is not one of the allowed values");
      return value;
    };
#define MT_CHECK_OP(name, NAME, version) #name,
    out.op = text("op", {MT_COLLECTIVES(MT_CHECK_OP)});
#undef MT_CHECK_OP
    if (const int needs = checks_version(out.op); table_version < needs)
      fail(where + ".op", "\"" + out.op + "\" needs \"version\": " + std::to_string(needs) + " (older tables have no " +
                              out.op + " checks)");
    out.algorithm = text("algorithm", {});
    auto parameter = [&](const char *key, long long limit) {
      const json &v = require_key(r, key, where, "give the parameter measured (0: none)");
      if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > limit)
        fail(where + "." + key, "must be an integer from 0 to " + std::to_string(limit) + ", found " + v.dump());
      return v.get<long long>();
    };
    out.segsize = static_cast<uint32_t>(parameter("segsize", 1 << 30));
    out.fanout = static_cast<int>(parameter("fanout", 1024));
    out.objective = text("objective", {"completion", "rank_mean"});
    out.neighbors = text("neighbors", {"cache", "core", "socket", "node"});
    out.widest = text("widest", {"cache", "core", "socket", "node"});
    out.from_bytes =
        byte_count(non_negative_number(require_key(r, "from_bytes", where, "give the smallest call in bytes"),
                                       where + ".from_bytes"),
                   where + ".from_bytes");
    out.below_bytes =
        byte_count(positive_number(require_key(r, "below_bytes", where, "give the first size beyond the range"),
                                   where + ".below_bytes"),
                   where + ".below_bytes");
    if (!(out.below_bytes > out.from_bytes)) fail(where + ".below_bytes", "must exceed from_bytes");
    parse_check_ranks(r, where, table_version, out);
    out.log_lo = bounded(
        finite_number(require_key(r, "log_lo", where, "give the smallest ln(measured/predicted)"), where + ".log_lo"),
        kMaxLogResidual, "(ln ratio)", where + ".log_lo");
    out.log_hi = bounded(
        finite_number(require_key(r, "log_hi", where, "give the largest ln(measured/predicted)"), where + ".log_hi"),
        kMaxLogResidual, "(ln ratio)", where + ".log_hi");
    if (out.log_lo > out.log_hi) fail(where + ".log_lo", "must not exceed log_hi");
    const json &samples = require_key(r, "samples", where, "give how many measurements the range spans");
    if (!samples.is_number_integer() || samples.get<long long>() < 1 || samples.get<long long>() > 1000000000)
      fail(where + ".samples", "must be a positive integer, found " + samples.dump());
    out.samples = static_cast<int>(samples.get<long long>());
    if (r.contains("relative_to")) {
      if (table_version < 11)
        fail(where + ".relative_to", "needs \"version\": 11 (older tables have no paired checks)");
      out.relative_to_default = text("relative_to", {"default"}) == "default";
    }
    table.checks.push_back(std::move(out));
  }
}

// " at line L, column C" of the first occurrence of the 'quoted' token of `message` in `text`.
std::string locate_quoted_token(std::string_view message, std::string_view text) {
  const size_t open = message.find('\'');
  const size_t close = open == std::string_view::npos ? open : message.find('\'', open + 1);
  if (close == std::string_view::npos) return "";
  const size_t at = text.find(message.substr(open + 1, close - open - 1));
  if (at == std::string_view::npos) return "";
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < at; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return " at line " + std::to_string(line) + ", column " + std::to_string(at - line_start + 1);
}

// The text in [first, last) as JSON, or a CalibrationError saying where it is not.
template <class Iterator>
json parse_json(Iterator first, Iterator last) {
  json doc;
  try {
    doc = json::parse(first, last);
  } catch (const json::parse_error &e) {
    // e.what() carries the line and column of the first bad character.
    throw CalibrationError("not JSON: " + std::string(e.what()));
  } catch (const json::out_of_range &e) {
    // A number too large for a double (1e999): nlohmann names the token but not where it is.
    throw CalibrationError("not usable JSON: " + std::string(e.what()) +
                           locate_quoted_token(e.what(), std::string(first, last)) +
                           "; numbers must be finite doubles");
  }
  return doc;
}

// The top level's keys, format and version; returns the version.
int parse_header(const json &doc) {
  if (!doc.is_object()) fail("top level", "must be a JSON object, found " + type_of(doc));
  reject_unknown_keys(doc, {"format", "version", "provenance", "channels", "reduce", "memory", "checks"}, "");

  const std::string supported =
      "supported versions: " + std::to_string(kOldestCalibrationVersion) + " to " + std::to_string(kCalibrationVersion);
  const json &format = require_key(doc, "format", "", "add \"format\": \"modeltuned-calibration\"");
  if (format != kCalibrationFormatName)
    fail("format", format.dump() + " is not \"modeltuned-calibration\"; this is not a modeltuned calibration table");
  const json &version = require_key(doc, "version", "", supported);
  if (!version.is_number_integer() || version.get<long long>() < kOldestCalibrationVersion ||
      version.get<long long>() > kCalibrationVersion)
    fail("version", version.dump() + " is not supported; " + supported);
  return static_cast<int>(version.get<long long>());
}

// Each channel's costs (at least one channel).
void parse_channels(const json &doc, CalibrationTable &table, int table_version) {
  const json &channels = require_object(
      require_key(doc, "channels", "", "give at least one of \"cache\", \"core\", \"socket\", \"node\""), "channels");
  if (channels.empty())
    fail("channels", "is empty; calibrate at least one of \"cache\", \"core\", \"socket\", \"node\"");
  for (auto it = channels.begin(); it != channels.end(); ++it) {
    const int c = channel_from_name(it.key());
    if (c < 0)
      fail("channels." + it.key(), "unknown channel; known channels are \"cache\", \"core\", \"socket\", \"node\"");
    table.channels[c] = parse_channel(it.value(), "channels." + it.key(), table_version);
  }
}

// The local reduction cost and where it comes from.
void parse_reduce(const json &doc, CalibrationTable &table) {
  const json &reduce = require_object(
      require_key(doc, "reduce", "", "give the local reduction cost {\"us_per_byte\", \"source\"}"), "reduce");
  reject_unknown_keys(reduce, {"us_per_byte", "source"}, "reduce");
  table.reduce_us_per_byte = us_per_byte(
      non_negative_number(
          require_key(reduce, "us_per_byte", "reduce", "give the MPI_Reduce_local cost in microseconds per byte"),
          "reduce.us_per_byte"),
      "reduce.us_per_byte");
  const json &reduce_source =
      require_key(reduce, "source", "reduce", "say whether the reduce cost is \"measured\" or how it was estimated");
  if (!reduce_source.is_string() || reduce_source.get<std::string>().empty())
    fail("reduce.source",
         "must be a non-empty string (\"measured\" or \"estimate: <why>\"), found " + reduce_source.dump());
  table.reduce_source = reduce_source.get<std::string>();
}

// The optional cost of writing fresh memory.
void parse_memory(const json &doc, CalibrationTable &table, int table_version) {
  auto it = doc.find("memory");
  if (it == doc.end()) return;
  const json &memory = require_object(*it, "memory");
  reject_unknown_keys(memory, {"fresh_us_per_byte", "one_buffer_us_per_byte", "from_bytes", "source"}, "memory");
  table.fresh_memory_us_per_byte =
      us_per_byte(non_negative_number(require_key(memory, "fresh_us_per_byte", "memory",
                                                  "give the cost of writing fresh memory in microseconds per byte"),
                                      "memory.fresh_us_per_byte"),
                  "memory.fresh_us_per_byte");
  const json &source = require_key(memory, "source", "memory", "say how the fresh-memory cost was measured");
  if (!source.is_string() || source.get<std::string>().empty())
    fail("memory.source", "must be a non-empty string saying how it was measured, found " + source.dump());
  table.fresh_memory_source = source.get<std::string>();
  if (auto one = memory.find("one_buffer_us_per_byte"); one != memory.end())
    table.fresh_memory_one_buffer_us_per_byte =
        us_per_byte(non_negative_number(*one, "memory.one_buffer_us_per_byte"), "memory.one_buffer_us_per_byte");
  if (auto from = memory.find("from_bytes"); from != memory.end()) {
    if (table_version < 6)
      fail("memory.from_bytes", "needs \"version\": 6 (older tables charge fresh memory at every size)");
    table.fresh_memory_from_bytes = non_negative_number(*from, "memory.from_bytes");
  }
}

// The table of a parsed document, whose provenance it takes over.
CalibrationTable table_of(json &&doc) {
  const int table_version = parse_header(doc);
  CalibrationTable table;
  if (auto it = doc.find("provenance"); it != doc.end()) {
    require_object(*it, "provenance");
    table.provenance = std::move(*it);
  }
  parse_channels(doc, table, table_version);
  parse_reduce(doc, table);
  parse_memory(doc, table, table_version);
  if (auto it = doc.find("checks"); it != doc.end()) {
    if (table_version < 2) fail("checks", "needs \"version\": 2 (version 1 tables have no checks)");
    parse_checks(require_object(*it, "checks"), table, table_version);
  }
  update_checksum(table);
  return table;
}

}  // namespace

CalibrationTable parse_calibration(std::string_view text, std::string_view source) {
  (void)source;  // callers prefix messages with the file name themselves
  return table_of(parse_json(text.begin(), text.end()));
}

// Only a regular file of at most kMaxTableFileBytes is read: a FIFO would block MPI_Init (opened
// non-blocking, then refused) and a device such as /dev/zero would never end.
CalibrationTable load_calibration(const std::string &path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw CalibrationError("cannot open " + path + ": " + std::strerror(errno));
  struct stat st;
  std::string problem;
  if (::fstat(fd, &st) != 0)
    problem = std::string("cannot read: ") + std::strerror(errno);
  else if (!S_ISREG(st.st_mode))
    problem = std::string("not a regular file (") +
              (S_ISFIFO(st.st_mode)  ? "a FIFO"
               : S_ISCHR(st.st_mode) ? "a character device"
               : S_ISDIR(st.st_mode) ? "a directory"
                                     : "a special file") +
              "); give the path of a calibration table file";
  else if (static_cast<unsigned long long>(st.st_size) > kMaxTableFileBytes)
    problem = "is " + std::to_string(st.st_size) + " bytes, more than a calibration table's limit of " +
              std::to_string(kMaxTableFileBytes) + "; give the path of a calibration table file";
  // The component reads the table inside the application's MPI_Init: in small blocks, never one
  // the size of the file. glibc serves a block of 128 KiB or more with mmap, and freeing one
  // raises its threshold for mmap to that size for the rest of the process: the application's
  // own large buffers would then come from the heap (docs/validation.md, "What being loaded costs").
  std::deque<char> text;
  if (problem.empty()) {
    char buffer[1 << 16];
    ssize_t n;
    // Read at most one byte past the limit: a file that grows while being read is still capped.
    while (text.size() <= kMaxTableFileBytes && (n = ::read(fd, buffer, sizeof buffer)) != 0) {
      if (n < 0) {
        if (errno == EINTR) continue;
        problem = std::string("cannot read: ") + std::strerror(errno);
        break;
      }
      text.insert(text.end(), buffer, buffer + n);
    }
    if (problem.empty() && text.size() > kMaxTableFileBytes)
      problem =
          "grew beyond a calibration table's limit of " + std::to_string(kMaxTableFileBytes) + " bytes while read";
  }
  ::close(fd);
  if (!problem.empty()) throw CalibrationError(path + ": " + problem);
  return table_of(parse_json(text.begin(), text.end()));
}

}  // namespace modeltuned

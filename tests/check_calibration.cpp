// Calibration table (model/calibration/table.cpp), the fitter (calib/), the shipped ORFEO table, and
// modeltuned-calibrate end to end (its contention runs and fresh-memory measurement, refitted by
// modeltuned fit).
#include <unistd.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <sstream>
#include <string>
#include <vector>

#include "calib/fit.hpp"
#include "common/stats.hpp"
#include "calib/merge.hpp"
#include "calib/regression.hpp"
#include "model/collectives/family.hpp"
#include "model/registry/registry.hpp"
#include "model/select/margin.hpp"
#include "model/calibration/table.hpp"
#include "tests/support/mpi_launch.hpp"

// Last: check.h defines macros (fail, ...) that clash with the standard library.
#include "tests/support/run_suite.h"

using json = nlohmann::json;
using namespace modeltuned;

#ifndef ORFEO_DATA_DIR
#error "build with -DORFEO_DATA_DIR=<directory of the ORFEO p2p.csv and nbft.csv>"
#endif
#ifndef SHIPPED_TABLE
#error "build with -DSHIPPED_TABLE=<path of calib/tables/orfeo-epyc.json>"
#endif

namespace {

std::string temp_path(const std::string &name) {
  return (std::filesystem::temp_directory_path() / ("check_calibration_" + std::to_string(getpid()) + "_" + name))
      .string();
}

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  ck_assert_msg(out.good(), "cannot write %s", path.c_str());
}

// A valid table using every feature: several pieces, a fanin list, an absent channel.
CalibrationTable sample_table() {
  CalibrationTable t;
  ChannelTable &cache = t.channels[static_cast<int>(Channel::cache)];
  cache.present = true;
  cache.p2p = {{4096, 0.15, 6e-5, 0.04, 0.12}, {131072, 0.3, 4.5e-5}, {HockneyPiece{}.upto_bytes, 0.6, 8.2e-5}};
  cache.fanout = {{1, 0.17, 0.005, 4, {}}, {1048576, 20.5, 40.25, 4, {}}};
  ChannelTable &node = t.channels[static_cast<int>(Channel::node)];
  node.present = true;
  node.p2p = {{128, 1.8, 2e-3}, {HockneyPiece{}.upto_bytes, 6.77, 8.1e-5}};
  node.fanout = {{1, 1.37, 0.3, 257, {}}, {65536, 14.77, 3.25, 257, {}}, {1048576, 11.5, 83.2, 129, {}}};
  node.fanout[0].knots = {{2, 1.7}, {4, 2.1}, {8, 4.1}, {257, 72.0}};
  node.fanin = {{1, 1.2, 0.25, 129, {}}};
  t.reduce_us_per_byte = 5e-5;
  t.reduce_source = "estimate: test";
  t.fresh_memory_us_per_byte = 5e-4;
  t.fresh_memory_source = "measured: test";
  t.fresh_memory_one_buffer_us_per_byte = 1e-5;
  t.provenance = {{"source", "unit test"}, {"inputs", {{"p2p", "p2p.csv"}}}};
  update_checksum(t);
  return t;
}

json sample_json() { return json::parse(to_json_text(sample_table())); }

bool tables_equal(const CalibrationTable &a, const CalibrationTable &b) {
  return a.channels == b.channels && a.reduce_us_per_byte == b.reduce_us_per_byte &&
         a.reduce_source == b.reduce_source && a.provenance == b.provenance && a.checksum == b.checksum &&
         a.fresh_memory_us_per_byte == b.fresh_memory_us_per_byte && a.fresh_memory_source == b.fresh_memory_source &&
         a.fresh_memory_one_buffer_us_per_byte == b.fresh_memory_one_buffer_us_per_byte &&
         a.fresh_memory_from_bytes == b.fresh_memory_from_bytes;
}

// Parses `text` and returns the error message, or "" when it was accepted.
std::string parse_error(const std::string &text) {
  try {
    parse_calibration(text, "test.json");
  } catch (const CalibrationError &e) {
    return e.what();
  }
  return "";
}

}  // namespace

START_TEST(round_trip) {
  const CalibrationTable original = sample_table();
  const std::string path = temp_path("round_trip.json");
  save_calibration(original, path);
  const CalibrationTable loaded = load_calibration(path);
  std::filesystem::remove(path);
  ck_assert_msg(tables_equal(original, loaded), "saved and loaded tables differ");
  ck_assert(loaded.has(Channel::cache) && loaded.has(Channel::node));
  ck_assert(!loaded.has(Channel::core) && !loaded.has(Channel::socket));
  ck_assert(std::isinf(loaded[Channel::cache].p2p.back().upto_bytes));
  const std::string original_text = to_json_text(original), loaded_text = to_json_text(loaded);
  ck_assert_str_eq(original_text.c_str(), loaded_text.c_str());
  ck_assert_uint_ne(original.checksum, 0);
  // Layout does not matter, content does: compact text gives the same checksum.
  ck_assert_uint_eq(parse_calibration(json::parse(to_json_text(original)).dump(), "compact").checksum,
                    original.checksum);
}
END_TEST

// `text` with its first `from` replaced by `to` is refused in one line containing `expect`.
static void expect_refused_edit(const std::string &text, const std::string &from, const std::string &to,
                                const char *expect) {
  std::string bad = text;
  const size_t at = bad.find(from);
  ck_assert_msg(at != std::string::npos, "%s not in the table", from.c_str());
  bad.replace(at, from.size(), to);
  try {
    parse_calibration(bad, "t");
    ck_abort_msg("accepted %s", to.c_str());
  } catch (const CalibrationError &e) {
    ck_assert_msg(std::string(e.what()).find(expect) != std::string::npos && !std::strchr(e.what(), '\n'), "%s",
                  e.what());
  }
}

// The shipped table with `check` as its only check: written, and read back with the same checksum.
struct OneCheck {
  CalibrationTable table;
  std::string text;
  CalibrationTable back;
};
static OneCheck one_check_round_trip(const CheckResidual &check) {
  OneCheck o{load_calibration(SHIPPED_TABLE), "", {}};
  o.table.checks = {check};  // the shipped table's own: replaced by one known entry
  o.table.checks_source = "unit test";
  update_checksum(o.table);
  o.text = to_json_text(o.table);
  o.back = parse_calibration(o.text, "t");
  ck_assert_uint_eq(o.back.checksum, o.table.checksum);
  return o;
}

// Checks (version 2): written, read back identically, and each bad entry refused in one line.
START_TEST(checks_round_trip_and_refuse_bad_entries) {
  const auto [t, text, back] =
      one_check_round_trip({"bcast", "chain", 0, 4, "completion", "cache", "socket", 1024, 4096, -0.25, 0.5, 12});
  ck_assert_int_eq(back.checks.size(), 1);
  ck_assert_str_eq(back.checks[0].neighbors.c_str(), "cache");
  ck_assert_int_eq(back.checks[0].fanout, 4);
  auto refused = [&](const std::string &from, const std::string &to, const char *expect) {
    expect_refused_edit(text, from, to, expect);
  };
  refused("\"log_lo\": -0.25", "\"log_lo\": 0.75", "checks.residuals[0].log_lo: must not exceed log_hi");
  refused("\"objective\": \"completion\"", "\"objective\": \"fastest\"", "checks.residuals[0].objective");
  refused("\"widest\": \"socket\"", "\"widest\": \"rack\"", "checks.residuals[0].widest");
  refused("\"log_hi\": 0.5", "\"log_hi\": 50", "checks.residuals[0].log_hi");
  refused("\"below_bytes\": 4096", "\"below_bytes\": 512", "checks.residuals[0].below_bytes: must exceed from_bytes");
  refused("\"version\": 2", "\"version\": 1", "checks: needs \"version\": 2");
}
END_TEST

// Other components' algorithms that crashed or hung in calibration (version 10): written, read back
// with the checksum, no candidates from their size up, and each bad entry refused in one line.
START_TEST(unusable_candidates_round_trip_and_refuse_bad_entries) {
  auto [t, text, back] =
      one_check_round_trip({"bcast", "chain", 0, 4, "completion", "cache", "socket", 1024, 4096, -0.25, 0.5, 12});
  const uint64_t without = t.checksum;
  ck_assert_int_eq(json::parse(text)["version"].get<int>(), 2);  // none: the version it had
  t.unusable = {{"reduce", "xhc", 16384, "crashed", 16}};
  update_checksum(t);
  ck_assert_uint_ne(t.checksum, without);
  text = to_json_text(t);
  ck_assert_int_eq(json::parse(text)["version"].get<int>(), 10);
  back = parse_calibration(text, "t");
  ck_assert_uint_eq(back.checksum, t.checksum);
  ck_assert(back.unusable == t.unusable);
  ck_assert(back.unusable_at("reduce", "xhc", 16384) && back.unusable_at("reduce", "xhc", 1 << 20));
  ck_assert(!back.unusable_at("reduce", "xhc", 8192) && !back.unusable_at("allreduce", "xhc", 16384));
  auto refused = [&](const std::string &from, const std::string &to, const char *expect) {
    expect_refused_edit(text, from, to, expect);
  };
  refused("\"why\": \"crashed\"", "\"why\": \"slow\"", "checks.unusable[0].why: must be");
  refused("\"op\": \"reduce\"", "\"op\": \"scan\"", "checks.unusable[0].op");
  refused("\"ranks\": 16", "\"ranks\": 0", "checks.unusable[0].ranks");
  refused("\"version\": 10", "\"version\": 9", "checks.unusable: needs \"version\": 10");
}
END_TEST

// Paired checks of a measured-only algorithm (version 11, "relative_to": "default"): written,
// read back with the checksum, a table without them keeps its version and checksum, and a bad
// value or an older version is refused in one line.
START_TEST(paired_checks_round_trip_and_refuse_bad_entries) {
  CheckResidual paired{"bcast", "sm", 0, 0, "completion", "cache", "cache", 512, 1024, -0.4, -0.2, 40, 2, 3};
  paired.relative_to_default = true;
  auto [t, text, back] = one_check_round_trip(paired);
  ck_assert_int_eq(json::parse(text)["version"].get<int>(), 11);
  ck_assert(back.checks[0].relative_to_default);
  CalibrationTable unpaired = t;
  unpaired.checks[0].relative_to_default = false;
  update_checksum(unpaired);
  ck_assert_uint_ne(unpaired.checksum, t.checksum);
  ck_assert_int_eq(json::parse(to_json_text(unpaired))["version"].get<int>(), 3);
  expect_refused_edit(text, "\"relative_to\": \"default\"", "\"relative_to\": \"tuned\"",
                      "checks.residuals[0].relative_to");
  expect_refused_edit(text, "\"version\": 11", "\"version\": 10",
                      "checks.residuals[0].relative_to: needs \"version\": 11");
}
END_TEST

// Checks measured on communicators of given sizes (version 3): the sizes round-trip, a table with
// them is written as version 3 and one without stays version 2, and bad sizes are refused.
START_TEST(check_ranks_round_trip_and_refuse_bad_entries) {
  const auto [t, text, back] = one_check_round_trip(
      {"bcast", "chain", 0, 4, "completion", "cache", "socket", 1024, 4096, -0.25, 0.5, 12, 16, 17});
  ck_assert_int_eq(json::parse(text)["version"].get<int>(), 3);
  ck_assert_int_eq(back.checks[0].from_ranks, 16);
  ck_assert_int_eq(back.checks[0].below_ranks, 17);
  CalibrationTable unsized = t;
  unsized.checks[0].from_ranks = unsized.checks[0].below_ranks = 0;
  ck_assert_int_eq(json::parse(to_json_text(unsized))["version"].get<int>(), 2);
  auto refused = [&](const std::string &from, const std::string &to, const char *expect) {
    expect_refused_edit(text, from, to, expect);
  };
  refused("\"below_ranks\": 17", "\"below_ranks\": 16", "checks.residuals[0].below_ranks: must exceed from_ranks");
  refused("\"from_ranks\": 16", "\"from_ranks\": 1", "checks.residuals[0].from_ranks: must be a number of ranks");
  refused("\"below_ranks\": 17,", "", "checks.residuals[0].below_ranks: is missing");
  refused("\"version\": 3", "\"version\": 2", "checks.residuals[0].from_ranks: needs \"version\": 3");
}
END_TEST

// Allreduce checks (version 5): written as version 5, read back, refused in an older table.
START_TEST(allreduce_checks_need_version_5) {
  const auto [t, text, back] = one_check_round_trip(
      {"allreduce", "ring", 0, 0, "completion", "cache", "socket", 1024, 4096, -0.25, 0.5, 12, 16, 17});
  ck_assert_int_eq(json::parse(text)["version"].get<int>(), 5);
  ck_assert_str_eq(back.checks[0].op.c_str(), "allreduce");
  expect_refused_edit(text, "\"version\": 5", "\"version\": 4",
                      "checks.residuals[0].op: \"allreduce\" needs \"version\": 5");
  expect_refused_edit(text, "\"op\": \"allreduce\"", "\"op\": \"scan\"", "checks.residuals[0].op");
}
END_TEST

// Barrier checks (version 7): written as version 7, read back, refused in an older table.
START_TEST(barrier_checks_need_version_7) {
  const auto [t, text, back] =
      one_check_round_trip({"barrier", "bruck", 0, 0, "completion", "cache", "socket", 0, 1, -0.25, 0.5, 12, 16, 17});
  ck_assert_int_eq(json::parse(text)["version"].get<int>(), 7);
  ck_assert_str_eq(back.checks[0].op.c_str(), "barrier");
  expect_refused_edit(text, "\"version\": 7", "\"version\": 6",
                      "checks.residuals[0].op: \"barrier\" needs \"version\": 7");
}
END_TEST

// The size from which temporaries cost fresh memory: version 6, kept exactly, refused by older
// versions and when negative; a table without it is written as before.
START_TEST(fresh_threshold_needs_version_6) {
  CalibrationTable t = sample_table();
  ck_assert_int_le(json::parse(to_json_text(t))["version"].get<int>(), 5);
  t.fresh_memory_from_bytes = 8388608;
  update_checksum(t);
  const std::string text = to_json_text(t);
  ck_assert_int_eq(json::parse(text)["version"].get<int>(), 6);
  const CalibrationTable back = parse_calibration(text, "test");
  ck_assert(tables_equal(t, back));
  expect_refused_edit(text, "\"version\": 6", "\"version\": 5", "memory.from_bytes: needs \"version\": 6");
  expect_refused_edit(text, "\"from_bytes\": 8388608", "\"from_bytes\": -1", "memory.from_bytes");
}
END_TEST

START_TEST(checksum_follows_every_value) {
  const CalibrationTable original = sample_table();
  std::vector<std::function<void(CalibrationTable &)>> changes;
  for (int c = 0; c < kChannels; ++c) {
    if (!original.channels[c].present) continue;
    for (size_t i = 0; i < original.channels[c].p2p.size(); ++i) {
      changes.push_back([=](CalibrationTable &t) { t.channels[c].p2p[i].alpha_us *= 1.001; });
      changes.push_back([=](CalibrationTable &t) { t.channels[c].p2p[i].beta_us_per_byte *= 1.001; });
      if (i + 1 < original.channels[c].p2p.size())
        changes.push_back([=](CalibrationTable &t) { t.channels[c].p2p[i].upto_bytes += 1; });
    }
    for (auto member : {&ChannelTable::fanout, &ChannelTable::fanin})
      for (size_t i = 0; i < (original.channels[c].*member).size(); ++i) {
        changes.push_back([=](CalibrationTable &t) { (t.channels[c].*member)[i].bytes *= 0.999; });
        changes.push_back([=](CalibrationTable &t) { (t.channels[c].*member)[i].alpha_us *= 1.001; });
        changes.push_back([=](CalibrationTable &t) { (t.channels[c].*member)[i].beta_us *= 1.001; });
        changes.push_back([=](CalibrationTable &t) { (t.channels[c].*member)[i].max_p += 1; });
        for (size_t k = 0; k < (original.channels[c].*member)[i].knots.size(); ++k)
          changes.push_back([=](CalibrationTable &t) { (t.channels[c].*member)[i].knots[k].second *= 1.001; });
      }
  }
  changes.push_back([](CalibrationTable &t) { t.channels[1] = t.channels[0]; });
  changes.push_back([](CalibrationTable &t) { t.channels[3].fanin.clear(); });
  changes.push_back([](CalibrationTable &t) { t.reduce_us_per_byte *= 1.001; });
  changes.push_back([](CalibrationTable &t) { t.reduce_source += "."; });
  changes.push_back([](CalibrationTable &t) { t.fresh_memory_us_per_byte *= 1.001; });
  changes.push_back([](CalibrationTable &t) { t.fresh_memory_source += "."; });
  changes.push_back([](CalibrationTable &t) { t.fresh_memory_one_buffer_us_per_byte *= 1.001; });
  changes.push_back([](CalibrationTable &t) { t.fresh_memory_from_bytes = 262144; });
  changes.push_back([](CalibrationTable &t) { t.provenance["source"] = "other"; });
  changes.push_back([](CalibrationTable &t) { t.provenance["runs"] = 3; });
  changes.push_back([](CalibrationTable &t) { t.channels[0].p2p[0].noise_rel_mad *= 1.001; });
  changes.push_back([](CalibrationTable &t) { t.channels[0].exchange = {{1024, 0.5, 0.1, 4, {}}}; });
  changes.push_back([](CalibrationTable &t) { t.channels[0].relay = {{1024, 0.2}}; });
  changes.push_back([](CalibrationTable &t) {
    t.checks.push_back(
        CheckResidual{"bcast", "binomial", 0, 0, "completion", "cache", "cache", 1, 4096, -0.1, 0.2, 5, 2, 4});
    t.checks_source = "unit test";
  });
  for (size_t k = 0; k < changes.size(); ++k) {
    CalibrationTable changed = original;
    changes[k](changed);
    update_checksum(changed);
    ck_assert_msg(changed.checksum != original.checksum, "change %zu left the checksum unchanged", k);
    // ...and the changed table still round-trips to the same checksum.
    ck_assert_uint_eq(parse_calibration(to_json_text(changed), "changed").checksum, changed.checksum);
  }
}
END_TEST

struct Malformed {
  const char *what;
  std::function<std::string()> text;
  std::vector<std::string> must_mention;
};

// Dumps the sample with `edit` applied; "@X@" strings become raw text X (for 1e999, which no
// json value can hold).
std::string edited(const std::function<void(json &)> &edit) {
  json doc = sample_json();
  edit(doc);
  std::string text = doc.dump(1);
  for (size_t at; (at = text.find("\"@")) != std::string::npos;) {
    const size_t end = text.find("@\"", at + 2);
    text.replace(at, end + 2 - at, text.substr(at + 2, end - at - 2));
  }
  return text;
}

START_TEST(malformed_inputs_are_rejected) {
  const std::vector<Malformed> cases = {
      {"not JSON",
       [] { return std::string("{\"format\": \"modeltuned-calibration\",\n  \"version\": }"); },
       {"not JSON", "line 2"}},
      {"top level array", [] { return std::string("[1, 2]"); }, {"top level", "object"}},
      {"negative noise spread",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][0]["noise_rel_mad"] = -0.1; }); },
       {"channels.cache.p2p[0].noise_rel_mad", "negative"}},
      {"noise p95 as string",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][1]["noise_rel_p95"] = "5%"; }); },
       {"channels.cache.p2p[1].noise_rel_p95", "number"}},
      {"wrong format", [] { return edited([](json &d) { d["format"] = "osu-latency"; }); }, {"format", "osu-latency"}},
      {"missing format", [] { return edited([](json &d) { d.erase("format"); }); }, {"format", "missing"}},
      {"missing version",
       [] { return edited([](json &d) { d.erase("version"); }); },
       {"version", "supported versions: 1 to 11"}},
      {"unsupported version",
       [] { return edited([](json &d) { d["version"] = 12; }); },
       {"version", "12", "supported versions: 1 to 11"}},
      {"relay in a version 3 table",
       [] {
         return edited([](json &d) {
           d["version"] = 3;
           d["channels"]["cache"]["relay"] = {{{"bytes", 1}, {"us", 0.2}}};
         });
       },
       {"channels.cache.relay", "version\": 4"}},
      {"empty relay",
       [] {
         return edited([](json &d) {
           d["version"] = 4;
           d["channels"]["cache"]["relay"] = json::array();
         });
       },
       {"channels.cache.relay", "non-empty"}},
      {"relay sizes not increasing",
       [] {
         return edited([](json &d) {
           d["version"] = 4;
           d["channels"]["cache"]["relay"] = {{{"bytes", 8}, {"us", 0.2}}, {{"bytes", 8}, {"us", 0.3}}};
         });
       },
       {"channels.cache.relay[1].bytes", "increasing"}},
      {"negative relay",
       [] {
         return edited([](json &d) {
           d["version"] = 4;
           d["channels"]["cache"]["relay"] = {{{"bytes", 1}, {"us", -0.1}}};
         });
       },
       {"channels.cache.relay[0].us", "negative"}},
      {"relay point without us",
       [] {
         return edited([](json &d) {
           d["version"] = 4;
           d["channels"]["cache"]["relay"] = {{{"bytes", 1}}};
         });
       },
       {"channels.cache.relay[0].us", "missing"}},
      {"contention curve in a version 1 table",
       [] { return edited([](json &d) { d["channels"]["cache"]["exchange"] = d["channels"]["cache"]["fanout"]; }); },
       {"channels.cache.exchange", "version\": 2"}},
      {"empty contention curve",
       [] {
         return edited([](json &d) {
           d["version"] = 2;
           d["channels"]["cache"]["concurrent"] = json::array();
         });
       },
       {"channels.cache.concurrent", "non-empty"}},
      {"version as string", [] { return edited([](json &d) { d["version"] = "1"; }); }, {"version"}},
      {"no channels key", [] { return edited([](json &d) { d.erase("channels"); }); }, {"channels", "missing"}},
      {"empty channels", [] { return edited([](json &d) { d["channels"] = json::object(); }); }, {"channels", "empty"}},
      {"unknown channel",
       [] { return edited([](json &d) { d["channels"]["numa"] = d["channels"]["cache"]; }); },
       {"channels.numa", "unknown channel"}},
      {"channel without p2p",
       [] { return edited([](json &d) { d["channels"]["cache"].erase("p2p"); }); },
       {"channels.cache.p2p", "missing"}},
      {"channel with empty p2p",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"] = json::array(); }); },
       {"channels.cache.p2p", "empty"}},
      {"channel without fanout",
       [] { return edited([](json &d) { d["channels"]["node"].erase("fanout"); }); },
       {"channels.node.fanout", "missing"}},
      {"channel with empty fanout",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"] = json::array(); }); },
       {"channels.node.fanout", "empty"}},
      {"empty fanin",
       [] { return edited([](json &d) { d["channels"]["node"]["fanin"] = json::array(); }); },
       {"channels.node.fanin"}},
      {"p2p not increasing",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][1]["upto_bytes"] = 1024; }); },
       {"channels.cache.p2p[1].upto_bytes", "increasing"}},
      {"p2p repeated bound",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][1]["upto_bytes"] = 4096; }); },
       {"channels.cache.p2p[1].upto_bytes"}},
      {"bounded last piece",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][2]["upto_bytes"] = 1 << 30; }); },
       {"channels.cache.p2p[2].upto_bytes", "unbounded"}},
      {"unbounded middle piece",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][0].erase("upto_bytes"); }); },
       {"channels.cache.p2p[0].upto_bytes", "missing"}},
      {"misspelt field",
       [] {
         return edited([](json &d) {
           auto &piece = d["channels"]["cache"]["p2p"][0];
           piece["upto_byte"] = piece["upto_bytes"];
           piece.erase("upto_bytes");
         });
       },
       {"channels.cache.p2p[0].upto_byte", "unknown field"}},
      {"negative beta",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][0]["beta_us_per_byte"] = -1e-5; }); },
       {"channels.cache.p2p[0].beta_us_per_byte", "negative"}},
      {"negative upto",
       [] { return edited([](json &d) { d["channels"]["node"]["p2p"][0]["upto_bytes"] = -128; }); },
       {"channels.node.p2p[0].upto_bytes"}},
      {"null alpha (NaN once written)",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][1]["alpha_us"] = nullptr; }); },
       {"channels.cache.p2p[1].alpha_us", "number", "null"}},
      {"string alpha",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][1]["alpha_us"] = "0.3"; }); },
       {"channels.cache.p2p[1].alpha_us", "number", "string"}},
      {"boolean beta",
       [] { return edited([](json &d) { d["channels"]["node"]["p2p"][1]["beta_us_per_byte"] = true; }); },
       {"channels.node.p2p[1].beta_us_per_byte", "number"}},
      {"infinite alpha",
       [] { return edited([](json &d) { d["channels"]["node"]["p2p"][1]["alpha_us"] = "@1e999@"; }); },
       {"1e999", "line ", "column ", "finite"}},
      {"minus infinite fanout alpha",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][0]["alpha_us"] = "@-1e999@"; }); },
       {"-1e999", "line ", "finite"}},
      {"infinite reduce",
       [] { return edited([](json &d) { d["reduce"]["us_per_byte"] = "@1e400@"; }); },
       {"1e400", "line ", "finite"}},
      {"p2p time not positive at the start of its range",
       [] {
         return edited([](json &d) {
           d["channels"]["node"]["p2p"][1]["alpha_us"] = -1.0;  // -1 + 8.1e-5 * 128 < 0
         });
       },
       {"channels.node.p2p[1]", "non-positive", "128"}},
      {"first piece zero at 0 bytes",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][0]["alpha_us"] = 0.0; }); },
       {"channels.cache.p2p[0]", "non-positive"}},
      {"max_p below 2",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][1]["max_p"] = 1; }); },
       {"channels.node.fanout[1].max_p", "at least 2"}},
      {"max_p not an integer",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][1]["max_p"] = 60.5; }); },
       {"channels.node.fanout[1].max_p", "integer"}},
      {"fanout sizes not increasing",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][2]["bytes"] = 65536; }); },
       {"channels.node.fanout[2].bytes", "increasing"}},
      {"fanin sizes bad",
       [] { return edited([](json &d) { d["channels"]["node"]["fanin"][0]["bytes"] = 0; }); },
       {"channels.node.fanin[0].bytes", "positive"}},
      {"negative fanout beta",
       [] { return edited([](json &d) { d["channels"]["cache"]["fanout"][0]["beta_us"] = -0.5; }); },
       {"channels.cache.fanout[0].beta_us", "negative"}},
      {"fanout never positive",
       [] {
         return edited([](json &d) {
           d["channels"]["cache"]["fanout"][0]["alpha_us"] = -1.0;  // -1 + 0.005 * 3 < 0
         });
       },
       {"channels.cache.fanout[0]", "non-positive"}},
      {"curve decreasing",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][0]["curve"][2][1] = 1.0; }); },
       {"channels.node.fanout[0].curve[2]", "must not decrease"}},
      {"curve beyond max_p",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][0]["curve"][3][0] = 300; }); },
       {"channels.node.fanout[0].curve[3]", "max_p"}},
      {"curve P not increasing",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][0]["curve"][1][0] = 2; }); },
       {"channels.node.fanout[0].curve[1]", "increasing P"}},
      {"curve point not a pair",
       [] { return edited([](json &d) {
              d["channels"]["node"]["fanout"][0]["curve"][0] = json::array({2.5, 1.0});
            }); },
       {"channels.node.fanout[0].curve[0]", "integer P"}},
      {"curve empty",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][0]["curve"] = json::array(); }); },
       {"channels.node.fanout[0].curve", "empty"}},
      {"curve time not positive",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][0]["curve"][0][1] = 0.0; }); },
       {"channels.node.fanout[0].curve[0][1]", "positive"}},
      {"negative fresh memory",
       [] { return edited([](json &d) { d["memory"]["fresh_us_per_byte"] = -1e-4; }); },
       {"memory.fresh_us_per_byte", "negative"}},
      {"fresh memory without source",
       [] { return edited([](json &d) { d["memory"].erase("source"); }); },
       {"memory.source", "missing"}},
      {"fresh memory unknown key",
       [] { return edited([](json &d) { d["memory"]["us_per_page"] = 1; }); },
       {"memory", "us_per_page"}},
      {"negative one-buffer fresh memory",
       [] { return edited([](json &d) { d["memory"]["one_buffer_us_per_byte"] = -1e-4; }); },
       {"memory.one_buffer_us_per_byte", "negative"}},
      {"missing reduce", [] { return edited([](json &d) { d.erase("reduce"); }); }, {"reduce", "missing"}},
      {"missing reduce cost",
       [] { return edited([](json &d) { d["reduce"].erase("us_per_byte"); }); },
       {"reduce.us_per_byte", "missing"}},
      {"negative reduce cost",
       [] { return edited([](json &d) { d["reduce"]["us_per_byte"] = -1e-5; }); },
       {"reduce.us_per_byte", "negative"}},
      {"missing reduce source", [] { return edited([](json &d) { d["reduce"].erase("source"); }); }, {"reduce.source"}},
      {"provenance not an object",
       [] { return edited([](json &d) { d["provenance"] = "today"; }); },
       {"provenance", "object"}},
      // Beyond physical bounds: finite, well-formed, and nonsense (1e300 us predictions).
      {"latency 1e300",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][0]["alpha_us"] = 1e300; }); },
       {"channels.cache.p2p[0].alpha_us", "beyond", "recalibrate"}},
      {"bandwidth 1e-300",
       [] { return edited([](json &d) { d["channels"]["cache"]["p2p"][1]["beta_us_per_byte"] = 1e300; }); },
       {"channels.cache.p2p[1].beta_us_per_byte", "beyond"}},
      {"flat-tree cost per peer 1e9 us",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][0]["beta_us"] = 1e9; }); },
       {"channels.node.fanout[0].beta_us", "beyond"}},
      {"message of 1e20 bytes",
       [] { return edited([](json &d) { d["channels"]["node"]["fanout"][1]["bytes"] = 1e20; }); },
       {"channels.node.fanout[1].bytes", "beyond"}},
      {"reduce cost 5 us/B",
       [] { return edited([](json &d) { d["reduce"]["us_per_byte"] = 5.0; }); },
       {"reduce.us_per_byte", "beyond"}},
      {"fresh memory 1e10 us/B",
       [] { return edited([](json &d) { d["memory"]["fresh_us_per_byte"] = 1e10; }); },
       {"memory.fresh_us_per_byte", "beyond"}},
  };
  const std::string valid = parse_error(to_json_text(sample_table()));
  ck_assert_str_eq(valid.c_str(), "");
  for (const auto &c : cases) {
    const std::string message = parse_error(c.text());
    ck_assert_msg(!message.empty(), "case '%s' was accepted", c.what);
    ck_assert_msg(message.find('\n') == std::string::npos, "case '%s': message is not one line: %s", c.what,
                  message.c_str());
    for (const auto &needle : c.must_mention)
      ck_assert_msg(message.find(needle) != std::string::npos, "case '%s': message '%s' does not mention '%s'", c.what,
                    message.c_str(), needle.c_str());
  }
}
END_TEST

// Only regular files are read, and at most kMaxTableFileBytes of them: a FIFO must not block
// (MPI_Init would hang) and a device must not be read forever.
START_TEST(only_regular_files_of_bounded_size_are_read) {
  auto error_for = [](const std::string &path) {
    try {
      load_calibration(path);
    } catch (const CalibrationError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string fifo = temp_path("table.fifo");
  ::unlink(fifo.c_str());
  ck_assert_int_eq(::mkfifo(fifo.c_str(), 0600), 0);
  const auto began = std::chrono::steady_clock::now();
  std::string message = error_for(fifo);  // no writer: a blocking open would never return
  ck_assert_msg(std::chrono::steady_clock::now() - began < std::chrono::seconds(5), "reading a FIFO blocked");
  ck_assert_msg(message.find(fifo) != std::string::npos && message.find("FIFO") != std::string::npos &&
                    message.find('\n') == std::string::npos,
                "FIFO: %s", message.c_str());
  ::unlink(fifo.c_str());
  message = error_for("/dev/zero");
  ck_assert_msg(message.find("/dev/zero") != std::string::npos && message.find("character device") != std::string::npos,
                "/dev/zero: %s", message.c_str());
  message = error_for("/tmp");
  ck_assert_msg(message.find("directory") != std::string::npos, "directory: %s", message.c_str());
  const std::string big = temp_path("big.json");
  {
    std::ofstream out(big);
    out << to_json_text(sample_table()) << std::string(kMaxTableFileBytes, ' ');
  }
  message = error_for(big);
  ck_assert_msg(message.find(big) != std::string::npos && message.find("limit") != std::string::npos,
                "oversized file: %s", message.c_str());
  std::remove(big.c_str());
}
END_TEST

START_TEST(missing_file_names_path_and_reason) {
  const std::string path = temp_path("does_not_exist.json");
  try {
    load_calibration(path);
    ck_abort_msg("loading a missing file succeeded");
  } catch (const CalibrationError &e) {
    const std::string message = e.what();
    ck_assert_msg(message.find(path) != std::string::npos && message.find("No such file") != std::string::npos,
                  "message: %s", message.c_str());
  }
}
END_TEST

// --- fitter -------------------------------------------------------------------------------

namespace {

calib::FitOptions fit_options() { return {5e-5, "estimate: test", {{"source", "check_calibration"}}, 0, ""}; }

// Two-protocol synthetic channel: 0.5 us + 0.1 ns/B up to 4 KiB, 3 us + 0.05 ns/B above, with
// deterministic +-1% scatter over four receivers, and a flat tree T(P) = t_p2p + 0.2 us (P - 1).
calib::Samples synthetic_samples(Channel channel) {
  calib::Samples s;
  for (double bytes = 1; bytes <= 4194304; bytes *= 2) {
    const double t = bytes <= 4096 ? 0.5 + 1e-4 * bytes : 3 + 5e-5 * bytes;
    for (int r = 0; r < 4; ++r) s.p2p.push_back({channel, bytes, t * (1 + 0.01 * (r - 1.5) / 1.5)});
    if (bytes <= 1048576)
      for (int p = 2; p <= 9; ++p) s.flat.push_back({channel, FlatTreeKind::fanout, p, bytes, t + 0.2 * (p - 1)});
  }
  return s;
}

std::string fit_error(const calib::Samples &samples) {
  try {
    calib::fit_table(samples, fit_options());
  } catch (const calib::FitError &e) {
    return e.what();
  }
  return "";
}

}  // namespace

START_TEST(fit_recovers_synthetic_breakpoint) {
  const CalibrationTable t = calib::fit_table(synthetic_samples(Channel::socket), fit_options());
  ck_assert(t.has(Channel::socket) && !t.has(Channel::cache));
  const auto &p2p = t[Channel::socket].p2p;
  ck_assert_msg(p2p.size() == 2, "expected 2 pieces, got %zu", p2p.size());
  ck_assert_double_eq(p2p[0].upto_bytes, 4096);
  ck_assert_double_eq_tol(p2p[0].alpha_us, 0.5, 0.01);
  ck_assert_double_eq_tol(p2p[0].beta_us_per_byte, 1e-4, 2e-6);
  ck_assert_double_eq_tol(p2p[1].alpha_us, 3, 0.1);
  ck_assert_double_eq_tol(p2p[1].beta_us_per_byte, 5e-5, 1e-6);
  const auto &fanout = t[Channel::socket].fanout;
  ck_assert_uint_eq(fanout.size(), 21);
  ck_assert_int_eq(fanout.back().max_p, 9);
  ck_assert_double_eq_tol(fanout.front().beta_us, 0.2, 1e-9);
  ck_assert_double_eq_tol(fanout.front().alpha_us, 0.5 + 1e-4, 1e-9);
  ck_assert(t.provenance["fit"]["socket"]["p2p"]["median_abs_pct_error"].get<double>() < 1);
  const std::string source = t.provenance["source"].get<std::string>();
  ck_assert_str_eq(source.c_str(), "check_calibration");
  // What the fitter writes, the loader accepts.
  ck_assert_uint_eq(parse_calibration(to_json_text(t), "fitted").checksum, t.checksum);
}
END_TEST

// The flat-tree curve is the isotonic fit of the per-P medians: a dip at small P (measured on
// ORFEO at P = 3 vs 4) is pooled, not followed, and within the measured P it, not the line, is
// what the cost model uses; beyond, the line's slope continues from the last point.
START_TEST(fit_flat_curve_is_monotone_and_used_in_range) {
  calib::Samples s = synthetic_samples(Channel::node);
  for (auto &f : s.flat)
    if (f.bytes == 1) {
      if (f.p == 3) f.latency_us = 3.0;              // a bump...
      if (f.p >= 4) f.latency_us = 1.0 + 0.1 * f.p;  // ...then cheaper than the line
    }
  for (int p = 10; p <= 64; ++p) s.flat.push_back({Channel::node, FlatTreeKind::fanout, p, 1, 1.0 + 0.1 * p});
  const CalibrationTable t = calib::fit_table(s, fit_options());
  const FlatTreeFit &f = t[Channel::node].fanout.front();
  ck_assert_double_eq(f.bytes, 1);
  ck_assert_int_eq(f.max_p, 64);
  ck_assert(!f.knots.empty());
  ck_assert_int_eq(f.knots.front().first, 2);
  ck_assert_int_eq(f.knots.back().first, 64);
  for (size_t k = 1; k < f.knots.size(); ++k) {
    ck_assert_int_gt(f.knots[k].first, f.knots[k - 1].first);
    ck_assert_double_ge(f.knots[k].second, f.knots[k - 1].second);
  }
  ck_assert_uint_le(f.knots.size(), 24);  // P = 2..8, then every ~25%
  // The bump at P = 3 is pooled with the cheaper P after it into one level below it.
  ck_assert_double_eq_tol(f.time_us(3), f.time_us(5), 1e-12);
  ck_assert_double_lt(f.time_us(3), 2.0);
  ck_assert_double_gt(f.time_us(3), 1.5);
  ck_assert_double_eq_tol(f.time_us(64), 1.0 + 6.4, 1e-9);
  ck_assert_double_eq_tol(f.time_us(74), 1.0 + 6.4 + 10 * f.beta_us, 1e-9);
  ck_assert_double_eq_tol(f.time_us(40), 5.0, 0.11);  // interpolated between knots near P = 40
  // Round trip through the file format keeps the curve.
  const CalibrationTable back = parse_calibration(to_json_text(t), "fitted");
  ck_assert(back[Channel::node].fanout.front().knots == f.knots);
}
END_TEST

START_TEST(fit_rejects_bad_samples) {
  calib::Samples one_size;
  one_size.p2p = {{Channel::core, 8, 0.4}, {Channel::core, 8, 0.41}};
  one_size.flat = {{Channel::core, FlatTreeKind::fanout, 2, 8, 0.4}, {Channel::core, FlatTreeKind::fanout, 3, 8, 0.6}};
  std::string m = fit_error(one_size);
  ck_assert_msg(m.find("core") != std::string::npos && m.find("2 distinct sizes") != std::string::npos, "%s",
                m.c_str());

  calib::Samples negative = synthetic_samples(Channel::node);
  negative.p2p[5].latency_us = -1;
  m = fit_error(negative);
  ck_assert_msg(m.find("node") != std::string::npos && m.find("positive") != std::string::npos, "%s", m.c_str());

  calib::Samples no_fanout = synthetic_samples(Channel::cache);
  no_fanout.flat.clear();
  m = fit_error(no_fanout);
  ck_assert_msg(m.find("cache") != std::string::npos && m.find("fanout") != std::string::npos, "%s", m.c_str());

  m = fit_error(calib::Samples{});
  ck_assert_str_eq(m.c_str(), "no samples: nothing to fit");
}
END_TEST

// Noise never makes the fitter give up once measurements are taken (issue 29): a per-byte cost
// whose slope noise turns negative takes an upper bound and says so; a point-to-point channel whose
// smallest sizes leave no piecewise line starting above 0 us gets one positive piece and a note.
// Fresh memory is a step: what glibc keeps costs nothing, whatever faults in anew its pages.
START_TEST(fit_fresh_step_finds_where_blocks_come_back_cold) {
  auto samples = [](auto cost) {
    std::vector<calib::Point> out;
    for (double bytes = 8192; bytes <= 8388608; bytes *= 2)
      for (int rep = 0; rep < 5; ++rep) out.push_back({bytes, cost(bytes, rep)});
    return out;
  };
  // The 2-core VM's two-buffer pattern: malloc's overhead up to 4 MiB, 13 us a page at 8 MiB; one
  // noisy repetition per size does not move the medians.
  const calib::FreshStep vm = calib::fit_fresh_step(samples([](double bytes, int rep) {
    return rep == 2 ? 50.0 : bytes < 8388608 ? 0.05 : 3.2e-3 * bytes;
  }));
  ck_assert_double_eq(vm.from_bytes, 8388608);
  ck_assert_double_eq_tol(vm.us_per_byte, 3.2e-3, 1e-12);
  // Every block mapped anew: a cost per byte at every size measured.
  const calib::FreshStep mapped = calib::fit_fresh_step(samples([](double bytes, int) { return 2.5e-4 * bytes; }));
  ck_assert_double_eq(mapped.from_bytes, 8192);
  ck_assert_double_eq_tol(mapped.us_per_byte, 2.5e-4, 1e-15);
  // From 1 MiB on, at a third, then the full cost: the step starts where the cost reaches half.
  const calib::FreshStep ramp = calib::fit_fresh_step(samples([](double bytes, int) {
    return bytes < 1048576 ? 0.0 : bytes < 4194304 ? 1e-4 * bytes : 3e-4 * bytes;
  }));
  ck_assert_double_eq(ramp.from_bytes, 4194304);
  ck_assert_double_eq_tol(ramp.us_per_byte, 3e-4, 1e-15);
  // Kept everywhere (warm writes even a little slower than the pattern): nothing.
  const calib::FreshStep kept = calib::fit_fresh_step(samples([](double, int) { return -0.2; }));
  ck_assert(kept.from_bytes == 0 && kept.us_per_byte == 0);
  ck_assert(calib::fit_fresh_step({}).us_per_byte == 0);
}
END_TEST

START_TEST(fit_never_gives_up_on_noise) {
  std::vector<calib::Point> clean, noisy;
  for (double bytes : {4096.0, 16384.0, 65536.0, 262144.0, 1048576.0, 4194304.0})
    for (int rep = 0; rep < 3; ++rep) {
      clean.push_back({bytes, 1 + 5e-5 * bytes});
      // A loaded machine: every small call waits a scheduler quantum, the large ones run at once.
      noisy.push_back({bytes, bytes <= 65536 ? 4000.0 : 1 + 5e-5 * bytes});
    }
  const calib::PerByteCost fitted = calib::fit_per_byte_cost(clean);
  ck_assert(!fitted.fallback);
  ck_assert_double_eq_tol(fitted.us_per_byte, 5e-5, 1e-9);
  const calib::PerByteCost bounded = calib::fit_per_byte_cost(noisy);
  ck_assert(bounded.fallback);
  ck_assert_double_eq_tol(bounded.us_per_byte, (1 + 5e-5 * 4194304) / 4194304, 1e-12);
  ck_assert_msg(
      bounded.method.find("noise") != std::string::npos && bounded.method.find("upper bound") != std::string::npos,
      "%s", bounded.method.c_str());
  const std::vector<calib::Point> one_size = {{4096, 2}, {4096, 3}};
  ck_assert_double_eq_tol(calib::fit_per_byte_cost(one_size).us_per_byte, 2.5 / 4096, 1e-15);
  ck_assert_double_eq(calib::fit_per_byte_cost({}).us_per_byte, 0);

  // Times on a line through -5 ns at 0 B (positive from 1 B on): every first piece starts below 0 us.
  calib::Samples below_zero = synthetic_samples(Channel::core);
  for (auto &sample : below_zero.p2p) sample.latency_us = 1e-2 * sample.bytes - 5e-3;
  const CalibrationTable t = calib::fit_table(below_zero, fit_options());
  const auto &p2p = t[Channel::core].p2p;
  ck_assert_double_gt(p2p.front().alpha_us, 0);
  for (const HockneyPiece &piece : p2p) ck_assert_double_ge(piece.beta_us_per_byte, 0);
  ck_assert_msg(t.provenance["fit"]["core"]["p2p"].contains("refit"), "%s",
                t.provenance["fit"]["core"]["p2p"].dump().c_str());
  ck_assert_uint_eq(parse_calibration(to_json_text(t), "fitted").checksum, t.checksum);

  // A short run on a loaded machine: two sizes a byte apart, every repeat of the larger waiting a
  // scheduler quantum. Every line through them is steeper than a table may hold; the fitter still
  // writes one that loads, at the limit, and says so (it threw, and the calibrator wrote no table).
  calib::Samples slow_repeats;
  for (double bytes : {1.0, 2.0})
    for (int r = 0; r < 3; ++r) slow_repeats.p2p.push_back({Channel::core, bytes, bytes == 2 ? 400.0 + r : 0.5});
  slow_repeats.flat.push_back({Channel::core, FlatTreeKind::fanout, 2, 1, 0.7});
  const CalibrationTable slow = calib::fit_table(slow_repeats, fit_options());
  for (const HockneyPiece &piece : slow[Channel::core].p2p)
    ck_assert_double_le(piece.beta_us_per_byte, kMaxTableUsPerByte);
  ck_assert_msg(slow.provenance["fit"]["core"]["p2p"].dump().find("clamped") != std::string::npos, "%s",
                slow.provenance["fit"]["core"]["p2p"].dump().c_str());
  ck_assert_uint_eq(parse_calibration(to_json_text(slow), "fitted").checksum, slow.checksum);
}
END_TEST

// The contention curves (table version 2) are fitted exactly like fan-out, over their even P; a
// table without them is the same version 1 table as before.
START_TEST(fit_contention_curves_like_fanout) {
  const calib::Samples flat_only = synthetic_samples(Channel::core);
  calib::Samples s = flat_only;
  for (const calib::FlatTreeSample &f : flat_only.flat)
    if (f.p % 2 == 0) {
      s.contention.push_back({Channel::core, calib::ContentionKind::concurrent, f.p, f.bytes, f.latency_us + 0.1});
      s.contention.push_back({Channel::core, calib::ContentionKind::exchange, f.p, f.bytes, 2 * f.latency_us});
    }
  const CalibrationTable t = calib::fit_table(s, fit_options());
  const ChannelTable &core = t[Channel::core];
  ck_assert_uint_eq(core.concurrent.size(), core.fanout.size());
  ck_assert_uint_eq(core.exchange.size(), core.fanout.size());
  for (size_t k = 0; k < core.fanout.size(); ++k) {
    const FlatTreeFit &fanout = core.fanout[k], &concurrent = core.concurrent[k], &exchange = core.exchange[k];
    ck_assert_double_eq(concurrent.bytes, fanout.bytes);
    ck_assert_int_eq(concurrent.max_p, 8);
    ck_assert_int_eq(exchange.max_p, 8);
    ck_assert_double_eq_tol(concurrent.alpha_us, fanout.alpha_us + 0.1, 1e-9);
    ck_assert_double_eq_tol(concurrent.beta_us, fanout.beta_us, 1e-9);
    ck_assert_double_eq_tol(exchange.time_us(6), 2 * fanout.time_us(6), 1e-9);
    ck_assert_uint_eq(concurrent.knots.size(), 4);  // P = 2, 4, 6, 8
    ck_assert_int_eq(concurrent.knots.front().first, 2);
  }
  for (const char *kind : {"concurrent", "exchange"}) {
    const json &report = t.provenance["fit"]["core"][kind];
    ck_assert_msg(report.contains("held_out") && report["sizes"] == core.fanout.size(), "%s: %s", kind,
                  report.dump().c_str());
  }
  const json doc = json::parse(to_json_text(t));
  ck_assert_int_eq(doc["version"].get<int>(), 2);
  ck_assert(parse_calibration(to_json_text(t), "fitted")[Channel::core] == core);

  // Without contention samples: version 1, and the table the fitter wrote before them.
  CalibrationTable without = calib::fit_table(flat_only, fit_options());
  ck_assert_int_eq(json::parse(to_json_text(without))["version"].get<int>(), 1);
  ChannelTable stripped = core;
  stripped.concurrent.clear();
  stripped.exchange.clear();
  ck_assert(without[Channel::core] == stripped);
  ck_assert(!without.provenance["fit"]["core"].contains("concurrent"));

  // Pairs only: an odd P is refused, naming the kind.
  calib::Samples odd = s;
  odd.contention.push_back({Channel::core, calib::ContentionKind::exchange, 3, 8, 1.0});
  const std::string m = fit_error(odd);
  ck_assert_msg(m.find("exchange") != std::string::npos && m.find("even") != std::string::npos, "%s", m.c_str());
}
END_TEST

// The relay (table version 4): per size, (median ring - median hops) / 2 at least 0, then the
// median with the neighbouring sizes; the table round-trips as version 4, and without relay
// samples the fitter writes what it wrote before.
START_TEST(fit_relay_from_ring_and_hops) {
  const calib::Samples base = synthetic_samples(Channel::core);
  calib::Samples s = base;
  const std::vector<double> sizes = {1, 8, 64, 512, 4096};
  const std::vector<double> relay = {0.3, 0.3, 5.0 /* one noisy size */, 0.35, 0.4};
  for (size_t i = 0; i < sizes.size(); ++i)
    for (int rep = 0; rep < 5; ++rep) {
      const double hops = 1.5 + 0.001 * sizes[i] + 0.01 * rep;
      s.relay.push_back({Channel::core, calib::RelayKind::ring, sizes[i], hops + 2 * relay[i] + (rep == 4 ? 50 : 0)});
      s.relay.push_back({Channel::core, calib::RelayKind::hops, sizes[i], hops});
    }
  s.relay.push_back({Channel::core, calib::RelayKind::ring, 32768, 1.0});  // faster than its hops: 0
  s.relay.push_back({Channel::core, calib::RelayKind::hops, 32768, 2.0});
  const CalibrationTable t = calib::fit_table(s, fit_options());
  const auto &points = t[Channel::core].relay;
  ck_assert_uint_eq(points.size(), 6);
  const std::vector<double> expected = {0.3, 0.3, 0.35, 0.4, 0.35, 0.35};  // medians of three neighbours
  for (size_t i = 0; i < points.size(); ++i)
    ck_assert_msg(std::fabs(points[i].second - expected[i]) < 0.011, "%g B: %g, expected %g", points[i].first,
                  points[i].second, expected[i]);
  const json &report = t.provenance["fit"]["core"]["relay"];
  ck_assert_msg(report["sizes"].size() == 6 && report["sizes"][5]["relay_us"] == 0.0, "%s", report.dump().c_str());
  ck_assert_int_eq(json::parse(to_json_text(t))["version"].get<int>(), 4);
  ck_assert(parse_calibration(to_json_text(t), "fitted")[Channel::core] == t[Channel::core]);
  const CalibrationTable without = calib::fit_table(base, fit_options());
  ck_assert(without[Channel::core].relay.empty());
  ck_assert_int_eq(json::parse(to_json_text(without))["version"].get<int>(), 1);
  // Relay samples need the channel's point-to-point ones.
  calib::Samples orphan = base;
  orphan.relay.push_back({Channel::node, calib::RelayKind::ring, 8, 3.0});
  const std::string m = fit_error(orphan);
  ck_assert_msg(m.find("node") != std::string::npos && m.find("relay") != std::string::npos, "%s", m.c_str());
}
END_TEST

// A channel measured at P = 2 only (mpirun -np 2): the table holds the serialized bound
// T(P) = (P-1) T(2) with max_p = 2, and the provenance says it is not measured.
START_TEST(fit_single_peer_channel_is_an_extrapolated_bound) {
  calib::Samples two = synthetic_samples(Channel::cache);
  std::erase_if(two.flat, [](const calib::FlatTreeSample &s) { return s.p != 2; });
  const CalibrationTable t = calib::fit_table(two, fit_options());
  const auto &fanout = t[Channel::cache].fanout;
  ck_assert_uint_eq(fanout.size(), 21);
  for (const FlatTreeFit &f : fanout) {
    ck_assert_int_eq(f.max_p, 2);
    ck_assert_double_eq(f.alpha_us, 0);
    double t2 = 0;
    for (const auto &smp : two.flat)
      if (smp.bytes == f.bytes) t2 = smp.latency_us;
    ck_assert_double_eq_tol(f.beta_us, t2, 1e-12);
  }
  const std::string note = t.provenance["fit"]["cache"]["fanout"]["extrapolated"].get<std::string>();
  ck_assert_msg(note.find("P = 2") != std::string::npos && note.find("not measured") != std::string::npos, "%s",
                note.c_str());
}
END_TEST

// Log-uniform sizes in random order, repeated, with heavy-tailed noise: every sample is the model
// times (1 + 3 % Student-t(3)), and 8 % of them are gross outliers, 1.5x to 50x slower (Pareto,
// like a descheduled rank). Median regression on the raw samples must still find the eager-limit
// jump at 8 KiB and the slopes; least squares on the same raw samples cannot (checked too, so that
// this test fails if the fitter stops being robust).
START_TEST(fit_recovers_piecewise_model_under_heavy_tailed_noise) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> log_size(0, std::log(4.0 * (1 << 20)));
  std::student_t_distribution<double> student(3);
  std::uniform_real_distribution<double> unit(0, 1);
  auto truth = [](double m) { return m <= 8192 ? 0.5 + 1e-4 * m : 3.0 + 8e-5 * m; };
  calib::Samples s;
  std::vector<calib::Point> upper_raw;
  std::vector<double> sizes;
  for (int i = 0; i < 300; ++i) sizes.push_back(std::max(1.0, std::round(std::exp(log_size(rng)))));
  for (int rep = 0; rep < 10; ++rep) {
    std::shuffle(sizes.begin(), sizes.end(), rng);
    for (double m : sizes) {
      double t = truth(m) * (1 + 0.03 * std::clamp(student(rng), -10.0, 10.0));
      if (unit(rng) < 0.08) t *= std::min(50.0, 1.5 / std::pow(1 - unit(rng), 1 / 1.2));
      s.p2p.push_back({Channel::node, m, t});
      if (m > 8192) upper_raw.push_back({m, t});
    }
  }
  for (int p = 2; p <= 6; ++p)
    for (double m : {1.0, 1024.0, 1048576.0})
      s.flat.push_back({Channel::node, FlatTreeKind::fanout, p, m, p * truth(m)});
  const CalibrationTable t = calib::fit_table(s, fit_options());
  const auto &p2p = t[Channel::node].p2p;
  ck_assert_msg(p2p.size() == 2, "expected 2 pieces, got %zu", p2p.size());
  // The break sits at the last measured size <= 8 KiB (300 log-uniform sizes: a few % below).
  ck_assert_msg(p2p[0].upto_bytes <= 8192 && p2p[0].upto_bytes >= 7000, "break at %g B", p2p[0].upto_bytes);
  // Tolerances: 5 % on every parameter (the outliers alone move a least-squares fit by more).
  ck_assert_double_eq_tol(p2p[0].alpha_us, 0.5, 0.025);
  ck_assert_double_eq_tol(p2p[0].beta_us_per_byte, 1e-4, 5e-6);
  ck_assert_double_eq_tol(p2p[1].alpha_us, 3.0, 0.15);
  ck_assert_double_eq_tol(p2p[1].beta_us_per_byte, 8e-5, 4e-6);
  // The noise spread is kept: the Student-t part is 3 % wide (its MAD-scale is about 0.03 *
  // 0.77 / 0.6745 = 3.4 %), and the p95 reflects the outliers' tail.
  for (const HockneyPiece &piece : p2p) {
    ck_assert_msg(piece.noise_rel_mad > 0.02 && piece.noise_rel_mad < 0.06, "noise_rel_mad %g", piece.noise_rel_mad);
    ck_assert_msg(piece.noise_rel_p95 > 0.05, "noise_rel_p95 %g", piece.noise_rel_p95);
  }
  const json &held_out = t.provenance["fit"]["node"]["p2p"]["held_out"];
  ck_assert_uint_eq(held_out["samples"].get<size_t>(), 3000);
  ck_assert_msg(held_out["median_ape"].get<double>() < 5, "%s", held_out.dump().c_str());
  // Least squares on the same raw samples is dragged by the outliers beyond the tolerance.
  // (Ordinary least squares; weights 1/t^2 happen to discount slow outliers, fast ones not.)
  const calib::LineFit ls = calib::fit_line(upper_raw, calib::Weighting::absolute);
  ck_assert_msg(std::abs(ls.slope - 8e-5) > 4e-6 || std::abs(ls.intercept - 3) > 0.15,
                "least squares was not dragged (%g + %g m): the noise is too mild to test robustness", ls.intercept,
                ls.slope);
}
END_TEST

START_TEST(samples_csv_round_trip_and_errors) {
  const std::string path = temp_path("samples.csv");
  auto read_error = [&](const std::string &text) {
    write_file(path, text);
    calib::Samples s;
    try {
      calib::read_samples_csv(path, s);
    } catch (const calib::FitError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string header = "kind,channel,p,bytes,rep,latency_us\n";
  write_file(path, header +
                       "p2p,cache,2,9,0,0.5110\nfanout,core,5,4096,3,2.3170\nfanin,core,5,4096,3,1.9040\n"
                       "concurrent,core,4,4096,3,2.5000\nexchange,core,2,64,0,1.2500\n"
                       "relay,cache,3,8,0,2.0000\nrelay_hops,cache,3,8,0,1.5000\n");
  calib::Samples s;
  calib::read_samples_csv(path, s);
  ck_assert_uint_eq(s.p2p.size(), 1);
  ck_assert_uint_eq(s.flat.size(), 2);
  ck_assert(s.flat[1].kind == FlatTreeKind::fanin && s.flat[1].p == 5 && s.flat[1].bytes == 4096);
  ck_assert_double_eq(s.p2p[0].latency_us, 0.511);
  ck_assert_uint_eq(s.contention.size(), 2);
  ck_assert(s.contention[0].kind == calib::ContentionKind::concurrent && s.contention[0].p == 4 &&
            s.contention[0].channel == Channel::core && s.contention[0].latency_us == 2.5);
  ck_assert(s.contention[1].kind == calib::ContentionKind::exchange && s.contention[1].bytes == 64);
  ck_assert_uint_eq(s.relay.size(), 2);
  ck_assert(s.relay[0].kind == calib::RelayKind::ring && s.relay[1].kind == calib::RelayKind::hops &&
            s.relay[1].latency_us == 1.5 && s.relay[0].channel == Channel::cache);
  std::string m = read_error(header + "allreduce,cache,2,9,0,0.5\n");
  ck_assert_msg(m.find(path + ":2") != std::string::npos && m.find("unknown kind 'allreduce'") != std::string::npos &&
                    m.find("concurrent, exchange, relay, relay_hops") != std::string::npos,
                "%s", m.c_str());
  m = read_error(header + "relay,cache,2,9,0,0.5\n");
  ck_assert_msg(m.find(path + ":2") != std::string::npos && m.find("p = 3") != std::string::npos, "%s", m.c_str());
  m = read_error(header + "concurrent,cache,3,9,0,0.5\n");
  ck_assert_msg(m.find(path + ":2") != std::string::npos && m.find("even") != std::string::npos, "%s", m.c_str());
  m = read_error(header + "exchange,cache,0,9,0,0.5\n");
  ck_assert_msg(m.find("'p'") != std::string::npos && m.find("exchange") != std::string::npos, "%s", m.c_str());
  m = read_error(header + "p2p,cache,3,9,0,0.5\n");
  ck_assert_msg(m.find(path + ":2") != std::string::npos && m.find("p = 2") != std::string::npos, "%s", m.c_str());
  m = read_error(header + "fanout,cache,1,9,0,0.5\n");
  ck_assert_msg(m.find("P >= 2") != std::string::npos, "%s", m.c_str());
  m = read_error(header + "p2p,cache,2,9,0,0\n");
  ck_assert_msg(m.find("'latency_us'") != std::string::npos && m.find("positive") != std::string::npos, "%s",
                m.c_str());
  m = read_error(header + "p2p,cache,2,9,-1,0.5\n");
  ck_assert_msg(m.find("'rep'") != std::string::npos, "%s", m.c_str());
  m = read_error("kind,channel,p,bytes,latency_us\np2p,cache,2,9,0.5\n");
  ck_assert_msg(m.find("missing column 'rep'") != std::string::npos, "%s", m.c_str());
  m = read_error(header);
  ck_assert_msg(m.find("no measurements") != std::string::npos, "%s", m.c_str());
  std::filesystem::remove(path);
}
END_TEST

START_TEST(csv_errors_name_file_line_and_column) {
  const std::string path = temp_path("bad.csv");
  auto read_error = [&](const std::string &text, bool flat) {
    write_file(path, text);
    calib::Samples s;
    try {
      if (flat)
        calib::read_osu_flat_csv(path, FlatTreeKind::fanout, s);
      else
        calib::read_osu_p2p_csv(path, s);
    } catch (const calib::FitError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string m = read_error("mapby,size,latency\ncore,1,0.4\ncore,2,zero\n", false);
  ck_assert_msg(m.find(path + ":3") != std::string::npos && m.find("'latency'") != std::string::npos &&
                    m.find("zero") != std::string::npos,
                "%s", m.c_str());
  m = read_error("mapby,size,latency\nl2,1,0.4\n", false);
  ck_assert_msg(m.find(path + ":2") != std::string::npos && m.find("unknown channel 'l2'") != std::string::npos, "%s",
                m.c_str());
  m = read_error("mapby,size,lat\ncore,1,0.4\n", false);
  ck_assert_msg(m.find(path + ":1") != std::string::npos && m.find("missing column 'latency'") != std::string::npos,
                "%s", m.c_str());
  m = read_error("mapby,p,size,latency\ncore,2.5,1,0.4\n", true);
  ck_assert_msg(m.find(path + ":2") != std::string::npos && m.find("'p'") != std::string::npos, "%s", m.c_str());
  m = read_error("mapby,size,latency\ncore,1,-0.4\n", false);
  ck_assert_msg(m.find(path + ":2") != std::string::npos && m.find("positive") != std::string::npos, "%s", m.c_str());
  m = read_error("mapby,size,latency\ncore,1\n", false);
  ck_assert_msg(m.find(path + ":2") != std::string::npos, "%s", m.c_str());
  m = read_error("mapby,size,latency,recv\r\ncore,1,0.4,5\r\n", false);
  ck_assert_str_eq(m.c_str(), "");
  std::filesystem::remove(path);
}
END_TEST

// --- the shipped table against the data it was fitted from ---------------------------------

namespace {

// column -> value rows of a CSV, read independently of calib/osu_csv.cpp.
std::vector<std::map<std::string, std::string>> read_csv(const std::string &path) {
  std::ifstream in(path);
  ck_assert_msg(in.good(), "cannot open %s (the ORFEO data set must sit beside the repository)", path.c_str());
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    if (header.empty()) {
      header = fields;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

double p2p_time(const ChannelTable &channel, double bytes) {
  for (const auto &piece : channel.p2p)
    if (bytes <= piece.upto_bytes) return piece.alpha_us + piece.beta_us_per_byte * bytes;
  return std::nan("");
}

}  // namespace

START_TEST(shipped_table_reproduces_orfeo_1B_latency) {
  const CalibrationTable table = load_calibration(SHIPPED_TABLE);
  std::map<std::string, std::vector<double>> one_byte;
  for (const auto &row : read_csv(std::string(ORFEO_DATA_DIR) + "/p2p.csv"))
    if (row.at("size") == "1") one_byte[row.at("mapby")].push_back(std::stod(row.at("latency")));
  ck_assert_uint_eq(one_byte.size(), kChannels);
  for (auto &[name, latencies] : one_byte) {
    const int c = channel_from_name(name);
    ck_assert_msg(c >= 0 && table.has(static_cast<Channel>(c)), "channel %s missing from the table", name.c_str());
    const double median = modeltuned::median(latencies);
    const double predicted = p2p_time(table.channels[c], 1);
    ck_assert_msg(std::abs(predicted - median) <= 0.05 * median,
                  "%s: table gives %.4f us at 1 B, p2p.csv median is %.4f us", name.c_str(), predicted, median);
  }
  // Fitted from nbft.csv only: fanout up to the largest measured P, no fanin.
  std::map<std::string, int> max_p;
  for (const auto &row : read_csv(std::string(ORFEO_DATA_DIR) + "/nbft.csv"))
    max_p[row.at("mapby")] = std::max(max_p[row.at("mapby")], std::stoi(row.at("p")));
  for (const auto &[name, p] : max_p) {
    const ChannelTable &ch = table.channels[channel_from_name(name)];
    ck_assert_int_eq(ch.fanout.back().max_p, p);
    ck_assert(ch.fanin.empty());
  }
  ck_assert_msg(table.reduce_source.rfind("estimate: ", 0) == 0, "reduce.source: %s", table.reduce_source.c_str());
  // Not measured in the data set: no fresh-memory cost, so no charge for temporaries.
  ck_assert(table.fresh_memory_source.empty() && table.fresh_memory_us_per_byte == 0);
}
END_TEST

// --merge: channels from the table that measured them with the largest group, the scalar costs
// from the first that measured them, and tables of different machines or libraries refused.
START_TEST(merge_takes_each_channel_from_its_largest_measurement) {
  const CalibrationTable orfeo = load_calibration(SHIPPED_TABLE);
  // "intra": the shipped table without its node channel; "inter": its node channel only, with
  // fan-out measured up to a larger group than the intra table's (as across many nodes).
  CalibrationTable intra = orfeo, inter = orfeo;
  intra.channels[static_cast<int>(Channel::node)] = {};
  for (int c = 0; c < kChannels; ++c)
    if (c != static_cast<int>(Channel::node)) inter.channels[c] = {};
  inter.reduce_source = "measured: MPI_Reduce_local";
  inter.reduce_us_per_byte = 1e-4;
  update_checksum(intra);
  update_checksum(inter);
  const CalibrationTable merged = calib::merge_tables({{"intra.json", intra}, {"inter.json", inter}});
  for (int c = 0; c < kChannels; ++c) ck_assert(merged.channels[c] == orfeo.channels[c]);
  const auto &from = merged.provenance["merged_from"];
  ck_assert(from["channels"]["node"] == "inter.json" && from["channels"]["cache"] == "intra.json");
  // The measured reduction cost wins over the estimate.
  ck_assert_double_eq(merged.reduce_us_per_byte, 1e-4);
  ck_assert(from["reduce"] == "inter.json");
  // Quality of each channel's fit travels with it (the margin reads it).
  ck_assert(merged.provenance["fit"]["node"] == orfeo.provenance["fit"]["node"]);
  ck_assert(merged.provenance["fit"]["cache"] == orfeo.provenance["fit"]["cache"]);
  // It is a valid table: it round-trips with its checksum.
  ck_assert_uint_eq(parse_calibration(to_json_text(merged), "merged").checksum, merged.checksum);
  // Checks travel where the merged table predicts what their own table did: all of inter's (its
  // node channel and reduction cost are the merged table's), intra's bcast ones but not its reduce
  // ones (its reduction cost was replaced). Both carry the shipped checks: joined, one of each.
  size_t reduce_checks = 0;
  for (const CheckResidual &r : orfeo.checks) reduce_checks += r.op == "reduce";
  ck_assert(!orfeo.checks.empty() && reduce_checks > 0);
  ck_assert_uint_eq(merged.checks.size(), orfeo.checks.size());
  ck_assert_int_eq(from["checks"]["inter.json"]["kept"].get<int>(), static_cast<int>(orfeo.checks.size()));
  ck_assert_int_eq(from["checks"]["intra.json"]["dropped"].get<int>(), static_cast<int>(reduce_checks));
  ck_assert(!merged.checks_source.empty());

  // A channel in both: the larger group wins, a tie keeps the earlier table.
  CalibrationTable bigger = orfeo;
  for (FlatTreeFit &f : bigger.channels[static_cast<int>(Channel::node)].fanout) f.max_p += 8;
  update_checksum(bigger);
  const CalibrationTable with_bigger = calib::merge_tables({{"a", orfeo}, {"b", bigger}});
  ck_assert(with_bigger.provenance["merged_from"]["channels"]["node"] == "b");
  // a's node channel was replaced: none of a's checks hold; b's all do.
  ck_assert_int_eq(with_bigger.provenance["merged_from"]["checks"]["a"]["kept"].get<int>(), 0);
  ck_assert_uint_eq(with_bigger.checks.size(), bigger.checks.size());
  ck_assert(calib::merge_tables({{"a", orfeo}, {"b", orfeo}}).provenance["merged_from"]["channels"]["node"] == "a");

  // Refused: another node topology, another Open MPI version; one line naming both tables.
  auto refused = [&](CalibrationTable other, const char *key, const char *value, const char *what) {
    other.provenance[key] = value;
    try {
      CalibrationTable mine = orfeo;
      if (std::string(key) == "mpi_library") mine.provenance[key] = "Open MPI v4.1.4, package: Debian OpenMPI";
      calib::merge_tables({{"intra.json", mine}, {"other.json", other}});
    } catch (const calib::FitError &e) {
      const std::string m = e.what();
      ck_assert_msg(m.find("intra.json") != std::string::npos && m.find("other.json") != std::string::npos &&
                        m.find(what) != std::string::npos && m.find('\n') == std::string::npos,
                    "%s", m.c_str());
      return;
    }
    ck_abort_msg("merging tables with a different %s was accepted", key);
  };
  CalibrationTable other_node = inter;
  other_node.provenance["hwloc"] = {{"signature", "pack:1 numa:1 l3:1 core:2 pu:2"}};
  try {
    calib::merge_tables({{"intra.json", intra}, {"other.json", other_node}});
    ck_abort_msg("tables of different node topologies were merged");
  } catch (const calib::FitError &e) {
    ck_assert_msg(std::string(e.what()).find("node topologies") != std::string::npos, "%s", e.what());
  }
  refused(inter, "mpi_library", "Open MPI v5.0.7, package: Debian OpenMPI", "Open MPI versions");
  // The same version from another build or package is the same library.
  CalibrationTable same = inter, mine = orfeo;
  same.provenance["mpi_library"] = "Open MPI v4.1.4, package: Open MPI builder, ident: 4.1.4";
  mine.provenance["mpi_library"] = "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4";
  calib::merge_tables({{"a", mine}, {"b", same}});
  const std::string version = calib::mpi_version_of("Open MPI v4.1.4, package: Debian");  // outlives the macro
  ck_assert_str_eq(version.c_str(), "Open MPI v4.1.4");
}
END_TEST

// --- modeltuned-calibrate end to end --------------------------------------------------------

namespace {

namespace test = modeltuned::test;
namespace fs = std::filesystem;

// modeltuned-calibrate under mpirun (Open MPI's own collectives: the run measures the machine,
// not modeltuned); `env` names variables the ranks get (-x), `mca` name/value pairs for --mca.
// Returns the table's path.
fs::path calibrate(const fs::path &dir, int np, std::vector<std::string> args, std::vector<std::string> env = {},
                   std::string *rank0_output = nullptr, std::vector<std::pair<std::string, std::string>> mca = {}) {
  const fs::path table = dir / "modeltuned" / "calibration.json";  // a directory the calibrator creates
  test::Launch launch;
  launch.np = np;
  launch.mpirun_args = {"--mca", "coll", "^modeltuned"};
  for (const auto &[name, value] : mca) launch.mpirun_args.insert(launch.mpirun_args.end(), {"--mca", name, value});
  for (const std::string &name : env) launch.mpirun_args.insert(launch.mpirun_args.end(), {"-x", name});
  launch.program = test::builddir() + "/calib/modeltuned-calibrate";
  args.insert(args.end(), {"-o", table.string()});
  launch.program_args = args;
  launch.timeout_seconds = test::run_timeout_seconds(180);
  const test::LaunchResult r = test::launch_mpi(dir, launch);
  const std::string rank0 = r.rank_stderr.count(0) ? r.rank_stderr.at(0) : "";
  ck_assert_msg(r.exit_status == 0 && !r.timed_out && fs::exists(table), "%s: status %d%s\n%s\n%s", r.command.c_str(),
                r.exit_status, r.timed_out ? " (timed out)" : "", rank0.c_str(), r.launcher_output.c_str());
  if (rank0_output) *rank0_output = (r.rank_stdout.count(0) ? r.rank_stdout.at(0) : "") + rank0;
  return table;
}

// `modeltuned fit --samples CSV --like TABLE -o OUT`, as a user refits a run.
void refit(const fs::path &samples, const fs::path &like, const fs::path &out) {
  const std::string cmd = "'" + test::builddir() + "/tools/modeltuned' fit --samples '" + samples.string() +
                          "' --like '" + like.string() + "' -o '" + out.string() + "' > '" + out.string() +
                          ".log' 2>&1";
  const int status = std::system(cmd.c_str());
  ck_assert_msg(status == 0, "'%s' failed (status %d): %s", cmd.c_str(), status,
                test::read_text(out.string() + ".log").c_str());
}

int pair_ranks(int group_size) { return group_size / 2 * 2; }

}  // namespace

// np 4 on any machine: every channel in the table has contention curves measured on the same
// sizes as fan-out, up to the largest even group the placement offers there; the raw samples
// hold them; modeltuned fit reproduces them from the CSV; and the CSV without them still gives
// the version 1 table with the same flat trees.
START_TEST(calibrate_measures_contention_and_refits) {
  test::Scratch scratch("modeltuned-calibrate");
  // A fixed plan ends in a few seconds; the budget is only slack for a loaded machine, where a
  // cut would leave sizes without their larger groups.
  const fs::path table_path = calibrate(
      scratch.dir, 4, {"--budget", "60", "--max-bytes", "16KiB", "--reps", "3", "--seed", "7", "--idle", "sleep"});
  const fs::path samples_path = table_path.string() + ".samples.csv";
  const json doc = json::parse(test::read_text(table_path));
  const CalibrationTable table = load_calibration(table_path.string());
  // Contention lists: version 2; checks, which carry their groups' sizes: 3; relay points: 4;
  // allreduce checks: 5; where fresh memory starts costing: 6; barrier checks: 7; allgather checks: 8.
  // Paired checks of other components' algorithms: 11.
  bool relay = false, allreduce = false, barrier = false, allgather = false, alltoall = false, paired = false;
  const bool fresh_from = table.fresh_memory_from_bytes > 0;
  for (const ChannelTable &ch : table.channels) relay |= !ch.relay.empty();
  for (const CheckResidual &r : table.checks) {
    paired |= r.relative_to_default;
    allreduce |= r.op == "allreduce";
    barrier |= r.op == "barrier";
    allgather |= r.op == "allgather";
    alltoall |= r.op == "alltoall";
  }
  ck_assert_int_eq(doc["version"].get<int>(), paired                 ? 11
                                              : alltoall             ? 9
                                              : allgather            ? 8
                                              : barrier              ? 7
                                              : fresh_from           ? 6
                                              : allreduce            ? 5
                                              : relay                ? 4
                                              : table.checks.empty() ? 2
                                                                     : 3);
  int channels = 0;
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &ch = table.channels[c];
    if (!ch.present) continue;
    ++channels;
    const std::string name(kChannelNames[c]);
    const int offered = doc["provenance"]["placement"]["channels"][name]["max_p"].get<int>();
    using Curves = std::pair<const char *, const std::vector<FlatTreeFit> &>;
    for (const auto &[kind, fits] : {Curves{"concurrent", ch.concurrent}, Curves{"exchange", ch.exchange}}) {
      ck_assert_msg(fits.size() == ch.fanout.size(), "%s %s: %zu sizes, fanout %zu", name.c_str(), kind, fits.size(),
                    ch.fanout.size());
      int max_p = 0;
      for (size_t k = 0; k < fits.size(); ++k) {
        ck_assert_double_eq(fits[k].bytes, ch.fanout[k].bytes);
        ck_assert_int_eq(fits[k].max_p % 2, 0);
        max_p = std::max(max_p, fits[k].max_p);
      }
      ck_assert_msg(max_p == pair_ranks(offered), "%s %s: max_p %d, the placement offers P = %d", name.c_str(), kind,
                    max_p, offered);
      const json &counts = doc["provenance"]["samples"];
      ck_assert_msg(counts.contains(kind) && counts[kind].value(name, 0) > 0, "%s", counts.dump().c_str());
    }
    // A ring needs two peers on the channel; then every fan-out size up to 64 KiB has a relay.
    if (offered >= 3) {
      ck_assert_msg(ch.relay.size() == ch.fanout.size(), "%s: %zu relay sizes, fanout %zu", name.c_str(),
                    ch.relay.size(), ch.fanout.size());
      for (auto [bytes, us] : ch.relay) ck_assert(std::isfinite(us) && us >= 0);
    } else {
      ck_assert(ch.relay.empty());
    }
  }
  ck_assert_int_gt(channels, 0);

  // The raw samples hold the new kinds, and modeltuned fit reads them back into the same curves.
  const std::string csv = test::read_text(samples_path);
  ck_assert(csv.find("\nconcurrent,") != std::string::npos && csv.find("\nexchange,") != std::string::npos);
  const fs::path refitted = scratch.dir / "refit.json";
  refit(samples_path, table_path, refitted);
  const CalibrationTable again = load_calibration(refitted.string());
  for (int c = 0; c < kChannels; ++c) {
    ck_assert(again.channels[c].concurrent == table.channels[c].concurrent);
    ck_assert(again.channels[c].exchange == table.channels[c].exchange);
    ck_assert(again.channels[c].relay == table.channels[c].relay);
    if (!table.channels[c].present) continue;
    for (const char *kind : {"concurrent", "exchange"})
      ck_assert(again.provenance["fit"][kChannelNames[c]][kind] == table.provenance["fit"][kChannelNames[c]][kind]);
  }

  // A CSV of the version 1 kinds only (as every run before them wrote): a version 1 table.
  std::string old_kinds;
  for (const std::string &line : test::split_lines(csv))
    if (line.rfind("concurrent,", 0) != 0 && line.rfind("exchange,", 0) != 0 && line.rfind("relay", 0) != 0)
      old_kinds += line + "\n";
  const fs::path old_csv = scratch.dir / "v1.samples.csv", old_table = scratch.dir / "v1.json";
  test::write_text(old_csv, old_kinds);
  refit(old_csv, table_path, old_table);
  const json old_doc = json::parse(test::read_text(old_table));
  ck_assert_int_eq(old_doc["version"].get<int>(), 1);
  const CalibrationTable v1 = load_calibration(old_table.string());
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &ch = v1.channels[c], &full = table.channels[c];
    ck_assert(ch.concurrent.empty() && ch.exchange.empty() && ch.relay.empty());
    ck_assert(ch.p2p == full.p2p && ch.fanout == full.fanout && ch.fanin == full.fanin);
  }

  // Fresh memory is measured, and the table says how.
  ck_assert(std::isfinite(table.fresh_memory_us_per_byte) && table.fresh_memory_us_per_byte >= 0);
  ck_assert_msg(table.fresh_memory_source.find("malloc") != std::string::npos, "%s", table.fresh_memory_source.c_str());
  ck_assert(table.fresh_memory_one_buffer_us_per_byte >= 0 &&
            table.fresh_memory_one_buffer_us_per_byte <= table.fresh_memory_us_per_byte);
}
END_TEST

// Two ranks: rank 0 has one peer on its channel. The run says so once, in words a user can act on
// (run with more ranks there), not in the seed report's notation.
START_TEST(calibrator_notes_say_what_to_do) {
  test::Scratch scratch("modeltuned-calibrate");
  std::string output;
  calibrate(scratch.dir, 2, {"--budget", "60", "--max-bytes", "1KiB", "--reps", "2"}, {}, &output);
  int notes = 0;
  for (const std::string &line : test::split_lines(output)) {
    if (line.rfind("note: ", 0) != 0) continue;
    ++notes;
    ck_assert_msg(line.find("run with more ranks") != std::string::npos, "%s", line.c_str());
  }
  ck_assert_msg(notes == 1, "%d notes in:\n%s", notes, output.c_str());
  for (const char *jargon : {"gamma", "eq. ", "serialized bound", "(P-1) T(2)"})
    ck_assert_msg(output.find(jargon) == std::string::npos, "'%s' in the output:\n%s", jargon, output.c_str());
}
END_TEST

// The fresh-memory cost is the allocator's: glibc told to keep every block (heap only, never
// trimmed) gives about nothing, told to map every block >= 128 KiB anew gives the page-fault cost
// in both patterns. (Not under AddressSanitizer, whose allocator ignores glibc's tunables.)
START_TEST(fresh_memory_follows_the_allocator) {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  auto measure = [](const std::string &tunables) {
    test::Scratch scratch("modeltuned-calibrate");
    setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
    const fs::path table =
        calibrate(scratch.dir, 2, {"--budget", "60", "--max-bytes", "4KiB", "--reps", "3"}, {"GLIBC_TUNABLES"});
    unsetenv("GLIBC_TUNABLES");
    return json::parse(test::read_text(table))["provenance"]["reduce_local"];
  };
  const json keep = measure("glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824");
  const json fresh = measure("glibc.malloc.mmap_threshold=131072");
  const double kept_cost = keep["fresh_memory_us_per_byte"].get<double>();
  const double mapped_cost = fresh["fresh_memory_us_per_byte"].get<double>();
  ck_assert_msg(fresh["fresh_memory_one_buffer_us_per_byte"].get<double>() > 0 &&
                    fresh["fresh_memory_two_buffers_us_per_byte"].get<double>() > 0,
                "every block mapped anew, yet no page-fault cost: %s", fresh.dump().c_str());
  ck_assert_msg(kept_cost < 0.25 * mapped_cost, "blocks kept: %g us/B, mapped anew: %g us/B (%s / %s)", kept_cost,
                mapped_cost, keep.dump().c_str(), fresh.dump().c_str());
#endif
}
END_TEST

// After the fit the run measures Open MPI's default and the model's best candidates on
// MPI_COMM_WORLD, forced through tuned, and writes how far the predictions were off: the table's
// checks, from which the component decides where it may leave the default (docs/model.md#margin).
START_TEST(calibrator_measures_checks) {
  test::Scratch scratch("modeltuned-calibrate");
  // Four rounds end the checks (--reps); the budget is slack for a slow machine, where a tight
  // deadline would cut them short.
  std::string output;
  const fs::path path =
      calibrate(scratch.dir, 2, {"--budget", "60", "--max-bytes", "4KiB", "--reps", "4", "--seed", "3"}, {}, &output);
  const CalibrationTable table = load_calibration(path.string());
  const json doc = json::parse(test::read_text(path));
  const json &checks = doc["provenance"]["checks"];
  ck_assert_msg(!table.checks.empty() && checks.contains("measured"), "no checks: %s\n%s", checks.dump().c_str(),
                output.c_str());
  // Two ranks: MPI_COMM_WORLD is the only group (larger runs also measure their first ranks,
  // check_group_sizes).
  ck_assert_uint_eq(checks["groups"].size(), 1);
  const json &run = checks["groups"][0];
  const std::string run_neighbors = run["neighbors"].get<std::string>(), run_widest = run["widest"].get<std::string>();
  ck_assert_int_eq(run["ranks"].get<int>(), 2);
  ck_assert_int_eq(run["rounds"].get<int>(), 4);
  ck_assert_msg(table.checks_source.find("forced through tuned") != std::string::npos, "%s",
                table.checks_source.c_str());

  // Every size measured lies in one band [4^k, 4^(k+1)), two sizes per band but the last (4 KiB);
  // another component's measured-only algorithm has a paired check per size, [s, 2 s).
  std::set<std::tuple<std::string, std::string, double>> defaults;
  for (const CheckResidual &r : table.checks) {
    ck_assert_msg(r.log_lo <= r.log_hi && std::isfinite(r.log_lo) && std::isfinite(r.log_hi), "%s %s [%g, %g]",
                  r.op.c_str(), r.algorithm.c_str(), r.log_lo, r.log_hi);
    const AlgorithmSpec *spec = find_collective(r.op) ? find_algorithm(*find_collective(r.op), r.algorithm) : nullptr;
    ck_assert_msg(r.relative_to_default == (spec && measured_only(*spec)), "%s %s", r.op.c_str(), r.algorithm.c_str());
    if (r.relative_to_default) {
      ck_assert_double_eq(r.below_bytes, r.op == "barrier" ? 1 : 2 * r.from_bytes);
      ck_assert_msg(r.samples == 4, "%s %s: %d rounds paired", r.op.c_str(), r.algorithm.c_str(), r.samples);
      continue;
    }
    // the barrier's one call: [0, 1)
    ck_assert_double_eq(r.below_bytes, r.op == "barrier" ? 1 : 4 * r.from_bytes);
    // np 2: one group, its own size
    ck_assert_msg(r.from_ranks == 2 && r.below_ranks == 3, "ranks [%d, %d)", r.from_ranks, r.below_ranks);
    ck_assert_msg(r.neighbors == run_neighbors && r.widest == run_widest, "%s/%s", r.neighbors.c_str(),
                  r.widest.c_str());
    const bool reduction = r.op == "reduce" || r.op == "allreduce";  // multiples of 4 bytes: band 1 holds 4 only
    const int sizes = r.from_bytes == 4096 || r.op == "barrier" || (reduction && r.from_bytes == 1) ? 1 : 2;
    ck_assert_msg(r.samples % 4 == 0 && r.samples / 4 <= sizes, "%s %s from %g: %d samples", r.op.c_str(),
                  r.algorithm.c_str(), r.from_bytes, r.samples);
    if (r.algorithm == "default")
      defaults.insert({r.op, r.objective, r.from_bytes});
    else
      ck_assert_msg(find_collective(r.op) && find_algorithm(*find_collective(r.op), r.algorithm), "%s %s", r.op.c_str(),
                    r.algorithm.c_str());
  }
  // Open MPI's default at every band (bcast from 1 B, reduce and allreduce from 4 B, the barrier's
  // one, allgather's and alltoall's blocks from 1 B while the two ranks' fit in the largest size)
  // for both objectives.
  ck_assert_int_eq(defaults.size(), 2 * (7 + 6 + 6 + 1 + 6 + 6));
  for (const json &row : checks["measured"])
    for (const char *objective : {"completion", "rank_mean"}) {
      const json &m = row[objective];
      ck_assert_msg(m["low_us"].get<double>() <= m["median_us"].get<double>() &&
                        m["median_us"].get<double>() <= m["high_us"].get<double>() &&
                        m["predicted_us"].get<double>() > 0,
                    "%s", row.dump().c_str());
    }

  // The component's rule finds them for this communicator's shape.
  Channel neighbors = Channel::cache, widest = Channel::cache;
  for (int c = 0; c < kChannels; ++c) {
    if (run_neighbors == kChannelNames[c]) neighbors = static_cast<Channel>(c);
    if (run_widest == kChannelNames[c]) widest = static_cast<Channel>(c);
  }
  for (double bytes : {1.0, 100.0, 4000.0})
    ck_assert_msg(check_range(table, Op::bcast, "default", 0, 0, bytes, Metric::completion, neighbors, widest, 2),
                  "no check of the default at %g B", bytes);
}
END_TEST

// --checks algorithms measures what a model-free autotuner would: every algorithm with the
// parameters tuned gives it when forced (no segments, its default fan-out), nothing the model ranks.
START_TEST(calibrator_checks_algorithms_with_tuned_parameters) {
  test::Scratch scratch("modeltuned-calibrate");
  std::string output;
  const fs::path path = calibrate(
      scratch.dir, 2, {"--budget", "60", "--max-bytes", "16KiB", "--reps", "2", "--checks", "algorithms"}, {}, &output);
  const CalibrationTable table = load_calibration(path.string());
  const json doc = json::parse(test::read_text(path));
  const std::string checks_option = doc["provenance"]["options"]["checks"].get<std::string>();
  ck_assert_str_eq(checks_option.c_str(), "algorithms");
  ck_assert_msg(table.checks_source.find("tuned's forced parameters") != std::string::npos, "%s",
                table.checks_source.c_str());
  std::set<std::string> bcast_algorithms;
  for (const CheckResidual &r : table.checks) {
    if (r.algorithm == "default") continue;
    const std::optional<Op> op = find_collective(r.op);
    const AlgorithmSpec *spec = op ? find_algorithm(*op, r.algorithm) : nullptr;
    ck_assert_msg(spec, "%s %s", r.op.c_str(), r.algorithm.c_str());
    const Candidate forced = forced_candidate(*op, spec->id);
    ck_assert_msg(r.segsize == 0 && r.fanout == forced.fanout, "%s %s segsize %u fanout %d", r.op.c_str(),
                  r.algorithm.c_str(), r.segsize, r.fanout);
    if (r.op == "bcast") bcast_algorithms.insert(r.algorithm);
  }
  // At 2 ranks bcast's algorithms but the chains (fan-out 4 needs more ranks) and what the default
  // runs itself.
  ck_assert_msg(bcast_algorithms.size() >= 4, "%zu bcast algorithms checked\n%s", bcast_algorithms.size(),
                output.c_str());
}
END_TEST

// Where tuned cannot force algorithms, the run says so once and writes a table without checks
// (its margin is then the held-out point-to-point error), with the reason in its provenance.
START_TEST(calibrator_without_forcing_writes_no_checks) {
  test::Scratch scratch("modeltuned-calibrate");
  std::string output;
  const fs::path path = calibrate(scratch.dir, 2, {"--budget", "60", "--max-bytes", "1KiB", "--reps", "2"}, {}, &output,
                                  {{"coll_tuned_use_dynamic_rules", "0"}});
  const CalibrationTable table = load_calibration(path.string());
  ck_assert(table.checks.empty());
  const json doc = json::parse(test::read_text(path));
  ck_assert_msg(
      doc["provenance"]["checks"].value("not_measured", "").find("coll_tuned_use_dynamic_rules") != std::string::npos,
      "%s", doc["provenance"].dump().substr(0, 400).c_str());
  int said = 0;
  for (const std::string &line : test::split_lines(output))
    said += line.find("no checks measured") != std::string::npos;
  ck_assert_msg(said == 1, "%d lines about the checks in:\n%s", said, output.c_str());
}
END_TEST

int main() {
  Suite *suite = suite_create("calibration");
  TCase *table = tcase_create("table");
  tcase_add_test(table, round_trip);
  tcase_add_test(table, checks_round_trip_and_refuse_bad_entries);
  tcase_add_test(table, unusable_candidates_round_trip_and_refuse_bad_entries);
  tcase_add_test(table, paired_checks_round_trip_and_refuse_bad_entries);
  tcase_add_test(table, check_ranks_round_trip_and_refuse_bad_entries);
  tcase_add_test(table, allreduce_checks_need_version_5);
  tcase_add_test(table, barrier_checks_need_version_7);
  tcase_add_test(table, fresh_threshold_needs_version_6);
  tcase_add_test(table, checksum_follows_every_value);
  tcase_add_test(table, malformed_inputs_are_rejected);
  tcase_add_test(table, missing_file_names_path_and_reason);
  tcase_add_test(table, only_regular_files_of_bounded_size_are_read);
  suite_add_tcase(suite, table);
  TCase *fit = tcase_create("fit");
  tcase_add_test(fit, fit_recovers_synthetic_breakpoint);
  tcase_add_test(fit, fit_rejects_bad_samples);
  tcase_add_test(fit, fit_fresh_step_finds_where_blocks_come_back_cold);
  tcase_add_test(fit, fit_never_gives_up_on_noise);
  tcase_add_test(fit, fit_flat_curve_is_monotone_and_used_in_range);
  tcase_add_test(fit, fit_single_peer_channel_is_an_extrapolated_bound);
  tcase_add_test(fit, fit_contention_curves_like_fanout);
  tcase_add_test(fit, fit_relay_from_ring_and_hops);
  tcase_add_test(fit, fit_recovers_piecewise_model_under_heavy_tailed_noise);
  tcase_add_test(fit, samples_csv_round_trip_and_errors);
  tcase_add_test(fit, csv_errors_name_file_line_and_column);
  tcase_add_test(fit, merge_takes_each_channel_from_its_largest_measurement);
  suite_add_tcase(suite, fit);
  TCase *shipped = tcase_create("shipped");
  tcase_add_test(shipped, shipped_table_reproduces_orfeo_1B_latency);
  suite_add_tcase(suite, shipped);
  TCase *calibrate_run = tcase_create("calibrate");
  tcase_set_timeout(calibrate_run, 400);
  tcase_add_test(calibrate_run, calibrate_measures_contention_and_refits);
  tcase_add_test(calibrate_run, fresh_memory_follows_the_allocator);
  tcase_add_test(calibrate_run, calibrator_notes_say_what_to_do);
  tcase_add_test(calibrate_run, calibrator_measures_checks);
  tcase_add_test(calibrate_run, calibrator_checks_algorithms_with_tuned_parameters);
  tcase_add_test(calibrate_run, calibrator_without_forcing_writes_no_checks);
  suite_add_tcase(suite, calibrate_run);
  return modeltuned_run_suite(suite, CK_NORMAL);
}

// `modeltuned export-rules` (tools/lib/rules.hpp) without MPI: the classic file, read back as tuned
// reads it (coll_tuned_dynamic_file.c, coll_tuned_dynamic_rules.c), and the JSON file, read as
// Open MPI 6.0 does (first match), give every communicator size and size class the decision the
// selector makes for the job's first ranks, or Open MPI's default where a rule cannot say it.
// tests/mpi/check_mpi.cpp (rules_file) runs a file under tuned itself.
#include <climits>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/calibration/table.hpp"
#include "model/collectives/family.hpp"
#include "model/select/selector.hpp"
#include "tools/lib/emulate.hpp"
#include "tools/lib/rules.hpp"

// Last: check.h defines a `fail` macro that breaks the standard streams.
#include "tests/support/run_suite.h"

using namespace modeltuned;
using namespace modeltuned::tools;

namespace {

// The shipped ORFEO table without its checks: the held-out margin decides at every size, so many
// sizes leave the default.
CalibrationTable unchecked_orfeo() {
  std::ifstream in(MODELTUNED_SRCDIR "/calib/tables/orfeo-epyc.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j.erase("checks");
  const std::string path = "check_rules-orfeo-unchecked.json";
  std::ofstream(path) << j.dump();
  CalibrationTable table = load_calibration(path);
  std::remove(path.c_str());
  return table;
}

struct Rule {
  long bytes, algorithm, fanout, segsize, max_requests;
};
using ClassicRules = std::map<long, std::map<long, std::vector<Rule>>>;  // collective id -> comm size -> rules

// Tuned's reader: numbers (decimal only: %li would read 010 as octal), # to the end of the line.
ClassicRules read_classic(const std::string &text, int version) {
  std::istringstream in(text);
  std::string line, numbers;
  bool first = true;
  while (std::getline(in, line)) {
    if (first && version >= 2) {
      const std::string version_line = "rule-file-version-" + std::to_string(version);
      ck_assert_str_eq(line.c_str(), version_line.c_str());
      first = false;
      continue;
    }
    first = false;
    numbers += line.substr(0, line.find('#')) + " ";
  }
  std::istringstream tokens(numbers);
  auto next = [&] {
    std::string t;
    ck_assert_msg(static_cast<bool>(tokens >> t), "the file ends early");
    ck_assert_msg(t.find_first_not_of("0123456789") == std::string::npos && (t == "0" || t[0] != '0'),
                  "'%s' is not a plain decimal number", t.c_str());
    return std::stol(t);
  };
  ClassicRules rules;
  for (long collectives = next(); collectives > 0; --collectives) {
    const long id = next();
    long previous_comm = 0;
    for (long comms = next(); comms > 0; --comms) {
      const long comm = next();
      ck_assert_int_gt(comm, previous_comm);
      previous_comm = comm;
      std::vector<Rule> &list = rules[id][comm];
      for (long n = next(); n > 0; --n) {
        Rule r{next(), next(), next(), next(), version >= 2 ? next() : 0};
        ck_assert_msg(list.empty() ? r.bytes == 0 : r.bytes > list.back().bytes, "message sizes out of order");
        list.push_back(r);
      }
    }
  }
  std::string rest;
  ck_assert_msg(!(tokens >> rest), "numbers after the last rule: %s", rest.c_str());
  return rules;
}

// Tuned's lookup: the largest communicator size <= the communicator's (else the first), then the
// largest message size <= the call's; algorithm 0 when the collective has no rules.
Rule lookup(const ClassicRules &rules, long id, long ranks, long bytes) {
  const auto of = rules.find(id);
  if (of == rules.end()) return {0, 0, 0, 0, 0};
  auto comm = of->second.upper_bound(ranks);
  if (comm != of->second.begin()) --comm;
  Rule best = comm->second.front();
  for (const Rule &r : comm->second)
    if (r.bytes <= bytes) best = r;
  return best;
}

// Open MPI 6.0's: the first communicator rule whose range holds the size, the first message rule
// whose range holds the message; algorithm 0 otherwise.
Rule lookup_json(const nlohmann::json &file, const std::string &op, long ranks, long bytes) {
  const auto bound = [](const nlohmann::json &v) { return v.is_string() ? LONG_MAX : v.get<long>(); };
  if (!file["collectives"].contains(op)) return {0, 0, 0, 0, 0};
  for (const nlohmann::json &comm : file["collectives"][op]) {
    if (ranks < comm["comm_size_min"].get<long>() || ranks > bound(comm["comm_size_max"])) continue;
    for (const nlohmann::json &r : comm["rules"])
      if (bytes >= r["msg_size_min"].get<long>() && bytes <= bound(r["msg_size_max"]))
        return {bytes, r["alg"], r["faninout"], r["seg_size"], r["reqs"]};
    return {0, 0, 0, 0, 0};
  }
  return {0, 0, 0, 0, 0};
}

int tuned_id(Op op) {
  return op == Op::allgather   ? 0
         : op == Op::allreduce ? 2
         : op == Op::alltoall  ? 3
         : op == Op::barrier   ? 6
         : op == Op::bcast     ? 7
                               : 11;
}

// What a rule must run for this decision: the pick, or the default (0) where tuned would run the
// algorithm with another fan-out than the pick's, or where it is not order-preserving and the
// rules must also serve non-commutative reductions.
Rule expected(const std::optional<Decision> &d, Op op, bool commutative_only) {
  if (!d || d->kept_default) return {0, 0, 0, 0, 0};
  const AlgorithmSpec *spec = find_algorithm(op, d->pick.algorithm);
  const int rule_fanout = spec->parameters.tuned_rule_fanout;
  if (rule_fanout != 0 && d->pick.fanout != rule_fanout) return {0, 0, 0, 0, 0};
  if ((op == Op::reduce || op == Op::allreduce) && !commutative_only && !spec->order_preserving) return {0, 0, 0, 0, 0};
  return {0, d->pick.algorithm, d->pick.fanout, d->pick.segsize, 0};
}

struct Counts {
  int compared = 0, picks = 0, not_order_preserving = 0;
};

// Every communicator size from 1 to one past the job, every size class up to 64 KiB and a bit beyond,
// every collective: the file says what the selector decided for the first ranks.
Counts expect_rules_hold(OmpiVersion ompi, bool commutative_only) {
  const CalibrationTable table = unchecked_orfeo();
  const Placement job = emulate_placement(orfeo_epyc(1), 12, MapBy::core);
  RuleOptions o;
  for (const CollectiveFamily *f : collective_families()) o.ops.push_back(f->op);
  o.max_bytes = 65536;
  o.ompi = ompi;
  o.commutative_only = commutative_only;
  const RuleSet set = export_rules(table, job, o);
  const int version = ompi == OmpiVersion::v4_1 ? 1 : 2;
  const ClassicRules classic = read_classic(format_classic(set, version, rules_caveats(set)), version);
  const nlohmann::json json = nlohmann::json::parse(format_json(set, rules_caveats(set)));
  ck_assert_int_eq(json["rule_file_version"].get<int>(), 3);
  const std::string module = json["module"].get<std::string>();
  ck_assert_str_eq(module.c_str(), "tuned");
  Counts counts;
  for (int ranks = 1; ranks <= job.size() + 1; ++ranks) {
    const bool decided = ranks >= 2 && ranks <= job.size();
    Selector selector(table, Placement({job.ranks().begin(), job.ranks().begin() + std::min(ranks, job.size())}),
                      allowed_everywhere(), nullptr, ompi);
    for (Op op : o.ops) {
      const bool reduction = op == Op::reduce || op == Op::allreduce;
      const size_t type_size = reduction ? o.type_size : 1,
                   scale = op == Op::allgather || op == Op::alltoall ? ranks : 1;
      const bool moves = collective_family(op).moves_data;
      for (size_t bytes = moves ? 1 : 0; bytes <= (moves ? size_t{1} << 18 : 0); bytes = bytes ? 2 * bytes : 1) {
        if (bytes != 0 && bytes < type_size) continue;
        Rule want{0, 0, 0, 0, 0};
        if (decided && bytes <= 2 * o.max_bytes - 1)
          want = expected(selector.decide({op, bytes / type_size, type_size, 0, true}), op, commutative_only);
        // The class's smallest and largest sizes, as tuned counts them.
        const long tuned_bytes = static_cast<long>(bytes * scale);
        const long class_end = static_cast<long>((bytes ? 2 * bytes - 1 : 0) * scale);
        for (const Rule &got :
             {lookup(classic, tuned_id(op), ranks, tuned_bytes), lookup(classic, tuned_id(op), ranks, class_end),
              lookup_json(json, std::string(op_name(op)), ranks, tuned_bytes)})
          ck_assert_msg(got.algorithm == want.algorithm && got.fanout == want.fanout && got.segsize == want.segsize &&
                            got.max_requests == 0,
                        "%s on %d ranks, %zu B: the rules say %ld (fan-out %ld, segsize %ld), the selector %ld "
                        "(fan-out %ld, segsize %ld)",
                        std::string(op_name(op)).c_str(), ranks, bytes, got.algorithm, got.fanout, got.segsize,
                        want.algorithm, want.fanout, want.segsize);
        ++counts.compared;
        counts.picks += want.algorithm != 0;
        if (reduction && want.algorithm != 0 && !find_algorithm(op, want.algorithm)->order_preserving)
          ++counts.not_order_preserving;
      }
    }
  }
  return counts;
}

START_TEST(classic_and_json_files_hold_the_decisions) {
  for (OmpiVersion ompi : {OmpiVersion::v4_1, OmpiVersion::v5_0}) {
    const Counts counts = expect_rules_hold(ompi, false);
    ck_assert_int_gt(counts.compared, 11 * 60);
    ck_assert_int_gt(counts.picks, 100);  // the file is not all defaults
    ck_assert_int_eq(counts.not_order_preserving, 0);
  }
}
END_TEST

// --commutative-only writes the reductions' picks that are not order-preserving too.
START_TEST(commutative_only_writes_every_pick) {
  const Counts counts = expect_rules_hold(OmpiVersion::v4_1, true);
  ck_assert_int_gt(counts.not_order_preserving, 0);
}
END_TEST

// The header names what a rule cannot carry, and each decision it left out with the reason.
START_TEST(header_says_what_rules_cannot_carry) {
  const CalibrationTable table = unchecked_orfeo();
  RuleOptions o;
  o.ops = {Op::bcast, Op::reduce};
  o.max_bytes = 1 << 20;
  const RuleSet set = export_rules(table, emulate_placement(orfeo_epyc(1), 16, MapBy::core), o);
  std::string header;
  for (const std::string &line : rules_caveats(set)) header += line + "\n";
  for (const char *says : {"placement", "root", "guard", "non-commutative", "size classes"})
    ck_assert_msg(header.find(says) != std::string::npos, "the header does not mention %s:\n%s", says, header.c_str());
  ck_assert_msg(header.find("not order-preserving") != std::string::npos, "%s", header.c_str());
  const std::string text = format_classic(set, 1, rules_caveats(set));
  ck_assert_msg(text.rfind("# ", 0) == 0, "a version 1 file starts with its comment, not a version line");
}
END_TEST

}  // namespace

int main() {
  Suite *s = suite_create("rules");
  TCase *tc = tcase_create("rules");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, classic_and_json_files_hold_the_decisions);
  tcase_add_test(tc, commutative_only_writes_every_pick);
  tcase_add_test(tc, header_says_what_rules_cannot_carry);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}

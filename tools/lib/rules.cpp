#include "tools/lib/rules.hpp"

#include <algorithm>
#include <bit>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/collectives/family.hpp"
#include "model/select/ompi_fixed.hpp"
#include "model/select/selector.hpp"

namespace modeltuned::tools {
namespace {

// tuned's collective numbers (COLLTYPE_T in coll_base_functions.h), the same in 4.1 and 5.0.
int tuned_collective_id(Op op) {
  switch (op) {
    case Op::allgather:
      return 0;
    case Op::allreduce:
      return 2;
    case Op::alltoall:
      return 3;
    case Op::barrier:
      return 6;
    case Op::bcast:
      return 7;
    case Op::reduce:
      return 11;
  }
  return -1;
}

bool is_reduction(Op op) { return op == Op::reduce || op == Op::allreduce; }

// The largest message (bytes, one rank's block for allgather, one peer's for alltoall) the table's checks measured for
// `op`; kUncheckedMaxBytes when it has none of it.
size_t checked_max_bytes(const CalibrationTable &table, Op op) {
  double largest = 0;
  for (const CheckResidual &c : table.checks)
    if (c.op == op_name(op)) largest = std::max(largest, c.below_bytes - 1);
  return largest >= 1 ? static_cast<size_t>(largest) : kUncheckedMaxBytes;
}

// How the first `ranks` ranks spread over nodes, as the JSON format's comm_rank_distribution says it.
std::string distribution_of(const Placement &p) {
  std::vector<int32_t> nodes;
  for (const RankPlace &r : p.ranks()) nodes.push_back(r.node);
  std::sort(nodes.begin(), nodes.end());
  const bool one_node = nodes.front() == nodes.back() && nodes.front() >= 0;
  const bool all_apart = std::adjacent_find(nodes.begin(), nodes.end()) == nodes.end() && nodes.front() >= 0;
  return one_node ? "single-node" : all_apart ? "one-per-node" : "any";
}

// One size class's rule: the pick where a rule can say it, else Open MPI's default (and why not).
struct ClassDecision {
  MessageRule rule;
  std::string omitted_pick, why;
};

ClassDecision expressed(const Candidate &pick, Op op, const RuleOptions &o) {
  const AlgorithmSpec *spec = find_algorithm(op, pick.algorithm);
  if (spec && !spec->component.empty())
    return {{},
            std::string(spec->name),
            fmt::format("coll/{} runs it, and tuned's rules name tuned's algorithms only", spec->component)};
  const int rule_fanout = spec ? spec->parameters.tuned_rule_fanout : 0;
  if (rule_fanout != 0 && pick.fanout != rule_fanout)
    return {{},
            describe(pick),
            fmt::format("under a rule tuned runs {} with its {} parameter's default, {}", spec->name,
                        spec->parameters.fanout_name, rule_fanout)};
  if (is_reduction(op) && !o.commutative_only && spec && !spec->order_preserving)
    return {{},
            std::string(spec->name),
            "not order-preserving, and tuned applies its rules to non-commutative operations too "
            "(--commutative-only writes them)"};
  return {{0, pick.algorithm, pick.fanout, pick.segsize}, "", ""};
}

// The rules of one collective on the communicator of `selector`'s placement (its first ranks).
std::vector<MessageRule> communicator_rules(Selector &selector, CollectiveRules &c, const RuleOptions &o) {
  const Op op = c.op;
  const int ranks = selector.placement().size();
  const CollectiveFamily &family = collective_family(op);
  std::vector<MessageRule> rules{MessageRule{}};
  const bool rooted = family.rooted && family.moves_data;
  // tuned counts every block of an allgather, and every block a rank sends in an alltoall
  const size_t scale = op == Op::allgather || op == Op::alltoall ? static_cast<size_t>(ranks) : 1;
  const size_t type_size = is_reduction(op) ? o.type_size : 1;
  const int classes = family.moves_data ? std::bit_width(c.max_bytes) : 1;
  std::vector<size_t> sizes;  // each class's smallest: what the component decides at
  for (int k = family.moves_data ? 1 : 0; k <= (family.moves_data ? classes : 0); ++k)
    if (const size_t bytes = k == 0 ? 0 : size_t{1} << (k - 1); k == 0 || bytes >= type_size) sizes.push_back(bytes);
  c.decided_classes += static_cast<int>(sizes.size());
  // No check covers this communicator: the component leaves the op to Open MPI.
  if (!selector.may_leave_default(op) || (rooted && o.root >= ranks)) return rules;
  if (selector.han_default(op)) {
    c.omitted.push_back({ranks, 0, "han's hierarchical algorithm", "Open MPI 5.0's han runs it, not tuned"});
    return rules;
  }
  for (const size_t bytes : sizes) {
    CallShape call{op, bytes / type_size, type_size, rooted ? o.root : 0, true};
    const std::optional<Decision> d = selector.decide(call);
    ClassDecision decided = d && !d->kept_default ? expressed(d->pick, op, o) : ClassDecision{};
    MessageRule &rule = decided.rule;
    rule.from_bytes = bytes * scale;
    c.picked_classes += rule.algorithm != 0;
    if (!decided.why.empty()) c.omitted.push_back({ranks, 1, decided.omitted_pick, decided.why});
    const MessageRule &last = rules.back();
    if (rule.from_bytes == 0)
      rules.front() = rule;
    else if (last.algorithm != rule.algorithm || last.fanout != rule.fanout || last.segsize != rule.segsize)
      rules.push_back(rule);  // a class that runs what the one below runs extends its rule
  }
  if (family.moves_data && rules.back().algorithm != 0)
    rules.push_back({(size_t{1} << classes) * scale, 0, 0, 0});  // beyond the sizes decided
  return rules;
}

// One line per reason a decision was left out: which picks, on how many size classes, on which sizes.
std::vector<std::string> omission_summary(const std::vector<Omission> &omitted) {
  std::vector<std::string> reasons, lines;
  for (const Omission &o : omitted)
    if (std::find(reasons.begin(), reasons.end(), o.why) == reasons.end()) reasons.push_back(o.why);
  for (const std::string &why : reasons) {
    std::vector<std::string> picks;
    int classes = 0, fewest = 0, most = 0;
    for (const Omission &o : omitted) {
      if (o.why != why) continue;
      if (std::find(picks.begin(), picks.end(), o.pick) == picks.end()) picks.push_back(o.pick);
      classes += o.classes;
      fewest = fewest == 0 ? o.ranks : std::min(fewest, o.ranks);
      most = std::max(most, o.ranks);
    }
    std::string names;
    for (const std::string &p : picks) names += (names.empty() ? "" : ", ") + p;
    const std::string where = classes > 0 ? fmt::format("{} size classes on {}-{} ranks", classes, fewest, most)
                                          : fmt::format("on {}-{} ranks", fewest, most);
    lines.push_back(fmt::format("Open MPI's default kept instead of {} ({}): {}", names, where, why));
  }
  return lines;
}

}  // namespace

bool CollectiveRules::any_pick() const {
  for (const CommunicatorRules &c : communicators)
    for (const MessageRule &r : c.rules)
      if (r.algorithm != 0) return true;
  return false;
}

RuleSet export_rules(const CalibrationTable &table, const Placement &placement, const RuleOptions &options) {
  RuleSet set{placement.size(), options, {}};
  for (Op op : options.ops)
    set.collectives.push_back(
        {op, tuned_collective_id(op), options.max_bytes ? options.max_bytes : checked_max_bytes(table, op), {}, {}});
  for (int ranks = 1; ranks <= placement.size() + 1; ++ranks) {
    const bool decided = ranks >= 2 && ranks <= placement.size();
    const std::vector<RankPlace> first(placement.ranks().begin(),
                                       placement.ranks().begin() + std::min(ranks, placement.size()));
    Selector selector(table, Placement(first), allowed_everywhere(), nullptr, options.ompi);
    const bool han = decided && !fallback_runs_tuned_rule(options.ompi, selector.placement(), options.han_enabled);
    for (const CollectiveFamily *family : collective_families())
      selector.set_han_default(family->op, han && family->han);
    const std::string distribution = decided ? distribution_of(selector.placement()) : "any";
    for (CollectiveRules &c : set.collectives) {
      std::vector<MessageRule> rules = decided ? communicator_rules(selector, c, options) : std::vector{MessageRule{}};
      if (c.communicators.empty() || c.communicators.back().rules != rules ||
          c.communicators.back().distribution != distribution)
        c.communicators.push_back({ranks, distribution, std::move(rules)});
    }
  }
  return set;
}

std::vector<std::string> rules_caveats(const RuleSet &rules) {
  const RuleOptions &o = rules.options;
  std::vector<std::string> lines = {
      "What tuned's rules cannot say, and modeltuned does:",
      "- placement: tuned applies the rules of a communicator size to every communicator of that size,",
      "  wherever its ranks sit; these are modeltuned's decisions for the first ranks of this job.",
      fmt::format("- root: tuned applies them at every root; bcast and reduce were decided at root {}.", o.root),
      "- the checks' reach: the table's checks vouch for a pick on the communicator shapes they measured;",
      "  tuned applies the rule to every communicator of the size.",
      "- the guard: modeltuned compares a pick with Open MPI's default during the run and takes it back",
      "  where it runs slower (coll_modeltuned_guard); a rule runs its algorithm on every call.",
      "- size classes: modeltuned decides once per power-of-two class of sizes at its first call;",
      "  these rules are decided at each class's smallest size.",
      fmt::format("- datatypes: reduce and allreduce were decided for {}-byte elements.", o.type_size),
      o.commutative_only ? "- non-commutative operations: tuned applies these rules to them too, and some reduce or "
                           "allreduce rules are not order-preserving (written with --commutative-only)."
                         : "- non-commutative operations: tuned applies these rules to them too, so reduce and "
                           "allreduce rules name order-preserving algorithms only.",
  };
  for (const CollectiveRules &c : rules.collectives) {
    const size_t beyond = (size_t{1} << std::bit_width(c.max_bytes));
    const std::string sizes = collective_family(c.op).moves_data ? fmt::format("size classes up to {} B{}", beyond - 1,
                                                                               c.op == Op::allgather  ? " per rank"
                                                                               : c.op == Op::alltoall ? " per peer"
                                                                                                      : "")
                                                                 : "communicator sizes";
    lines.push_back(
        fmt::format("{}: {} of {} {} on 2-{} ranks leave Open MPI's default; elsewhere its fixed rule "
                    "decides.",
                    op_name(c.op), c.picked_classes, c.decided_classes, sizes, rules.job_ranks));
    for (const std::string &line : omission_summary(c.omitted)) lines.push_back("  " + line);
  }
  return lines;
}

std::string format_classic(const RuleSet &rules, int version, const std::vector<std::string> &header) {
  std::string out = version >= 2 ? fmt::format("rule-file-version-{}\n", version) : "";
  for (const std::string &line : header) out += line.empty() ? "#\n" : "# " + line + "\n";
  std::vector<const CollectiveRules *> written;
  for (const CollectiveRules &c : rules.collectives)
    if (c.any_pick()) written.push_back(&c);
  out += fmt::format("{} # collectives\n", written.size());
  for (const CollectiveRules *c : written) {
    out += fmt::format("{} # {}\n{} # communicator sizes\n", c->tuned_id, op_name(c->op), c->communicators.size());
    for (const CommunicatorRules &comm : c->communicators) {
      out += fmt::format("{} # communicator size\n{} # message sizes: bytes, algorithm, fan-in/out, segment size{}\n",
                         comm.from_ranks, comm.rules.size(), version >= 2 ? ", max requests" : "");
      for (const MessageRule &r : comm.rules)
        out += fmt::format("{} {} {} {}{}\n", r.from_bytes, r.algorithm, r.fanout, r.segsize, version >= 2 ? " 0" : "");
    }
  }
  return out;
}

std::string format_json(const RuleSet &rules, const std::vector<std::string> &header) {
  nlohmann::ordered_json collectives = nlohmann::ordered_json::object();
  for (const CollectiveRules &c : rules.collectives) {
    nlohmann::ordered_json comms = nlohmann::ordered_json::array();
    for (size_t i = 0; i < c.communicators.size(); ++i) {
      const CommunicatorRules &comm = c.communicators[i];
      nlohmann::ordered_json picks = nlohmann::ordered_json::array();
      for (size_t j = 0; j < comm.rules.size(); ++j) {
        const MessageRule &r = comm.rules[j];
        if (r.algorithm == 0) continue;
        nlohmann::ordered_json rule = {{"msg_size_min", r.from_bytes}};
        rule["msg_size_max"] = j + 1 < comm.rules.size() ? nlohmann::ordered_json(comm.rules[j + 1].from_bytes - 1)
                                                         : nlohmann::ordered_json("inf");
        rule["alg"] = r.algorithm;
        rule["faninout"] = r.fanout;
        rule["seg_size"] = r.segsize;
        rule["reqs"] = 0;
        picks.push_back(rule);
      }
      if (picks.empty()) continue;
      nlohmann::ordered_json entry = {{"comm_size_min", comm.from_ranks}};
      entry["comm_size_max"] = i + 1 < c.communicators.size()
                                   ? nlohmann::ordered_json(c.communicators[i + 1].from_ranks - 1)
                                   : nlohmann::ordered_json("inf");
      if (comm.distribution != "any") entry["comm_rank_distribution"] = comm.distribution;
      entry["rules"] = picks;
      comms.push_back(entry);
    }
    if (!comms.empty()) collectives[std::string(op_name(c.op))] = comms;
  }
  nlohmann::ordered_json file = {{"$comment", header}, {"rule_file_version", 3}, {"module", "tuned"}};
  file["collectives"] = collectives;
  return file.dump(2) + "\n";
}

}  // namespace modeltuned::tools

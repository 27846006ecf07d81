// `modeltuned export-rules`: modeltuned's decisions as tuned's own rules file
// (coll_tuned_dynamic_rules_filename), for sites that cannot load a third-party component. The
// rules for a communicator of m ranks are the decisions for the job's first m ranks, one per
// power-of-two size class (decided at the class's smallest size, as the component decides at a
// class's first call), up to the largest size the table's checks measured.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/calibration/table.hpp"
#include "model/registry/registry.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned::tools {

struct RuleOptions {
  std::vector<Op> ops;            // the collectives to write rules for
  size_t type_size = 8;           // the reductions' element (MPI_DOUBLE); bcast, allgather and alltoall decide on bytes
  int root = 0;                   // of bcast and reduce
  bool commutative_only = false;  // the application reduces with commutative operations only
  size_t max_bytes = 0;           // the largest size decided; 0: the largest the table's checks measured
  OmpiVersion ompi = OmpiVersion::v4_1;
  bool han_enabled = true;  // as explain --without-han
};

// Without checks, the sizes decided reach this far (0: RuleOptions::max_bytes decides).
inline constexpr size_t kUncheckedMaxBytes = size_t{8} << 20;

// A message rule as tuned reads it: from `from_bytes` (tuned's message size) up to the next rule's.
// algorithm 0: Open MPI's fixed rule decides (modeltuned keeps its default there).
struct MessageRule {
  size_t from_bytes = 0;
  int algorithm = 0;
  int fanout = 0;
  uint32_t segsize = 0;
  bool operator==(const MessageRule &) const = default;
};

// Rules for communicators of `from_ranks` ranks up to the next entry's, first rule at 0 bytes.
struct CommunicatorRules {
  int from_ranks = 1;
  std::string distribution;  // the JSON format's comm_rank_distribution: single-node, one-per-node or any
  std::vector<MessageRule> rules;
};

// A decision no rule can express: the rule keeps Open MPI's default there, and the header says so.
struct Omission {
  int ranks = 0;
  int classes = 0;  // size classes (0: the whole communicator)
  std::string pick, why;
};

struct CollectiveRules {
  Op op = Op::bcast;
  int tuned_id = 0;  // tuned's collective number (coll_base_functions.h COLLTYPE_T)
  size_t max_bytes = 0;
  std::vector<CommunicatorRules> communicators;  // by from_ranks; the last one holds defaults only
  std::vector<Omission> omitted;
  int decided_classes = 0, picked_classes = 0;  // size classes (x communicator sizes) decided, and leaving the default
  bool any_pick() const;                        // false: every size keeps Open MPI's default (no rules to write)
};

struct RuleSet {
  int job_ranks = 0;
  RuleOptions options;
  std::vector<CollectiveRules> collectives;
};

RuleSet export_rules(const CalibrationTable &table, const Placement &placement, const RuleOptions &options);

// The classic format: version 1 (Open MPI 4.1: no version line, no max_requests) or 2 (5.0.7 on:
// rule-file-version-2 first, max_requests 0 on every rule); `header` lines become # comments.
std::string format_classic(const RuleSet &rules, int version, const std::vector<std::string> &header);
// Open MPI 6.0's JSON rules (rule_file_version 3): only the sizes that leave the default, first match;
// the header goes into a "$comment" array, which tuned does not read.
std::string format_json(const RuleSet &rules, const std::vector<std::string> &header);

// What the rules cannot express, and what was left out: the lines every format's header carries.
std::vector<std::string> rules_caveats(const RuleSet &rules);

}  // namespace modeltuned::tools

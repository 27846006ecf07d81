// The algorithm registry: one AlgorithmSpec per algorithm modeltuned can choose, with all it
// knows about it: its names (its own and tuned's), its parameters and the values searched, how
// Open MPI calls it, when Open MPI silently runs another algorithm instead, and how the model
// predicts it. The selector, the fixed-rule emulation, the tools and the C API's listing (from
// which the component builds its dispatch table and parameter help) all read it.
// Its first entries are the collectives' own (collectives/<name>/<name>.cpp, in the order of
// collectives/family.hpp). Adding an algorithm: its spec there (and for a new kind of plan, its
// type in collectives/plan.hpp), and a test.
#pragma once
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "model/collectives/list.h"
#include "model/collectives/plan.hpp"
#include "model/schedule/ompi_version.hpp"

namespace modeltuned {

// How Open MPI's ompi_coll_base_* function of an algorithm is called after the common arguments:
// the list in collectives/list.h, which says what each takes. Values are the C API's MT_CALL_*
// (capi/modeltuned_model.h), numbered in the list's order.
#define MT_CALLING_CONVENTION_ENUMERATOR(name, NAME) name,
enum class CallingConvention : int { MT_CALLING_CONVENTIONS(MT_CALLING_CONVENTION_ENUMERATOR) };
#undef MT_CALLING_CONVENTION_ENUMERATOR

// An algorithm that runs other collectives of the communicator (whatever decides them there:
// modeltuned's own decisions when it is loaded) instead of a plan of its own.
enum class Composition {
  none,
  reduce_then_bcast,  // its reduce to rank 0, then its bcast (allreduce nonoverlapping): no plan
  gather_then_bcast,  // its gather to rank 0 (the plan's), then its bcast of the whole (allgather linear)
  // its allgather of every rank's message, then P - 1 local reductions on every rank (6.0's
  // allreduce allgather_reduce): no plan
  allgather_then_reduce,
};

// The parameters an algorithm takes, and the values the selector searches.
struct Parameters {
  bool segmented = false;        // takes a segment size (searched: select/selector.hpp)
  std::string_view fanout_name;  // "fanout" or "radix"; empty: takes none
  std::span<const int> fanouts;  // searched: the first always, the others when below the ranks
  // What tuned passes when it runs the algorithm: by its fixed rules (coll_tuned_decision_fixed.c
  // passes 0; k-nomial takes its radix parameter), and forced by coll_tuned_<op>_algorithm (the
  // defaults of its chain fan-out and k-nomial radix parameters).
  int tuned_fixed_fanout = 0;
  int tuned_forced_fanout = 0;
  // What tuned passes under a rules file (coll_tuned_dynamic_rules_filename): the rule's fan-in/out,
  // or, where this is not 0, this value instead (k-nomial's radix parameter's default), so a rule
  // expresses only that fan-out.
  int tuned_rule_fanout = 0;
};

// The size-independent part of the prediction for a placement, fan-out and root.
using PlanBuilder = Plan (*)(const Placement &placement, int fanout, int root);
// Predicted latency (us) of a call that Open MPI runs with this very algorithm.
using Evaluator = double (*)(const Evaluation &e, const Plan &plan);
// What Open MPI runs instead of `c` for this call on `comm_size` ranks (the fallbacks inside
// its ompi_coll_base_* function), or nullopt when it runs `c` itself.
using RunsInstead = std::optional<Candidate> (*)(const Candidate &c, const CallShape &call, int comm_size);

struct AlgorithmSpec {
  Op op = Op::bcast;
  int id = 0;                   // tuned's number (coll_tuned_<op>_algorithm), 1..31
  std::string_view name;        // modeltuned's, in MCA parameters and tool output
  std::string_view tuned_name;  // tuned's (coll_tuned_<op>_decision.c), accepted too; may be empty
  std::string_view description;
  Parameters parameters;
  bool order_preserving = false;   // combines operands in rank order: runs non-commutative ops
  bool splits = false;             // cuts the message even unsegmented (halves, blocks per rank)
  std::string_view ompi_function;  // the ompi_coll_base_* function that runs it
  CallingConvention convention = CallingConvention::bcast;
  PlanBuilder plan = nullptr;
  Evaluator evaluate = nullptr;
  RunsInstead runs_instead = nullptr;  // nullptr: Open MPI always runs it as asked
  // Open MPI refuses it (an error, not another algorithm) on any other number of ranks; 0: runs on all.
  int runs_only_on = 0;
  // Runs the communicator's own collectives: the selector adds their decisions' predictions.
  Composition composed = Composition::none;
  // The first release that has it (older ones lack its function: never a candidate there).
  OmpiVersion since = OmpiVersion::v4_1;
  // The last release that has it: a later one replaced it under its number (6.0's allgather 2, a
  // k-radix Bruck where 4.1 and 5.0 have Bruck's). Two specs may share a number only so.
  OmpiVersion until = OmpiVersion::v6_0;
  // The collective component whose code runs it (collectives/components.cpp), when it is not one
  // of Open MPI's base algorithms that tuned runs: its number is then kFirstComponentId or above,
  // its ompi_function modeltuned's own entry that calls the component on a communicator where it
  // sits on top (docs/design.md, "Other components"). Without a plan builder it has no model:
  // measured_only.
  std::string_view component;
  // Whether that component serves the call itself on this placement (its own limits: one node,
  // element sizes it handles), instead of handing it to the component below it; nullptr: every
  // call. A call it does not serve never has it as a candidate.
  bool (*serves)(const CallShape &call, const Placement &placement) = nullptr;
  // What `serves` asks, in words, for explain ("one node; reductions of elements up to 4 KiB").
  std::string_view serves_only;
};

// Numbers of other components' algorithms start here, above any number tuned gives its own.
inline constexpr int kFirstComponentId = 20;
// Another component's algorithm that the model does not predict: the selector gives it the
// prediction of Open MPI's default for the call, so that only the table's checks, which measured
// it, can make it leave the default (margin.hpp), and under a narrowed list it ties with the
// default's prediction.
inline bool measured_only(const AlgorithmSpec &spec) { return !spec.component.empty() && !spec.plan; }

// Whether Open MPI's release line `ompi` has the algorithm.
inline bool in_release(const AlgorithmSpec &spec, OmpiVersion ompi) { return spec.since <= ompi && ompi <= spec.until; }
// The release line whose spec find_algorithm returns where two share a number: the one the
// component runs under (mt_set_ompi_version), or a tool's --ompi. 4.1 until set.
void set_registry_release(OmpiVersion ompi);
OmpiVersion registry_release();

// Every algorithm, the built-in ones first (per operation in tuned's order): the order in which
// candidates are enumerated, so ties go to the earlier. References to specs stay valid.
class AlgorithmRegistry {
 public:
  using const_iterator = std::deque<AlgorithmSpec>::const_iterator;
  const_iterator begin() const { return specs_.begin(); }
  const_iterator end() const { return specs_.end(); }
  // Checks the spec and adds it with its strings copied (NUL-terminated, for the C API). Throws
  // std::invalid_argument saying what is wrong or what it clashes with.
  const AlgorithmSpec &add(const AlgorithmSpec &spec);

 private:
  std::string_view keep(std::string_view text);
  std::deque<AlgorithmSpec> specs_;
  std::deque<std::string> text_;
};

// The registry the model, the tools and the C API read.
const AlgorithmRegistry &algorithm_registry();
// Adds an algorithm to it (tests add dummy ones). Not thread-safe: call it before building models.
const AlgorithmSpec &register_algorithm(const AlgorithmSpec &spec);

// By number or name: the spec of registry_release() where two share it.
const AlgorithmSpec *find_algorithm(Op op, int id);
// Whether `spec` is what registry_release() runs under its number: every spec but one that a spec
// of that release replaces (an algorithm of a later release stays: no other has its number, and
// the component finds no function for it). What listings show, one per number.
bool listed_for_release(const AlgorithmSpec &spec);
// What tuned runs when coll_tuned_<op>_algorithm forces `algorithm` and no other variable is set:
// unsegmented, with its forced fan-out or radix (Parameters::tuned_forced_fanout).
Candidate forced_candidate(Op op, int algorithm);
// Accepts modeltuned's name ("bintree"), tuned's ("binary_tree") or tuned's number ("5").
const AlgorithmSpec *find_algorithm(Op op, std::string_view name_or_id);
// Every algorithm of `op` for messages and help: "linear or basic_linear (1), chain (2), ...".
std::string algorithm_names(Op op);

// "chain(fanout=4,segsize=16KiB)"-style label for tools and logs.
std::string describe(const Candidate &c);
// A byte count as describe writes it: "128KiB", "4MiB", "1000B".
std::string bytes_label(uint64_t bytes);

namespace detail {
template <class F>
struct FamilyPlan;
template <class P>
struct FamilyPlan<double (*)(const Evaluation &, const P &)> {
  using type = P;
};
}  // namespace detail

// An Evaluator from a family's own, double (const Evaluation &, const FamilyPlan &).
template <auto family>
double evaluate_as(const Evaluation &e, const Plan &plan) {
  return family(e, std::get<typename detail::FamilyPlan<decltype(family)>::type>(plan));
}

}  // namespace modeltuned

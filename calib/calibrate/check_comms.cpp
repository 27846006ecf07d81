// The checks' communicators (check_comms.hpp): tuned forced per configuration with its MPI_T
// variables, another component put on top by Open MPI's component preference.
#include "calib/calibrate/check_comms.hpp"

#include <optional>

#include <fmt/format.h>

#include "common/mpi_t.hpp"
#include "model/registry/registry.hpp"

namespace modeltuned::calibrate {

using mpi_t::cvar_read_int;
using mpi_t::cvar_read_string;
using mpi_t::cvar_write;

namespace {

// The tuned variables a configuration sets at communicator creation, with their values before
// (only bcast and reduce have a chain fan-out, only bcast a k-nomial radix, barrier no segment
// size: empty names).
struct TunedVariables {
  std::string algorithm, segsize, chain_fanout, knomial_radix;
  int algorithm0 = 0, segsize0 = 0, chain_fanout0 = 0, knomial_radix0 = 4;
  explicit TunedVariables(Op op) {
    const std::string p = fmt::format("coll_tuned_{}_algorithm", op_name(op));
    algorithm = p;
    segsize = op != Op::barrier ? p + "_segmentsize" : "";
    chain_fanout = op == Op::bcast || op == Op::reduce ? p + "_chain_fanout" : "";
    knomial_radix = op == Op::bcast ? p + "_knomial_radix" : "";
    algorithm0 = cvar_read_int(algorithm.c_str()).value_or(0);
    if (!segsize.empty()) segsize0 = cvar_read_int(segsize.c_str()).value_or(0);
    if (!chain_fanout.empty()) chain_fanout0 = cvar_read_int(chain_fanout.c_str()).value_or(4);
    if (!knomial_radix.empty()) knomial_radix0 = cvar_read_int(knomial_radix.c_str()).value_or(4);
  }
};

}  // namespace

const AlgorithmSpec *spec_of(const Config &c) { return c.algorithm > 0 ? find_algorithm(c.op, c.algorithm) : nullptr; }

std::string_view component_of(const Config &c) {
  const AlgorithmSpec *spec = spec_of(c);
  return spec ? spec->component : std::string_view();
}

bool takes_radix(const Config &c) {
  const AlgorithmSpec *spec = spec_of(c);
  return spec && spec->parameters.fanout_name == "radix";
}

bool han_in_job() {
  const std::optional<int> han = cvar_read_int("coll_han_priority");
  const int tuned = cvar_read_int("coll_tuned_priority").value_or(30);
  if (!han || *han <= tuned) return false;
  const std::string list = cvar_read_string("coll").value_or("");
  if (list.empty()) return true;
  const bool excluding = list.front() == '^';
  const bool named = ("," + list.substr(excluding) + ",").find(",han,") != std::string::npos;
  return excluding ? !named : named;
}

namespace {

// A dup of `group` where Open MPI puts `component` on top, as modeltuned's private communicators
// do (mca/coll/modeltuned/coll_modeltuned_foreign.c): the code the component then runs.
std::string create_component_comm(std::string_view component, MPI_Comm group, MPI_Comm &comm) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "ompi_comm_coll_preference", fmt::format("{},^modeltuned,han", component).c_str());
  const int rc = MPI_Comm_dup_with_info(group, info, &comm);
  MPI_Info_free(&info);
  return rc == MPI_SUCCESS ? "" : "MPI_Comm_dup_with_info failed";
}

// MPI_Comm_dup of `group` with tuned forced to `c`. Where han takes the group's bcast and reduce
// (`prefer_tuned`), a forced configuration's communicator puts tuned above it (Open MPI's
// component preference, the info key han gives its own sub-communicators), so that the forced
// algorithm runs; the default's keeps what Open MPI selects. "" or why not.
std::string create_comm(const Config &c, TunedVariables &vars, MPI_Comm group, bool prefer_tuned, MPI_Comm &comm) {
  if (const std::string_view component = component_of(c); !component.empty())
    return create_component_comm(component, group, comm);
  const int algorithm = c.algorithm, segsize = static_cast<int>(c.segsize);
  const int chain_fanout = c.fanout > 0 && !takes_radix(c) ? c.fanout : vars.chain_fanout0;
  for (auto [name, value] : {std::pair{&vars.algorithm, &algorithm}, std::pair{&vars.segsize, &segsize},
                             std::pair{&vars.chain_fanout, &chain_fanout}}) {
    if (name->empty()) continue;
    std::string err = cvar_write(name->c_str(), value);
    if (!err.empty()) return err;
  }
  if (!prefer_tuned || c.algorithm == 0) return MPI_Comm_dup(group, &comm) == MPI_SUCCESS ? "" : "MPI_Comm_dup failed";
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "ompi_comm_coll_preference", "tuned");
  const int rc = MPI_Comm_dup_with_info(group, info, &comm);
  MPI_Info_free(&info);
  return rc == MPI_SUCCESS ? "" : "MPI_Comm_dup_with_info failed";
}

void restore(TunedVariables &vars) {
  (void)cvar_write(vars.algorithm.c_str(), &vars.algorithm0);
  if (!vars.segsize.empty()) (void)cvar_write(vars.segsize.c_str(), &vars.segsize0);
  if (!vars.chain_fanout.empty()) (void)cvar_write(vars.chain_fanout.c_str(), &vars.chain_fanout0);
  if (!vars.knomial_radix.empty()) (void)cvar_write(vars.knomial_radix.c_str(), &vars.knomial_radix0);
}

}  // namespace

std::string create_check_comms(const std::vector<Config> &configs, MPI_Comm group, bool han_default,
                               CheckComms &comms) {
  const int disabled = -1;
  const std::optional<int> modeltuned_priority = cvar_read_int("coll_modeltuned_priority");
  if (modeltuned_priority) (void)cvar_write("coll_modeltuned_priority", &disabled);
  std::vector<TunedVariables> vars;
  for (const CollectiveFamily *family : collective_families()) vars.emplace_back(family->op);
  comms.forced.assign(configs.size(), MPI_COMM_NULL);
  std::string problem;
  for (size_t i = 0; i < configs.size() && problem.empty(); ++i)
    problem = create_comm(configs[i], vars[op_index(configs[i].op)], group, han_default, comms.forced[i]);
  for (TunedVariables &v : vars) restore(v);
  MPI_Comm_dup(group, &comms.control);
  if (modeltuned_priority) (void)cvar_write("coll_modeltuned_priority", &*modeltuned_priority);
  comms.radix_variable = vars[0].knomial_radix;
  comms.radix0 = vars[0].knomial_radix0;
  int ok = problem.empty(), all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comms.control);
  if (all) return {};
  return problem.empty() ? "forcing an algorithm failed on another rank" : problem;
}

}  // namespace modeltuned::calibrate

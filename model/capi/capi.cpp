// C API for the component: converts, and keeps every C++ exception on this side.
#include "model/capi/capi_internal.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "model/collectives/family.hpp"
#include "model/select/decision_json.hpp"
#include "model/select/ompi_fixed.hpp"
#include "model/select/selector.hpp"

using namespace modeltuned;

// The component dispatches on mt_algorithm_info.convention and numbers collectives by MT_OP_*:
// the registry, Op and the C API derive both from collectives/list.h, in its order; these are the
// values the component is built with, which the list's order must keep.
static_assert(static_cast<int>(CallingConvention::bcast) == MT_CALL_BCAST && MT_CALL_BCAST == 0 &&
              MT_CALL_BCAST_SEGSIZE == 1 && MT_CALL_BCAST_SEGSIZE_FANOUT == 2 && MT_CALL_REDUCE == 3 &&
              MT_CALL_REDUCE_SEGSIZE_REQUESTS == 4 && MT_CALL_REDUCE_SEGSIZE_FANOUT_REQUESTS == 5 &&
              MT_CALL_REDUCE_SEGSIZE_REQUESTS_RADIX == 6 && MT_CALL_ALLREDUCE == 7 && MT_CALL_ALLREDUCE_SEGSIZE == 8 &&
              MT_CALL_BARRIER == 9 && MT_CALL_ALLGATHER == 10 && MT_CALL_ALLGATHER_IN_PLACE == 11 &&
              MT_CALL_ALLGATHER_RADIX == 12 && MT_CALL_ALLGATHER_OWN_BLOCK == 13 && MT_CALL_ALLTOALL == 14 &&
              MT_CALL_ALLTOALL_REQUESTS == 15 && MT_CALL_ALLTOALL_ONE_LAYOUT == 16 && MT_CALLS == 17);
static_assert(MT_OPS == kOpCount && MT_OP_BCAST == op_index(Op::bcast) && MT_OP_BCAST == 0 && MT_OP_REDUCE == 1 &&
              MT_OP_ALLREDUCE == 2 && MT_OP_BARRIER == 3 && MT_OP_ALLGATHER == 4 && MT_OP_ALLTOALL == 5 && MT_OPS == 6);

namespace {

// The model of every communicator of this process with the same table, placement and allowed
// algorithms: a new communicator (MPI_Comm_dup in a loop) reuses the plans and decisions of an
// earlier one instead of running the model again. Decisions are kept per exact call, not per size
// class, so a reused decision is the one this rank would compute afresh, as every other rank
// does: sharing cannot make the ranks of a communicator disagree.
struct SharedModel {
  SharedModel(const mt_table *t, Placement p, const uint32_t allowed[MT_OPS], OmpiVersion ompi, int han_ops)
      : table(t), masks(to_masks(allowed)), han_ops(han_ops), selector(t->table, std::move(p), masks, nullptr, ompi) {
    for (const CollectiveFamily *family : collective_families())
      selector.set_han_default(family->op, han_ops & (1 << op_index(family->op)));
  }
  static AllowedAlgorithms to_masks(const uint32_t allowed[MT_OPS]) {
    AllowedAlgorithms masks;
    std::copy(allowed, allowed + MT_OPS, masks.begin());
    return masks;
  }
  using CallKey = std::tuple<Op, size_t, size_t, int, bool, bool,
                             Metric>;  // op, count, type size, root, commutative, whole, objective
  const mt_table *table;
  AllowedAlgorithms masks;
  int han_ops;       // 1 << MT_OP_*: ops whose default is han's hierarchical algorithm
  std::mutex mutex;  // MPI_THREAD_MULTIPLE: communicators of several threads share it
  Selector selector;
  std::map<CallKey, std::optional<Decision>> decisions;
  // Per objective, the ops (bits 1 << MT_OP_*) no call can leave the default of, and those whose
  // every call keeps it (mt_comm_model_ops_left): once each.
  std::map<Metric, std::pair<int, int>> ops_left;
};

// Call shapes remembered per shared model (one per size, root and operation kind): a bound, so a
// program calling with ever new sizes does not grow without limit (the component keeps its own
// per-communicator cache in front of this one).
constexpr size_t kRememberedCalls = 4096;
// Models kept after their last communicator is freed, most recently used first.
constexpr size_t kKeptModels = 16;
std::mutex models_mutex;
std::list<std::shared_ptr<SharedModel>> models;
// The Open MPI line the process runs under (mt_set_ompi_version), for models created afterwards.
std::atomic<OmpiVersion> process_ompi{OmpiVersion::v4_1};

// The last communicator's inputs and the model it got: a dup, or any communicator created beside
// one of the same ranks, has the same places, and takes the same model without building its
// placement again. Compared by content, so equal inputs give the model they would give anyway.
struct LastCreated {
  std::mutex mutex;
  const mt_table *table = nullptr;
  std::vector<mt_place> places;
  std::array<uint32_t, MT_OPS> allowed{};
  int han_fallback_ops = 0;
  std::shared_ptr<SharedModel> shared;

  bool matches(const mt_table *t, int nranks, const mt_place *p, const uint32_t *a, int han) const {
    return shared && t == table && han == han_fallback_ops && places.size() == static_cast<size_t>(nranks) &&
           std::equal(allowed.begin(), allowed.end(), a) &&
           std::memcmp(places.data(), p, sizeof *p * static_cast<size_t>(nranks)) == 0;
  }
};
LastCreated last_created;

std::shared_ptr<SharedModel> shared_model(const mt_table *table, Placement placement, const uint32_t allowed[MT_OPS],
                                          int han_ops) {
  std::lock_guard<std::mutex> lock(models_mutex);
  const OmpiVersion ompi = process_ompi.load();
  for (auto it = models.begin(); it != models.end(); ++it) {
    const SharedModel &m = **it;
    if (m.table == table && std::equal(m.masks.begin(), m.masks.end(), allowed) && m.han_ops == han_ops &&
        m.selector.ompi() == ompi && m.selector.placement().ranks() == placement.ranks()) {
      models.splice(models.begin(), models, it);
      return models.front();
    }
  }
  models.push_front(std::make_shared<SharedModel>(table, std::move(placement), allowed, ompi, han_ops));
  if (models.size() > kKeptModels) models.pop_back();  // communicators still using it keep it alive
  return models.front();
}

}  // namespace

struct mt_comm_model {
  std::shared_ptr<SharedModel> shared;
};

static void set_error(char *err, size_t len, const char *msg) {
  if (err && len) std::snprintf(err, len, "%s", msg);
}

static Op to_op(int op) { return op >= 0 && op < MT_OPS ? static_cast<Op>(op) : Op::bcast; }
static Metric to_metric(int objective) {
  return objective == MT_OBJECTIVE_RANK_MEAN ? Metric::rank_mean : Metric::completion;
}

// The component holds its table for the whole job: of the provenance it keeps what it reads. The
// rest, chiefly the checks' raw measurements, would stay in the application's heap unread. The
// checksum covers the whole file: it was taken before.
static void keep_read_provenance(CalibrationTable &table) {
  nlohmann::json kept = nlohmann::json::object();
  for (const char *key : kProvenanceTheComponentReads)
    if (auto it = table.provenance.find(key); it != table.provenance.end()) kept[key] = std::move(*it);
  table.provenance = std::move(kept);
}

extern "C" {

mt_table *mt_table_load(const char *path, char *err, size_t errlen) {
  try {
    auto table = std::make_unique<mt_table>(mt_table{load_calibration(path)});
    keep_read_provenance(table->table);
    return table.release();
  } catch (const std::exception &e) {
    set_error(err, errlen, e.what());
  } catch (...) {
    set_error(err, errlen, "unexpected error while loading the calibration table");
  }
  return nullptr;
}

void mt_table_free(mt_table *table) {
  {  // kept models refer to the table; communicators using them are gone by now
    std::lock_guard<std::mutex> lock(models_mutex);
    models.remove_if([table](const std::shared_ptr<SharedModel> &m) { return m->table == table; });
  }
  {
    std::lock_guard<std::mutex> lock(last_created.mutex);
    if (last_created.table == table) last_created.shared.reset(), last_created.table = nullptr;
  }
  delete table;
}

uint64_t mt_table_checksum(const mt_table *table) { return table->table.checksum; }

int mt_parse_algorithms(int op, const char *spec, uint32_t *mask, char *err, size_t errlen) {
  try {
    *mask = parse_algorithm_list(to_op(op), spec ? spec : "");
    return 0;
  } catch (const std::exception &e) {
    set_error(err, errlen, e.what());
  }
  return -1;
}

const char *mt_algorithm_name(int op, int algorithm) {
  const AlgorithmSpec *spec = find_algorithm(to_op(op), algorithm);
  return spec ? spec->name.data() : "unknown";
}

void mt_describe(int op, int algorithm, uint32_t segsize, int32_t fanout, char *buf, size_t len) {
  try {
    std::string s = describe(Candidate{to_op(op), algorithm, segsize, fanout});
    set_error(buf, len, s.c_str());
  } catch (...) {
    set_error(buf, len, "?");
  }
}

int mt_set_ompi_version(const char *series) {
  const std::optional<OmpiVersion> v = series ? parse_ompi_version(series) : std::nullopt;
  if (!v) return -1;
  process_ompi.store(*v);
  set_registry_release(*v);
  return 0;
}

mt_comm_model *mt_comm_model_create(const mt_table *table, int nranks, const mt_place *places,
                                    const uint32_t allowed[MT_OPS], int han_fallback_ops, char *err, size_t errlen) {
  try {
    {
      std::lock_guard<std::mutex> lock(last_created.mutex);
      if (last_created.matches(table, nranks, places, allowed, han_fallback_ops) &&
          last_created.shared->selector.ompi() == process_ompi.load())
        return new mt_comm_model{last_created.shared};
    }
    std::vector<RankPlace> ranks(nranks);
    for (int r = 0; r < nranks; ++r)
      ranks[r] = RankPlace{places[r].node, places[r].package, places[r].numa, places[r].l3, places[r].core};
    Placement placement(std::move(ranks));
    const unsigned used = placement.channels_used();
    for (int c = 0; c < kChannels; ++c) {
      if ((used & (1u << c)) && !table->table.channels[c].present) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "this communicator's ranks talk through the '%s' channel, which the "
                      "calibration table does not calibrate",
                      kChannelNames[c].data());
        set_error(err, errlen, msg);
        return nullptr;
      }
    }
    const int han_default_ops = han_runs_hierarchical(placement) ? han_fallback_ops : 0;
    auto *model = new mt_comm_model{shared_model(table, std::move(placement), allowed, han_default_ops)};
    std::lock_guard<std::mutex> lock(last_created.mutex);
    last_created.table = table;
    last_created.places.assign(places, places + nranks);
    std::copy(allowed, allowed + MT_OPS, last_created.allowed.begin());
    last_created.han_fallback_ops = han_fallback_ops;
    last_created.shared = model->shared;
    return model;
  } catch (const std::exception &e) {
    set_error(err, errlen, e.what());
  }
  return nullptr;
}

void mt_comm_model_free(mt_comm_model *model) { delete model; }

int mt_comm_model_han_default_ops(const mt_comm_model *model) { return model->shared->han_ops; }

int mt_comm_model_ops_left(mt_comm_model *model, int objective, int *cannot_leave, int *keeps_default) {
  try {
    const Metric metric = to_metric(objective);
    SharedModel &shared = *model->shared;
    std::lock_guard<std::mutex> lock(shared.mutex);
    auto known = shared.ops_left.find(metric);
    if (known == shared.ops_left.end()) {
      std::pair<int, int> masks{0, 0};
      for (const CollectiveFamily *family : collective_families()) {
        const int bit = 1 << op_index(family->op);
        if (!shared.selector.may_leave_default(family->op)) masks.first |= bit;
        if (shared.selector.keeps_default_everywhere(family->op, metric)) masks.second |= bit;
      }
      known = shared.ops_left.emplace(metric, masks).first;
    }
    *cannot_leave = known->second.first;
    *keeps_default = known->second.second;
    return 0;
  } catch (...) {
    *cannot_leave = *keeps_default = 0;
    return -1;
  }
}

void mt_comm_model_channels(const mt_comm_model *model, char *buf, size_t len) {
  std::string names;
  const unsigned used = model->shared->selector.placement().channels_used();
  for (int c = 0; c < kChannels; ++c)
    if (used & (1u << c)) names += (names.empty() ? "" : ",") + std::string(kChannelNames[c]);
  set_error(buf, len, names.c_str());
}

int mt_fixed_rule(int op, uint64_t bytes, int comm_size, int commutative, int32_t *fanout) {
  const Candidate c =
      ompi_fixed_decision(to_op(op), static_cast<size_t>(bytes), comm_size, commutative != 0, process_ompi.load());
  if (fanout) *fanout = c.fanout;
  return c.algorithm;
}

int mt_schedule_sends(int op, int algorithm, int comm_size, uint64_t count, uint64_t type_size, uint32_t segsize,
                      int rank, mt_send *out, int capacity) {
  if (op < 0 || op >= MT_OPS || comm_size < 1 || rank < 0 || rank >= comm_size) return -1;
  const CollectiveFamily &family = collective_family(to_op(op));
  if (!family.rounds || !find_algorithm(family.op, algorithm)) return -1;
  // What tuned runs forced to the algorithm: its forced fan-out or radix.
  const Candidate forced{family.op, algorithm, segsize, forced_candidate(family.op, algorithm).fanout};
  const Candidate runs = what_runs(forced, static_cast<size_t>(count), static_cast<size_t>(type_size), comm_size, true);
  if (find_algorithm(family.op, runs.algorithm)->composed != Composition::none) return -1;
  const auto sends =
      sends_per_rank(comm_size, family.rounds(runs.algorithm, comm_size, static_cast<size_t>(count),
                                              static_cast<size_t>(type_size), runs.segsize, runs.fanout))[rank];
  for (size_t i = 0; i < sends.size() && static_cast<int>(i) < capacity; ++i)
    out[i] = mt_send{sends[i].to, sends[i].count};
  return static_cast<int>(sends.size());
}

int mt_algorithm_count(int op) {
  int n = 0;
  for (const AlgorithmSpec &a : algorithm_registry()) n += a.op == to_op(op) && listed_for_release(a);
  return n;
}

int mt_algorithm_at(int op, int index, mt_algorithm_info *out) {
  int n = 0;
  for (const AlgorithmSpec &a : algorithm_registry()) {
    if (a.op != to_op(op) || !listed_for_release(a) || n++ != index) continue;
    // The registry keeps its own NUL-terminated copies of every spec's strings.
    *out = mt_algorithm_info{a.id,
                             a.name.data(),
                             a.description.data(),
                             a.ompi_function.data(),
                             static_cast<int32_t>(a.convention),
                             a.splits ? 1 : 0,
                             a.tuned_name.data(),
                             ompi_version_name(a.since).data(),
                             ompi_version_name(a.until).data(),
                             a.component.data()};
    return 0;
  }
  return -1;
}

// mt_decide's report: labels of the pick and runner-up, the JSON when asked for. Never throws: a
// report that cannot be built must not change the decision (ranks that do not report it take it too).
static void fill_report(const Selector &s, const CallShape &call, const std::optional<Decision> &decision,
                        const mt_decision &out, mt_decision_report *report) noexcept try {
  if (decision) {
    const std::string pick = describe(decision->pick);
    set_error(report->pick, sizeof report->pick,
              decision->kept_default ? ("ompi_default:" + pick).c_str() : pick.c_str());
    report->margin = decision->margin;
    if (out.runner_up_algorithm != 0)
      set_error(
          report->runner_up, sizeof report->runner_up,
          describe(Candidate{call.op, out.runner_up_algorithm, out.runner_up_segsize, out.runner_up_fanout}).c_str());
  }
  if (report->want_json)
    report->json =
        strdup(decision_json(s.table(), s.placement(), call, decision, s.tree_schedule(), s.ompi()).dump().c_str());
} catch (...) {
}

int mt_decide(mt_comm_model *model, const mt_call *c, mt_decision *out, mt_decision_report *report) {
  if (report) {
    set_error(report->pick, sizeof report->pick, "none");
    set_error(report->runner_up, sizeof report->runner_up, "none");
    report->json = nullptr;
    report->margin = 1;
  }
  try {
    CallShape call{to_op(c->op), static_cast<size_t>(c->count), static_cast<size_t>(c->type_size), c->root,
                   c->commutative != 0};
    call.whole_message = c->whole_message != 0;
    call.metric = to_metric(c->objective);
    SharedModel &shared = *model->shared;
    std::lock_guard<std::mutex> lock(shared.mutex);
    const SharedModel::CallKey key{call.op,          call.count,         call.type_size, call.root,
                                   call.commutative, call.whole_message, call.metric};
    auto known = shared.decisions.find(key);
    if (known == shared.decisions.end()) {
      if (shared.decisions.size() >= kRememberedCalls) shared.decisions.clear();
      known = shared.decisions.emplace(key, shared.selector.decide(call)).first;
    }
    const std::optional<Decision> &decision = known->second;
    if (decision) {
      *out = mt_decision{};
      out->algorithm = decision->pick.algorithm;
      out->segsize = decision->pick.segsize;
      out->fanout = decision->pick.fanout;
      out->predicted_us = decision->predicted_us;
      if (decision->ompi_default) out->default_us = decision->ompi_default->us;
      if (decision->kept_default) out->algorithm = 0;  // Open MPI's own decision runs
      // Runner-up: the best prediction with another algorithm, the more informative comparison
      // (when the default was kept: the model's best, which did not beat it by the margin).
      for (const Prediction &p : decision->predictions) {
        if (!decision->kept_default && p.candidate.algorithm == decision->pick.algorithm) continue;
        out->runner_up_algorithm = p.candidate.algorithm;
        out->runner_up_segsize = p.candidate.segsize;
        out->runner_up_fanout = p.candidate.fanout;
        out->runner_up_us = p.us;
        break;
      }
    }
    if (report) fill_report(shared.selector, call, decision, *out, report);
    return decision ? 0 : -1;
  } catch (...) {
    return -1;
  }
}

}  // extern "C"

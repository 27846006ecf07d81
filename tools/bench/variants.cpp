// Creating and freeing the variants' communicators, and reading modeltuned's call counters
// (see variants.hpp).
#include "tools/bench/variants.hpp"

#include <cstring>

#include <fmt/format.h>

#include "common/mpi_t.hpp"
#include "model/collectives/family.hpp"
#include "model/registry/registry.hpp"

namespace modeltuned::bench {

using mpi_t::cvar_write;

// coll_modeltuned_{bcast,reduce}_calls: an array of counters per algorithm number (index 0 =
// calls handed back to the previous component), per process, over all communicators.
class CallCounters {
 public:
  CallCounters(MPI_T_pvar_session session, const char *wanted) : session_(session) {
    int n = 0;
    MPI_T_pvar_get_num(&n);
    for (int i = 0; i < n; ++i) {
      char name[256], desc[1024];
      int name_len = sizeof name, desc_len = sizeof desc, verbosity, var_class, binding, readonly, continuous, atomic;
      MPI_Datatype type;
      MPI_T_enum enumtype;
      if (MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &enumtype, desc, &desc_len, &binding,
                              &readonly, &continuous, &atomic) != MPI_SUCCESS ||
          std::strcmp(name, wanted) != 0)
        continue;
      int type_size = 0;
      MPI_Type_size(type, &type_size);
      if (binding != MPI_T_BIND_NO_OBJECT || (type_size != 4 && type_size != 8)) {
        problem_ = fmt::format("MPI_T performance variable {} has an unexpected binding or type", wanted);
        return;
      }
      if (MPI_T_pvar_handle_alloc(session_, i, nullptr, &handle_, &count_) != MPI_SUCCESS ||
          (!continuous && MPI_T_pvar_start(session_, handle_) != MPI_SUCCESS)) {
        problem_ = fmt::format("cannot open MPI_T performance variable {}", wanted);
        return;
      }
      type_size_ = type_size;
      raw_.resize(static_cast<size_t>(count_) * type_size_);
      ok_ = true;
      return;
    }
    problem_ = fmt::format("MPI_T performance variable {} not found", wanted);
  }
  ~CallCounters() {
    if (ok_) MPI_T_pvar_handle_free(session_, &handle_);
  }
  CallCounters(const CallCounters &) = delete;
  CallCounters &operator=(const CallCounters &) = delete;
  bool ok() const { return ok_; }
  const std::string &problem() const { return problem_; }
  int size() const { return count_; }
  std::vector<uint64_t> read() {
    std::vector<uint64_t> out(count_, 0);
    if (!ok_ || MPI_T_pvar_read(session_, handle_, raw_.data()) != MPI_SUCCESS) return out;
    for (int i = 0; i < count_; ++i) {
      if (type_size_ == 8) {
        uint64_t v;
        std::memcpy(&v, raw_.data() + 8 * i, 8);
        out[i] = v;
      } else {
        uint32_t v;
        std::memcpy(&v, raw_.data() + 4 * i, 4);
        out[i] = v;
      }
    }
    return out;
  }

 private:
  MPI_T_pvar_session session_;
  MPI_T_pvar_handle handle_{};
  int count_ = 0, type_size_ = 0;
  bool ok_ = false;
  std::string problem_;
  std::vector<unsigned char> raw_;
};

Setup::Setup() = default;
Setup::~Setup() = default;

std::vector<uint64_t> Setup::counts(Op op) { return counted ? counters[op]->read() : std::vector<uint64_t>(); }

void Setup::add_since(Op op, const std::vector<uint64_t> &before, uint64_t *into) {
  if (!counted) return;
  const auto after = counters[op]->read();
  for (int a = 0; a < counter_width; ++a) into[a] += after[a] - before[a];
}

namespace {

// Every rank sets the same values (the variables' scope requires it), then duplicates.
std::string create_variant(Variant &v, int modeltuned_priority) {
  const int disabled = -1;
  std::string err;
  if (v.name == "default") {
    err = cvar_write("coll_modeltuned_priority", &disabled);
    if (err.find("not found") != std::string::npos) err.clear();  // no component: world is the default
  } else {
    // Another component's algorithm runs from the first call of its variant, whose private
    // communicator would otherwise wait for the calls' predicted savings.
    const double at_once = 0;
    err = cvar_write("coll_modeltuned_priority", &modeltuned_priority);
    if (err.empty()) err = cvar_write("coll_modeltuned_other_cost_us", &at_once);
    std::string list = v.forced ? std::to_string(v.forced) : "";
    if (err.empty())
      err = cvar_write(fmt::format("coll_modeltuned_{}_algorithms", op_name(v.op)).c_str(), list.c_str());
  }
  if (!err.empty()) return err;
  int rc = MPI_Comm_dup(MPI_COMM_WORLD, &v.comm);
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    v.comm = MPI_COMM_NULL;
    return fmt::format("MPI_Comm_dup failed: {}", std::string(text, len));
  }
  MPI_Comm_set_name(v.comm, fmt::format("bench-{}-{}", op_name(v.op), v.name).c_str());
  return "";
}

}  // namespace

void create_variants(const Plan &plan, const std::optional<int> &initial_priority, Setup &setup) {
  const int modeltuned_priority = initial_priority && *initial_priority >= 0 ? *initial_priority : 40;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  auto add_variant = [&](Op op, std::string name, int forced) {
    if (!plan.wanted_variants.empty() && !plan.wanted_variants.count(name)) return;
    Variant v{op, std::move(name), forced};
    if (v.through_modeltuned() && !initial_priority) {
      setup.notes.push_back(
          fmt::format("{} {}: skipped: the modeltuned component is not loaded (no MPI_T variable "
                      "coll_modeltuned_priority); put it on the component path (make install, or "
                      "pass -x OMPI_MCA_mca_base_component_path) and keep it out of any --mca coll "
                      "exclusion",
                      op_name(op), v.name));
      return;
    }
    std::string err = create_variant(v, modeltuned_priority);
    if (!err.empty()) {
      setup.notes.push_back(fmt::format("{} {}: skipped: {}", op_name(op), v.name, err));
      return;
    }
    setup.variants.push_back(std::move(v));
  };
  for (Op op : plan.ops) {
    add_variant(op, "default", 0);
    add_variant(op, "modeltuned", 0);
    for (const auto &a : algorithm_registry())
      if (a.op == op && listed_for_release(a)) add_variant(op, std::string(a.name), a.id);
  }
  // Control traffic (seed, budget, results) goes through a communicator modeltuned declines, so
  // the call counters only count timed calls.
  const int disabled = -1;
  (void)cvar_write("coll_modeltuned_priority", &disabled);
  MPI_Comm_dup(MPI_COMM_WORLD, &setup.control);
  if (initial_priority) (void)cvar_write("coll_modeltuned_priority", &*initial_priority);
  const char *all = "";
  for (const CollectiveFamily *family : collective_families())
    (void)cvar_write(fmt::format("coll_modeltuned_{}_algorithms", op_name(family->op)).c_str(), all);
}

void open_counters(const Plan &plan, bool component_loaded, Setup &setup) {
  setup.have_session = MPI_T_pvar_session_create(&setup.session) == MPI_SUCCESS;
  setup.counted = setup.have_session && component_loaded;
  for (Op op : plan.ops) {
    if (!setup.counted) break;
    auto &c = setup.counters[op] =
        std::make_unique<CallCounters>(setup.session, fmt::format("coll_modeltuned_{}_calls", op_name(op)).c_str());
    if (!c->ok()) {
      setup.notes.push_back(fmt::format("which algorithm ran is not verified: {}", c->problem()));
      setup.counted = false;
    }
  }
  setup.counter_width = setup.counted ? setup.counters.begin()->second->size() : 0;
  if (!setup.counted) return;
  setup.guard_windows = std::make_unique<CallCounters>(setup.session, "coll_modeltuned_guard_windows");
  setup.takebacks = std::make_unique<CallCounters>(setup.session, "coll_modeltuned_takebacks");
}

void note_guard(Setup &setup) {
  if (!setup.guard_windows || !setup.guard_windows->ok() || !setup.takebacks->ok()) return;
  const std::vector<uint64_t> windows = setup.guard_windows->read(), taken = setup.takebacks->read();
  std::string per_op;
  for (const CollectiveFamily *family : collective_families()) {
    const Op op = family->op;
    const size_t i = static_cast<size_t>(op_index(op));
    if (i < windows.size() && i < taken.size())
      per_op +=
          fmt::format("{}{} {} windows, {} taken back", per_op.empty() ? "" : "; ", op_name(op), windows[i], taken[i]);
  }
  setup.notes.push_back(fmt::format("guard (rank 0): {}", per_op));
}

void free_setup(Setup &setup) {
  for (auto &v : setup.variants) MPI_Comm_free(&v.comm);
  MPI_Comm_free(&setup.control);
  setup.counters.clear();
  setup.guard_windows.reset();
  setup.takebacks.reset();
  if (setup.have_session) MPI_T_pvar_session_free(&setup.session);
}

}  // namespace modeltuned::bench

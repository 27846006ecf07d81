// modeltuned-bench: MPI_Bcast and MPI_Reduce latency of Open MPI's default decision, of
// modeltuned, and of every algorithm forced through modeltuned, measured in one job.
//
// Each variant gets its own duplicate of MPI_COMM_WORLD, created up front after setting
// modeltuned's MPI_T control variables (the component reads them when a communicator is
// created). Repetitions of all (variant, size) pairs are interleaved in a random order, so that
// drift in the machine's load hits every variant alike. modeltuned's MPI_T call counters, when
// present, show which algorithm each timed call really ran.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "model/registry/registry.hpp"
#include "common/cli.hpp"
#include "tools/bench/plot.hpp"
#include "common/mpi_t.hpp"
#include "common/stats.hpp"

namespace fs = std::filesystem;
using modeltuned::Op;
namespace mb = modeltuned::bench;

namespace {

int world_rank = 0, world_size = 1;

// "4096", "4K", "4KiB", "1M", "1MiB" (binary multiples).
std::optional<uint64_t> parse_bytes(const std::string &text) {
  size_t used = 0;
  unsigned long long value;
  try {
    value = std::stoull(text, &used);
  } catch (...) {
    return std::nullopt;
  }
  std::string unit = text.substr(used);
  for (auto &c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static const std::map<std::string, uint64_t> units = {
      {"", 1}, {"B", 1}, {"K", 1u << 10}, {"KI", 1u << 10}, {"KIB", 1u << 10}, {"KB", 1u << 10},
      {"M", 1u << 20}, {"MI", 1u << 20}, {"MIB", 1u << 20}, {"MB", 1u << 20}};
  auto it = units.find(unit);
  if (it == units.end()) return std::nullopt;
  return value * it->second;
}

std::string bytes_label(uint64_t b) {
  if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{}MiB", b >> 20);
  if (b >= (1u << 10) && b % (1u << 10) == 0) return fmt::format("{}KiB", b >> 10);
  return fmt::format("{}B", b);
}

// ---- MPI_T: modeltuned's control variables and call counters ---------------------------------

using modeltuned::mpi_t::cvar_read_int;
using modeltuned::mpi_t::cvar_write;

// coll_modeltuned_{bcast,reduce}_calls: an array of counters per algorithm number (index 0 =
// calls handed back to the previous component), per process, over all communicators.
class CallCounters {
 public:
  CallCounters(MPI_T_pvar_session session, const char *wanted) : session_(session) {
    int n = 0;
    MPI_T_pvar_get_num(&n);
    for (int i = 0; i < n; ++i) {
      char name[256], desc[1024];
      int name_len = sizeof name, desc_len = sizeof desc, verbosity, var_class, binding, readonly,
          continuous, atomic;
      MPI_Datatype type;
      MPI_T_enum enumtype;
      if (MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &enumtype, desc,
                              &desc_len, &binding, &readonly, &continuous, &atomic) != MPI_SUCCESS ||
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

// ---- variants --------------------------------------------------------------------------------

struct Variant {
  Op op;
  std::string name;       // default, modeltuned, or the forced algorithm's name
  int forced = 0;         // tuned's algorithm number when forced
  MPI_Comm comm = MPI_COMM_NULL;
  bool through_modeltuned() const { return name != "default"; }
};

// Every rank sets the same values (the variables' scope requires it), then duplicates.
std::string create_variant(Variant &v, int modeltuned_priority) {
  const int disabled = -1;
  std::string err;
  if (v.name == "default") {
    err = cvar_write("coll_modeltuned_priority", &disabled);
    if (err.find("not found") != std::string::npos) err.clear();  // no component: world is the default
  } else {
    err = cvar_write("coll_modeltuned_priority", &modeltuned_priority);
    std::string list = v.forced ? std::to_string(v.forced) : "";
    if (err.empty())
      err = cvar_write(v.op == Op::bcast ? "coll_modeltuned_bcast_algorithms" : "coll_modeltuned_reduce_algorithms",
                       list.c_str());
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
  MPI_Comm_set_name(v.comm, fmt::format("bench-{}-{}", modeltuned::op_name(v.op), v.name).c_str());
  return "";
}

// ---- one call --------------------------------------------------------------------------------

struct Buffers {
  std::vector<char> send, recv;
  uint64_t slot_bytes = 0;
  int slots = 1;
  char *send_slot(uint64_t call) { return send.data() + (call % slots) * slot_bytes; }
  char *recv_slot(uint64_t call) { return recv.data() + (call % slots) * slot_bytes; }
};

double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// Reduce uses MPI_INT with MPI_SUM (sizes are multiples of 4 bytes); bcast MPI_BYTE.
void run_collective(Op op, MPI_Comm comm, Buffers &buf, uint64_t call, uint64_t bytes, int root) {
  if (op == Op::bcast)
    MPI_Bcast(buf.send_slot(call), static_cast<int>(bytes), MPI_BYTE, root, comm);
  else
    MPI_Reduce(buf.send_slot(call), buf.recv_slot(call), static_cast<int>(bytes / 4), MPI_INT,
               MPI_SUM, root, comm);
}

// ---- the measurement plan --------------------------------------------------------------------

struct Pair {
  int variant;  // index into variants
  int size;     // index into the op's sizes
};

// lo, lo * 2^step, lo * 2^(2 step), ... and hi itself.
std::vector<uint64_t> log_spaced(uint64_t lo, uint64_t hi, double octaves_per_step) {
  std::vector<uint64_t> out;
  for (int i = 0;; ++i) {
    const double v = std::round(double(lo) * std::exp2(i * octaves_per_step));
    if (v > double(hi)) break;
    out.push_back(static_cast<uint64_t>(v));
  }
  if (out.empty() || out.back() != hi) out.push_back(hi);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<uint64_t> sizes_for(Op op, const std::vector<uint64_t> &requested) {
  if (op == Op::bcast) return requested;
  std::set<uint64_t> s;
  for (uint64_t b : requested)
    if (b >= 4) s.insert(b / 4 * 4);
  return {s.begin(), s.end()};
}

// Result of one (variant, size) pair, on rank 0.
struct PairResult {
  std::vector<double> times_us;  // per repetition
  modeltuned::MedianCi ci;
  std::vector<uint64_t> calls;  // summed over ranks, by algorithm number (0 = handed back)
};

std::string ci_text(const modeltuned::MedianCi &c) {
  if (!c.low) return fmt::format("{:.2f} [n/a]", c.median);
  return fmt::format("{:.2f} [{:.2f},{:.2f}]", c.median, *c.low, *c.high);
}

// Ratio of medians; '~' when the two intervals overlap (the difference is not significant).
std::string ratio_text(const modeltuned::MedianCi &a, const modeltuned::MedianCi &b) {
  if (b.median <= 0) return "-";
  const bool overlap = a.low && b.low && *a.low <= *b.high && *b.low <= *a.high;
  return fmt::format("{:.2f}{}", a.median / b.median, overlap ? "~" : "");
}

constexpr const char *kProgram = "modeltuned-bench";

[[noreturn]] void die_everywhere(int code) {
  MPI_T_finalize();
  MPI_Finalize();
  std::exit(code);
}

// Every rank sees the same arguments, so these verdicts agree without communication.
[[noreturn]] void usage_error(const std::string &text) {
  if (world_rank == 0) std::fprintf(stderr, "%s: %s\n", kProgram, text.c_str());
  die_everywhere(modeltuned::cli::kUsageError);
}

// Rank 0 checked something only it can see (files); every rank learns the verdict.
void agree_or_exit(const std::string &rank0_error) {
  int bad = world_rank == 0 && !rank0_error.empty();
  MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (bad) usage_error(rank0_error);
}

// ---- command line ----------------------------------------------------------------------------

struct Options {
  std::string op = "both";
  uint64_t min_bytes = 1, max_bytes = 4u << 20;
  double octaves_per_step = 1;  // from --steps-per-octave, or 2 with --quick
  std::vector<std::string> sizes;  // explicit list, overrides the range
  int reps = 30, warmup = 2;
  double max_time = 0;  // seconds; 0 = no budget
  std::optional<uint64_t> seed;
  int rotate_buffers = 1;
  int root = 0;
  std::string csv, plot;
  std::string variants;  // restricts the variants measured (comma-separated names)
};

// A message size option: "4096", "4K", "1MiB" in [lo, 1 GiB].
std::function<void(const std::string &)> size_option(const char *name, uint64_t lo, uint64_t &into) {
  return [name, lo, &into](const std::string &s) {
    auto b = parse_bytes(s);
    if (!b || *b < lo || *b > (1ull << 30))
      throw CLI::ValidationError(name, fmt::format("'{}' is not a size in {}..1GiB (e.g. 4096, 4K, 1MiB)", s, lo));
    into = *b;
  };
}

// Parses argv identically on every rank; rank 0 speaks. Returns the exit status when the program
// must stop (--help: 0, a bad flag: 2).
std::optional<int> parse_options(int argc, char **argv, Options &o) {
  namespace cli = modeltuned::cli;
  CLI::App app{
      "A/B benchmark of MPI_Bcast and MPI_Reduce: Open MPI's default decision, modeltuned, and\n"
      "every algorithm forced through modeltuned, in one job. Run under mpirun with modeltuned\n"
      "loaded (see docs/user-guide.md).",
      kProgram};
  int steps_per_octave = 1;
  bool quick = false;
  app.add_option("--op", o.op, "bcast, reduce or both")->check(CLI::IsMember({"bcast", "reduce", "both"}));
  app.add_option_function<std::string>("--min-bytes", size_option("--min-bytes", 1, o.min_bytes),
                                       "smallest message size (default 1)");
  app.add_option_function<std::string>("--max-bytes", size_option("--max-bytes", 1, o.max_bytes),
                                       "largest message size (default 4MiB)");
  auto *steps = app.add_option("--steps-per-octave", steps_per_octave, "sizes per doubling, log-spaced (default 1)")
                    ->check(cli::whole_number(1, 16));
  app.add_option("--sizes", o.sizes, "explicit message sizes instead of the range, e.g. 1,64,4K,1M")
      ->delimiter(',');
  app.add_option("--reps", o.reps, "timed repetitions per variant and size (default 30)")
      ->check(cli::whole_number(1, 1000000));
  auto *warmup = app.add_option("--warmup", o.warmup, "untimed calls per variant and size before timing (default 2)")
                     ->check(cli::whole_number(0, 1000));
  app.add_option("--max-time", o.max_time, "time budget in seconds: no new round of repetitions starts after it (0 = none)")
      ->check(cli::number(0, 1e7));
  app.add_option("--seed", o.seed, "seed of the random order (default: random, printed)")
      ->check(cli::whole_number<uint64_t>(0));
  app.add_option("--rotate-buffers", o.rotate_buffers, "cycle through N buffers so caches do not flatter one variant (default 1)")
      ->check(cli::whole_number(1, 4096));
  app.add_option("--root", o.root, "root rank (default 0)")->check(cli::whole_number(0));
  app.add_option("--csv", o.csv, "write every repetition to FILE (op,size,variant,rep,time_us,rank_mean_us: the time, and the mean over ranks of each rank's own duration)");
  app.add_option("--plot", o.plot, "draw latency against size to FILE.png or FILE.svg with gnuplot (its script and data go beside it)");
  auto *variants = app.add_option("--variants", o.variants,
                                  "measure only these variants, e.g. default,modeltuned,binomial (default: all)");
  app.add_flag("--quick", quick,
               "Open MPI's default against modeltuned only, at 1, 4, 16, ... bytes up to --max-bytes, 3 warm-up "
               "calls (scripts/demo's first table); the flags above still apply");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return cli::handle(app, e, kProgram, world_rank == 0);
  }
  o.octaves_per_step = quick && !steps->count() ? 2.0 : 1.0 / steps_per_octave;
  if (quick && !variants->count()) o.variants = "default,modeltuned";
  if (quick && !warmup->count()) o.warmup = 3;
  return std::nullopt;
}

// What to measure.
struct Plan {
  std::vector<Op> ops;
  std::map<Op, std::vector<uint64_t>> sizes;  // reduce: multiples of 4 bytes (whole MPI_INTs)
  std::set<std::string> wanted_variants;      // empty: all
};

std::set<std::string> wanted_variants(const std::string &list, const std::vector<Op> &ops) {
  std::set<std::string> wanted;
  std::string item;
  for (size_t at = 0; at <= list.size(); ++at) {
    if (at == list.size() || list[at] == ',') {
      if (!item.empty()) wanted.insert(item);
      item.clear();
    } else {
      item += list[at];
    }
  }
  std::string names;  // what --variants accepts, for the message
  for (const auto &a : modeltuned::algorithm_registry())
    if (std::find(ops.begin(), ops.end(), a.op) != ops.end() &&
        (" " + names + ",").find(" " + std::string(a.name) + ",") == std::string::npos)
      names += fmt::format("{}{}", names.empty() ? "" : ", ", a.name);
  for (const auto &name : wanted) {
    bool known = name == "default" || name == "modeltuned";
    for (Op op : ops) known = known || modeltuned::find_algorithm(op, name) != nullptr;
    if (!known)
      usage_error(fmt::format("--variants: '{}' is not a variant; use default, modeltuned or a forced algorithm: {}",
                              name, names));
  }
  return wanted;
}

std::vector<uint64_t> requested_sizes(const Options &o) {
  if (o.sizes.empty()) return log_spaced(o.min_bytes, o.max_bytes, o.octaves_per_step);
  std::vector<uint64_t> requested;
  for (const auto &s : o.sizes) {
    auto b = parse_bytes(s);
    if (!b || *b < 1 || *b > (1ull << 30)) usage_error(fmt::format("--sizes: '{}' is not a size in 1..1GiB (e.g. 4096, 4K, 1MiB)", s));
    requested.push_back(*b);
  }
  std::sort(requested.begin(), requested.end());
  requested.erase(std::unique(requested.begin(), requested.end()), requested.end());
  return requested;
}

// Checks the flags against each other and the job; a usage error ends every rank.
Plan make_plan(const Options &o) {
  if (o.min_bytes > o.max_bytes)
    usage_error(fmt::format("--min-bytes {} is above --max-bytes {}; swap them", o.min_bytes, o.max_bytes));
  if (o.root >= world_size)
    usage_error(fmt::format("--root {}: this job has {} ranks; pass --root 0..{}", o.root, world_size, world_size - 1));
  if (world_size < 2) usage_error("needs at least 2 ranks; run it as mpirun -np N modeltuned-bench (N >= 2)");
  if (!o.plot.empty()) {
    std::string ext = fs::path(o.plot).extension().string();
    if (ext != ".png" && ext != ".svg") usage_error(fmt::format("--plot {}: the name must end in .png or .svg (e.g. --plot ab.png)", o.plot));
  }
  Plan plan;
  if (o.op != "reduce") plan.ops.push_back(Op::bcast);
  if (o.op != "bcast") plan.ops.push_back(Op::reduce);
  plan.wanted_variants = wanted_variants(o.variants, plan.ops);
  const std::vector<uint64_t> requested = requested_sizes(o);
  for (Op op : plan.ops) {
    plan.sizes[op] = sizes_for(op, requested);
    if (plan.sizes[op].empty())
      usage_error(o.sizes.empty() ? "no reduce size is at least 4 bytes (one MPI_INT); raise --max-bytes"
                                  : "--sizes: no reduce size is at least 4 bytes (one MPI_INT); add one, or pass --op bcast");
  }
  return plan;
}

// Files are checked on rank 0 before measuring, so a typo costs no run. Returns the open CSV
// (rank 0, with --csv).
std::FILE *open_outputs(const Options &o) {
  std::string rank0_error;
  std::FILE *csv = nullptr;
  if (world_rank == 0 && !o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) rank0_error = fmt::format("--csv {}: cannot write it ({}); pick a writable path", o.csv, std::strerror(errno));
  }
  if (world_rank == 0 && rank0_error.empty() && !o.plot.empty()) rank0_error = mb::plot_preflight(o.plot);
  agree_or_exit(rank0_error);
  return csv;
}

// ---- setup: the job, the variants, the counters ----------------------------------------------

uint64_t agree_on_seed(const Options &o) {
  uint64_t seed = o.seed.value_or(0);
  if (!o.seed && world_rank == 0) seed = std::random_device{}() * 0x100000001ull ^ std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return seed;
}

// All ranks on one node share CLOCK_MONOTONIC: a repetition then lasts from the first rank's
// start to the last rank's end. Otherwise, the slowest rank's own duration.
bool all_on_one_node() {
  MPI_Comm node;
  int node_size, one_node = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  int local_all = node_size == world_size;
  MPI_Allreduce(&local_all, &one_node, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  MPI_Comm_free(&node);
  return one_node;
}

struct Setup {
  std::vector<Variant> variants;
  std::vector<std::string> notes;  // printed with the summary
  MPI_Comm control = MPI_COMM_NULL;
  MPI_T_pvar_session session{};
  bool have_session = false;
  std::map<Op, std::unique_ptr<CallCounters>> counters;
  bool counted = false;  // which algorithm ran is read from the counters
  int counter_width = 0;

  // The counters of `op` now (empty when not counted), then what they gained since, added to
  // into[0..counter_width). Read outside the timed region: MPI_T reads are not free.
  std::vector<uint64_t> counts(Op op) { return counted ? counters[op]->read() : std::vector<uint64_t>(); }
  void add_since(Op op, const std::vector<uint64_t> &before, uint64_t *into) {
    if (!counted) return;
    const auto after = counters[op]->read();
    for (int a = 0; a < counter_width; ++a) into[a] += after[a] - before[a];
  }
};

// One communicator per variant, created with modeltuned's variables set for it.
void create_variants(const Plan &plan, const std::optional<int> &initial_priority, Setup &setup) {
  const int modeltuned_priority = initial_priority && *initial_priority >= 0 ? *initial_priority : 40;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  auto add_variant = [&](Op op, std::string name, int forced) {
    if (!plan.wanted_variants.empty() && !plan.wanted_variants.count(name)) return;
    Variant v{op, std::move(name), forced};
    if (v.through_modeltuned() && !initial_priority) {
      setup.notes.push_back(fmt::format("{} {}: skipped: the modeltuned component is not loaded (no MPI_T variable "
                                        "coll_modeltuned_priority); put it on the component path (make install, or pass "
                                        "-x OMPI_MCA_mca_base_component_path) and keep it out of any --mca coll exclusion", modeltuned::op_name(op), v.name));
      return;
    }
    std::string err = create_variant(v, modeltuned_priority);
    if (!err.empty()) {
      setup.notes.push_back(fmt::format("{} {}: skipped: {}", modeltuned::op_name(op), v.name, err));
      return;
    }
    setup.variants.push_back(std::move(v));
  };
  for (Op op : plan.ops) {
    add_variant(op, "default", 0);
    add_variant(op, "modeltuned", 0);
    for (const auto &a : modeltuned::algorithm_registry())
      if (a.op == op) add_variant(op, std::string(a.name), a.id);
  }
  // Control traffic (seed, budget, results) goes through a communicator modeltuned declines, so
  // the call counters only count timed calls.
  const int disabled = -1;
  (void) cvar_write("coll_modeltuned_priority", &disabled);
  MPI_Comm_dup(MPI_COMM_WORLD, &setup.control);
  if (initial_priority) (void) cvar_write("coll_modeltuned_priority", &*initial_priority);
  const char *all = "";
  (void) cvar_write("coll_modeltuned_bcast_algorithms", all);
  (void) cvar_write("coll_modeltuned_reduce_algorithms", all);
}

void open_counters(const Plan &plan, bool component_loaded, Setup &setup) {
  setup.have_session = MPI_T_pvar_session_create(&setup.session) == MPI_SUCCESS;
  setup.counted = setup.have_session && component_loaded;
  for (Op op : plan.ops) {
    if (!setup.counted) break;
    auto &c = setup.counters[op] = std::make_unique<CallCounters>(
        setup.session, op == Op::bcast ? "coll_modeltuned_bcast_calls" : "coll_modeltuned_reduce_calls");
    if (!c->ok()) {
      setup.notes.push_back(fmt::format("which algorithm ran is not verified: {}", c->problem()));
      setup.counted = false;
    }
  }
  setup.counter_width = setup.counted ? setup.counters.begin()->second->size() : 0;
}

void free_setup(Setup &setup) {
  for (auto &v : setup.variants) MPI_Comm_free(&v.comm);
  MPI_Comm_free(&setup.control);
  setup.counters.clear();
  if (setup.have_session) MPI_T_pvar_session_free(&setup.session);
}

// ---- measuring -------------------------------------------------------------------------------

Buffers make_buffers(const Options &o, const Plan &plan) {
  Buffers buf;
  buf.slots = o.rotate_buffers;
  for (Op op : plan.ops) buf.slot_bytes = std::max(buf.slot_bytes, plan.sizes.at(op).back());
  try {
    buf.send.assign(buf.slot_bytes * buf.slots, 1);  // reduce sums ints of value 0x01010101: no overflow across ranks
    if (std::find(plan.ops.begin(), plan.ops.end(), Op::reduce) != plan.ops.end())
      buf.recv.assign(buf.slot_bytes * buf.slots, 0);
  } catch (const std::bad_alloc &) {
    usage_error(fmt::format("--rotate-buffers {} x {} bytes does not fit in memory; lower one of them",
                            buf.slots, buf.slot_bytes));
  }
  return buf;
}

std::vector<Pair> make_pairs(const std::vector<Variant> &variants, const Plan &plan) {
  std::vector<Pair> out;
  for (size_t v = 0; v < variants.size(); ++v)
    for (size_t s = 0; s < plan.sizes.at(variants[v].op).size(); ++s) out.push_back({int(v), int(s)});
  return out;
}

// Warm-up: tree construction, the model's decision per size class, first-touch of buffers and
// lazily opened connections all happen here, not in a timed call. The counters show whether
// modeltuned took each variant's communicator at all (without a usable table it declines):
// forced variants it declined are dropped, with a note; the plain modeltuned variant is kept (the
// default then runs: what the user gets).
void warm_up(const Options &o, const Plan &plan, Buffers &buf, uint64_t &call_number, Setup &setup) {
  const std::vector<Pair> pairs = make_pairs(setup.variants, plan);
  std::vector<uint64_t> taken(setup.variants.size(), 0), calls(std::max(setup.counter_width, 1));
  for (int w = 0; w < o.warmup + 1; ++w)
    for (const auto &p : pairs) {
      const Variant &v = setup.variants[p.variant];
      const std::vector<uint64_t> before = setup.counts(v.op);
      run_collective(v.op, v.comm, buf, call_number++, plan.sizes.at(v.op)[p.size], o.root);
      std::fill(calls.begin(), calls.end(), 0);
      setup.add_since(v.op, before, calls.data());
      for (uint64_t c : calls) taken[p.variant] += c;
    }
  if (!setup.counted) return;
  MPI_Allreduce(MPI_IN_PLACE, taken.data(), int(taken.size()), MPI_UINT64_T, MPI_MIN, setup.control);
  std::vector<Variant> kept;
  for (size_t v = 0; v < setup.variants.size(); ++v) {
    if (setup.variants[v].name == "modeltuned" && taken[v] == 0) {
      // Kept: this is what a user gets, Open MPI's default through no layer at all.
      setup.notes.push_back(fmt::format("{} modeltuned: Open MPI's default ran every call: modeltuned declined the "
                                        "communicator or left this op to the previous component (no check of its "
                                        "table covers it); --mca coll_modeltuned_verbose 1 says which",
                                        modeltuned::op_name(setup.variants[v].op)));
      kept.push_back(setup.variants[v]);
      continue;
    }
    if (setup.variants[v].through_modeltuned() && taken[v] == 0) {
      setup.notes.push_back(fmt::format("{} {}: skipped: modeltuned declined its communicator (no usable calibration "
                                        "table?); --mca coll_modeltuned_verbose 1 says why",
                                        modeltuned::op_name(setup.variants[v].op), setup.variants[v].name));
      MPI_Comm_free(&setup.variants[v].comm);
      continue;
    }
    kept.push_back(setup.variants[v]);
  }
  setup.variants = std::move(kept);
}

struct Timings {
  std::vector<Pair> pairs;
  int rounds = 0;
  double seconds = 0;
  std::vector<double> start, end;  // this rank's, per (round, pair)
  std::vector<uint64_t> calls;     // this rank's counts per (pair, algorithm); after gather, rank 0's sums
  std::vector<double> times;       // after gather, rank 0: the collective's time per (round, pair)
  std::vector<double> rank_mean;   // after gather, rank 0: the mean over ranks of each rank's own duration (OSU's latency)
};

// Timed rounds: each round runs every pair once, in an order drawn from the shared seed.
Timings measure(const Options &o, const Plan &plan, uint64_t seed, Buffers &buf, uint64_t &call_number, Setup &setup) {
  Timings t;
  t.pairs = make_pairs(setup.variants, plan);
  const size_t npairs = t.pairs.size();
  const int width = std::max(setup.counter_width, 1);
  t.start.resize(npairs * o.reps);
  t.end.resize(npairs * o.reps);
  t.calls.assign(npairs * width, 0);
  std::mt19937_64 rng(seed);
  std::vector<size_t> order(npairs);
  std::iota(order.begin(), order.end(), 0);
  const double began = now();
  for (; t.rounds < o.reps; ++t.rounds) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t k : order) {
      const Variant &v = setup.variants[t.pairs[k].variant];
      const std::vector<uint64_t> before = setup.counts(v.op);
      MPI_Barrier(v.comm);
      const double t0 = now();
      run_collective(v.op, v.comm, buf, call_number++, plan.sizes.at(v.op)[t.pairs[k].size], o.root);
      const double t1 = now();
      t.start[t.rounds * npairs + k] = t0;
      t.end[t.rounds * npairs + k] = t1;
      setup.add_since(v.op, before, &t.calls[k * width]);
    }
    int go_on = 1;
    if (world_rank == 0 && o.max_time > 0 && now() - began > o.max_time) go_on = 0;
    MPI_Bcast(&go_on, 1, MPI_INT, 0, setup.control);
    if (!go_on) {
      ++t.rounds;
      break;
    }
  }
  t.seconds = now() - began;
  return t;
}

// On rank 0, per repetition: first start to last end (one node) or the slowest rank's duration;
// call counts summed over ranks.
void gather(bool one_node, const Setup &setup, Timings &t) {
  const size_t n = t.rounds * t.pairs.size();
  std::vector<double> &times = t.times;
  times.resize(n);
  if (one_node) {
    std::vector<double> first_start(n), last_end(n);
    MPI_Reduce(t.start.data(), first_start.data(), int(n), MPI_DOUBLE, MPI_MIN, 0, setup.control);
    MPI_Reduce(t.end.data(), last_end.data(), int(n), MPI_DOUBLE, MPI_MAX, 0, setup.control);
    for (size_t i = 0; i < n; ++i) times[i] = last_end[i] - first_start[i];
  } else {
    std::vector<double> local(n);
    for (size_t i = 0; i < n; ++i) local[i] = t.end[i] - t.start[i];
    MPI_Reduce(local.data(), times.data(), int(n), MPI_DOUBLE, MPI_MAX, 0, setup.control);
  }
  std::vector<double> own(n);
  for (size_t i = 0; i < n; ++i) own[i] = t.end[i] - t.start[i];
  t.rank_mean.resize(n);
  MPI_Reduce(own.data(), t.rank_mean.data(), int(n), MPI_DOUBLE, MPI_SUM, 0, setup.control);
  for (double &m : t.rank_mean) m /= world_size;
  std::vector<uint64_t> all_calls(t.calls.size());
  MPI_Reduce(t.calls.data(), all_calls.data(), int(t.calls.size()), MPI_UINT64_T, MPI_SUM, 0, setup.control);
  t.calls = std::move(all_calls);
}

// ---- the report (rank 0) ---------------------------------------------------------------------

struct Report {
  const Options &o;
  const Plan &plan;
  const Setup &setup;
  const Timings &t;  // gathered
  bool one_node;
  uint64_t seed;
  std::vector<PairResult> results;  // per pair
  std::vector<mb::PlotSeries> series;
  std::vector<mb::PlotRatios> ratios;

  Report(const Options &o_, const Plan &plan_, const Setup &setup_, const Timings &t_, bool one_node_, uint64_t seed_)
      : o(o_), plan(plan_), setup(setup_), t(t_), one_node(one_node_), seed(seed_), results(t_.pairs.size()) {
    const size_t npairs = t.pairs.size();
    const int width = setup.counter_width;
    for (size_t k = 0; k < npairs; ++k) {
      for (int r = 0; r < t.rounds; ++r) results[k].times_us.push_back(1e6 * t.times[r * npairs + k]);
      results[k].ci = modeltuned::median_ci(results[k].times_us);
      if (setup.counted) results[k].calls.assign(t.calls.begin() + k * width, t.calls.begin() + (k + 1) * width);
    }
  }

  const Variant &variant(size_t k) const { return setup.variants[t.pairs[k].variant]; }
  uint64_t bytes(size_t k) const { return plan.sizes.at(variant(k).op)[t.pairs[k].size]; }

  // Returns false when the file could not be written.
  bool write_csv(std::FILE *csv) const {
    std::fprintf(csv, "op,size,variant,rep,time_us,rank_mean_us\n");
    const size_t npairs = t.pairs.size();
    for (size_t k = 0; k < npairs; ++k)
      for (int r = 0; r < t.rounds; ++r)
        std::fprintf(csv, "%s,%llu,%s,%d,%.3f,%.3f\n", std::string(modeltuned::op_name(variant(k).op)).c_str(),
                     (unsigned long long) bytes(k), variant(k).name.c_str(), r, results[k].times_us[r],
                     1e6 * t.rank_mean[r * npairs + k]);
    if (std::fclose(csv) == 0) return true;
    std::fprintf(stderr, "%s: --csv %s: writing failed (%s)\n", kProgram, o.csv.c_str(), std::strerror(errno));
    return false;
  }

  // What ran: for modeltuned the algorithm it picked, for a forced variant whether it ran as
  // itself or was handed back to Open MPI's default (sizes the algorithm cannot run).
  std::string ran(size_t k) const {
    if (!setup.counted) return "";
    const auto &c = results[k].calls;
    const uint64_t total = std::accumulate(c.begin(), c.end(), uint64_t(0));
    if (total == 0) return "not-modeltuned";
    for (int a = 0; a < setup.counter_width; ++a)
      if (c[a] == total) {
        if (total != uint64_t(t.rounds) * world_size) return "partly-modeltuned";
        if (a == 0) return "fallback";
        const auto *info = modeltuned::find_algorithm(variant(k).op, a);
        return info ? std::string(info->name) : std::to_string(a);
      }
    return "mixed";
  }

  void print_header() const {
    std::printf("%s: np=%d, %s, root=%d, %d repetitions per point (%.1f s), seed=%llu, "
                "%d buffer(s) rotated, reduce: MPI_INT MPI_SUM\n",
                kProgram, world_size, one_node ? "one node (time = first rank's start to last rank's end)"
                                              : "several nodes (time = slowest rank's own duration)",
                o.root, t.rounds, t.seconds, (unsigned long long) seed, o.rotate_buffers);
    std::printf("times in microseconds: median [95%% confidence interval of the median]; "
                "ratios of medians, '~' = intervals overlap (not significant)\n");
    if (setup.counted) std::printf("algorithms that ran: read from modeltuned's MPI_T call counters for every timed call\n");
    for (const auto &note : setup.notes) std::printf("note: %s\n", note.c_str());
  }

  // One table row per size of `op`, then notes on forced variants handed back; collects the plot.
  void print_op(Op op) {
    const std::string opname(modeltuned::op_name(op));
    std::printf("\n%-6s %9s  %-26s %-26s %-22s %-26s %-22s %8s %10s\n", "op", "bytes", "default",
                "modeltuned", "(ran)", "best forced", "(name)", "mt/best", "mt/default");
    std::map<std::string, std::vector<std::string>> fell_back;  // forced name -> sizes
    std::set<size_t> handed_back;                                // pair indices
    mb::PlotRatios op_ratios{opname, {}, {}};
    const auto &sizes = plan.sizes.at(op);
    for (size_t s = 0; s < sizes.size(); ++s) {
      const PairResult *def = nullptr, *mt = nullptr, *best = nullptr;
      std::string mt_ran = "-", best_name = "-";
      for (size_t k = 0; k < t.pairs.size(); ++k) {
        const Variant &v = variant(k);
        if (v.op != op || t.pairs[k].size != int(s)) continue;
        if (v.name == "default") def = &results[k];
        else if (v.name == "modeltuned") {
          mt = &results[k];
          if (setup.counted) mt_ran = ran(k);
        } else {
          // A forced variant handed back to the default did not run its algorithm: it does
          // not compete for "best forced".
          const std::string r = ran(k);
          if (setup.counted && r != v.name) {
            handed_back.insert(k);
            fell_back[v.name].push_back(bytes_label(sizes[s]) + (r == "fallback" ? "" : "(" + r + ")"));
            continue;
          }
          if (!best || results[k].ci.median < best->ci.median) {
            best = &results[k];
            best_name = v.name;
          }
        }
      }
      std::printf("%-6s %9llu  %-26s %-26s %-22s %-26s %-22s %8s %10s\n", opname.c_str(),
                  (unsigned long long) sizes[s], def ? ci_text(def->ci).c_str() : "-",
                  mt ? ci_text(mt->ci).c_str() : "-", mt_ran.c_str(),
                  best ? ci_text(best->ci).c_str() : "-", best_name.c_str(),
                  mt && best ? ratio_text(mt->ci, best->ci).c_str() : "-",
                  mt && def ? ratio_text(mt->ci, def->ci).c_str() : "-");
      if (mt && def) op_ratios.versus_default.push_back({double(sizes[s]), mt->ci.median / def->ci.median});
      if (mt && best) op_ratios.versus_best.push_back({double(sizes[s]), mt->ci.median / best->ci.median});
    }
    ratios.push_back(std::move(op_ratios));
    for (const auto &[name, where] : fell_back) {
      std::string list;
      for (const auto &w : where) list += (list.empty() ? "" : " ") + w;
      std::printf("note: %s forced %s was handed to Open MPI's default at: %s\n", opname.c_str(), name.c_str(), list.c_str());
    }
    for (size_t v = 0; v < setup.variants.size(); ++v) {
      if (setup.variants[v].op != op) continue;
      mb::PlotSeries ps{opname, setup.variants[v].name, {}};
      for (size_t k = 0; k < t.pairs.size(); ++k)
        if (t.pairs[k].variant == int(v) && !handed_back.count(k)) ps.points.push_back({double(bytes(k)), results[k].ci});
      series.push_back(std::move(ps));
    }
  }

  // Returns false when the plot could not be drawn.
  bool draw() const {
    const auto figure = mb::plot_figure(o.plot, series, ratios,
                                        fmt::format("np={}{}, median of {} reps, 95% CI", world_size,
                                                    one_node ? ", one node" : "", t.rounds));
    try {
      std::printf("%s\n", modeltuned::calib::draw_figures(fs::path(o.plot).parent_path(), {figure}).summary.c_str());
      return true;
    } catch (const modeltuned::calib::PlotError &e) {
      std::fprintf(stderr, "%s: --plot %s: %s\n", kProgram, o.plot.c_str(), e.what());
      return false;
    }
  }
};

// Rank 0: the CSV, the summary and the plot. Returns the exit status.
int report(const Options &o, const Plan &plan, const Setup &setup, const Timings &t, bool one_node, uint64_t seed,
           std::FILE *csv) {
  Report r(o, plan, setup, t, one_node, seed);
  int status = 0;
  if (csv && !r.write_csv(csv)) status = 1;
  r.print_header();
  for (Op op : plan.ops) r.print_op(op);
  std::fflush(stdout);
  if (!o.plot.empty() && !r.draw()) status = 1;
  return status;
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int provided;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);

  Options o;
  if (const std::optional<int> stop = parse_options(argc, argv, o)) die_everywhere(*stop);
  const Plan plan = make_plan(o);
  std::FILE *csv = open_outputs(o);
  const uint64_t seed = agree_on_seed(o);
  const bool one_node = all_on_one_node();

  Setup setup;
  const std::optional<int> initial_priority = cvar_read_int("coll_modeltuned_priority");
  create_variants(plan, initial_priority, setup);
  open_counters(plan, initial_priority.has_value(), setup);

  Buffers buf = make_buffers(o, plan);
  uint64_t call_number = 0;  // picks the buffer; identical on every rank
  warm_up(o, plan, buf, call_number, setup);
  Timings timings = measure(o, plan, seed, buf, call_number, setup);
  gather(one_node, setup, timings);

  int exit_code = world_rank == 0 ? report(o, plan, setup, timings, one_node, seed, csv) : 0;
  MPI_Bcast(&exit_code, 1, MPI_INT, 0, setup.control);
  free_setup(setup);
  MPI_T_finalize();
  MPI_Finalize();
  return exit_code;
}

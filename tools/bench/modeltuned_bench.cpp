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
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "model/registry/registry.hpp"
#include "tools/bench/plot.hpp"
#include "tools/bench/stats.hpp"

namespace fs = std::filesystem;
using modeltuned::Op;
namespace mb = modeltuned::bench;

namespace {

int world_rank = 0, world_size = 1;

// ---- options ---------------------------------------------------------------------------------

struct Options {
  std::string op = "both";
  uint64_t min_bytes = 1, max_bytes = 4u << 20;
  int steps_per_octave = 1;
  std::vector<std::string> sizes;  // explicit list, overrides the range
  int reps = 30, warmup = 2;
  double max_time = 0;  // seconds; 0 = no budget
  std::optional<uint64_t> seed;
  int rotate_buffers = 1;
  int root = 0;
  std::string csv, plot;
  std::string variants;  // restricts the variants measured (comma-separated names)
};

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

std::optional<int> cvar_index(const char *wanted) {
  int n = 0;
  MPI_T_cvar_get_num(&n);
  for (int i = 0; i < n; ++i) {
    char name[256], desc[1024];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity, binding, scope;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len,
                            &binding, &scope) == MPI_SUCCESS &&
        std::strcmp(name, wanted) == 0)
      return i;
  }
  return std::nullopt;
}

// Writes an int or string control variable; an empty string means success.
std::string cvar_write(const char *name, const void *value) {
  auto index = cvar_index(name);
  if (!index) return fmt::format("MPI_T control variable {} not found", name);
  MPI_T_cvar_handle handle;
  int count;
  if (MPI_T_cvar_handle_alloc(*index, nullptr, &handle, &count) != MPI_SUCCESS)
    return fmt::format("cannot open MPI_T control variable {}", name);
  int rc = MPI_T_cvar_write(handle, const_cast<void *>(value));
  MPI_T_cvar_handle_free(&handle);
  return rc == MPI_SUCCESS ? "" : fmt::format("writing MPI_T control variable {} failed (error {})", name, rc);
}

std::optional<int> cvar_read_int(const char *name) {
  auto index = cvar_index(name);
  if (!index) return std::nullopt;
  MPI_T_cvar_handle handle;
  int count, value = 0;
  if (MPI_T_cvar_handle_alloc(*index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  int rc = MPI_T_cvar_read(handle, &value);
  MPI_T_cvar_handle_free(&handle);
  return rc == MPI_SUCCESS ? std::optional<int>(value) : std::nullopt;
}

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

std::vector<uint64_t> log_spaced(uint64_t lo, uint64_t hi, int steps_per_octave) {
  std::vector<uint64_t> out;
  for (int i = 0;; ++i) {
    const double v = std::round(double(lo) * std::exp2(double(i) / steps_per_octave));
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
  mb::MedianCi ci;
  std::vector<uint64_t> calls;  // summed over ranks, by algorithm number (0 = handed back)
};

std::string ci_text(const mb::MedianCi &c) {
  if (!c.low) return fmt::format("{:.2f} [n/a]", c.median);
  return fmt::format("{:.2f} [{:.2f},{:.2f}]", c.median, *c.low, *c.high);
}

// Ratio of medians; '~' when the two intervals overlap (the difference is not significant).
std::string ratio_text(const mb::MedianCi &a, const mb::MedianCi &b) {
  if (b.median <= 0) return "-";
  const bool overlap = a.low && b.low && *a.low <= *b.high && *b.low <= *a.high;
  return fmt::format("{:.2f}{}", a.median / b.median, overlap ? "~" : "");
}

[[noreturn]] void die_everywhere(int code) {
  MPI_T_finalize();
  MPI_Finalize();
  std::exit(code);
}

// Rank 0 checked something only it can see (files, gnuplot); every rank learns the verdict.
void agree_or_exit(const std::string &rank0_error) {
  int bad = world_rank == 0 && !rank0_error.empty();
  MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (bad) {
    if (world_rank == 0) std::fprintf(stderr, "modeltuned-bench: %s\n", rank0_error.c_str());
    die_everywhere(2);
  }
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int provided;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);

  Options o;
  CLI::App app{
      "A/B benchmark of MPI_Bcast and MPI_Reduce: Open MPI's default decision, modeltuned, and\n"
      "every algorithm forced through modeltuned, in one job. Run under mpirun with modeltuned\n"
      "loaded (see docs/user-guide.md).",
      "modeltuned-bench"};
  app.add_option("--op", o.op, "bcast, reduce or both")->check(CLI::IsMember({"bcast", "reduce", "both"}));
  app.add_option_function<std::string>("--min-bytes", [&](const std::string &s) {
       auto b = parse_bytes(s);
       if (!b || *b < 1) throw CLI::ValidationError("--min-bytes", "'" + s + "' is not a size >= 1 (e.g. 1, 4K, 1MiB)");
       o.min_bytes = *b;
     }, "smallest message size (default 1)");
  app.add_option_function<std::string>("--max-bytes", [&](const std::string &s) {
       auto b = parse_bytes(s);
       if (!b || *b < 1 || *b > (1ull << 30)) throw CLI::ValidationError("--max-bytes", "'" + s + "' is not a size in 1..1GiB (e.g. 4MiB)");
       o.max_bytes = *b;
     }, "largest message size (default 4MiB)");
  app.add_option("--steps-per-octave", o.steps_per_octave, "sizes per doubling, log-spaced (default 1)")
      ->check(CLI::Range(1, 16));
  app.add_option("--sizes", o.sizes, "explicit message sizes instead of the range, e.g. 1,64,4K,1M")
      ->delimiter(',');
  app.add_option("--reps", o.reps, "timed repetitions per variant and size (default 30)")->check(CLI::Range(1, 1000000));
  app.add_option("--warmup", o.warmup, "untimed calls per variant and size before timing (default 2)")->check(CLI::Range(0, 1000));
  app.add_option("--max-time", o.max_time, "time budget in seconds: no new round of repetitions starts after it (0 = none)")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--seed", o.seed, "seed of the random order (default: random, printed)");
  app.add_option("--rotate-buffers", o.rotate_buffers, "cycle through N buffers so caches do not flatter one variant (default 1)")
      ->check(CLI::Range(1, 4096));
  app.add_option("--root", o.root, "root rank (default 0)")->check(CLI::NonNegativeNumber);
  app.add_option("--csv", o.csv, "write every repetition to FILE (op,size,variant,rep,time_us)");
  app.add_option("--plot", o.plot, "draw latency against size to FILE.png or FILE.svg with gnuplot");
  app.add_option("--variants", o.variants, "measure only these variants, e.g. default,modeltuned,binomial (default: all)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &) {
    if (world_rank == 0) std::fputs(app.help().c_str(), stdout);
    die_everywhere(0);
  } catch (const CLI::ParseError &e) {
    if (world_rank == 0) {
      std::string what = e.what();
      std::replace(what.begin(), what.end(), '\n', ' ');
      std::fprintf(stderr, "modeltuned-bench: %s; see modeltuned-bench --help\n", what.c_str());
    }
    die_everywhere(2);
  }
  // Every rank sees the same arguments, so these verdicts agree without communication.
  auto usage_error = [&](const std::string &text) {
    if (world_rank == 0) std::fprintf(stderr, "modeltuned-bench: %s\n", text.c_str());
    die_everywhere(2);
  };
  if (o.min_bytes > o.max_bytes)
    usage_error(fmt::format("--min-bytes {} is above --max-bytes {}; swap them", o.min_bytes, o.max_bytes));
  if (o.root >= world_size)
    usage_error(fmt::format("--root {}: this job has {} ranks; pass --root 0..{}", o.root, world_size, world_size - 1));
  if (world_size < 2) usage_error("needs at least 2 ranks; run it as mpirun -np N modeltuned-bench (N >= 2)");
  if (!o.plot.empty()) {
    std::string ext = fs::path(o.plot).extension().string();
    if (ext != ".png" && ext != ".svg") usage_error(fmt::format("--plot {}: the name must end in .png or .svg (e.g. --plot ab.png)", o.plot));
  }
  std::vector<uint64_t> requested;
  if (!o.sizes.empty()) {
    for (const auto &s : o.sizes) {
      auto b = parse_bytes(s);
      if (!b || *b < 1 || *b > (1ull << 30)) usage_error(fmt::format("--sizes: '{}' is not a size in 1..1GiB (e.g. 4096, 4K, 1MiB)", s));
      requested.push_back(*b);
    }
    std::sort(requested.begin(), requested.end());
    requested.erase(std::unique(requested.begin(), requested.end()), requested.end());
  } else {
    requested = log_spaced(o.min_bytes, o.max_bytes, o.steps_per_octave);
  }
  std::vector<Op> ops;
  if (o.op != "reduce") ops.push_back(Op::bcast);
  if (o.op != "bcast") ops.push_back(Op::reduce);
  std::map<Op, std::vector<uint64_t>> sizes;
  for (Op op : ops) {
    sizes[op] = sizes_for(op, requested);
    if (sizes[op].empty())
      usage_error(fmt::format("no reduce size is at least 4 bytes (one MPI_INT); raise --max-bytes or --sizes"));
  }
  std::set<std::string> wanted_variants;
  if (!o.variants.empty()) {
    std::string item;
    for (size_t at = 0; at <= o.variants.size(); ++at) {
      if (at == o.variants.size() || o.variants[at] == ',') {
        if (!item.empty()) wanted_variants.insert(item);
        item.clear();
      } else {
        item += o.variants[at];
      }
    }
    for (const auto &name : wanted_variants) {
      bool known = name == "default" || name == "modeltuned";
      for (Op op : ops) known = known || modeltuned::find_algorithm(op, name) != nullptr;
      if (!known)
        usage_error(fmt::format("--variants: '{}' is neither default, modeltuned nor an algorithm of {}; "
                                "see docs/openmpi-algorithms.md for the names", name, o.op));
    }
  }

  // Files and gnuplot are checked on rank 0 before measuring, so a typo costs no run.
  std::string rank0_error;
  std::FILE *csv = nullptr;
  if (world_rank == 0 && !o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) rank0_error = fmt::format("--csv {}: cannot write it ({}); pick a writable path", o.csv, std::strerror(errno));
  }
  if (world_rank == 0 && rank0_error.empty() && !o.plot.empty()) rank0_error = mb::plot_preflight(o.plot);
  agree_or_exit(rank0_error);

  uint64_t seed = o.seed.value_or(0);
  if (!o.seed && world_rank == 0) seed = std::random_device{}() * 0x100000001ull ^ std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);

  // All ranks on one node share CLOCK_MONOTONIC: a repetition then lasts from the first rank's
  // start to the last rank's end. Otherwise, the slowest rank's own duration.
  int one_node = 0;
  {
    MPI_Comm node;
    int node_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    int local_all = node_size == world_size;
    MPI_Allreduce(&local_all, &one_node, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    MPI_Comm_free(&node);
  }

  // ---- variants: one communicator each, created with modeltuned's variables set for it -------
  const std::optional<int> initial_priority = cvar_read_int("coll_modeltuned_priority");
  const int modeltuned_priority = initial_priority && *initial_priority >= 0 ? *initial_priority : 40;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::vector<Variant> variants;
  std::vector<std::string> notes;  // printed with the summary
  auto add_variant = [&](Op op, std::string name, int forced) {
    if (!wanted_variants.empty() && !wanted_variants.count(name)) return;
    Variant v{op, std::move(name), forced};
    if (v.through_modeltuned() && !initial_priority) {
      notes.push_back(fmt::format("{} {}: skipped: the modeltuned component is not loaded (no MPI_T variable "
                                  "coll_modeltuned_priority); pass -x OMPI_MCA_mca_base_component_path and "
                                  "--mca coll modeltuned,tuned,libnbc,basic,self", modeltuned::op_name(op), v.name));
      return;
    }
    std::string err = create_variant(v, modeltuned_priority);
    if (!err.empty()) {
      notes.push_back(fmt::format("{} {}: skipped: {}", modeltuned::op_name(op), v.name, err));
      return;
    }
    variants.push_back(std::move(v));
  };
  for (Op op : ops) {
    add_variant(op, "default", 0);
    add_variant(op, "modeltuned", 0);
    for (const auto &a : modeltuned::algorithm_registry())
      if (a.op == op) add_variant(op, std::string(a.name), a.id);
  }
  // Control traffic (seed, budget, results) goes through a communicator modeltuned declines, so
  // the call counters only count timed calls.
  MPI_Comm control;
  {
    const int disabled = -1;
    (void) cvar_write("coll_modeltuned_priority", &disabled);
    MPI_Comm_dup(MPI_COMM_WORLD, &control);
    if (initial_priority) (void) cvar_write("coll_modeltuned_priority", &*initial_priority);
    const char *all = "";
    (void) cvar_write("coll_modeltuned_bcast_algorithms", all);
    (void) cvar_write("coll_modeltuned_reduce_algorithms", all);
  }

  MPI_T_pvar_session session;
  const bool have_session = MPI_T_pvar_session_create(&session) == MPI_SUCCESS;
  std::map<Op, std::unique_ptr<CallCounters>> counters;
  bool counted = have_session && initial_priority;
  for (Op op : ops) {
    if (!counted) break;
    counters[op] = std::make_unique<CallCounters>(
        session, op == Op::bcast ? "coll_modeltuned_bcast_calls" : "coll_modeltuned_reduce_calls");
    if (!counters[op]->ok()) {
      notes.push_back(fmt::format("which algorithm ran is not verified: {}", counters[op]->problem()));
      counted = false;
    }
  }
  const int counter_width = counted ? counters.begin()->second->size() : 0;

  // ---- buffers and the plan ----------------------------------------------------------------
  Buffers buf;
  buf.slots = o.rotate_buffers;
  for (Op op : ops) buf.slot_bytes = std::max(buf.slot_bytes, sizes[op].back());
  try {
    buf.send.assign(buf.slot_bytes * buf.slots, 1);  // reduce sums ints of value 0x01010101: no overflow across ranks
    if (std::find(ops.begin(), ops.end(), Op::reduce) != ops.end()) buf.recv.assign(buf.slot_bytes * buf.slots, 0);
  } catch (const std::bad_alloc &) {
    usage_error(fmt::format("--rotate-buffers {} x {} bytes does not fit in memory; lower one of them",
                            buf.slots, buf.slot_bytes));
  }
  auto make_pairs = [&] {
    std::vector<Pair> out;
    for (size_t v = 0; v < variants.size(); ++v)
      for (size_t s = 0; s < sizes[variants[v].op].size(); ++s) out.push_back({int(v), int(s)});
    return out;
  };
  std::vector<Pair> pairs = make_pairs();

  uint64_t call_number = 0;  // picks the buffer; identical on every rank
  // Warm-up: tree construction, the model's decision per size class, first-touch of buffers and
  // lazily opened connections all happen here, not in a timed call. The counters show whether
  // modeltuned took each variant's communicator at all (without a usable table it declines).
  std::vector<uint64_t> taken(variants.size(), 0);
  for (int w = 0; w < o.warmup + 1; ++w)
    for (const auto &p : pairs) {
      const Variant &v = variants[p.variant];
      std::vector<uint64_t> before;
      if (counted) before = counters[v.op]->read();
      run_collective(v.op, v.comm, buf, call_number++, sizes[v.op][p.size], o.root);
      if (counted) {
        const auto after = counters[v.op]->read();
        for (int a = 0; a < counter_width; ++a) taken[p.variant] += after[a] - before[a];
      }
    }
  if (counted) {
    MPI_Allreduce(MPI_IN_PLACE, taken.data(), int(taken.size()), MPI_UINT64_T, MPI_MIN, control);
    std::vector<Variant> kept;
    for (size_t v = 0; v < variants.size(); ++v) {
      if (variants[v].through_modeltuned() && taken[v] == 0) {
        notes.push_back(fmt::format("{} {}: skipped: modeltuned declined its communicator (no usable calibration "
                                    "table?); --mca coll_modeltuned_verbose 1 says why",
                                    modeltuned::op_name(variants[v].op), variants[v].name));
        MPI_Comm_free(&variants[v].comm);
        continue;
      }
      kept.push_back(variants[v]);
    }
    variants = std::move(kept);
    pairs = make_pairs();
  }
  const size_t npairs = pairs.size();

  // Timed rounds: each round runs every pair once, in an order drawn from the shared seed.
  std::vector<double> start(npairs * o.reps), end(npairs * o.reps);
  std::vector<uint64_t> calls(npairs * std::max(counter_width, 1), 0);  // this rank's counts per pair
  std::mt19937_64 rng(seed);
  std::vector<size_t> order(npairs);
  std::iota(order.begin(), order.end(), 0);
  const double began = now();
  int rounds = 0;
  for (; rounds < o.reps; ++rounds) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t k : order) {
      const Pair &p = pairs[k];
      const Variant &v = variants[p.variant];
      const uint64_t bytes = sizes[v.op][p.size];
      std::vector<uint64_t> before;
      if (counted) before = counters[v.op]->read();
      MPI_Barrier(v.comm);
      const double t0 = now();
      run_collective(v.op, v.comm, buf, call_number++, bytes, o.root);
      const double t1 = now();
      start[rounds * npairs + k] = t0;
      end[rounds * npairs + k] = t1;
      if (counted) {
        const auto after = counters[v.op]->read();
        for (int a = 0; a < counter_width; ++a) calls[k * counter_width + a] += after[a] - before[a];
      }
    }
    int go_on = 1;
    if (world_rank == 0 && o.max_time > 0 && now() - began > o.max_time) go_on = 0;
    MPI_Bcast(&go_on, 1, MPI_INT, 0, control);
    if (!go_on) {
      ++rounds;
      break;
    }
  }
  const double measured_seconds = now() - began;

  // ---- gather: per repetition, first start to last end (one node) or slowest rank ------------
  const size_t n = rounds * npairs;
  std::vector<double> times(n);
  if (one_node) {
    std::vector<double> first_start(n), last_end(n);
    MPI_Reduce(start.data(), first_start.data(), int(n), MPI_DOUBLE, MPI_MIN, 0, control);
    MPI_Reduce(end.data(), last_end.data(), int(n), MPI_DOUBLE, MPI_MAX, 0, control);
    for (size_t i = 0; i < n; ++i) times[i] = last_end[i] - first_start[i];
  } else {
    std::vector<double> local(n);
    for (size_t i = 0; i < n; ++i) local[i] = end[i] - start[i];
    MPI_Reduce(local.data(), times.data(), int(n), MPI_DOUBLE, MPI_MAX, 0, control);
  }
  std::vector<uint64_t> all_calls(calls.size());
  MPI_Reduce(calls.data(), all_calls.data(), int(calls.size()), MPI_UINT64_T, MPI_SUM, 0, control);

  int exit_code = 0;
  if (world_rank == 0) {
    std::vector<PairResult> results(npairs);
    for (size_t k = 0; k < npairs; ++k) {
      for (int r = 0; r < rounds; ++r) results[k].times_us.push_back(1e6 * times[r * npairs + k]);
      results[k].ci = mb::median_ci(results[k].times_us);
      if (counted)
        results[k].calls.assign(all_calls.begin() + k * counter_width, all_calls.begin() + (k + 1) * counter_width);
    }
    if (csv) {
      std::fprintf(csv, "op,size,variant,rep,time_us\n");
      for (size_t k = 0; k < npairs; ++k) {
        const Variant &v = variants[pairs[k].variant];
        for (int r = 0; r < rounds; ++r)
          std::fprintf(csv, "%s,%llu,%s,%d,%.3f\n", std::string(modeltuned::op_name(v.op)).c_str(),
                       (unsigned long long) sizes[v.op][pairs[k].size], v.name.c_str(), r, results[k].times_us[r]);
      }
      if (std::fclose(csv) != 0) {
        std::fprintf(stderr, "modeltuned-bench: --csv %s: writing failed (%s)\n", o.csv.c_str(), std::strerror(errno));
        exit_code = 1;
      }
    }

    // What ran: for modeltuned the algorithm it picked, for a forced variant whether it ran as
    // itself or was handed back to Open MPI's default (sizes the algorithm cannot run).
    const uint64_t expected_calls = uint64_t(rounds) * world_size;
    auto ran = [&](size_t k) -> std::string {
      if (!counted) return "";
      const auto &c = results[k].calls;
      const uint64_t total = std::accumulate(c.begin(), c.end(), uint64_t(0));
      if (total == 0) return "not-modeltuned";
      for (int a = 0; a < counter_width; ++a)
        if (c[a] == total) {
          if (total != expected_calls) return "partly-modeltuned";
          if (a == 0) return "fallback";
          const auto *info = modeltuned::find_algorithm(variants[pairs[k].variant].op, a);
          return info ? std::string(info->name) : std::to_string(a);
        }
      return "mixed";
    };

    std::printf("modeltuned-bench: np=%d, %s, root=%d, %d repetitions per point (%.1f s), seed=%llu, "
                "%d buffer(s) rotated, reduce: MPI_INT MPI_SUM\n",
                world_size, one_node ? "one node (time = first rank's start to last rank's end)"
                                     : "several nodes (time = slowest rank's own duration)",
                o.root, rounds, measured_seconds, (unsigned long long) seed, o.rotate_buffers);
    std::printf("times in microseconds: median [95%% confidence interval of the median]; "
                "ratios of medians, '~' = intervals overlap (not significant)\n");
    if (counted) std::printf("algorithms that ran: read from modeltuned's MPI_T call counters for every timed call\n");
    for (const auto &note : notes) std::printf("note: %s\n", note.c_str());

    std::vector<mb::PlotSeries> series;
    std::vector<mb::PlotRatios> ratios;
    for (Op op : ops) {
      const std::string opname(modeltuned::op_name(op));
      std::printf("\n%-6s %9s  %-26s %-26s %-22s %-26s %-22s %8s %10s\n", "op", "bytes", "default",
                  "modeltuned", "(ran)", "best forced", "(name)", "mt/best", "mt/default");
      std::map<std::string, std::vector<std::string>> fell_back;  // forced name -> sizes
      std::set<size_t> handed_back;                                // pair indices
      mb::PlotRatios op_ratios{opname, {}, {}};
      for (size_t s = 0; s < sizes[op].size(); ++s) {
        const PairResult *def = nullptr, *mt = nullptr, *best = nullptr;
        std::string mt_ran = "-", best_name = "-";
        for (size_t k = 0; k < npairs; ++k) {
          const Variant &v = variants[pairs[k].variant];
          if (v.op != op || pairs[k].size != int(s)) continue;
          if (v.name == "default") def = &results[k];
          else if (v.name == "modeltuned") {
            mt = &results[k];
            if (counted) mt_ran = ran(k);
          } else {
            // A forced variant handed back to the default did not run its algorithm: it does
            // not compete for "best forced".
            const std::string r = ran(k);
            if (counted && r != v.name) {
              handed_back.insert(k);
              fell_back[v.name].push_back(bytes_label(sizes[op][s]) + (r == "fallback" ? "" : "(" + r + ")"));
              continue;
            }
            if (!best || results[k].ci.median < best->ci.median) {
              best = &results[k];
              best_name = v.name;
            }
          }
        }
        std::printf("%-6s %9llu  %-26s %-26s %-22s %-26s %-22s %8s %10s\n", opname.c_str(),
                    (unsigned long long) sizes[op][s], def ? ci_text(def->ci).c_str() : "-",
                    mt ? ci_text(mt->ci).c_str() : "-", mt_ran.c_str(),
                    best ? ci_text(best->ci).c_str() : "-", best_name.c_str(),
                    mt && best ? ratio_text(mt->ci, best->ci).c_str() : "-",
                    mt && def ? ratio_text(mt->ci, def->ci).c_str() : "-");
        if (mt && def) op_ratios.versus_default.push_back({double(sizes[op][s]), mt->ci.median / def->ci.median});
        if (mt && best) op_ratios.versus_best.push_back({double(sizes[op][s]), mt->ci.median / best->ci.median});
      }
      ratios.push_back(std::move(op_ratios));
      for (const auto &[name, where] : fell_back) {
        std::string list;
        for (const auto &w : where) list += (list.empty() ? "" : " ") + w;
        std::printf("note: %s forced %s was handed to Open MPI's default at: %s\n", opname.c_str(), name.c_str(), list.c_str());
      }
      for (size_t v = 0; v < variants.size(); ++v) {
        if (variants[v].op != op) continue;
        mb::PlotSeries ps{opname, variants[v].name, {}};
        for (size_t k = 0; k < npairs; ++k)
          if (pairs[k].variant == int(v) && !handed_back.count(k)) ps.points.push_back({double(sizes[op][pairs[k].size]), results[k].ci});
        series.push_back(std::move(ps));
      }
    }
    std::fflush(stdout);
    if (!o.plot.empty()) {
      std::string err = mb::draw_plot(o.plot, series, ratios,
                                      fmt::format("np={}{}, median of {} reps, 95% CI", world_size,
                                                  one_node ? ", one node" : "", rounds));
      if (!err.empty()) {
        std::fprintf(stderr, "modeltuned-bench: --plot %s: %s\n", o.plot.c_str(), err.c_str());
        exit_code = 1;
      }
    }
  }
  MPI_Bcast(&exit_code, 1, MPI_INT, 0, control);

  for (auto &v : variants) MPI_Comm_free(&v.comm);
  MPI_Comm_free(&control);
  counters.clear();
  if (have_session) MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return exit_code;
}

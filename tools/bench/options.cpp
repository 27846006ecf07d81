// modeltuned-bench's flags and the plan they ask for (see options.hpp). Sizes take binary
// multiples ("4K", "1MiB"); reduce sizes are whole MPI_INTs.
#include "tools/bench/options.hpp"

#include "config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/cli.hpp"
#include "tools/bench/job.hpp"

namespace fs = std::filesystem;

namespace modeltuned::bench {
namespace {

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
      {"", 1},          {"B", 1},        {"K", 1u << 10},  {"KI", 1u << 10},  {"KIB", 1u << 10},
      {"KB", 1u << 10}, {"M", 1u << 20}, {"MI", 1u << 20}, {"MIB", 1u << 20}, {"MB", 1u << 20}};
  auto it = units.find(unit);
  if (it == units.end()) return std::nullopt;
  return value * it->second;
}

// A message size option: "4096", "4K", "1MiB" in [lo, 1 GiB].
std::function<void(const std::string &)> size_option(const char *name, uint64_t lo, uint64_t &into) {
  return [name, lo, &into](const std::string &s) {
    auto b = parse_bytes(s);
    if (!b || *b < lo || *b > (1ull << 30))
      throw CLI::ValidationError(name, fmt::format("'{}' is not a size in {}..1GiB (e.g. 4096, 4K, 1MiB)", s, lo));
    into = *b;
  };
}

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
  if (op == Op::bcast || op == Op::allgather || op == Op::alltoall) return requested;  // MPI_BYTE
  if (op == Op::barrier) return {0};                                                   // no data: one size
  std::set<uint64_t> s;
  for (uint64_t b : requested)
    if (b >= 4) s.insert(b / 4 * 4);
  return {s.begin(), s.end()};
}

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
  for (const auto &a : algorithm_registry())
    if (std::find(ops.begin(), ops.end(), a.op) != ops.end() &&
        (" " + names + ",").find(" " + std::string(a.name) + ",") == std::string::npos)
      names += fmt::format("{}{}", names.empty() ? "" : ", ", a.name);
  for (const auto &name : wanted) {
    bool known = name == "default" || name == "modeltuned";
    for (Op op : ops) known = known || find_algorithm(op, name) != nullptr;
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
    if (!b || *b < 1 || *b > (1ull << 30))
      usage_error(fmt::format("--sizes: '{}' is not a size in 1..1GiB (e.g. 4096, 4K, 1MiB)", s));
    requested.push_back(*b);
  }
  std::sort(requested.begin(), requested.end());
  requested.erase(std::unique(requested.begin(), requested.end()), requested.end());
  return requested;
}

}  // namespace

std::optional<int> parse_options(int argc, char **argv, Options &o) {
  CLI::App app{
      "A/B benchmark of MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Barrier, MPI_Allgather and\n"
      "MPI_Alltoall: Open MPI's default decision,\n"
      "modeltuned, and every algorithm forced through modeltuned, in one job. Run under mpirun\n"
      "with modeltuned loaded (see docs/user-guide.md).",
      kProgram};
  cli::use_usage_line(app);
  int steps_per_octave = 1;
  bool quick = false;
  app.set_version_flag("--version", PACKAGE_VERSION);
  app.add_option("--op", o.op,
                 "bcast, reduce, both (bcast and reduce), allreduce, barrier (one size, no data), allgather (the "
                 "size is one rank's block), alltoall (the size is one peer's block) or all (the six)")
      ->check(CLI::IsMember({"bcast", "reduce", "both", "allreduce", "barrier", "allgather", "alltoall", "all"}));
  app.add_option_function<std::string>("--min-bytes", size_option("--min-bytes", 1, o.min_bytes),
                                       "smallest message size (default 1)");
  app.add_option_function<std::string>("--max-bytes", size_option("--max-bytes", 1, o.max_bytes),
                                       "largest message size (default 4MiB)");
  auto *steps = app.add_option("--steps-per-octave", steps_per_octave, "sizes per doubling, log-spaced (default 1)")
                    ->check(cli::whole_number(1, 16));
  app.add_option("--sizes", o.sizes, "explicit message sizes instead of the range, e.g. 1,64,4K,1M")->delimiter(',');
  app.add_option("--reps", o.reps, "timed repetitions per variant and size (default 30)")
      ->check(cli::whole_number(1, 1000000));
  auto *warmup = app.add_option("--warmup", o.warmup, "untimed calls per variant and size before timing (default 2)")
                     ->check(cli::whole_number(0, 1000));
  app.add_option("--max-time", o.max_time,
                 "time budget in seconds: no new round of repetitions starts after it (0 = none)")
      ->check(cli::number(0, 1e7));
  app.add_option("--seed", o.seed, "seed of the random order (default: random, printed)")
      ->check(cli::whole_number<uint64_t>(0));
  app.add_option("--rotate-buffers", o.rotate_buffers,
                 "cycle through N buffers so caches do not flatter one variant (default 1)")
      ->check(cli::whole_number(1, 4096));
  app.add_option("--root", o.root, "root rank (default 0)")->check(cli::whole_number(0));
  app.add_option("--csv", o.csv,
                 "write every repetition to FILE (op,size,variant,rep,time_us,rank_mean_us: the time, and the mean "
                 "over ranks of each rank's own duration)");
  app.add_option("--plot", o.plot,
                 "draw latency against size to FILE.png or FILE.svg with gnuplot (its script and data go beside it)");
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

Plan make_plan(const Options &o) {
  if (o.min_bytes > o.max_bytes)
    usage_error(fmt::format("--min-bytes {} is above --max-bytes {}; swap them", o.min_bytes, o.max_bytes));
  if (o.root >= world_size)
    usage_error(fmt::format("--root {}: this job has {} ranks; pass --root 0..{}", o.root, world_size, world_size - 1));
  if (world_size < 2) usage_error("needs at least 2 ranks; run it as mpirun -np N modeltuned-bench (N >= 2)");
  if (!o.plot.empty()) {
    std::string ext = fs::path(o.plot).extension().string();
    if (ext != ".png" && ext != ".svg")
      usage_error(fmt::format("--plot {}: the name must end in .png or .svg (e.g. --plot ab.png)", o.plot));
  }
  Plan plan;
  const bool all = o.op == "all", both = all || o.op == "both";
  if (both || o.op == "bcast") plan.ops.push_back(Op::bcast);
  if (both || o.op == "reduce") plan.ops.push_back(Op::reduce);
  if (all || o.op == "allreduce") plan.ops.push_back(Op::allreduce);
  if (all || o.op == "barrier") plan.ops.push_back(Op::barrier);
  if (all || o.op == "allgather") plan.ops.push_back(Op::allgather);
  if (all || o.op == "alltoall") plan.ops.push_back(Op::alltoall);
  plan.wanted_variants = wanted_variants(o.variants, plan.ops);
  const std::vector<uint64_t> requested = requested_sizes(o);
  for (Op op : plan.ops) {
    plan.sizes[op] = sizes_for(op, requested);
    if (plan.sizes[op].empty())
      usage_error(o.sizes.empty()
                      ? "no reduce size is at least 4 bytes (one MPI_INT); raise --max-bytes"
                      : "--sizes: no reduce size is at least 4 bytes (one MPI_INT); add one, or pass --op bcast");
  }
  return plan;
}

}  // namespace modeltuned::bench

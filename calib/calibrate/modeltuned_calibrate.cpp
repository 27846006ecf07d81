// modeltuned-calibrate: measures this machine's point-to-point, one-channel flat-tree and
// contention costs and writes a calibration table (docs/calibration.md).
//   mpirun -np N modeltuned-calibrate [-o calibration.json] [--budget SECONDS] ...
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <ctime>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include "calib/calibrate/checks.hpp"
#include "calib/calibrate/fit_input.hpp"
#include "calib/calibrate/measurements.hpp"
#include "calib/calibrate/progress.hpp"
#include "calib/calibrate/rank_placement.hpp"
#include "calib/calibrate/sample_store.hpp"
#include "calib/fit.hpp"
#include "calib/merge.hpp"
#include "calib/trial_journal.hpp"
#include "calib/plot.hpp"
#include "model/calibration/table.hpp"
#include "model/registry/registry.hpp"
#include "common/cli.hpp"
#include "common/clock.hpp"

namespace mc = modeltuned::calibrate;
using modeltuned::Channel;
using modeltuned::utc_now;

namespace {

constexpr const char *kProgram = "modeltuned-calibrate";

struct Options {
  std::string output = "calibration.json";
  std::string samples;   // default: <output>.samples.csv
  std::string plot_dir;  // empty: no plots
  uint64_t max_bytes = 4 << 20;
  double budget_s = 180;
  int reps = 0;
  uint64_t seed = 0;
  bool seed_given = false;
  std::string idle = "poll";
  std::string checks = "model";
  double trial_timeout_s = 60;
};

// Everything the interrupt handler needs to fit what was measured so far. The mutex also
// serializes writing the outputs between the main thread and the handler.
struct RunState {
  std::mutex mutex;
  bool outputs_done = false;
  Options options;
  double start = 0;  // MPI_Wtime()
  // The signal thread makes no MPI call (the library is initialized for the main thread only).
  std::chrono::steady_clock::time_point steady_start = std::chrono::steady_clock::now();
  std::unique_ptr<mc::SampleStore> store;  // rank 0
  std::optional<mc::ReduceLocalResult> reduce;
  nlohmann::json provenance = nlohmann::json::object();
  std::array<int, modeltuned::kChannels> offered_max_p{};
  std::optional<modeltuned::CalibrationTable> fitted;  // the last table fitted (rank 0): what the checks predict with
  std::optional<mc::ChecksResult> checks;              // rank 0, once measured (or why not)
  std::unique_ptr<mc::Trials> trials;                  // other components' first calls, journaled
};
RunState g_run;

double seconds_since_start() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_run.steady_start).count();
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string s(text, len);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

enum class Write {
  final,        // measurements done
  checkpoint,   // a flat-tree phase done: keeps a usable table on disk should the run be killed
  interrupted,  // signalled: the best table from what was measured
};

// The run's provenance as of now, and the local costs it measured. Caller holds g_run.mutex.
modeltuned::calib::FitOptions fit_options_now(const mc::FitInput &input, Write mode) {
  nlohmann::json provenance = g_run.provenance;
  if (!input.notes.empty()) provenance["left_out"] = input.notes;
  provenance["date"] = utc_now();
  provenance["elapsed_s"] = seconds_since_start();
  provenance["complete"] = mode == Write::final;
  provenance["interrupted"] = mode == Write::interrupted;
  provenance["samples"] = g_run.store->counts();
  const mc::ReduceLocalResult &reduce = *g_run.reduce;
  return {reduce.double_us_per_byte,
          fmt::format("measured MPI_Reduce_local(MPI_SUM, MPI_DOUBLE) on rank 0, 4 KiB - 4 MiB, {} ({:.3g} us/B; "
                      "MPI_INT {:.3g} us/B)",
                      reduce.double_method, reduce.double_us_per_byte, reduce.int_us_per_byte),
          provenance,
          reduce.fresh_us_per_byte,
          reduce.fresh_samples == 0
              ? std::string()
              : fmt::format("measured on rank 0 through this process's allocator in steady state: malloc, one "
                            "write per page, free, of one buffer and of two allocated and freed together, "
                            "4 KiB - 4 MiB each, minus writing as many pages of warm memory; per pattern a "
                            "step: the median cost per byte from the smallest size on whose cost is at least "
                            "half the largest's, the costlier pattern's for the table (one buffer {:.3g} us/B, "
                            "two buffers {:.3g} us/B; from {} B allocated at once; {} samples)",
                            reduce.fresh_one_buffer_us_per_byte, reduce.fresh_two_buffers_us_per_byte,
                            reduce.fresh_from_bytes, reduce.fresh_samples),
          std::max(0.0, reduce.fresh_one_buffer_us_per_byte),
          reduce.fresh_from_bytes};
}

// Fits the samples measured so far and saves the table. Caller holds g_run.mutex. Returns the
// exit status: 0 when the table was written. Checkpoints print nothing.
int write_outputs(Write mode) {
  const bool quiet = mode == Write::checkpoint;
  if (!g_run.store) return 1;
  g_run.store->flush();
  const std::string &samples_path = g_run.store->path();
  if (!g_run.reduce) {
    if (!quiet)
      fmt::print(stderr, "{}: nothing measured yet, no table written (raw samples: {})\n", kProgram, samples_path);
    return 1;
  }
  const mc::FitInput input = mc::select_fittable(g_run.store->snapshot(), g_run.offered_max_p);
  if (!quiet)
    for (const std::string &note : input.notes) fmt::print(stderr, "{}: {}\n", kProgram, note);
  if (input.samples.p2p.empty()) {
    if (!quiet)
      fmt::print(stderr,
                 "{}: no channel has what a table needs (see above), no table written; raw samples kept in {}\n",
                 kProgram, samples_path);
    return 1;
  }
  const modeltuned::calib::FitOptions fit_options = fit_options_now(input, mode);
  const char *when = mode == Write::interrupted ? " from what was measured before the interrupt" : "";
  try {
    modeltuned::CalibrationTable table = modeltuned::calib::fit_table(input.samples, fit_options);
    if (mode == Write::checkpoint) g_run.fitted = table;
    if (g_run.trials) {
      table.unusable = g_run.trials->failures();
      modeltuned::update_checksum(table);
    }
    if (mode == Write::final && g_run.checks) {
      const mc::ChecksResult &checks = *g_run.checks;
      if (checks.problem.empty()) {
        table.checks = checks.residuals;
        table.checks_source = checks.source;
        table.provenance["checks"] = checks.provenance;
      } else {
        table.provenance["checks"] = {{"not_measured", checks.problem}};
      }
      modeltuned::update_checksum(table);
    }
    // Write then rename, so that a kill in the middle never leaves a truncated table behind.
    const std::string &output = g_run.options.output;
    const std::string partial = output + ".partial";
    modeltuned::save_calibration(table, partial);
    if (std::rename(partial.c_str(), output.c_str()) != 0)
      throw std::runtime_error(fmt::format("cannot rename {} to {}: {}", partial, output, std::strerror(errno)));
    std::string channels;
    for (int c = 0; c < modeltuned::kChannels; ++c)
      if (table.channels[c].present)
        channels += fmt::format("{}{}", channels.empty() ? "" : ", ", modeltuned::kChannelNames[c]);
    if (!quiet)
      fmt::print(stderr, "{}: wrote {} (channels: {}){}; raw samples: {}\n", kProgram, output, channels, when,
                 samples_path);
    // Not on an interrupt: the user asked to stop, and gnuplot would only delay that.
    if (!g_run.options.plot_dir.empty() && mode == Write::final) {
      try {
        modeltuned::calib::write_plots(table, input.samples, g_run.options.plot_dir, std::cerr);
      } catch (const std::exception &e) {
        fmt::print(stderr, "{}: --plot {}: {} (the table is written)\n", kProgram, g_run.options.plot_dir, e.what());
      }
    }
    return 0;
  } catch (const modeltuned::calib::FitError &e) {
    if (!quiet)
      fmt::print(stderr, "{}: cannot fit a table{}: {}; raw samples kept in {}\n", kProgram, when, e.what(),
                 samples_path);
  } catch (const std::exception &e) {
    if (!quiet)
      fmt::print(stderr, "{}: writing {} failed: {}; raw samples kept in {}\n", kProgram, g_run.options.output,
                 e.what(), samples_path);
  }
  return 1;
}

// Ctrl-C on mpirun: Open MPI's launcher sends each rank SIGCONT, one second later SIGTERM, and
// SIGKILL a few milliseconds after that (orte/mca/odls/base, odls_base_sigkill_timeout). So
// rank 0 saves the table when SIGCONT arrives (if it was only a resume after Ctrl-Z, the run goes
// on and overwrites it at the end), and again on SIGTERM or SIGINT (signals sent directly, or a
// batch system's grace period) unless it just did. This runs on its own thread because the main
// thread may be blocked in MPI waiting for a peer that is already gone.
void wait_for_signals(sigset_t signals, int rank) {
  double saved_at = -1e9;
  for (;;) {
    int signal = 0;
    if (sigwait(&signals, &signal) != 0) continue;
    if (rank == 0) {
      std::lock_guard lock(g_run.mutex);
      const bool recent = seconds_since_start() - saved_at < 3;
      if (!g_run.outputs_done && !(signal != SIGCONT && recent)) {
        fmt::print(stderr, "\n{}: {}, saving a table from what was measured so far\n", kProgram,
                   signal == SIGCONT ? "got SIGCONT (mpirun sends it one second before it kills a job)"
                                     : fmt::format("interrupted (signal {})", signal));
        write_outputs(Write::interrupted);
        saved_at = seconds_since_start();
      }
    }
    if (signal != SIGCONT) _exit(128 + signal);
  }
}

// Parses argv identically on every rank; returns the exit status when the program must stop.
std::optional<int> parse_options(int argc, char **argv, int rank, Options &options) {
  CLI::App app{
      "Measures this machine's point-to-point and flat-tree costs per channel (cache, core, "
      "socket, node) and writes a modeltuned calibration table.\n"
      "Run under mpirun with ranks bound to cores, e.g.\n"
      "  mpirun -np 16 --bind-to core modeltuned-calibrate -o calibration.json",
      kProgram};
  modeltuned::cli::use_usage_line(app);
  app.set_version_flag("--version", PACKAGE_VERSION);
  auto *output = app.add_option("-o,--output", options.output, "calibration table to write")->capture_default_str();
  bool install_system = false;
  app.add_flag("--install-system", install_system,
               "write the table where every user's job finds it when they have none of their own: "
               "" MODELTUNED_SYSCONFDIR "/modeltuned/calibration.json (raw samples: calibration.samples.csv here)")
      ->excludes(output);
  app.add_option("--samples", options.samples, "raw samples CSV (default: <output>.samples.csv)");
  app.add_option("--plot", options.plot_dir,
                 "also draw the samples and fits into this directory (gnuplot PNGs, as modeltuned fit --plot)");
  app.add_option("--max-bytes", options.max_bytes, "largest point-to-point message, bytes (suffixes KiB, MiB accepted)")
      ->transform(CLI::AsSizeValue(false))
      ->check(modeltuned::cli::whole_number<uint64_t>(64, uint64_t{1} << 30))
      ->capture_default_str();
  app.add_option("--budget", options.budget_s, "time budget for the whole run, seconds")
      ->check(modeltuned::cli::number(5))
      ->capture_default_str();
  app.add_option("--reps", options.reps,
                 "repetitions of every measurement (default: as many as fit in the budget, 3-20)")
      ->check(modeltuned::cli::whole_number(1, 1000));
  app.add_option("--idle", options.idle,
                 "how ranks not being measured wait: poll (inside MPI, as in a real collective) or sleep "
                 "(leave the cores to the measured ranks)")
      ->check(CLI::IsMember({"poll", "sleep"}))
      ->capture_default_str();
  app.add_option("--checks", options.checks,
                 "what the checks measure beside Open MPI's default: model (the model's best candidates, with "
                 "segment sizes and fan-outs; what modeltuned needs) or algorithms (every algorithm with tuned's "
                 "forced parameters, as a model-free autotuner measures: to compare the two at one budget)")
      ->check(CLI::IsMember({"model", "algorithms"}))
      ->capture_default_str();
  app.add_option("--trial-timeout", options.trial_timeout_s,
                 "seconds another component's first call at a size may take before the job ends as hung; the same "
                 "command run again leaves it out (journal <output>.trials, or the file MODELTUNED_CALIBRATE_JOURNAL "
                 "names; modeltuned calibrate runs it again by itself)")
      ->check(modeltuned::cli::number(1))
      ->capture_default_str();
  auto *seed = app.add_option("--seed", options.seed, "random seed for sizes and order (default: random)")
                   ->check(modeltuned::cli::whole_number<uint64_t>(0));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return modeltuned::cli::handle(app, e, kProgram, rank == 0);
  }
  options.seed_given = seed->count() > 0;
  if (install_system) {
    options.output = MODELTUNED_SYSCONFDIR "/modeltuned/calibration.json";
    if (options.samples.empty()) options.samples = "calibration.samples.csv";  // raw data stays out of /etc
  }
  mc::set_idle_mode(options.idle == "sleep" ? mc::IdleMode::sleep : mc::IdleMode::poll);
  if (options.samples.empty()) options.samples = options.output + ".samples.csv";
  return std::nullopt;
}

// Rank 0 checks the output locations before measuring anything, creating the output's directory;
// every rank gets the verdict.
bool outputs_usable(int rank) {
  int ok = 1;
  if (rank == 0) {
    std::filesystem::path dir = std::filesystem::path(g_run.options.output).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code created;  // ~/.config/modeltuned or SYSCONFDIR/modeltuned may not exist yet
    std::filesystem::create_directories(dir, created);
    if (access(dir.c_str(), W_OK) != 0) {
      fmt::print(stderr, "{}: -o/--output {}: directory {} is not writable ({}); choose another path\n", kProgram,
                 g_run.options.output, dir.string(), std::strerror(errno));
      ok = 0;
    } else {
      try {
        g_run.store = std::make_unique<mc::SampleStore>(g_run.options.samples);
      } catch (const std::exception &e) {
        fmt::print(stderr, "{}: --samples: {}\n", kProgram, e.what());
        ok = 0;
      }
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok;
}

// Rank 0: what the run will measure and what it cannot (printed before measuring, so that a user
// can stop and rerun), and the provenance of the table.
void announce(const mc::WorldPlacement &world, const std::vector<mc::ChannelPeers> &channels, int size, uint64_t seed,
              mc::Progress &progress) {
  const Options &options = g_run.options;
  if (world.topology.emulated)
    progress.note(
        fmt::format("note: emulated topology ({}, HWLOC_XMLFILE); ranks placed as map-by {}, "
                    "bind-to core: channels are emulated, timings are this machine's",
                    world.topology.signature(), world.topology.mapping_policy));
  if (!world.unbound_ranks.empty())
    progress.note(
        fmt::format("warning: ranks {} are not bound to one core, their channels are guesses; "
                    "run mpirun with --bind-to core",
                    mc::describe_ranks(world.unbound_ranks)));
  if (!world.core_sharing_ranks.empty())
    progress.note(
        fmt::format("warning: ranks {} share a core, which distorts every timing; "
                    "use at most one rank per core",
                    mc::describe_ranks(world.core_sharing_ranks)));
  for (const auto &c : channels)
    if (c.max_p() < 3)
      progress.note(
          fmt::format("note: {} channel: rank 0 has one peer there, so flat trees (one rank sending to "
                      "or receiving from several) are timed with 2 ranks only and the table estimates "
                      "larger ones from that; run with more ranks {} to measure them",
                      modeltuned::channel_name(c.channel), mc::more_ranks_where(c.channel)));
  std::string plan;
  for (const auto &c : channels)
    plan += fmt::format("{}{} ({})", plan.empty() ? "" : ", ", modeltuned::channel_name(c.channel),
                        mc::describe_peers(c.peers));
  progress.note(fmt::format("{} ranks on {} host(s), topology {}; channels from rank 0: {}", size, world.hosts.size(),
                            world.topology.signature(), plan));
  std::lock_guard lock(g_run.mutex);
  for (const auto &c : channels) g_run.offered_max_p[static_cast<int>(c.channel)] = c.max_p();
  g_run.provenance = {{"tool", fmt::format("{} {}", kProgram, PACKAGE_VERSION)},
                      {"host", world.hosts.front()},
                      {"mpi_library", mpi_library_version()},
                      {"hwloc", world.topology.to_json()},
                      {"placement", mc::placement_provenance(world, channels)},
                      {"wtick_s", MPI_Wtick()},
                      {"options",
                       {{"output", options.output},
                        {"samples", options.samples},
                        {"max_bytes", options.max_bytes},
                        {"budget_s", options.budget_s},
                        {"idle", options.idle},
                        {"checks", options.checks},
                        {"reps", options.reps > 0 ? nlohmann::json(options.reps) : "auto"},
                        {"seed", seed}}}};
}

// MPI_Reduce_local and fresh memory on rank 0, a few seconds at most.
void measure_local_costs(int rank, mc::Calibrator &calibrator, mc::Progress &progress) {
  double deadline = MPI_Wtime() + std::min(2.0, 0.03 * g_run.options.budget_s);
  MPI_Bcast(&deadline, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  progress.phase("local costs", deadline, "MPI_Reduce_local and fresh memory on rank 0");
  const mc::ReduceLocalResult reduce = calibrator.reduce_local(deadline);
  if (rank == 0) {
    std::lock_guard lock(g_run.mutex);
    g_run.reduce = reduce;
    g_run.provenance["reduce_local"] = reduce.to_json();
  }
}

// The checks of the table fitted so far (the last checkpoint's), under this library's decision
// rules, until `deadline`.
void measure_checks_phase(int rank, const mc::WorldPlacement &world, uint64_t seed, double deadline,
                          mc::Progress &progress) {
  std::optional<modeltuned::CalibrationTable> fitted;
  if (rank == 0) {
    std::lock_guard lock(g_run.mutex);
    fitted = g_run.fitted;
  }
  // "Open MPI v4.1.4" (calib/merge.hpp reads the same string); another library: 4.1's rules.
  const std::string version = modeltuned::calib::mpi_version_of(mpi_library_version());
  const modeltuned::OmpiVersion ompi =
      modeltuned::parse_ompi_version(version.empty() ? "" : version.substr(std::string("Open MPI v").size()))
          .value_or(modeltuned::OmpiVersion::v4_1);
  // The checks' algorithm names as that line has them (6.0's allgather 2 is its k-radix Bruck):
  // the component looks them up by its own line's names.
  modeltuned::set_registry_release(ompi);
  const mc::CheckedCandidates candidates =
      g_run.options.checks == "algorithms" ? mc::CheckedCandidates::algorithms : mc::CheckedCandidates::model;
  if (fitted) fitted->unusable = g_run.trials->failures();  // never checked again
  mc::ChecksResult checks =
      mc::measure_checks(fitted ? &*fitted : nullptr, world.placement, ompi, candidates, g_run.options.max_bytes,
                         g_run.options.reps, deadline, seed, progress, g_run.trials.get());
  if (!checks.problem.empty()) progress.note(fmt::format("note: no checks measured: {}", checks.problem));
  if (rank == 0) {
    std::lock_guard lock(g_run.mutex);
    g_run.checks = std::move(checks);
  }
}

// The measurements, phase by phase. Time plan: measurements end early enough for the fit and
// MPI_Finalize to fit in the budget. The point-to-point phases get 25% of the time, flat trees
// 45% (they have many more combinations), split evenly between channels, and the checks of the
// fitted model on MPI_COMM_WORLD 30% (without checks: 35% and 65%); time a phase leaves unused
// goes to the next.
void measure(int rank, const mc::WorldPlacement &world, const std::vector<mc::ChannelPeers> &channels, uint64_t seed,
             mc::Progress &progress) {
  const Options &options = g_run.options;
  const double reserve = std::clamp(0.08 * options.budget_s, 1.5, 10.0);
  const double end = g_run.start + options.budget_s - reserve;
  const double nch = static_cast<double>(channels.size());
  double remaining_weight = 1.0;
  auto deadline_for = [&](double weight) {
    const double now = MPI_Wtime();
    double deadline = now + std::max(0.0, end - now) * weight / remaining_weight;
    remaining_weight -= weight;
    MPI_Bcast(&deadline, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);  // rank 0's clock decides
    return deadline;
  };

  mc::Calibrator calibrator({options.max_bytes, options.reps}, g_run.store.get(), progress, seed);
  const std::string checks_problem = mc::checks_unavailable();
  const double fit_share = checks_problem.empty() ? 0.70 : 1.0;

  measure_local_costs(rank, calibrator, progress);

  std::vector<mc::LatencyEstimate> estimates;
  for (const auto &c : channels) {
    const double deadline = deadline_for(0.35 * fit_share / nch);
    progress.phase(fmt::format("p2p {}", modeltuned::channel_name(c.channel)), deadline,
                   fmt::format("ping-pong rank 0 <-> {}", c.peers.front()));
    estimates.push_back(calibrator.ping_pong(c, deadline));
  }
  for (size_t i = 0; i < channels.size(); ++i) {
    const double deadline = deadline_for(0.65 * fit_share / nch);
    progress.phase(fmt::format("flat {}", modeltuned::channel_name(channels[i].channel)), deadline,
                   fmt::format("linear fan-out/fan-in, concurrent pairs, exchange, relay ring; rank 0 + up to {} peers",
                               channels[i].peers.size()));
    calibrator.flat_trees(channels[i], estimates[i], deadline);
    if (rank == 0) {
      std::lock_guard lock(g_run.mutex);
      write_outputs(Write::checkpoint);
    }
  }
  progress.end_phase();

  // Checks: Open MPI's default and the model's best candidates, measured against the fitted
  // table's predictions. Without them the table keeps the older margin rule (docs/model.md#margin).
  if (!checks_problem.empty()) {
    progress.note(
        fmt::format("note: no checks measured: {}; the table's margin is then its held-out "
                    "point-to-point error",
                    checks_problem));
    if (rank == 0) {
      std::lock_guard lock(g_run.mutex);
      g_run.checks = mc::ChecksResult{{}, {}, {}, checks_problem};
    }
    return;
  }
  measure_checks_phase(rank, world, seed, deadline_for(remaining_weight), progress);
}

// Rank 0's journal of the trials, on every rank (a crash in a later call is journaled by the rank
// that crashes): the file MODELTUNED_CALIBRATE_JOURNAL names (modeltuned calibrate sets it), else
// <output>.trials.
std::string trial_journal() {
  const char *named = std::getenv(modeltuned::kTrialJournalVariable);
  std::string journal = named && *named ? std::string(named) : g_run.options.output + ".trials";
  int length = static_cast<int>(journal.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  journal.resize(static_cast<size_t>(length));
  MPI_Bcast(journal.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return journal;
}

int run(int rank, int size) {
  const Options &options = g_run.options;
  if (size < 2) {
    if (rank == 0)
      fmt::print(stderr, "{}: needs at least 2 ranks; run it as mpirun -np 2 (or more) {}\n", kProgram, kProgram);
    return 2;
  }
  if (!outputs_usable(rank)) return 2;

  // Rank 0 draws every random choice; the seed is only recorded for reproducibility.
  uint64_t seed = options.seed;
  if (!options.seed_given && rank == 0) seed = std::random_device{}() * 0x9E3779B97F4A7C15ull ^ std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);

  mc::WorldPlacement world;
  try {
    world = mc::discover_world_placement();
  } catch (const std::exception &e) {
    if (rank == 0) fmt::print(stderr, "{}: cannot read the machine topology: {}\n", kProgram, e.what());
    return 1;
  }
  const std::vector<mc::ChannelPeers> channels = mc::channels_from_rank0(world.placement);

  mc::Progress progress(rank == 0, g_run.start, options.budget_s);
  g_run.trials = std::make_unique<mc::Trials>(trial_journal(), options.trial_timeout_s, rank);
  for (const modeltuned::UnusableCandidate &u : g_run.trials->failures())
    progress.note(
        fmt::format("note: {}'s {} {} at {} B on {} ranks in an earlier run of this calibration: left out "
                    "from that size up",
                    u.algorithm, u.op, u.why, u.from_bytes, u.ranks));
  if (rank == 0) announce(world, channels, size, seed, progress);
  measure(rank, world, channels, seed, progress);

  int status = 0;
  if (rank == 0) {
    std::lock_guard lock(g_run.mutex);
    if (!g_run.outputs_done) {
      g_run.outputs_done = true;
      status = write_outputs(Write::final);
      if (status == 0) g_run.trials->finished();
    }
  }
  MPI_Request request;  // the other ranks sleep while rank 0 fits
  MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  mc::quiet_wait(request);
  return status;
}

}  // namespace

int main(int argc, char **argv) {
  // Block the signals before MPI_Init so every thread MPI starts inherits the mask and only
  // wait_for_signals receives them. (A blocked SIGCONT still resumes a stopped process.)
  sigset_t interrupts;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  sigaddset(&interrupts, SIGCONT);
  pthread_sigmask(SIG_BLOCK, &interrupts, nullptr);

  mc::request_forced_algorithms();  // before MPI_Init: tuned reads it at start-up
  MPI_Init(&argc, &argv);
  int mpi_t_provided = 0;  // the checks force tuned's algorithms through MPI_T control variables
  const bool mpi_t = MPI_T_init_thread(MPI_THREAD_SINGLE, &mpi_t_provided) == MPI_SUCCESS;
  g_run.start = MPI_Wtime();
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int status = 0;
  if (std::optional<int> stop = parse_options(argc, argv, rank, g_run.options)) {
    status = *stop;
  } else {
    std::thread(wait_for_signals, interrupts, rank).detach();
    status = run(rank, size);
    // Done, with or without a table: when another rank exits with an error status, mpirun tears
    // the job down with the same signals as Ctrl-C, and there is nothing left to save.
    std::lock_guard lock(g_run.mutex);
    g_run.outputs_done = true;
  }
  if (mpi_t) MPI_T_finalize();
  MPI_Finalize();
  return status;
}

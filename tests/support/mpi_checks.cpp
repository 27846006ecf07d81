#include "tests/support/mpi_checks.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

// Last: check.h defines a fail() macro that breaks the standard headers.
#include <check.h>

#include "model/collectives/family.hpp"
#include "model/registry/registry.hpp"

namespace fs = std::filesystem;

namespace modeltuned::test {

std::vector<std::string> RunResult::all_lines() const {
  std::vector<std::string> lines = split_lines(launcher_output);
  for (const auto *m : {&rank_stdout, &rank_stderr})
    for (const auto &[rank, text] : *m)
      for (auto &l : split_lines(text)) lines.push_back(std::move(l));
  return lines;
}

std::vector<std::string> RunResult::lines_containing(const std::string &what) const {
  std::vector<std::string> out;
  for (auto &l : all_lines())
    if (contains(l, what)) out.push_back(l);
  return out;
}

std::string field(const std::string &line, const std::string &key) {
  size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return {};
  at += key.size() + 2;
  return line.substr(at, line.find(' ', at) - at);
}

long number_field(const std::string &line, const std::string &key) {
  std::string v = field(line, key);
  return v.empty() ? -1 : std::strtol(v.c_str(), nullptr, 10);
}

std::vector<TraceLine> RunResult::trace(const std::string &op) const {
  const std::string prefix = "coll:modeltuned:" + op + " ";
  std::vector<TraceLine> out;
  for (const auto &[world_rank, text] : rank_stderr)
    for (const auto &line : split_lines(text)) {
      size_t at = line.find(prefix);
      if (at == std::string::npos) continue;
      std::string rest = line.substr(at + prefix.size() - 1);
      size_t name_at = rest.find(" name="), rank_at = rest.find(" rank=");
      TraceLine t;
      t.world_rank = world_rank;
      t.op = op;
      if (name_at != std::string::npos && rank_at != std::string::npos && rank_at > name_at)
        t.name = rest.substr(name_at + 6, rank_at - name_at - 6);
      t.cid = number_field(rest, "cid");
      t.rank = number_field(rest, "rank");
      t.bytes = number_field(rest, "bytes");
      t.root = number_field(rest, "root");
      t.algorithm = field(rest, "algorithm");
      t.segsize = number_field(rest, "segsize");
      t.fanout = number_field(rest, "fanout");
      out.push_back(t);
    }
  return out;
}

static std::string tail(const std::string &s, size_t n) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

std::string RunResult::describe() const {
  std::ostringstream d;
  d << "command: " << command << "\n";
  d << "exit status: " << exit_status << (timed_out ? " (killed after timeout)" : "") << "\n";
  d << "summary: " << (summary.empty() ? "(none)" : summary) << "\n";
  int shown = 0;
  for (const auto &l : all_lines())
    if (contains(l, "MISMATCH") && shown++ < 10) d << l << "\n";
  d << "mpirun output (tail):\n" << tail(launcher_output, 3000) << "\n";
  auto r0 = rank_stderr.find(0);
  if (r0 != rank_stderr.end()) d << "rank 0 stderr (tail):\n" << tail(r0->second, 2000) << "\n";
  return d.str();
}

// Fails the current test with the run's description on stderr (the test log) and a short
// message for Check.
[[noreturn]] void fail_run(const RunResult &r, const std::string &what) {
  std::fprintf(stderr, "---- %s\n%s----\n", what.c_str(), r.describe().c_str());
  ck_abort_msg("%s (command and output in the test log): %s", what.c_str(), r.command.c_str());
  std::abort();  // ck_abort_msg does not return
}

void expect(bool ok, const RunResult &r, const std::string &what) {
  if (!ok) fail_run(r, what);
}

// Generates the emulated topology: 2 packages x 4 NUMA x 2 L3 x 4 cores (an EPYC-like node).
fs::path emulated_topology(const fs::path &dir) {
  ck_assert_msg(!lstopo().empty(), "lstopo-no-graphics was not found by configure; install hwloc");
  fs::path xml = dir / "two-sockets.xml";
  std::string cmd =
      "'" + lstopo() + "' --input 'pack:2 numa:4 l3:2 core:4 pu:1' --of xml > '" + xml.string() + "' 2>&1";
  int rc = std::system(cmd.c_str());
  ck_assert_msg(rc == 0 && fs::file_size(xml) > 0, "'%s' failed (status %d)", cmd.c_str(), rc);
  return xml;
}

RunResult run_mpi(const MpiRun &run, const fs::path &scratch) {
  Launch launch;
  launch.np = run.np;
  launch.decide_oversubscribed = run.decide_oversubscribed;
  launch.timeout_seconds = run_timeout_seconds(kRunTimeoutSeconds);
  auto mca = [&](const std::string &name, const std::string &value) {
    launch.mpirun_args.insert(launch.mpirun_args.end(), {"--mca", name, value});
  };
  // The documented forms: no list (modeltuned is on the component path and selected by its
  // priority) and the baseline ^modeltuned; a test that gives a list of its own means it.
  if (!run.coll.empty())
    mca("coll", run.coll);
  else if (!run.modeltuned)
    mca("coll", "^modeltuned");
  if (!run.calibration_file.empty()) mca("coll_modeltuned_calibration_file", run.calibration_file);
  if (run.verbose) mca("coll_modeltuned_verbose", std::to_string(run.verbose));
  if (!run.other_cost_us.empty()) mca("coll_modeltuned_other_cost_us", run.other_cost_us);
  if (run.emulate_two_sockets) {
    // Bind to emulated cores without touching the real CPUs; with 64 emulated cores Open MPI does
    // not know it is oversubscribed, so it must be told to yield or 16 spinning ranks crawl.
    const auto emulate = emulated_topology_args(emulated_topology(scratch).string(), run.np);
    launch.mpirun_args.insert(launch.mpirun_args.end(), emulate.begin(), emulate.end());
  }
  if (!run.nodes.empty()) {
    launch.wrapper = {srcdir() + "/tools/modeltuned-emulate-nodes"};
    for (const auto &e : run.node_env) launch.wrapper.insert(launch.wrapper.end(), {"--node-env", e});
    if (!run.node_topology.empty()) launch.wrapper.insert(launch.wrapper.end(), {"--topology", run.node_topology});
    launch.wrapper.insert(launch.wrapper.end(), {run.nodes, "--"});
  }
  for (const auto &[name, value] : run.mca) mca(name, value);
  launch.mpirun_args.insert(launch.mpirun_args.end(), run.extra_mpirun_args.begin(), run.extra_mpirun_args.end());
  launch.program = builddir() + "/tests/mpi/" + run.program;
  launch.program_args = run.program_args;
  if (!run.program_prefix.empty()) {
    launch.program_args.insert(launch.program_args.begin(), launch.program);
    launch.program_args.insert(launch.program_args.begin(), run.program_prefix.begin() + 1, run.program_prefix.end());
    launch.program = run.program_prefix.front();
  }

  RunResult result;
  static_cast<LaunchResult &>(result) = launch_mpi(scratch, launch);
  for (const auto &line : split_lines(result.rank_stdout[0]))
    if (line.rfind("collectives: PASS", 0) == 0 || line.rfind("collectives: FAIL", 0) == 0) {
      result.summary = line;
      result.passed = line.rfind("collectives: PASS", 0) == 0;
      for (const CollectiveFamily *family : collective_families())
        result.op_calls[op_index(family->op)] = number_field(line, std::string(op_name(family->op)) + "_calls");
    }
  return result;
}

// ---- common assertions ------------------------------------------------------------------

void expect_correct(const RunResult &r) {
  expect(!r.timed_out, r,
         "mpirun did not finish within " + std::to_string(run_timeout_seconds(kRunTimeoutSeconds)) + " s");
  expect(r.passed && r.exit_status == 0, r, "collectives reported wrong results or mpirun failed");
}

// Every rank of a communicator must run the same algorithm with the same parameters for each
// call (else the ranks' messages do not match): the ranks' traces per communicator are identical.
void expect_consistent_decisions(const RunResult &r) {
  using Call = std::tuple<std::string, long, long, std::string, long, long>;
  std::map<std::string, std::map<int, std::vector<Call>>> per_comm;  // name -> world rank -> calls
  for (const CollectiveFamily *family : collective_families()) {
    const std::string op(op_name(family->op));
    for (const auto &t : r.trace(op))
      per_comm[t.name][t.world_rank].emplace_back(op, t.bytes, t.root, t.algorithm, t.segsize, t.fanout);
  }
  for (const auto &[name, ranks] : per_comm) {
    // each op's lines were collected separately: order each rank's list the same way
    std::map<int, std::vector<Call>> sorted;
    for (const auto &[rank, calls] : ranks) {
      auto c = calls;
      std::stable_sort(c.begin(), c.end(),
                       [](const Call &a, const Call &b) { return std::get<0>(a) < std::get<0>(b); });
      sorted[rank] = std::move(c);
    }
    const auto &first = *sorted.begin();
    for (const auto &[rank, calls] : sorted)
      expect(calls == first.second, r,
             "communicator " + name + ": world ranks " + std::to_string(first.first) + " and " + std::to_string(rank) +
                 " traced different calls or decisions (" + std::to_string(first.second.size()) + " vs " +
                 std::to_string(calls.size()) + " lines)");
  }
}

// The names tests/mpi/collectives.c gives the communicators it calls on. Open MPI's own
// communicators carry other names: under 5.0, han's inter-node sub-communicators ("MPI COMM 5
// SPLIT FROM 0") reach modeltuned too, since the component han prefers there (libnbc) has no
// blocking bcast or reduce and modeltuned ranks above tuned (docs/user-guide.md, "Beside coll/han").
static bool program_comm(const std::string &name) {
  return name == "MPI_COMM_WORLD" || name == "world_dup" || name == "split_even" || name == "split_odd";
}

static long program_calls(const std::vector<TraceLine> &lines) {
  return std::count_if(lines.begin(), lines.end(), [](const TraceLine &t) { return program_comm(t.name); });
}

// Whether a composed algorithm calls collective `op` through the communicator, where modeltuned
// takes (and traces) it as one more call: allreduce nonoverlapping its reduce and bcast, allgather
// linear its bcast (after a gather modeltuned leaves to Open MPI), 6.0's allreduce
// allgather_reduce its allgather.
static bool calls_through_communicator(modeltuned::Composition composed, Op op) {
  switch (composed) {
    case modeltuned::Composition::reduce_then_bcast:
      return op == Op::reduce || op == Op::bcast;
    case modeltuned::Composition::gather_then_bcast:
      return op == Op::bcast;
    case modeltuned::Composition::allgather_then_reduce:
      return op == Op::allgather;
    case modeltuned::Composition::none:
      break;
  }
  return false;
}

// The calls of `op` that the program's calls of other collectives made through their communicator
// (one per traced call that ran such a composed algorithm): traced as the program's, on its
// communicators.
static long nested_calls(const RunResult &r, Op op) {
  long n = 0;
  for (const modeltuned::CollectiveFamily *family : modeltuned::collective_families())
    for (const TraceLine &t : r.trace(std::string(modeltuned::op_name(family->op)))) {
      const modeltuned::AlgorithmSpec *spec = modeltuned::find_algorithm(family->op, t.algorithm);
      n += program_comm(t.name) && spec && calls_through_communicator(spec->composed, op);
    }
  return n;
}

std::set<long> left_as_kept_default(const RunResult &r, const std::string &op) {
  std::set<long> cids;
  for (const std::string &l : r.all_lines())
    if (contains(l, "leaves " + op + " to ") && contains(l, "the model keeps Open MPI's default for every call"))
      cids.insert(number_field(l, "cid"));
  return cids;
}

// Modeltuned took every non-empty call on every multi-rank communicator of the program (one trace
// line per rank and call), but for ops it left whole where the model keeps the default: none of
// their calls on a communicator of every rank it left them on, and no more than the program made
// on the others.
void expect_modeltuned_took_every_call(const RunResult &r) {
  expect(r.calls(Op::bcast) > 0 || r.calls(Op::reduce) > 0, r, "the program made no calls to check");
  for (const modeltuned::CollectiveFamily *family : modeltuned::collective_families()) {
    const Op op = family->op;
    const std::string name(modeltuned::op_name(op));
    const auto lines = r.trace(name);
    // Bcast and reduce always; the others where the program made such calls (--ops).
    const std::set<long> left = left_as_kept_default(r, name);
    const long made = r.calls(op) + nested_calls(r, op);
    if (op == Op::bcast || op == Op::reduce || r.calls(op) > 0)
      expect(!left.empty() ? program_calls(lines) <= made : program_calls(lines) == made, r,
             "modeltuned traced " + std::to_string(program_calls(lines)) + " " + name + " calls, the program made " +
                 std::to_string(r.calls(op)) + " and its composed algorithms " + std::to_string(made - r.calls(op)));
    // A communicator of every rank holds its cid in every process, so a leave line with that cid
    // is its own; the two halves of a split share one cid, and their lines cannot be told apart.
    for (const auto &t : lines)
      expect(!left.count(t.cid) || !(t.name == "MPI_COMM_WORLD" || t.name == "world_dup"), r,
             "modeltuned left " + name + " whole on cid " + std::to_string(t.cid) + " (" + t.name +
                 ") and still traced a call of it there");
    for (const auto &t : lines)
      // "fallback": the margin kept Open MPI's default for this size (docs/model.md#margin)
      expect((t.algorithm == "fallback" || modeltuned::find_algorithm(op, t.algorithm)) && t.rank >= 0 &&
                 (family->moves_data ? t.bytes > 0 : t.bytes == 0) && t.root >= 0,
             r, "malformed trace line: op=" + t.op + " name=" + t.name + " algorithm=" + t.algorithm);
  }
  expect_consistent_decisions(r);
}

void expect_no_modeltuned_calls(const RunResult &r) {
  size_t n = 0;
  for (const CollectiveFamily *family : collective_families()) n += r.trace(std::string(op_name(family->op))).size();
  expect(n == 0, r, "modeltuned took " + std::to_string(n) + " calls although it should have stepped aside");
}

// The records of the decision file with an "event" (the guard's) or without one (decisions).
static std::vector<nlohmann::json> read_records(const fs::path &file, bool events) {
  std::vector<nlohmann::json> out;
  for (const std::string &line : split_lines(read_text(file))) {
    if (line.empty()) continue;
    nlohmann::json record = nlohmann::json::parse(line);
    if (record.contains("event") == events) out.push_back(std::move(record));
  }
  return out;
}

std::vector<nlohmann::json> read_decisions(const fs::path &file) { return read_records(file, false); }

std::vector<nlohmann::json> read_guard_events(const fs::path &file) { return read_records(file, true); }

std::string command_output(const std::string &cmd) {
  FILE *pipe = popen(cmd.c_str(), "r");
  std::string text;
  char chunk[4096];
  size_t n;
  while (pipe && (n = fread(chunk, 1, sizeof chunk, pipe)) > 0) text.append(chunk, n);
  return pipe && pclose(pipe) == 0 ? text : "";
}

int expect_explain_reproduces(const RunResult &r, const fs::path &decision_file, const std::string &placement_args) {
  int compared = 0;
  for (const auto &d : read_decisions(decision_file)) {
    if (d["comm"] != "MPI_COMM_WORLD") continue;
    const std::string op = d["op"];
    expect(
        d["ompi"] == ompi_series(), r,
        "the component's decision file says Open MPI " + d["ompi"].dump() + ", the tests run under " + ompi_series());
    const std::string cmd = builddir() + "/tools/modeltuned explain --json --ompi " + ompi_series() + " " +
                            placement_args + " --op " + op + " --sizes " + std::to_string(d["bytes"].get<long>()) +
                            " --type-size " + std::to_string(d["type_size"].get<long>()) + " --root " +
                            std::to_string(d["root"].get<int>());
    const std::string text = command_output(cmd);
    expect(!text.empty(), r, "explain failed: " + cmd);
    const nlohmann::json e = nlohmann::json::parse(text.empty() ? "[{}]" : text).at(0);
    expect(e["pick"] == d["pick"] && e["candidates"] == d["candidates"] && e["ompi_default"] == d["ompi_default"], r,
           op + " of " + std::to_string(d["bytes"].get<long>()) + " B: explain picks " + e["pick"].dump() +
               ", the component picked " + d["pick"].dump() + " (" + cmd + ")");
    ++compared;
  }
  return compared;
}

// The Open MPI line under test. Not ck_assert: the test loops are sized with it, outside a test.
static modeltuned::OmpiVersion line_under_test() {
  const std::optional<modeltuned::OmpiVersion> line = modeltuned::parse_ompi_version(ompi_series());
  if (!line) {
    std::fprintf(stderr, "unknown Open MPI line '%s'\n", ompi_series().c_str());
    std::abort();
  }
  return *line;
}

// Whether the line under test has a spec under number `id` of `op`.
static bool line_has_number(modeltuned::Op op, int id) {
  for (const modeltuned::AlgorithmSpec &a : modeltuned::algorithm_registry())
    if (a.op == op && a.id == id && modeltuned::in_release(a, line_under_test())) return true;
  return false;
}

std::vector<const modeltuned::AlgorithmSpec *> registered(modeltuned::Op op) {
  std::vector<const modeltuned::AlgorithmSpec *> out;
  for (const auto &a : modeltuned::algorithm_registry())
    if (a.op == op && (modeltuned::in_release(a, line_under_test()) || !line_has_number(op, a.id))) out.push_back(&a);
  return out;
}

// Restricted to an algorithm the line lacks, modeltuned says so and hands every call on.
static void expect_all_handed_on(const RunResult &r, const modeltuned::AlgorithmSpec &spec) {
  const std::string op_name(modeltuned::op_name(spec.op));
  // Another component's algorithm: Open MPI did not load that component (6.0 has no coll/sm).
  const std::string said =
      spec.component.empty() ? " not found in Open MPI's library" : " runs a component Open MPI did not load";
  expect(!r.lines_containing(std::string(spec.ompi_function) + said).empty(), r,
         "no line saying that Open MPI " + ompi_series() + " lacks " + std::string(spec.name));
  for (const auto &t : r.trace(op_name))
    expect(t.algorithm == "fallback", r, "Open MPI " + ompi_series() + " ran " + t.algorithm);
}

long expect_only_algorithm(MpiRun run, modeltuned::Op op, int index, const std::string &comm, bool served_there) {
  const auto algorithms = registered(op);
  ck_assert_int_lt(index, static_cast<int>(algorithms.size()));
  const modeltuned::AlgorithmSpec &spec = *algorithms[index];
  const std::string op_name(modeltuned::op_name(op));
  Scratch scratch("modeltuned-mpi");
  run.mca.emplace_back("coll_modeltuned_" + op_name + "_algorithms", std::string(spec.name));
  run.program_args = {"--ops=" + op_name, "--max-bytes=300000", "--all-roots-bytes=16384"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_consistent_decisions(r);
  if (!modeltuned::in_release(spec, line_under_test())) {
    expect_all_handed_on(r, spec);
    return 0;
  }
  const std::string name(spec.name);
  const auto lines = r.trace(op_name);
  const long calls = r.calls(op);
  expect(program_calls(lines) == calls, r,
         "modeltuned traced " + std::to_string(program_calls(lines)) + " " + op_name + " calls, the program made " +
             std::to_string(calls));
  long ran = 0;
  for (const auto &t : lines) {
    expect(t.algorithm == name || t.algorithm == "fallback", r,
           op_name + " restricted to " + name + " ran " + t.algorithm);
    ran += t.algorithm == name && (comm.empty() ? program_comm(t.name) : t.name == comm);
  }
  if (!served_there) {
    expect(ran == 0, r,
           op_name + " restricted to " + name + " ran it on " + comm + ", which its component does not serve");
    std::fprintf(stderr, "%s %s: not run on %s, which its component does not serve\n", op_name.c_str(), name.c_str(),
                 comm.c_str());
    return ran;
  }
  expect(ran > 0, r, op_name + " restricted to " + name + " never ran it" + (comm.empty() ? "" : " on " + comm));
  const std::string where = run.nodes.empty() ? "" : " on nodes " + run.nodes;
  if (comm.empty())
    std::fprintf(stderr, "%s %s%s: %ld of %ld calls ran it, the rest fell back\n", op_name.c_str(), name.c_str(),
                 where.c_str(), ran, calls);
  else
    std::fprintf(stderr, "%s %s%s: %ld calls on %s ran it (%ld calls on all communicators)\n", op_name.c_str(),
                 name.c_str(), where.c_str(), ran, comm.c_str(), calls);
  return ran;
}

MpiRun with_modeltuned(int np, int verbose) {
  MpiRun run;
  run.np = np;
  run.calibration_file = table_path();
  run.verbose = verbose;
  return run;
}

}  // namespace modeltuned::test

// `modeltuned explain`: what modeltuned would decide for an emulated job, offline: every candidate
// with its predicted latency, the pick, and what Open MPI 4.1's fixed rules would run instead.
// The decision is made by the same Selector the component uses, so for the same placement,
// table and call it is the component's decision.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/cli.hpp"
#include "model/collectives/family.hpp"
#include "tools/commands.hpp"
#include "tools/lib/emulate.hpp"
#include "tools/lib/explain.hpp"
#include "tools/lib/job.hpp"
#include "tools/lib/stage_sum.hpp"

namespace modeltuned::tools {
namespace {

struct ExplainOptions {
  JobOptions job;
  std::string op = "bcast";
  std::string sizes = "1,1K,64K,1M";
  size_t type_size = 1;
  int root = 0;
  bool noncommutative = false;
  std::string algorithms;
  std::string variant = "schedule";
  int top = 0;
  bool json = false;
  std::string decisions;     // a real run's decision file instead of an emulated job
  std::string ompi = "4.1";  // the Open MPI line whose default is shown
  bool without_han = false;  // as under --mca coll ^han
};

// --algorithms' help: every collective's algorithms, as the component's parameters take them.
std::string algorithms_help() {
  std::string text =
      fmt::format("restrict candidates, like coll_modeltuned_<op>_algorithms ({}):", collective_names(", ", " or "));
  for (const CollectiveFamily *family : collective_families())
    text += fmt::format(" {} {};", op_name(family->op), algorithm_names(family->op));
  text.pop_back();
  return text;
}

std::vector<size_t> parse_sizes(const std::string &list) {
  std::vector<size_t> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(parse_size(item, "--sizes"));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.empty()) throw std::invalid_argument("--sizes: give at least one size, e.g. 1,64K,1M");
  return out;
}

// A guard's record of the decision file: a window it concluded, or a pick it took back.
std::string format_guard_event(const nlohmann::json &e) {
  const std::string where =
      fmt::format("communicator {} (cid {}), world rank {}: the guard", e.value("comm", std::string("?")),
                  e.value("cid", -1), e.value("world_rank", -1));
  const std::string what =
      fmt::format("{} {} of {}-{} B at root {}", e.value("op", std::string("?")), e.value("pick", std::string("?")),
                  e.value("bytes_from", 0ull), e.value("bytes_below", 1ull) - 1, e.value("root", -1));
  const std::string times =
      fmt::format("{:.3f} us against Open MPI's default's {:.3f} us ({})", e.value("pick_us", 0.0),
                  e.value("default_us", 0.0), e.value("default", std::string("?")));
  if (e.value("event", std::string()) == "window")
    return fmt::format("{} compared {} in window {} ending at call {}: {}; the pick {} the window\n", where, what,
                       e.value("windows", 0), e.value("call", 0ull), times, e.value("verdict", std::string("?")));
  return fmt::format("{} took back {} at call {}: it took {} in {} windows; the default runs from then on\n", where,
                     what, e.value("call", 0ull), times, e.value("windows", 0));
}

// `--decisions FILE`: a real run's decisions (coll_modeltuned_decision_file), printed like a what-if,
// and what the guard compared and took back.
int print_decision_file(const std::string &path, int top, bool json) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("--decisions {}: cannot read it", path));
  std::string line;
  int n = 0, line_number = 0;
  nlohmann::json all = nlohmann::json::array();
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    nlohmann::json d;
    try {
      d = nlohmann::json::parse(line);
      if (d.contains("event")) {  // the guard's: printed after the decision it changed
        if (json)
          all.push_back(d);
        else
          fmt::print("{}", format_guard_event(d));
        continue;
      }
      if (!d.contains("op") || !d.contains("candidates") || !d.contains("pick"))
        throw std::invalid_argument("missing op, pick or candidates");
    } catch (const std::exception &e) {
      throw std::invalid_argument(
          fmt::format("--decisions {}:{}: not a decision record ({}); the file must come "
                      "from coll_modeltuned_decision_file",
                      path, line_number, e.what()));
    }
    ++n;
    if (json) {
      all.push_back(d);
      continue;
    }
    fmt::print("communicator {} (cid {}, {} ranks, channels {}), world rank {}:\n", d.value("comm", std::string("?")),
               d.value("cid", -1), d.value("comm_size", 0), d.value("channels", std::string("?")),
               d.value("world_rank", -1));
    fmt::print("{}", format_decision(d, top));
  }
  if (json) std::cout << all.dump(2) << "\n";
  if (n == 0) throw std::invalid_argument(fmt::format("--decisions {}: no decisions in it", path));
  return 0;
}

int run_explain(const ExplainOptions &o) {
  if (!o.decisions.empty()) return print_decision_file(o.decisions, o.top, o.json);
  const Placement placement = job_placement(o.job);
  const CalibrationTable table = load_job_table(job_table_path(o.job), placement);
  const std::optional<Op> collective = find_collective(o.op);
  if (!collective) throw std::invalid_argument(fmt::format("--op '{}': use {}", o.op, collective_names(", ", " or ")));
  const Op op = *collective;
  if (o.type_size < 1) throw std::invalid_argument("--type-size must be at least 1");
  if (o.root < 0 || o.root >= o.job.np)
    throw std::invalid_argument(fmt::format("--root {}: must be in 0..{}", o.root, o.job.np - 1));
  const TreeSchedule schedule =
      o.variant == "schedule" ? TreeSchedule{nullptr}
      : o.variant == "stage_sum"
          ? stage_sum_us
          : throw std::invalid_argument(fmt::format("--variant '{}': use schedule or stage_sum", o.variant));
  const AlgorithmMask allowed = parse_algorithm_list(op, o.algorithms);

  // A collective that moves no data has one call to explain, whatever --sizes says.
  const std::vector<size_t> sizes = collective_family(op).moves_data ? parse_sizes(o.sizes) : std::vector<size_t>{0};
  WhatIf what_if{op, sizes, o.type_size, o.root, !o.noncommutative, allowed, schedule};
  if (auto v = parse_ompi_version(o.ompi)) {
    what_if.ompi = *v;
    set_registry_release(*v);  // names and numbers as that release has them
  } else
    throw std::invalid_argument(fmt::format("--ompi '{}': use {}", o.ompi, ompi_version_names()));
  what_if.han_enabled = !o.without_han;
  const nlohmann::json decisions = explain_what_if(table, placement, what_if);
  if (o.json)
    std::cout << decisions.dump(2) << "\n";
  else
    for (const nlohmann::json &d : decisions) fmt::print("{}", format_decision(d, o.top));
  return 0;
}

}  // namespace

void add_explain_command(CLI::App &app) {
  auto o = std::make_shared<ExplainOptions>();
  CLI::App *cmd = app.add_subcommand(
      "explain",
      "Show every candidate's predicted latency, modeltuned's pick and Open MPI's default for an emulated job");
  cmd->footer(
      "Examples:\n"
      "  modeltuned explain --machine orfeo-epyc --map-by core -n 256 --op bcast --sizes 1,64K,1M\n"
      "  modeltuned explain --machine orfeo-epyc --nodes 8 -n 1024 --op reduce    (8 full nodes of 128 cores)\n"
      "  modeltuned explain --machine orfeo-epyc --hosts 8x4 --map-by node -n 32  (4 ranks on each of 8 nodes)");
  add_job_options(*cmd, o->job);
  cmd->add_option("--decisions", o->decisions,
                  "print a real run's decisions and the guard's windows and take-backs (the file "
                  "coll_modeltuned_decision_file wrote) instead");
  cmd->add_option("--op", o->op, collective_names(", ", " or "))->capture_default_str();
  cmd->add_option("--sizes", o->sizes, "message sizes in bytes, comma-separated; K, M, G suffixes")
      ->capture_default_str();
  cmd->add_option("--type-size", o->type_size, "datatype size in bytes (segment counts depend on it)")
      ->check(cli::whole_number<size_t>(1))
      ->capture_default_str();
  cmd->add_option("--root", o->root, "root rank")->check(cli::whole_number(0))->capture_default_str();
  cmd->add_flag("--noncommutative", o->noncommutative, "the reduction operation is not commutative");
  cmd->add_option("--algorithms", o->algorithms, algorithms_help());
  cmd->add_option("--variant", o->variant,
                  "cost model: schedule (default, the component's) or stage_sum (the report's eq. 2-3)")
      ->capture_default_str();
  cmd->add_option("--top", o->top, "show only the N best candidates per size (0: all)")
      ->check(cli::whole_number(0))
      ->capture_default_str();
  cmd->add_option("--ompi", o->ompi,
                  "the Open MPI line the component runs under (4.1, 5.0 or 6.0): its default decision "
                  "is shown and weighed, as the component does")
      ->capture_default_str();
  cmd->add_flag("--without-han", o->without_han,
                "as under --mca coll ^han: under 5.0, han otherwise runs bcast and reduce on a communicator across "
                "nodes, and where a node holds two or more of its ranks the component leaves both to it");
  cmd->add_flag("--json", o->json, "machine-readable output");
  cmd->callback([o]() {
    try {
      std::exit(run_explain(*o));
    } catch (const std::exception &e) {
      fmt::print(stderr, "modeltuned explain: {}\n", e.what());
      std::exit(2);
    }
  });
}

}  // namespace modeltuned::tools

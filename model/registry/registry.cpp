#include "model/registry/registry.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

#include "model/collectives/family.hpp"

namespace modeltuned {
namespace {

AlgorithmRegistry &global_registry() {
  static AlgorithmRegistry registry;
  static const bool built = [] {
    for (const CollectiveFamily *family : collective_families())
      for (const AlgorithmSpec &spec : family->algorithms) registry.add(spec);
    for (const AlgorithmSpec &spec : component_algorithms()) registry.add(spec);
    return true;
  }();
  (void)built;
  return registry;
}

bool is_number(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Why `spec` cannot join the registry, or empty.
std::string problem(const AlgorithmRegistry &registry, const AlgorithmSpec &spec) {
  // Bit `id` of a 32-bit mask allows the algorithm; 0 stands for Open MPI's own decision.
  if (spec.id < 1 || spec.id > 31) return "its number must be 1..31";
  if (spec.name.empty() || is_number(spec.name) || is_number(spec.tuned_name))
    return "it needs a name that is not a number";
  const bool planless =
      spec.composed == Composition::reduce_then_bcast || spec.composed == Composition::allgather_then_reduce;
  if (spec.ompi_function.empty() || (!planless && !measured_only(spec) && (!spec.plan || !spec.evaluate)))
    return "it needs an ompi_function, a plan builder and an evaluator";
  if (spec.component.empty() == (spec.id >= kFirstComponentId))
    return fmt::format("numbers from {} are other components' algorithms, and only theirs", kFirstComponentId);
  if (spec.until < spec.since) return "its last release comes before its first";
  if (spec.parameters.fanout_name.empty() != spec.parameters.fanouts.empty())
    return "a fan-out needs both a name and the values to search";
  for (const AlgorithmSpec &other : registry) {
    if (other.op != spec.op) continue;
    auto named = [&](std::string_view n) { return !n.empty() && (n == other.name || n == other.tuned_name); };
    // Specs share a number or a name only across releases (6.0's Rabenseifner allreduce), and a
    // name keeps its number.
    const bool releases_overlap = spec.since <= other.until && other.since <= spec.until;
    const bool same_name = named(spec.name) || named(spec.tuned_name);
    if ((releases_overlap && (other.id == spec.id || same_name)) || (same_name && other.id != spec.id))
      return fmt::format("it clashes with {} ({})", other.name, other.id);
  }
  return {};
}

}  // namespace

std::string_view AlgorithmRegistry::keep(std::string_view text) { return text_.emplace_back(text); }

const AlgorithmSpec &AlgorithmRegistry::add(const AlgorithmSpec &spec) {
  if (std::string why = problem(*this, spec); !why.empty())
    throw std::invalid_argument(
        fmt::format("cannot register {} algorithm '{}' ({}): {}", op_name(spec.op), spec.name, spec.id, why));
  AlgorithmSpec kept = spec;
  kept.name = keep(spec.name);
  kept.tuned_name = keep(spec.tuned_name);
  kept.description = keep(spec.description);
  kept.parameters.fanout_name = keep(spec.parameters.fanout_name);
  kept.ompi_function = keep(spec.ompi_function);
  kept.component = keep(spec.component);
  kept.serves_only = keep(spec.serves_only);
  return specs_.emplace_back(kept);
}

const AlgorithmRegistry &algorithm_registry() { return global_registry(); }

const AlgorithmSpec &register_algorithm(const AlgorithmSpec &spec) { return global_registry().add(spec); }

std::atomic<OmpiVersion> &release_of_registry() {
  static std::atomic<OmpiVersion> release{OmpiVersion::v4_1};
  return release;
}

void set_registry_release(OmpiVersion ompi) { release_of_registry().store(ompi); }
OmpiVersion registry_release() { return release_of_registry().load(); }

// The first spec `matches` accepts, preferring one of the registry's release.
template <class Matches>
const AlgorithmSpec *find_for_release(Matches matches) {
  const AlgorithmSpec *found = nullptr;
  const OmpiVersion release = registry_release();
  for (const AlgorithmSpec &a : algorithm_registry()) {
    if (!matches(a)) continue;
    if (in_release(a, release)) return &a;
    if (!found) found = &a;
  }
  return found;
}

const AlgorithmSpec *find_algorithm(Op op, int id) {
  return find_for_release([&](const AlgorithmSpec &a) { return a.op == op && a.id == id; });
}

bool listed_for_release(const AlgorithmSpec &spec) {
  return in_release(spec, registry_release()) || find_algorithm(spec.op, spec.id) == &spec;
}

Candidate forced_candidate(Op op, int algorithm) {
  const AlgorithmSpec *spec = find_algorithm(op, algorithm);
  return Candidate{op, algorithm, 0, spec ? spec->parameters.tuned_forced_fanout : 0};
}

const AlgorithmSpec *find_algorithm(Op op, std::string_view name_or_id) {
  int id = 0;
  auto [end, ec] = std::from_chars(name_or_id.data(), name_or_id.data() + name_or_id.size(), id);
  if (ec == std::errc() && end == name_or_id.data() + name_or_id.size()) return find_algorithm(op, id);
  return find_for_release([&](const AlgorithmSpec &a) {
    return a.op == op && !name_or_id.empty() && (a.name == name_or_id || a.tuned_name == name_or_id);
  });
}

std::string algorithm_names(Op op) {
  std::string out;
  for (const AlgorithmSpec &a : algorithm_registry()) {
    if (a.op != op || !listed_for_release(a)) continue;
    out += fmt::format("{}{}", out.empty() ? "" : ", ", a.name);
    if (!a.tuned_name.empty() && a.tuned_name != a.name) out += fmt::format(" or {}", a.tuned_name);
    out += fmt::format(" ({})", a.id);
  }
  return out;
}

std::string bytes_label(uint64_t bytes) {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) return fmt::format("{}MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{}KiB", bytes >> 10);
  return fmt::format("{}B", bytes);
}

std::string describe(const Candidate &c) {
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  if (!spec) return fmt::format("algorithm{}", c.algorithm);
  std::string params;
  if (!spec->parameters.fanout_name.empty()) params += fmt::format("{}={}", spec->parameters.fanout_name, c.fanout);
  if (spec->parameters.segmented)
    params += fmt::format("{}segsize={}", params.empty() ? "" : ",", c.segsize ? bytes_label(c.segsize) : "0");
  return params.empty() ? std::string(spec->name) : fmt::format("{}({})", spec->name, params);
}

}  // namespace modeltuned

#include "tools/ab/arms.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

extern char **environ;

namespace modeltuned::ab {
namespace {

constexpr const char *kName = "modeltuned";

std::vector<std::string> split_list(const std::string &list) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) names.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

std::string join(const std::vector<std::string> &names) {
  std::string out;
  for (const auto &n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

bool is_mca_flag(const std::string &word) {
  return word == "--mca" || word == "-mca" || word == "--gmca" || word == "-gmca";
}

constexpr const char *kCollVariable = "OMPI_MCA_coll";

// Rewrites, in the baseline's copy of the command, every coll list the command line holds;
// returns what it changed ("" when there is none).
std::string rewrite_command_lists(std::vector<std::string> &argv) {
  std::string change;
  const std::string prefix = std::string(kCollVariable) + "=";
  for (size_t i = 0; i + 1 < argv.size(); ++i) {
    std::string *value = nullptr, where;
    if (is_mca_flag(argv[i]) && argv[i + 1] == "coll" && i + 2 < argv.size()) {
      value = &argv[i + 2];
      where = argv[i] + " coll " + *value;
    } else if (argv[i] == "-x" && argv[i + 1].starts_with(prefix)) {
      value = &argv[i + 1];
      where = "-x " + *value;
    }
    if (!value) continue;
    const bool assignment = argv[i] == "-x";
    const std::string list = assignment ? value->substr(prefix.size()) : *value;
    const std::string rewritten = baseline_coll_list(list, where + " (in the command)");
    *value = assignment ? prefix + rewritten : rewritten;
    change += (change.empty() ? "" : ", ") +
              (assignment ? fmt::format("-x {}", *value) : fmt::format("{} coll {}", argv[i], rewritten));
  }
  return change;
}

}  // namespace

std::string baseline_coll_list(const std::string &list, const std::string &where) {
  const bool exclude = list.starts_with("^");
  std::vector<std::string> names = split_list(exclude ? list.substr(1) : list);
  const bool named = std::find(names.begin(), names.end(), kName) != names.end();
  if (exclude) {
    if (named)
      throw UsageError(
          fmt::format("{} excludes modeltuned, so the modeltuned jobs would run without it too; "
                      "remove it from the list (the baseline excludes it itself)",
                      where));
    names.push_back(kName);
    return "^" + join(names);
  }
  if (names.empty()) return std::string("^") + kName;  // an empty list selects every component
  if (!named)
    throw UsageError(
        fmt::format("{} is an include list without modeltuned: both jobs would run without it; "
                    "add modeltuned to it (the baseline takes it out) or give no list",
                    where));
  names.erase(std::remove(names.begin(), names.end(), kName), names.end());
  if (names.empty())
    throw UsageError(
        fmt::format("{} names modeltuned alone: Open MPI needs its other collective components too; "
                    "give no list",
                    where));
  return join(names);
}

Arms make_arms(const AbOptions &o, const std::optional<std::string> &environment_coll) {
  Arms arms;
  arms.modeltuned = {"modeltuned", o.command, o.modeltuned_env};
  arms.baseline = {"baseline", o.command, {}};
  arms.baseline_change = rewrite_command_lists(arms.baseline.argv);
  if (arms.baseline_change.empty()) {
    const std::string list = environment_coll
                                 ? baseline_coll_list(*environment_coll, fmt::format("{}={} (in the environment)",
                                                                                     kCollVariable, *environment_coll))
                                 : std::string("^") + kName;
    arms.baseline.env.emplace_back(kCollVariable, list);
    arms.baseline_change = fmt::format("{}={}", kCollVariable, list);
  }
  arms.baseline.env.insert(arms.baseline.env.end(), o.baseline_env.begin(), o.baseline_env.end());
  for (const auto &[name, value] : o.baseline_env) arms.baseline_change += fmt::format(", {}={}", name, value);
  for (const std::string &component : o.components) {
    Arm arm = arms.baseline;
    arm.name = component;
    arm.env.emplace_back(fmt::format("OMPI_MCA_coll_{}_priority", component), "90");
    arms.components.push_back(std::move(arm));
  }
  return arms;
}

Variables mca_base_settings(const std::vector<std::string> &argv) {
  Variables settings;
  for (size_t i = 0; i + 1 < argv.size(); ++i) {
    const std::string &next = argv[i + 1];
    if (is_mca_flag(argv[i]) && next.starts_with("mca_base_") && i + 2 < argv.size())
      settings.emplace_back("OMPI_MCA_" + next, argv[i + 2]);
    else if (const size_t eq = next.find('=');
             argv[i] == "-x" && next.starts_with("OMPI_MCA_mca_base_") && eq != std::string::npos)
      settings.emplace_back(next.substr(0, eq), next.substr(eq + 1));
  }
  return settings;
}

std::vector<std::string> environment_with(const Variables &set) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) env.emplace_back(*e);
  for (const auto &[name, value] : set) {
    const std::string prefix = name + "=";
    env.erase(std::remove_if(env.begin(), env.end(), [&](const std::string &v) { return v.starts_with(prefix); }),
              env.end());
    env.push_back(prefix + value);
  }
  return env;
}

std::string shell_words(const std::vector<std::string> &argv) {
  std::string out;
  for (const auto &word : argv) {
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("-_./=:,+^@%", c);
    });
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? word : quoted + "'");
  }
  return out;
}

}  // namespace modeltuned::ab

#include "tools/ab/completed.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tools/ab/options.hpp"

namespace modeltuned::ab {
namespace {

// Throws unless `part` is the first tables of `full`, the last of them perhaps cut short.
void check_prefix(const std::vector<SizeTable> &full, const std::vector<SizeTable> &part, int round) {
  if (part.size() > full.size())
    throw RunError(fmt::format("round {}: the baseline printed {} tables, the modeltuned job {}", round, part.size(),
                               full.size()));
  for (size_t k = 0; k < part.size(); ++k) {
    const bool prefix = part[k].name == full[k].name && part[k].sizes.size() <= full[k].sizes.size() &&
                        std::equal(part[k].sizes.begin(), part[k].sizes.end(), full[k].sizes.begin());
    if (!prefix)
      throw RunError(
          fmt::format("round {}: the baseline's table {} ({}) is not the first rows of the modeltuned "
                      "job's ({})",
                      round, k + 1, part[k].name, full[k].name));
  }
}

void cut(SizeTable &t, size_t rows) {
  t.sizes.resize(std::min(rows, t.sizes.size()));
  t.values.resize(std::min(rows, t.values.size()));
}

// How the baseline jobs that did not complete table k ended: "signal 11 in 20 of 20 rounds".
std::string endings(const std::vector<Round> &rounds, size_t k, size_t rows) {
  std::map<std::string, int> count;
  for (const Round &r : rounds)
    if (k >= r.baseline.tables.size() || r.baseline.tables[k].sizes.size() < rows) ++count[r.baseline.failed];
  std::string out;
  for (const auto &[status, n] : count)
    out += fmt::format("{}{} in {} of {} rounds", out.empty() ? "" : ", ", status.empty() ? "completed" : status, n,
                       rounds.size());
  return out;
}

}  // namespace

std::vector<std::string> score_completed(std::vector<Round> &rounds) {
  if (rounds.empty()) return {};
  const std::vector<SizeTable> full = rounds.front().modeltuned.tables;
  std::vector<size_t> rows;  // per table, the rows every baseline completed
  for (const SizeTable &t : full) rows.push_back(t.sizes.size());
  for (size_t i = 0; i < rounds.size(); ++i) {
    check_prefix(full, rounds[i].baseline.tables, static_cast<int>(i + 1));
    for (size_t k = 0; k < full.size(); ++k)
      rows[k] = std::min(rows[k], k < rounds[i].baseline.tables.size() ? rounds[i].baseline.tables[k].sizes.size() : 0);
  }
  std::vector<std::string> notes;
  for (size_t k = 0; k < full.size(); ++k) {
    if (rows[k] == full[k].sizes.size()) continue;
    const std::string why = endings(rounds, k, full[k].sizes.size());
    notes.push_back(rows[k] == 0 ? fmt::format("{}: left out, no baseline job completed it ({})", full[k].name, why)
                                 : fmt::format("{}: scored up to {}, where every baseline job completed it ({})",
                                               full[k].name, size_label(full[k].sizes[rows[k] - 1]), why));
  }
  // Cut from the last table down, so that leaving one out moves none still to be cut.
  for (size_t k = full.size(); k-- > 0;)
    for (Round &r : rounds)
      for (JobRecord *job : {&r.baseline, &r.modeltuned}) {
        if (k >= job->tables.size()) continue;
        if (rows[k] == 0)
          job->tables.erase(job->tables.begin() + static_cast<long>(k));
        else
          cut(job->tables[k], rows[k]);
      }
  return notes;
}

}  // namespace modeltuned::ab

#include "calib/trial_journal.hpp"

#include <fstream>
#include <map>
#include <sstream>

namespace modeltuned {

std::vector<UnusableCandidate> read_trial_journal(const std::string &journal) {
  std::ifstream in(journal);
  std::map<std::string, std::string> state;  // "op algorithm bytes ranks" -> its last word
  std::vector<std::string> order;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string what, op, algorithm, bytes, ranks;
    if (!(words >> what >> op >> algorithm >> bytes >> ranks)) continue;  // a line cut short by the crash
    const std::string key = op + " " + algorithm + " " + bytes + " " + ranks;
    if (!state.count(key)) order.push_back(key);
    if (what == "start" || state[key] != "hung") state[key] = what;
  }
  std::vector<UnusableCandidate> out;
  for (const std::string &key : order) {
    if (state[key] == "done") continue;
    std::istringstream words(key);
    UnusableCandidate u;
    words >> u.op >> u.algorithm >> u.from_bytes >> u.ranks;
    u.why = state[key] == "hung" ? "hung" : "crashed";
    out.push_back(u);
  }
  return out;
}

}  // namespace modeltuned

// The two jobs of an A/B round: the baseline (Open MPI's own decisions) and modeltuned (the
// command as given), from the user's command, the coll list it or the environment holds, and the
// variables given for one arm.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tools/ab/options.hpp"

namespace modeltuned::ab {

struct Arm {
  std::string name;  // "baseline" or "modeltuned"
  std::vector<std::string> argv;
  Variables env;  // set on top of the tool's environment, in order
};

struct Arms {
  Arm baseline, modeltuned;
  std::vector<Arm> components;  // --component-arm: the baseline with the component switched on, named after it
  std::string baseline_change;  // what the baseline changes, for the report: "OMPI_MCA_coll=^modeltuned"
};

// The baseline's coll list for the user's `list` (found `where`, for the message): an exclude list
// (^a,b) gets ,modeltuned unless it names it; an include list loses modeltuned. Throws UsageError
// for an include list without modeltuned (both jobs would run without it) or one of modeltuned
// alone, and for an exclude list naming modeltuned (the modeltuned job would run without it).
std::string baseline_coll_list(const std::string &list, const std::string &where);

// `environment_coll`: OMPI_MCA_coll of the tool's environment, if set. Throws UsageError.
Arms make_arms(const AbOptions &o, const std::optional<std::string> &environment_coll);

// The command line's mca_base_ settings (--mca mca_base_component_path DIR, -x
// OMPI_MCA_mca_base_...=V) as environment variables, for running ompi_info as the job would.
Variables mca_base_settings(const std::vector<std::string> &argv);

// The tool's environment with `set` applied (NAME=VALUE strings, for execve).
std::vector<std::string> environment_with(const Variables &set);

// The command line as a shell would take it back: words quoted where needed.
std::string shell_words(const std::vector<std::string> &argv);

}  // namespace modeltuned::ab

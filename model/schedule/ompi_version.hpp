// The Open MPI release line whose behaviour the model reproduces: the component passes the one it
// runs under, `modeltuned explain --ompi` either. What differs between them is keyed by this value
// (docs/openmpi-algorithms.md, "Open MPI 5.0" and "Open MPI 6.0"): the k-ary tree builder's
// fan-out 1, which 5.0 turns into a pipeline where 4.1 divides by zero; the algorithms a release
// adds (AlgorithmSpec::since) or replaces (AlgorithmSpec::until); and the fan-out 6.0's fixed rules
// pass to reduce and allgather (2, where 4.1 and 5.0 pass 0). The fixed rules' branches are the
// same in 4.1.4, 5.0.7 and 6.0's v6.0.x branch.
#pragma once
#include <optional>
#include <string_view>

namespace modeltuned {

enum class OmpiVersion { v4_1, v5_0, v6_0 };

// "4.1", "5.0" or "6.0" (a release such as "5.0.7" or "6.0.0rc2" is accepted too); nullopt for
// anything else.
std::optional<OmpiVersion> parse_ompi_version(std::string_view text);
std::string_view ompi_version_name(OmpiVersion v);
// The lines' names, oldest first, for messages: "4.1, 5.0 or 6.0".
std::string_view ompi_version_names();

}  // namespace modeltuned

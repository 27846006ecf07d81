// The Open MPI release line whose behaviour the model reproduces: the component passes the one it
// runs under, `modeltuned explain --ompi` either. What differs between them is keyed by this value
// (docs/openmpi-algorithms.md, "Open MPI 5.0"): the k-ary tree builder's fan-out 1, which 5.0 turns
// into a pipeline where 4.1 divides by zero. The fixed decision rules, the bcast and reduce
// algorithms and the other tree builders are the same in 4.1.4 and 5.0.7 (the files are identical
// or differ in comments and error paths), so the code paths keyed here agree on everything else;
// the key is where a later release's changes go.
#pragma once
#include <optional>
#include <string_view>

namespace modeltuned {

enum class OmpiVersion { v4_1, v5_0 };

// "4.1" or "5.0" (a release such as "5.0.7" is accepted too); nullopt for anything else.
std::optional<OmpiVersion> parse_ompi_version(std::string_view text);
std::string_view ompi_version_name(OmpiVersion v);

}  // namespace modeltuned

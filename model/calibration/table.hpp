// The calibration table: the platform's point-to-point and flat-tree costs per channel.
// File format: docs/calibration-format.md (JSON, "format": "modeltuned-calibration", version 1).
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/collectives/list.h"
#include "model/topology/placement.hpp"

namespace modeltuned {

// Version 2 adds the optional per-channel "concurrent" and "exchange" curves and the optional
// "checks" (CheckResidual); version 3 sized checks; version 4 the optional per-channel "relay";
// versions 5, 7, 8 and 9 checks of a collective newer than bcast and reduce, each collective's in
// collectives/list.h (checks_version); version 6 the optional "memory.from_bytes"; version 10
// the optional "checks"."unusable" (UnusableCandidate); version 11 checks "relative_to" the default.
// A table is written as the oldest version that holds what it has, so old tables load, checksum
// and predict as before.
inline constexpr int kCalibrationVersion = 11;
inline constexpr int kOldestCalibrationVersion = 1;
inline constexpr std::string_view kCalibrationFormatName = "modeltuned-calibration";
// The oldest version whose checks may carry collective `op` (op_name's spelling); 0 for a name
// that is no collective.
inline constexpr int checks_version(std::string_view op) {
#define MT_CHECKS_VERSION(name, NAME, version) \
  if (op == #name) return version;
  MT_COLLECTIVES(MT_CHECKS_VERSION)
#undef MT_CHECKS_VERSION
  return 0;
}

// What a table may hold, refused outside (docs/calibration-format.md, "Limits"). Far beyond any
// working machine, so they only catch corrupt or hand-edited values that would make the model
// predict nonsense (1e300 us).
inline constexpr double kMaxTableUs = 1e6;                 // latencies, per-peer costs, curve times: 1 s
inline constexpr double kMaxTableUsPerByte = 1.0;          // inverse bandwidths and per-byte costs: 1 MB/s
inline constexpr double kMaxTableBytes = 1099511627776.0;  // message sizes: 1 TiB
inline constexpr double kMaxTableNoise = 100.0;            // relative noise spreads: 10000 %
inline constexpr size_t kMaxTableFileBytes = 16u << 20;    // the file: 16 MiB (the ORFEO table: 0.2 MiB)

// One message-size range of the Hockney model T = alpha + beta * m (report eq. 5).
// A piece covers (previous piece's upto_bytes, upto_bytes]; the last covers everything above.
struct HockneyPiece {
  double upto_bytes = std::numeric_limits<double>::infinity();
  double alpha_us = 0;
  double beta_us_per_byte = 0;
  // Measured noise around the piece, as relative residuals (t - T(m)) / T(m) of the raw samples:
  // robust standard deviation (1.4826 MAD) and 95th percentile. 0: not recorded.
  double noise_rel_mad = 0;
  double noise_rel_p95 = 0;
  bool operator==(const HockneyPiece &) const = default;
};

// Flat-tree fit at one message size: T(P) = alpha + beta * (P - 1) (report eq. 6), measured
// for P up to max_p.
struct FlatTreeFit {
  double bytes = 0;
  double alpha_us = 0;
  double beta_us = 0;
  int max_p = 2;
  // The measured curve T(P) as (P, us) knots, non-decreasing in P, interpolated linearly; empty:
  // the line alone. Beyond the last knot the line's slope continues from it.
  std::vector<std::pair<int, double>> knots;
  double time_us(int p) const;
  bool operator==(const FlatTreeFit &) const = default;
};

struct ChannelTable {
  bool present = false;
  std::vector<HockneyPiece> p2p;    // ordered by upto_bytes, last one unbounded
  std::vector<FlatTreeFit> fanout;  // linear bcast (one root sending), ordered by bytes
  std::vector<FlatTreeFit> fanin;   // linear reduce (one root receiving); empty: use fanout
  // Contention (version 2, optional; empty: not measured). T(P) per size with P the ranks of the
  // group, all active at once: `concurrent`, P/2 disjoint pairs each moving one message one way
  // (k = P/2 transfers through the shared memory system); `exchange`, P ranks each sending one
  // message to a partner and receiving one (a round of recursive doubling or halving).
  std::vector<FlatTreeFit> concurrent;
  std::vector<FlatTreeFit> exchange;
  // Relay (version 4, optional; empty: not measured, charged 0): what a rank that has received a
  // message through this channel takes to send it on, beyond a point-to-point message, per
  // message size as (bytes, us) points by increasing bytes, us >= 0. Measured as a 3-rank ring
  // through two forwarding ranks against the half round trips of its three hops
  // (docs/calibration-format.md, "relay").
  std::vector<std::pair<double, double>> relay;
  bool operator==(const ChannelTable &) const = default;
};

// How far the model's collective predictions were off on measured collectives it was not fitted
// to (version 2, optional "checks"): for one operation, algorithm ("default" for Open MPI's own
// decision), objective and communicator shape, over calls of [from_bytes, below_bytes), the smallest and largest
// ln(measured / predicted) seen. The margin (model/select/margin.hpp) trusts a pick only where
// these ranges say it is faster; where the table has none, it keeps Open MPI's default.
struct CheckResidual {
  std::string op;         // "bcast" or "reduce"
  std::string algorithm;  // the registry's name, or "default"
  uint32_t segsize = 0;   // the parameters measured (0 = unsegmented / none): a check holds for
  int fanout = 0;         // that configuration only, not for the algorithm's other ones
  std::string objective;  // "completion" (slowest rank) or "rank_mean" (OSU's latency)
  // The communicators it holds for (Placement::neighbor_channel, widest_channel): channel names.
  std::string neighbors, widest;
  double from_bytes = 0, below_bytes = 0;
  double log_lo = 0, log_hi = 0;
  int samples = 0;
  // The communicator sizes it was measured on, [from_ranks, below_ranks); 0, 0: any size (tables
  // of version 2). The model's error changes with the number of ranks, so a check holds near the
  // sizes it saw (margin.hpp).
  int from_ranks = 0, below_ranks = 0;
  bool has_ranks() const { return below_ranks > 0; }
  // Version 11, "relative_to": "default": the range is not against the model's prediction but
  // against Open MPI's default measured in the same rounds at the same size: the 95 % interval of
  // the median over rounds of ln(this configuration's time / the default's). Another component's
  // measured-only algorithm has no model, so only this says whether it beats the default there.
  bool relative_to_default = false;
};

// Another component's algorithm that crashed or hung when modeltuned-calibrate first ran it
// (optional "checks"."unusable"): never a candidate for that operation from `from_bytes` up, on any
// communicator (model/select/selector.cpp), so no job runs it where it failed or beyond.
struct UnusableCandidate {
  std::string op;         // a collective's name
  std::string algorithm;  // the registry's name of another component's algorithm
  double from_bytes = 0;  // the size it failed at
  std::string why;        // "crashed" or "hung"
  int ranks = 0;          // the communicator's size it failed on
  bool operator==(const UnusableCandidate &) const = default;
};

struct CalibrationTable {
  std::array<ChannelTable, kChannels> channels;
  std::vector<CheckResidual> checks;
  std::vector<UnusableCandidate> unusable;
  std::string checks_source;  // what was measured and where; empty without checks
  // Local reduction cost (MPI_Reduce_local), microseconds per byte.
  double reduce_us_per_byte = 0;
  std::string reduce_source;  // "measured" or why the estimate is what it is
  // Writing into freshly allocated memory (page faults and zeroing), microseconds per byte.
  // Open MPI's reduce algorithms allocate their temporaries per call, and an allocator that
  // returns them to the system makes every call pay this (docs/model.md). 0: not measured.
  double fresh_memory_us_per_byte = 0;
  std::string fresh_memory_source;  // how it was measured; empty when not measured
  // The same for a single temporary alive at a time (glibc keeps or returns blocks depending on
  // how much a call frees at once): < 0 when not measured apart, then fresh_memory_us_per_byte
  // applies to every temporary.
  double fresh_memory_one_buffer_us_per_byte = -1;
  double fresh_one_buffer_us_per_byte() const {
    return fresh_memory_one_buffer_us_per_byte >= 0 ? fresh_memory_one_buffer_us_per_byte : fresh_memory_us_per_byte;
  }
  // The least a call allocates at once for its temporaries to cost anything: glibc serves smaller
  // ones from blocks it keeps, warm after the first call (on the 2-core VM two blocks of 1 MiB
  // come back warm, two of 4 MiB fault in again at 13 us a page). 0: every size (tables without it).
  double fresh_memory_from_bytes = 0;
  // The rates for a call whose temporaries allocated together come to `allocated_bytes`.
  double fresh_us_per_byte(double allocated_bytes) const {
    return allocated_bytes >= fresh_memory_from_bytes ? fresh_memory_us_per_byte : 0;
  }
  double fresh_one_buffer_us_per_byte(double allocated_bytes) const {
    return allocated_bytes >= fresh_memory_from_bytes ? fresh_one_buffer_us_per_byte() : 0;
  }
  nlohmann::json provenance = nlohmann::json::object();
  uint64_t checksum = 0;  // of every value the canonical serialization holds; all ranks must agree

  bool has(Channel c) const { return channels[static_cast<int>(c)].present; }
  // The failure that makes `algorithm` of `op` unusable for a call of `bytes`, or nullptr.
  const UnusableCandidate *unusable_at(std::string_view op, std::string_view algorithm, double bytes) const {
    for (const UnusableCandidate &u : unusable)
      if (bytes >= u.from_bytes && u.op == op && u.algorithm == algorithm) return &u;
    return nullptr;
  }
  const ChannelTable &operator[](Channel c) const { return channels[static_cast<int>(c)]; }
};

// Raised for any file the component or tools cannot use; what() is one line naming the problem
// (the caller prefixes the file name).
class CalibrationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses and validates a table; `source` names the file in messages. Throws CalibrationError.
CalibrationTable parse_calibration(std::string_view text, std::string_view source);
CalibrationTable load_calibration(const std::string &path);
// Canonical JSON text: keys sorted, doubles in shortest round-trip form, so it depends only on the
// values.
std::string to_json_text(const CalibrationTable &table);
void save_calibration(const CalibrationTable &table, const std::string &path);
// Fills table.checksum from every value the canonical text holds (not from the text itself: the
// same values, hashed without writing them), so a table's layout never changes it.
void update_checksum(CalibrationTable &table);

}  // namespace modeltuned

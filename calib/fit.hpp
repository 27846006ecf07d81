// Building a calibration table from measurements: OSU-style CSV input and the fits of
// report eq. 5 (piecewise Hockney point-to-point) and eq. 6 (flat trees, linear in P).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/calibration/table.hpp"
#include "model/cost/channel_cost.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned::calib {

struct P2PSample {
  Channel channel;
  double bytes;
  double latency_us;
};
struct FlatTreeSample {
  Channel channel;
  FlatTreeKind kind;
  int p;
  double bytes;
  double latency_us;
};
// The contention experiments of table version 2 (ChannelTable::concurrent / exchange): P ranks,
// all active at once; P is even (P/2 pairs).
enum class ContentionKind { concurrent, exchange };
inline const char *contention_name(ContentionKind kind) {
  return kind == ContentionKind::concurrent ? "concurrent" : "exchange";
}
struct ContentionSample {
  Channel channel;
  ContentionKind kind;
  int p;
  double bytes;
  double latency_us;
};
// The relay ring of table version 4 (ChannelTable::relay): `ring`, 0 -> a -> b -> 0 with a and b
// forwarding; `hops`, the same three hops as half round trips, summed, measured in the same run.
enum class RelayKind { ring, hops };
inline const char *relay_name(RelayKind kind) { return kind == RelayKind::ring ? "relay" : "relay_hops"; }
struct RelaySample {
  Channel channel;
  RelayKind kind;
  double bytes;
  double latency_us;
};
struct Samples {
  std::vector<P2PSample> p2p;
  std::vector<FlatTreeSample> flat;
  std::vector<ContentionSample> contention;
  std::vector<RelaySample> relay;
};

class FitError : public std::runtime_error {
  using runtime_error::runtime_error;
};

// OSU-style CSVs as in data/orfeo-epyc: p2p.csv (columns mapby, size, latency) and
// nbft.csv / nbft_reduce.csv (mapby, p, size, latency). Other columns are ignored. Appends to
// `out`; throws FitError naming file, line and column.
void read_osu_p2p_csv(const std::string &path, Samples &out);
// `column`: the time to use; OSU's "latency" is each rank's time averaged over ranks, "max" the
// slowest rank's.
void read_osu_flat_csv(const std::string &path, FlatTreeKind kind, Samples &out, const std::string &column = "latency");
// The raw-samples CSV of modeltuned-calibrate (docs/calibration.md): kind,channel,p,bytes,rep,
// latency_us with kind p2p, fanout, fanin, concurrent, exchange, relay or relay_hops. Appends to
// `out`; throws FitError like the above.
void read_samples_csv(const std::string &path, Samples &out);

struct FitOptions {
  double reduce_us_per_byte;
  std::string reduce_source;
  nlohmann::json provenance;                        // copied into the table; fit_table adds a "fit" entry with quality
  double fresh_memory_us_per_byte = 0;              // with a non-empty source only
  std::string fresh_memory_source;                  // empty: not measured
  double fresh_memory_one_buffer_us_per_byte = -1;  // a single temporary's; < 0: not measured apart
  double fresh_memory_from_bytes = 0;               // the least a call allocates at once to pay it; 0: any
};

// Fits every channel that has samples; the result passes parse_calibration's validation and
// carries its checksum. Throws FitError.
CalibrationTable fit_table(const Samples &samples, const FitOptions &options);

}  // namespace modeltuned::calib

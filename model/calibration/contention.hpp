// Contention curves for tables that have none, derived from what they do have.
#pragma once
#include "model/calibration/table.hpp"

namespace modeltuned {

// Above the shared-memory eager limit a fan-out's receivers each copy the message out of the
// root's buffer themselves, all at once, so a fan-out to k receivers is k concurrent transfers
// through the node's memory system: the `concurrent` curve of P = 2k ranks is the fan-out of k+1
// (P = 2k ranks at T_fanout(k + 1) = alpha + beta * k). Derives it, for the channels inside a node
// that have fan-out fits at or above `min_bytes` and no concurrent curve, from those fits; below
// `min_bytes` the curve is absent, so smaller messages are not charged (busy_round_us). Returns
// the channels derived; updates the checksum and records the derivation in provenance.
int derive_concurrent_from_fanout(CalibrationTable &table, double min_bytes);

}  // namespace modeltuned

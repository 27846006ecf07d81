// Measuring: the message buffers, the warm-up (which also drops the forced variants modeltuned
// declined), the timed rounds, and gathering every rank's times on rank 0. Repetitions of all
// (variant, size) pairs are interleaved in a random order drawn from the shared seed, so that
// drift in the machine's load hits every variant alike.
#pragma once
#include <cstdint>
#include <vector>

#include "tools/bench/options.hpp"
#include "tools/bench/variants.hpp"

namespace modeltuned::bench {

struct Buffers {
  std::vector<char> send, recv;
  uint64_t slot_bytes = 0;
  uint64_t recv_slot_bytes = 0;  // an allgather receives every rank's block
  int slots = 1;
  char *send_slot(uint64_t call) { return send.data() + (call % slots) * slot_bytes; }
  char *recv_slot(uint64_t call) { return recv.data() + (call % slots) * recv_slot_bytes; }
};

// --rotate-buffers slots of the largest size; a usage error when they do not fit in memory.
Buffers make_buffers(const Options &o, const Plan &plan);

struct Pair {
  int variant;  // index into variants
  int size;     // index into the op's sizes
};

struct Timings {
  std::vector<Pair> pairs;
  int rounds = 0;
  double seconds = 0;
  std::vector<double> start, end;  // this rank's, per (round, pair)
  std::vector<uint64_t> calls;     // this rank's counts per (pair, algorithm); after gather, rank 0's sums
  std::vector<double> times;       // after gather, rank 0: the collective's time per (round, pair)
  std::vector<double> rank_mean;   // after gather, rank 0: each rank's own duration, averaged (OSU's latency)
};

// `call_number` picks the buffer of each call; it is identical on every rank.
void warm_up(const Options &o, const Plan &plan, Buffers &buf, uint64_t &call_number, Setup &setup);
// Timed rounds: each round runs every pair once, in an order drawn from the shared seed.
Timings measure(const Options &o, const Plan &plan, uint64_t seed, Buffers &buf, uint64_t &call_number, Setup &setup);
// On rank 0, per repetition: first start to last end (one node) or the slowest rank's duration;
// call counts summed over ranks.
void gather(bool one_node, const Setup &setup, Timings &t);

}  // namespace modeltuned::bench

// Unit tests of the model library (no MPI): channels, costs against hand-computed values, the
// stage sums of report eq. 2-3, Open MPI's segmentation rule, the registry and the selector's
// rules; the table as the component holds it (C API); and the tools library's emulated placements
// and stage-sum variant.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/capi/capi_internal.hpp"
#include "model/cost/channel_cost.hpp"
#include "model/schedule/ompi_trees.hpp"
#include "model/select/ompi_fixed.hpp"
#include "model/select/decision_json.hpp"
#include "model/select/margin.hpp"
#include "model/registry/registry.hpp"
#include "model/select/selector.hpp"
#include "tools/lib/emulate.hpp"
#include "tools/lib/stage_sum.hpp"

// Last: check.h defines a `fail` macro that breaks the standard streams.
#include "tests/support/run_suite.h"

using namespace modeltuned;

namespace {

// One channel per index with T_p2p = alpha_c + beta_c * m and a flat-tree fit that makes
// gamma(P) = 1 + 0.5 (P - 2) at every size (alpha = T_p2p(m) * 0.5, beta = T_p2p(m) * 0.5).
CalibrationTable synthetic_table() {
  CalibrationTable t;
  const double alpha[kChannels] = {0.2, 0.5, 1.0, 2.0};
  const double beta[kChannels] = {1e-4, 2e-4, 4e-4, 3e-4};
  for (int c = 0; c < kChannels; ++c) {
    ChannelTable &ch = t.channels[c];
    ch.present = true;
    ch.p2p = {HockneyPiece{std::numeric_limits<double>::infinity(), alpha[c], beta[c]}};
    for (double m : {1.0, 1024.0, 1048576.0}) {
      double p2p = alpha[c] + beta[c] * m;
      ch.fanout.push_back(FlatTreeFit{m, 0.5 * p2p, 0.5 * p2p, 64, {}});
    }
  }
  t.reduce_us_per_byte = 1e-3;
  return t;
}

RankPlace place(int node, int package, int l3) { return RankPlace{node, package, package, l3, -1}; }

// P ranks all in one L3 (cache channel only).
Placement one_cache(int p) { return Placement(std::vector<RankPlace>(p, place(0, 0, 0))); }

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// tuned's number of a registered algorithm.
int id(Op op, std::string_view name) { return find_algorithm(op, name)->id; }

// A 64 KiB bcast on 8 ranks of one L3 of the synthetic table, where the model predicts a gain over
// Open MPI's default: the fastest candidate, its name and ln(default / fastest), for the checks'
// tests to place their ranges around.
struct PredictedGain {
  CalibrationTable table = synthetic_table();
  Placement placement = one_cache(8);
  CallShape call{Op::bcast, 1 << 16, 1, 0, true};
  std::optional<Decision> plain;
  Candidate fastest;
  std::string fastest_name;
  double gain = 0;
};
PredictedGain predicted_gain() {
  PredictedGain g;
  g.plain = decide(g.table, g.placement, g.call, kAllAlgorithms);
  ck_assert(g.plain && g.plain->ompi_default);
  g.fastest = g.plain->predictions.front().candidate;
  g.fastest_name = find_algorithm(Op::bcast, g.fastest.algorithm)->name;
  g.gain = std::log(g.plain->ompi_default->us / g.plain->predictions.front().us);
  ck_assert_msg(g.gain > 0.01, "the synthetic table must predict a gain over the default here (%g)", g.gain);
  return g;
}

}  // namespace

START_TEST(channel_rules) {
  ck_assert(channel_between(place(0, 0, 0), place(0, 0, 0)) == Channel::cache);
  ck_assert(channel_between(place(0, 0, 0), place(0, 0, 1)) == Channel::core);
  ck_assert(channel_between(place(0, 0, -1), place(0, 0, -1)) == Channel::core);
  ck_assert(channel_between(place(0, 0, 0), place(0, 1, 2)) == Channel::socket);
  ck_assert(channel_between(place(0, -1, -1), place(0, -1, -1)) == Channel::socket);
  ck_assert(channel_between(place(0, 0, 0), place(1, 0, 0)) == Channel::node);
  Placement p({place(0, 0, 0), place(0, 0, 1), place(1, 0, 0)});
  ck_assert_uint_eq(p.channels_used(), (1u << 1) | (1u << 3));
  ck_assert_uint_eq(one_cache(3).channels_used(), 1u << 0);
  // The sorted scan finds what comparing every pair finds, unknown levels and shared places included.
  std::mt19937 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<RankPlace> ranks(2 + rng() % 7);
    for (RankPlace &r : ranks) {
      auto level = [&](int values) { return static_cast<int32_t>(rng() % (values + 1)) - 1; };  // -1: unknown
      r = {level(2), level(2), level(2), level(3), level(3)};
    }
    unsigned pairs = 0;
    for (size_t i = 0; i < ranks.size(); ++i)
      for (size_t j = i + 1; j < ranks.size(); ++j)
        pairs |= 1u << static_cast<int>(channel_between(ranks[i], ranks[j]));
    ck_assert_uint_eq(Placement(ranks).channels_used(), pairs);
  }
}
END_TEST

START_TEST(p2p_pieces) {
  ChannelTable ch;
  ch.present = true;
  ch.p2p = {HockneyPiece{1024, 1.0, 0.01}, HockneyPiece{std::numeric_limits<double>::infinity(), 5.0, 0.001}};
  ck_assert(near(p2p_us(ch, 1), 1.01));
  ck_assert(near(p2p_us(ch, 1024), 1.0 + 10.24));
  ck_assert(near(p2p_us(ch, 1025), 5.0 + 1.025));
}
END_TEST

START_TEST(gamma_from_flat_tree_fits) {
  CalibrationTable t = synthetic_table();
  const ChannelTable &cache = t[Channel::cache];
  // Exactly at a fitted size, and interpolated between two (gamma is the same at both here).
  ck_assert(near(gamma_factor(cache, FlatTreeKind::fanout, 10, 1024), 1 + 0.5 * 8));
  ck_assert(near(gamma_factor(cache, FlatTreeKind::fanout, 10, 5000), 1 + 0.5 * 8));
  // Below and above the measured sizes it is clamped, and never under 1 (eq. 1).
  ck_assert(near(gamma_factor(cache, FlatTreeKind::fanout, 3, 1e9), 1.5));
  ck_assert(near(gamma_factor(cache, FlatTreeKind::fanout, 2, 64), 1.0));
  // Eq. 4: T_flat = gamma * T_p2p.
  ck_assert(near(flat_tree_us(cache, FlatTreeKind::fanout, 5, 100), 2.5 * (0.2 + 1e-4 * 100)));
  // Fan-in falls back to the fan-out fits when the table has none.
  ck_assert(near(flat_tree_us(cache, FlatTreeKind::fanin, 5, 100), flat_tree_us(cache, FlatTreeKind::fanout, 5, 100)));
}
END_TEST

START_TEST(multi_channel_eq11) {
  CalibrationTable t = synthetic_table();
  // 1 B: T_p2p(node) = 2.0001, T_p2p(cache) = 0.2001: Q = 9.995..., so 25 cache peers count as
  // floor(25 / Q) = 2 node peers; with 3 node peers the tree is a node flat tree of 3 + 2 + 1 ranks.
  std::array<int, kChannels> peers{25, 0, 0, 3};
  double expected = flat_tree_us(t[Channel::node], FlatTreeKind::fanout, 6, 1);
  ck_assert(near(multi_channel_flat_tree_us(t, FlatTreeKind::fanout, peers, 1), expected));
  // Fewer cheap peers than Q: they vanish.
  std::array<int, kChannels> few{9, 0, 0, 1};
  ck_assert(near(multi_channel_flat_tree_us(t, FlatTreeKind::fanout, few, 1), p2p_us(t[Channel::node], 1)));
  // Up to the shared-memory eager limit the root sends every message itself: on-node peers fold
  // into the node channel (the slowest at 1 KiB: 2.31 us against socket's 1.41 us).
  std::array<int, kChannels> mixed{0, 0, 2, 2};
  const double small = 1024;
  const double q = p2p_us(t[Channel::node], small) / p2p_us(t[Channel::socket], small);
  const int effective = 2 + static_cast<int>(std::floor(2 / q));
  ck_assert(near(multi_channel_flat_tree_us(t, FlatTreeKind::fanout, mixed, small),
                 flat_tree_us(t[Channel::node], FlatTreeKind::fanout, effective + 1, small)));
  // Above it, on-node and off-node peers proceed side by side: the slower group decides (at 1 MiB
  // the socket group, 420 us per message against node's 317 us).
  const double big = 1048576;
  const double socket_group = flat_tree_us(t[Channel::socket], FlatTreeKind::fanout, 3, big);
  const double node_group = flat_tree_us(t[Channel::node], FlatTreeKind::fanout, 3, big);
  ck_assert(socket_group > node_group);
  ck_assert(near(multi_channel_flat_tree_us(t, FlatTreeKind::fanout, mixed, big), socket_group));
  // On-node channels alone still fold by eq. 11 at any size.
  std::array<int, kChannels> on_node{0, 3, 2, 0};
  const double q_core = p2p_us(t[Channel::socket], big) / p2p_us(t[Channel::core], big);
  ck_assert(near(
      multi_channel_flat_tree_us(t, FlatTreeKind::fanout, on_node, big),
      flat_tree_us(t[Channel::socket], FlatTreeKind::fanout, 2 + static_cast<int>(std::floor(3 / q_core)) + 1, big)));
  ck_assert(kSharedMemoryEagerLimitBytes == 4096);
}
END_TEST

START_TEST(segmentation_matches_open_mpi) {
  // COLL_BASE_COMPUTED_SEGCOUNT: only when type_size <= segsize < whole message.
  ck_assert_uint_eq(segmentation(0, 4, 1000).segments, 1);
  ck_assert_uint_eq(segmentation(1024, 4, 1000).segcount, 256);
  ck_assert_uint_eq(segmentation(1024, 4, 1000).segments, 4);
  ck_assert_uint_eq(segmentation(8192, 4, 1000).segments, 1);  // segment larger than the message
  ck_assert_uint_eq(segmentation(2, 4, 1000).segments, 1);     // segment smaller than one element
  // Residual above half an element rounds the count up: 1024 / 12 = 85 r 4 (4 <= 6: stays 85).
  ck_assert_uint_eq(segmentation(1024, 12, 1000).segcount, 85);
  // 1024 / 24 = 42 r 16 (16 > 12): 43.
  ck_assert_uint_eq(segmentation(1024, 24, 1000).segcount, 43);
  ck_assert_uint_eq(segmentation(1024, 24, 1000).segments, (1000 + 42) / 43);
}
END_TEST

START_TEST(pipeline_stage_sum_eq2) {
  // Eq. 2 with one channel: a chain of P ranks and n segments takes P + n - 2 stages, each one
  // point-to-point message of a segment.
  CalibrationTable t = synthetic_table();
  const int p = 6;
  CallShape call{Op::bcast, 4096, 4, 0, true};  // 16 KiB in 4 KiB segments: 4 segments
  Candidate c{Op::bcast, id(Op::bcast, "pipeline"), 4096, 0};
  double expected = (p + 4 - 2) * p2p_us(t[Channel::cache], 4096);
  ck_assert(near(*predict_us(t, one_cache(p), c, call), expected));
  // Reduce adds the local reduction of each segment received.
  call.op = Op::reduce;
  c.op = Op::reduce;
  c.algorithm = id(Op::reduce, "pipeline");
  double reduce_expected = (p + 4 - 2) * (p2p_us(t[Channel::cache], 4096) + 4096 * 1e-3);
  ck_assert(near(*predict_us(t, one_cache(p), c, call), reduce_expected));
}
END_TEST

START_TEST(binary_tree_stage_sum_eq3) {
  // A complete binary tree of 7 ranks, one segment: two stages of 3-rank flat trees. Put ranks
  // 3..6 (the leaves of root 0) on another node so the second stage uses the node channel.
  CalibrationTable t = synthetic_table();
  std::vector<RankPlace> ranks{place(0, 0, 0), place(0, 0, 0), place(0, 0, 0), place(1, 0, 0),
                               place(1, 0, 0), place(1, 0, 0), place(1, 0, 0)};
  CallShape call{Op::bcast, 100, 1, 0, true};
  Candidate c{Op::bcast, id(Op::bcast, "bintree"), 0, 0};
  double expected = flat_tree_us(t[Channel::cache], FlatTreeKind::fanout, 3, 100) +
                    flat_tree_us(t[Channel::node], FlatTreeKind::fanout, 3, 100);
  ck_assert(near(*predict_us(t, Placement(ranks), c, call), expected));
  // Segments overlap stages (eq. 3: depth + n_s - 1 stages): 2 levels x 4 segments = 5 stages;
  // the slower level (node) dominates every stage it takes part in.
  call.count = 4096;
  c.segsize = 1024;
  double cache3 = flat_tree_us(t[Channel::cache], FlatTreeKind::fanout, 3, 1024);
  double node3 = flat_tree_us(t[Channel::node], FlatTreeKind::fanout, 3, 1024);
  ck_assert(near(*predict_us(t, Placement(ranks), c, call), cache3 + 4 * node3));
}
END_TEST

START_TEST(linear_is_one_flat_tree) {
  CalibrationTable t = synthetic_table();
  CallShape call{Op::reduce, 10, 8, 2, true};
  Candidate c{Op::reduce, id(Op::reduce, "linear"), 0, 0};
  double expected = flat_tree_us(t[Channel::cache], FlatTreeKind::fanin, 5, 80) + 4 * 80 * 1e-3;
  ck_assert(near(*predict_us(t, one_cache(5), c, call), expected));
}
END_TEST

START_TEST(rank_mean_metric) {
  CalibrationTable t = synthetic_table();
  // Linear bcast: every receiver gets the message when the flat tree ends, the root too.
  CallShape bcast{Op::bcast, 100, 1, 0, true, Metric::rank_mean};
  Candidate linear_bcast{Op::bcast, 1, 0, 0};
  ck_assert(near(*predict_us(t, one_cache(6), linear_bcast, bcast),
                 flat_tree_us(t[Channel::cache], FlatTreeKind::fanout, 6, 100)));
  // Linear reduce: the root waits for everything, the others only send once.
  CallShape reduce{Op::reduce, 10, 8, 0, true, Metric::rank_mean};
  Candidate linear_reduce{Op::reduce, 1, 0, 0};
  const double root = flat_tree_us(t[Channel::cache], FlatTreeKind::fanin, 6, 80) + 5 * 80 * 1e-3;
  const double sender = p2p_us(t[Channel::cache], 80);
  ck_assert(near(*predict_us(t, one_cache(6), linear_reduce, reduce), (root + 5 * sender) / 6));
  // Reduce pipeline of 4 ranks, one segment: rank 3 sends; rank 2 combines and sends; rank 1 the
  // same; root combines. Each combining step costs one flat tree of 2 plus the reduction.
  Candidate pipeline{Op::reduce, 3, 0, 0};
  const double step = flat_tree_us(t[Channel::cache], FlatTreeKind::fanin, 2, 80) + 80 * 1e-3;
  const double expected = (sender + (step + sender) + (2 * step + sender) + 3 * step) / 4;
  ck_assert(near(*predict_us(t, one_cache(4), pipeline, reduce), expected));
  // Completion is the root's time, the largest.
  reduce.metric = Metric::completion;
  ck_assert(near(*predict_us(t, one_cache(4), pipeline, reduce), 3 * step));
  // Above the eager limit a sender's message waits for its receiver (rendezvous): the root
  // receives its 5 children in turn, child j when (j+1)/5 of its flat tree has passed, so they
  // are done on average 3/5 of the way through.
  CallShape large{Op::reduce, 2048, 8, 0, true, Metric::rank_mean};
  const double big_root = flat_tree_us(t[Channel::cache], FlatTreeKind::fanin, 6, 16384) + 5 * 16384 * 1e-3;
  ck_assert(near(*predict_us(t, one_cache(6), linear_reduce, large), (big_root + 5 * big_root * 3 / 5) / 6));
}
END_TEST

START_TEST(in_order_binary_sends_to_root) {
  // The in-order tree is rooted at P-1; with another root the result travels on once more.
  CalibrationTable t = synthetic_table();
  Candidate c{Op::reduce, id(Op::reduce, "in_order_binary"), 0, 0};
  CallShape at_last{Op::reduce, 10, 8, 3, true};
  CallShape at_zero{Op::reduce, 10, 8, 0, true};
  double diff = *predict_us(t, one_cache(4), c, at_zero) - *predict_us(t, one_cache(4), c, at_last);
  ck_assert(near(diff, p2p_us(t[Channel::cache], 80)));
}
END_TEST

// Open MPI's reduce algorithms write per-call temporaries (coll_base_reduce.c); a table with a
// fresh-memory cost charges what each writes on its critical path, and bcast nothing.
START_TEST(fresh_memory_charges) {
  CalibrationTable t = synthetic_table();
  CalibrationTable f = t;
  f.fresh_memory_us_per_byte = 0.01;
  const double ft = 0.01;
  auto extra = [&](Op op, int algorithm, int p, size_t count, uint32_t segsize = 0, int fanout = 0, int root = 0) {
    const CallShape call{op, count, 8, root, true};
    const Candidate c{op, algorithm, segsize, fanout};
    return *predict_us(f, one_cache(p), c, call) - *predict_us(t, one_cache(p), c, call);
  };
  const double bytes = 8 * 1000;
  // Bcast allocates nothing.
  for (int alg : {1, 2, 5, 6, 8}) ck_assert(near(extra(Op::bcast, alg, 8, 1000, 0, 2), 0));
  // Rabenseifner at P = 2: a result buffer copied in (the whole message) and half received.
  const int rabenseifner = id(Op::reduce, "rabenseifner");
  ck_assert(near(extra(Op::reduce, rabenseifner, 2, 1000), ft * bytes * 1.5));
  ck_assert(near(extra(Op::reduce, rabenseifner, 8, 1000), ft * bytes * (2 - 1.0 / 8)));
  // Linear: at P = 2 the root receives straight into its buffer; above, into one fresh buffer.
  ck_assert(near(extra(Op::reduce, 1, 2, 1000), 0));
  ck_assert(near(extra(Op::reduce, 1, 5, 1000), ft * bytes));
  // Binary tree of 3, one segment: the root only, two segment buffers (two children), no
  // accumulator of its own.
  const int binary = id(Op::reduce, "binary");
  ck_assert(near(extra(Op::reduce, binary, 3, 1000), 2 * ft * bytes));
  // Pipeline of 3 (0 <- 1 <- 2), one segment: rank 1 has an accumulator and one buffer, the root
  // one buffer.
  const int pipeline = id(Op::reduce, "pipeline");
  ck_assert(near(extra(Op::reduce, pipeline, 3, 1000), 3 * ft * bytes));
  // Segmented, the two segment buffers are reused: the charge tends to the accumulator's.
  const double segmented = extra(Op::reduce, pipeline, 3, 100000, 8000);
  ck_assert_msg(segmented > ft * 8e5 && segmented < 1.1 * ft * 8e5 + 4 * ft * 8000, "%g", segmented);

  // A single temporary alone has its own rate (glibc keeps it where it returns two): the roots of
  // pipeline P = 2 and linear P = 5 hold one; the binary root of 3 holds two, rank 1 of the
  // pipeline of 3 an accumulator and a buffer; Rabenseifner two.
  f.fresh_memory_one_buffer_us_per_byte = 0;
  ck_assert(near(extra(Op::reduce, pipeline, 2, 1000), 0));
  ck_assert(near(extra(Op::reduce, 1, 5, 1000), 0));
  ck_assert(near(extra(Op::reduce, binary, 3, 1000), 2 * ft * bytes));
  ck_assert(near(extra(Op::reduce, pipeline, 3, 1000), 2 * ft * bytes));
  ck_assert(near(extra(Op::reduce, rabenseifner, 2, 1000), ft * bytes * 1.5));
  f.fresh_memory_one_buffer_us_per_byte = 0.004;
  ck_assert(near(extra(Op::reduce, pipeline, 2, 1000), 0.004 * bytes));

  // Below the table's threshold the allocator hands the temporaries back warm: nothing is charged.
  // What a call allocates at once: the pipeline of 3's rank 1 an accumulator and a segment buffer
  // of the message each (3 x bytes counted with the second segment buffer), Rabenseifner a result
  // buffer and a receive buffer (2 x bytes), linear's root one buffer (bytes).
  f.fresh_memory_one_buffer_us_per_byte = -1;
  f.fresh_memory_from_bytes = 3 * bytes + 1;
  ck_assert(near(extra(Op::reduce, pipeline, 3, 1000), 0));
  ck_assert(near(extra(Op::reduce, rabenseifner, 8, 1000), 0));
  ck_assert(near(extra(Op::reduce, 1, 5, 1000), 0));
  f.fresh_memory_from_bytes = 3 * bytes;
  ck_assert(near(extra(Op::reduce, pipeline, 3, 1000), 2 * ft * bytes));  // the root's buffer is below
  f.fresh_memory_from_bytes = 2 * bytes;
  ck_assert(near(extra(Op::reduce, rabenseifner, 8, 1000), ft * bytes * (2 - 1.0 / 8)));
  ck_assert(near(extra(Op::reduce, 1, 5, 1000), 0));
  f.fresh_memory_from_bytes = bytes;
  ck_assert(near(extra(Op::reduce, 1, 5, 1000), ft * bytes));
  // Allreduce: recursive doubling copies the message once, the ring holds two blocks.
  const int recursive_doubling = id(Op::allreduce, "recursive_doubling"), ring = id(Op::allreduce, "ring");
  auto allreduce_extra = [&](int algorithm, int p) {
    const CallShape call{Op::allreduce, 1000, 8, 0, true};
    const Candidate c{Op::allreduce, algorithm, 0, 0};
    return *predict_us(f, one_cache(p), c, call) - *predict_us(t, one_cache(p), c, call);
  };
  f.fresh_memory_from_bytes = bytes / 2;  // the ring's two blocks of a quarter each
  ck_assert(near(allreduce_extra(recursive_doubling, 4), ft * bytes));
  ck_assert(near(allreduce_extra(ring, 4), ft * bytes / 2));
  f.fresh_memory_from_bytes = bytes / 2 + 1;
  ck_assert(near(allreduce_extra(recursive_doubling, 4), ft * bytes));
  ck_assert(near(allreduce_extra(ring, 4), 0));
  f.fresh_memory_from_bytes = bytes + 1;
  ck_assert(near(allreduce_extra(recursive_doubling, 4), 0));
}
END_TEST

// Scatter-allgather on a size that is not a power of two: Open MPI follows each doubling round
// whose partner subtree is incomplete with recursive-halving sends (coll_base_bcast.c). For
// P = 6 (worked by hand from the code): only after the round of mask 4, where ranks 0 and 1
// partner 4 and 5 (2 blocks) and ranks 2 and 3 have nobody: 0 sends those 2 blocks to 2, 1 to 3.
START_TEST(scatter_allgather_non_power_of_two) {
  for (int p : {2, 4, 8, 16}) {
    const ScatterAllgatherPlan plan = scatter_allgather_plan(one_cache(p), 0);
    for (const auto &extra : plan.doubling_extra) ck_assert(extra.empty());
  }
  const ScatterAllgatherPlan six = scatter_allgather_plan(one_cache(6), 0);
  ck_assert_uint_eq(six.doubling_extra.size(), 3);
  ck_assert(six.doubling_extra[0].empty() && six.doubling_extra[1].empty());
  ck_assert_uint_eq(six.doubling_extra[2].size(), 1);
  ck_assert_int_eq(six.doubling_extra[2][0].second, 2);
  ck_assert_uint_eq(six.doubling_extra[2][0].first, 1u << static_cast<int>(Channel::cache));
  // The prediction adds that one step of 2 blocks (count 600 of 8 B: blocks of 100 elements).
  CalibrationTable t = synthetic_table();
  const CallShape call{Op::bcast, 600, 8, 0, true};
  const Candidate c{Op::bcast, id(Op::bcast, "scatter_allgather"), 0, 0};
  ScatterAllgatherPlan without = six;
  for (auto &extra : without.doubling_extra) extra.clear();
  const double added = *evaluate_plan(t, Plan{six}, call, c) - *evaluate_plan(t, Plan{without}, call, c);
  ck_assert(near(added, p2p_us(t[Channel::cache], 2 * 100 * 8)));
  // Every extra step of P = 3..33 sends at most the blocks of one subtree, and nothing follows
  // the last round of a power of two.
  for (int p = 3; p <= 33; ++p) {
    const ScatterAllgatherPlan plan = scatter_allgather_plan(one_cache(p), 0);
    int mask = 1;
    for (const auto &extra : plan.doubling_extra) {
      for (auto [channels, blocks] : extra) ck_assert(channels != 0 && blocks > 0 && blocks < mask);
      mask *= 2;
    }
  }
}
END_TEST

// Rabenseifner with an odd root among the ranks folded in first (root < 2r): the root receives
// rank 0's share of the result before the gather (coll_base_reduce.c, "Case 1").
START_TEST(rabenseifner_odd_root_hop) {
  CalibrationTable t = synthetic_table();
  const Candidate c{Op::reduce, id(Op::reduce, "rabenseifner"), 0, 0};
  auto predict = [&](int root) { return *predict_us(t, one_cache(3), c, CallShape{Op::reduce, 1000, 8, root, true}); };
  ck_assert(rabenseifner_plan(one_cache(3), 1).odd_root != 0);
  ck_assert(rabenseifner_plan(one_cache(3), 0).odd_root == 0 && rabenseifner_plan(one_cache(3), 2).odd_root == 0);
  ck_assert(near(predict(0), predict(2)));
  // p' = 2: the share after halving is half the message.
  ck_assert(near(predict(1) - predict(0), p2p_us(t[Channel::cache], 4000)));
}
END_TEST

// Relay costs (table version 4): every sender below the root pays its up channel's relay per
// segment; the root and leaves do not; a table without relay points predicts as before.
START_TEST(relays_charge_forwarding_ranks) {
  const CalibrationTable t = synthetic_table();
  CalibrationTable r = t;
  r.channels[static_cast<int>(Channel::cache)].relay = {{1, 0.3}, {1024, 0.5}, {1048576, 0.5}};
  const ChannelTable &cache = r[Channel::cache];
  ck_assert(near(relay_us(cache, 0.5), 0.3) && near(relay_us(cache, 4 << 20), 0.5));
  ck_assert(near(relay_us(cache, 32), 0.4));  // halfway between 1 and 1024 B in log
  ck_assert(near(relay_us(t[Channel::cache], 32), 0));
  auto diff = [&](Op op, std::string_view algorithm, const Placement &placement, size_t count, uint32_t segsize) {
    const CallShape call{op, count, 4, 0, true};
    const Candidate c{op, id(op, algorithm), segsize, 0};
    return *predict_us(r, placement, c, call) - *predict_us(t, placement, c, call);
  };
  // A chain of 6 (pipeline): ranks 1-4 forward. One segment: 4 relays; 4 segments of 4 KiB: the
  // path's 4 relays plus 3 more segments behind its slowest stage, which includes one.
  for (Op op : {Op::bcast, Op::reduce}) {
    ck_assert(near(diff(op, "pipeline", one_cache(6), 1, 0), 4 * relay_us(cache, 4)));
    ck_assert(near(diff(op, "pipeline", one_cache(6), 4096, 4096), 7 * 0.5));
    ck_assert(near(diff(op, "linear", one_cache(6), 1, 0), 0));
  }
  // Binary tree of 7: ranks 1 and 2 (cache to the root) forward to leaves on another node. The
  // relay is their up channel's: cache relay counts once, a node relay not at all.
  std::vector<RankPlace> ranks{place(0, 0, 0), place(0, 0, 0), place(0, 0, 0), place(1, 0, 0),
                               place(1, 0, 0), place(1, 0, 0), place(1, 0, 0)};
  ck_assert(near(diff(Op::bcast, "bintree", Placement(ranks), 25, 0), relay_us(cache, 100)));
  CalibrationTable node_relay = t;
  node_relay.channels[static_cast<int>(Channel::node)].relay = {{1, 5.0}};
  const Candidate bintree{Op::bcast, id(Op::bcast, "bintree"), 0, 0};
  const CallShape call{Op::bcast, 25, 4, 0, true};
  ck_assert(
      near(*predict_us(node_relay, Placement(ranks), bintree, call), *predict_us(t, Placement(ranks), bintree, call)));
  // Step algorithms pay it on every step after their first.
  ck_assert(diff(Op::bcast, "scatter_allgather", one_cache(8), 1024, 0) > 0);
  // Rabenseifner, 8 ranks, 4 KiB: halving windows 2048 (first), 1024, 512 B; gather 512-2048 B.
  ck_assert(near(diff(Op::reduce, "rabenseifner", one_cache(8), 1024, 0),
                 relay_us(cache, 1024) + relay_us(cache, 512) +
                     (relay_us(cache, 512) + relay_us(cache, 1024) + relay_us(cache, 2048))));
}
END_TEST

START_TEST(selector_rules) {
  CalibrationTable t = synthetic_table();
  Placement p = one_cache(8);
  CallShape call{Op::reduce, 1 << 16, 4, 0, false};
  auto d = decide(t, p, call, kAllAlgorithms);
  ck_assert(d.has_value());
  for (const Prediction &pr : d->predictions) {
    int a = pr.candidate.algorithm;
    // 4.1's linear and in-order binary, and coll/sm's (tests/check_components.cpp)
    ck_assert_msg(a == 1 || a == 6 || a == kFirstComponentId, "non-commutative reduce got algorithm %d", a);
  }
  // Predictions are sorted and the pick is the first; deciding again gives the same answer.
  for (size_t i = 1; i < d->predictions.size(); ++i) ck_assert(d->predictions[i - 1].us <= d->predictions[i].us);
  auto again = decide(t, p, call, kAllAlgorithms);
  ck_assert(again->pick == d->pick);
  // The mask restricts candidates.
  call.commutative = true;
  auto only_binomial = decide(t, p, call, parse_algorithm_list(Op::reduce, "binomial"));
  for (const Prediction &pr : only_binomial->predictions) ck_assert_int_eq(pr.candidate.algorithm, 5);
  // Nothing allowed that the model can use: no decision, the component falls back.
  ck_assert(!decide(t, p, call, parse_algorithm_list(Op::reduce, "linear") & 0).has_value());
}
END_TEST

// The checks rule (margin.hpp): a candidate replaces the default only if its worst-case error
// still beats the default's best case; unchecked candidates or an unchecked default keep it.
START_TEST(checks_decide_only_what_they_cover) {
  const PredictedGain g = predicted_gain();
  const CalibrationTable &t = g.table;
  const Placement &p = g.placement;
  CallShape call = g.call;
  const auto &plain = g.plain;
  const Candidate fastest = g.fastest;
  const double gain = g.gain;
  const std::string &fastest_name = g.fastest_name;
  auto with = [&](double pick_hi, double default_lo, const std::string &neighbors) {
    CalibrationTable c = t;
    c.checks_source = "unit test";
    for (auto [name, seg, fan, lo, hi] : {std::tuple{fastest_name, fastest.segsize, fastest.fanout, -1.0, pick_hi},
                                          std::tuple{std::string("default"), 0u, 0, default_lo, 1.0}})
      c.checks.push_back({"bcast", name, seg, fan, "completion", neighbors, "cache", 32768, 131072, lo, hi, 10});
    return decide(c, p, call, kAllAlgorithms);
  };
  // Errors that cannot close the gap: the fastest runs, and the margin is e^(hi - lo).
  auto sure = with(gain / 4, -gain / 4, "cache");
  ck_assert(!sure->kept_default && sure->pick == fastest);
  ck_assert(sure->margin_basis == Decision::MarginBasis::checks);
  ck_assert_double_eq_tol(sure->margin, std::exp(gain / 2), 1e-9);
  // Errors as large as the gain: the default is kept.
  auto unsure = with(gain / 2 + 1e-6, -gain / 2, "cache");
  ck_assert(unsure->kept_default && unsure->pick == plain->ompi_default->candidate);
  ck_assert(unsure->margin_basis == Decision::MarginBasis::checks);
  // Checks for another communicator shape cover nothing here: the default is kept, unchecked.
  auto elsewhere = with(0, 0, "node");
  ck_assert(elsewhere->kept_default && elsewhere->margin_basis == Decision::MarginBasis::unchecked);
  // Another size band: likewise.
  call.count = 1 << 20;
  auto other_size = with(0, 0, "cache");
  ck_assert(other_size->kept_default && other_size->margin_basis == Decision::MarginBasis::unchecked);
  // What the default runs anyway, checked as if much faster than the default: still the default
  // (the two checks measured the same code).
  call.count = 1 << 16;
  const Candidate runs = plain->ompi_default->candidate;
  CalibrationTable same = t;
  same.checks_source = "unit test";
  same.checks.push_back({"bcast", std::string(find_algorithm(Op::bcast, runs.algorithm)->name), runs.segsize,
                         runs.fanout, "completion", "cache", "cache", 32768, 131072, -5, -4, 10});
  same.checks.push_back({"bcast", "default", 0, 0, "completion", "cache", "cache", 32768, 131072, 4, 5, 10});
  auto itself = decide(same, p, call, kAllAlgorithms);
  ck_assert(itself->kept_default && itself->pick == runs);
}
END_TEST

// Leaving the default needs no loss under the other objective where the table measured both: a
// pick that passes for completion but whose rank-mean checks measured it slower than the default
// keeps the default, and says which objective kept it; tied there or faster, it runs; for a
// rank-mean call, the same with the objectives swapped.
START_TEST(picks_pass_the_checks_for_both_objectives) {
  const PredictedGain g = predicted_gain();
  const CalibrationTable &t = g.table;
  const Placement &p = g.placement;
  const CallShape &call = g.call;
  const Candidate fastest = g.fastest;
  const double gain = g.gain;
  const std::string &fastest_name = g.fastest_name;
  // Checks that let the fastest through for `passes`, and for the other objective a range from
  // `other_lo` on the pick's side.
  auto with = [&](const std::string &passes, double other_lo) {
    CalibrationTable c = t;
    c.checks_source = "unit test";
    for (const std::string objective : {"completion", "rank_mean"}) {
      const double pick_lo = objective == passes ? -1.0 : other_lo;
      c.checks.push_back({"bcast", fastest_name, fastest.segsize, fastest.fanout, objective, "cache", "cache", 32768,
                          131072, pick_lo, std::max(pick_lo, gain / 4), 10});
      c.checks.push_back({"bcast", "default", 0, 0, objective, "cache", "cache", 32768, 131072, -gain / 4, 1.0, 10});
    }
    return c;
  };
  for (const Metric metric : {Metric::completion, Metric::rank_mean}) {
    CallShape asked = call;
    asked.metric = metric;
    const std::string mine = metric == Metric::completion ? "completion" : "rank_mean";
    const CalibrationTable one_sided = with(mine, 10 * gain + 1);  // slower than the default's worst
    const auto vetoed = decide(one_sided, p, asked, kAllAlgorithms);
    ck_assert(vetoed && vetoed->kept_default && vetoed->pick == vetoed->ompi_default->candidate);
    ck_assert(vetoed->kept_by_other_objective.has_value());
    ck_assert(vetoed->kept_by_other_objective->metric != metric);
    ck_assert(vetoed->kept_by_other_objective->pick == fastest);
    ck_assert(vetoed->kept_by_other_objective->pick_checked_best_us >
              vetoed->kept_by_other_objective->default_checked_worst_us);
    const nlohmann::json j = decision_json(one_sided, p, asked, vetoed);
    ck_assert(j.contains("kept_by_objective"));
    const CalibrationTable tied = with(mine, 0.5);  // the default's range reaches 1.0: a tie
    const auto tie = decide(tied, p, asked, kAllAlgorithms);
    ck_assert(tie && !tie->kept_default && tie->pick == fastest && !tie->kept_by_other_objective);
    const CalibrationTable both = with(mine, -1.0);
    const auto runs = decide(both, p, asked, kAllAlgorithms);
    ck_assert(runs && !runs->kept_default && runs->pick == fastest && !runs->kept_by_other_objective);
  }
}
END_TEST

// Where han is the default (Selector::set_han_default), only the checks of han's default weigh a
// pick against it: without them the default is kept and the op can never leave it; with them the
// rule is the checks' rule, and tuned's fixed rule is a candidate like the others.
START_TEST(han_default_needs_checks_of_han) {
  CalibrationTable t = synthetic_table();
  const Placement p = one_cache(8);
  CallShape call{Op::bcast, 1 << 16, 1, 0, true};
  const auto plain = decide(t, p, call, kAllAlgorithms);
  const Candidate fastest = plain->predictions.front().candidate;
  const std::string fastest_name(find_algorithm(Op::bcast, fastest.algorithm)->name);
  const double gain = std::log(plain->ompi_default->us / plain->predictions.front().us);
  auto selector_with = [&](std::vector<std::tuple<std::string, double, double>> checks) {
    CalibrationTable c = t;
    c.checks_source = "unit test";
    for (auto [name, lo, hi] : checks) {
      const bool pick = name == fastest_name;
      c.checks.push_back({"bcast", name, pick ? fastest.segsize : 0u, pick ? fastest.fanout : 0, "completion", "cache",
                          "cache", 32768, 131072, lo, hi, 10});
    }
    return c;
  };
  // No checks at all: han is kept, and the op never leaves it.
  Selector bare(t, p);
  bare.set_han_default(Op::bcast, true);
  ck_assert(!bare.may_leave_default(Op::bcast) && bare.may_leave_default(Op::reduce));
  ck_assert(bare.decide(call)->kept_default);
  // Checks of tuned's default say the pick is faster, but none of han: han is kept.
  const CalibrationTable tuned_only = selector_with({{fastest_name, -1, gain / 4}, {"default", -gain / 4, 1}});
  Selector no_han(tuned_only, p);
  no_han.set_han_default(Op::bcast, true);
  ck_assert(!no_han.may_leave_default(Op::bcast));
  ck_assert(no_han.decide(call)->kept_default);
  // A check of han measured it well above the prediction of tuned's rule: the pick leaves it.
  const CalibrationTable slow_han = selector_with({{fastest_name, -1, gain / 4}, {"han", 0.5, 1}});
  Selector leaves(slow_han, p);
  leaves.set_han_default(Op::bcast, true);
  ck_assert(leaves.may_leave_default(Op::bcast));
  const auto left = leaves.decide(call);
  ck_assert(!left->kept_default && left->pick == fastest && left->margin_basis == Decision::MarginBasis::checks);
  // han measured far faster than any pick: kept.
  const CalibrationTable fast_han = selector_with({{fastest_name, -1, gain / 4}, {"han", -5, -4}});
  Selector keeps(fast_han, p);
  keeps.set_han_default(Op::bcast, true);
  ck_assert(keeps.decide(call)->kept_default);
  // Where tuned is the default, a check of han says nothing.
  Selector tuned(slow_han, p);
  ck_assert(tuned.decide(call)->kept_default);
}
END_TEST

// A communicator no check covers can never leave the default: the component then leaves the op
// to Open MPI (Selector::may_leave_default). Without checks, or with a narrowed list, it may.
START_TEST(uncovered_communicators_never_leave_the_default) {
  CalibrationTable t = synthetic_table();
  const Placement p = one_cache(8);
  auto may = [&](const CalibrationTable &table, Op op, AlgorithmMask allowed = kAllAlgorithms) {
    return Selector(table, p, allowed_everywhere(allowed)).may_leave_default(op);
  };
  ck_assert(may(t, Op::bcast) && may(t, Op::reduce));  // no checks: the held-out factor rule decides
  auto with_check = [&](const char *op, const char *neighbors, int from_ranks, int below_ranks) {
    CalibrationTable c = t;
    c.checks.push_back(
        {op, "default", 0, 0, "completion", neighbors, "cache", 1024, 4096, -0.1, 0.1, 4, from_ranks, below_ranks});
    return c;
  };
  const CalibrationTable bcast_here = with_check("bcast", "cache", 8, 16);
  ck_assert(may(bcast_here, Op::bcast) && !may(bcast_here, Op::reduce));
  ck_assert(!may(with_check("bcast", "core", 8, 16), Op::bcast));    // another shape
  ck_assert(!may(with_check("bcast", "cache", 32, 64), Op::bcast));  // sizes out of reach (8 < 32 / 2)
  ck_assert(may(with_check("bcast", "cache", 16, 32), Op::bcast));   // within reach (8 >= 16 / 2)
  // A narrowed list: the model picks among what the user allowed, checked or not.
  ck_assert(may(with_check("bcast", "core", 8, 16), Op::bcast, parse_algorithm_list(Op::bcast, "binomial")));
  // What the selector decides agrees: with no check covering, every call keeps the default.
  const CalibrationTable elsewhere = with_check("bcast", "core", 8, 16);
  for (size_t bytes : {1ul, 2048ul, 1ul << 20}) {
    const auto d = decide(elsewhere, p, CallShape{Op::bcast, bytes, 1, 0, true}, kAllAlgorithms);
    ck_assert(d && d->kept_default);
  }
}
END_TEST

// An op whose every call keeps the default is left whole to Open MPI
// (Selector::keeps_default_everywhere): known for barrier and the block exchanges, never claimed
// for a rooted or reducing op, and false as soon as one checked size may leave the default.
START_TEST(ops_kept_at_the_default_everywhere) {
  const CalibrationTable t = synthetic_table();
  const Placement p = one_cache(8);
  // Checks of calls below `below_bytes` (the default's holds where tuned's rule runs one algorithm
  // throughout, margin.hpp: at 1 B for every op here).
  auto with_checks = [&](Op op, double below_bytes,
                         std::vector<std::tuple<std::string, uint32_t, int, double, double>> checks) {
    CalibrationTable c = t;
    c.checks_source = "unit test";
    for (auto [name, segsize, fanout, lo, hi] : checks)
      c.checks.push_back({std::string(op_name(op)), name, segsize, fanout, "completion", "cache", "cache", 0,
                          below_bytes, lo, hi, 4, 8, 9});
    return c;
  };
  for (Op op : {Op::barrier, Op::allgather, Op::alltoall}) {
    // Only the default is checked: no candidate is trusted, so no call leaves it.
    const CalibrationTable default_only = with_checks(op, 1 << 20, {{"default", 0, 0, -0.1, 0.1}});
    ck_assert(Selector(default_only, p).keeps_default_everywhere(op, Metric::completion));
    for (size_t bytes : {3ul, 1000ul, 300000ul}) {  // between the powers of two it swept, too
      const auto d = decide(default_only, p, CallShape{op, op == Op::barrier ? 0 : bytes, 1, 0, true}, kAllAlgorithms);
      ck_assert(!d || d->kept_default);
    }
    // A candidate measured far faster than predicted: it leaves the default at the first size swept.
    const auto plain = decide(t, p, CallShape{op, op == Op::barrier ? 0ul : 1ul, 1, 0, true}, kAllAlgorithms);
    const auto other = std::find_if(plain->predictions.begin(), plain->predictions.end(), [&](const Prediction &x) {
      return x.candidate.algorithm != plain->ompi_default->candidate.algorithm;
    });
    ck_assert(other != plain->predictions.end());
    const CalibrationTable fast = with_checks(op, 2,
                                              {{"default", 0, 0, -0.1, 0.1},
                                               {std::string(find_algorithm(op, other->candidate.algorithm)->name),
                                                other->candidate.segsize, other->candidate.fanout, -6, -5}});
    ck_assert_msg(!Selector(fast, p).keeps_default_everywhere(op, Metric::completion), "%s %s", op_name(op).data(),
                  find_algorithm(op, other->candidate.algorithm)->name.data());
    // A narrowed list: the user chose among algorithms, and the model picks every call.
    ck_assert(!Selector(default_only, p, allowed_everywhere(kAllAlgorithms & ~(1u << 1)))
                   .keeps_default_everywhere(op, Metric::completion));
  }
  // Beyond 256 ranks the sweep is not run, even where only the default is checked.
  CalibrationTable wide = with_checks(Op::allgather, 1 << 20, {{"default", 0, 0, -0.1, 0.1}});
  wide.checks.back().from_ranks = 512;
  wide.checks.back().below_ranks = 513;
  ck_assert(Selector(wide, one_cache(512)).may_leave_default(Op::allgather));
  ck_assert(!Selector(wide, one_cache(512)).keeps_default_everywhere(Op::allgather, Metric::completion));
  // Rooted and reducing ops are decided per root and datatype: never claimed, even unchecked.
  const CalibrationTable bcast_default_only = with_checks(Op::bcast, 1 << 20, {{"default", 0, 0, -0.1, 0.1}});
  for (Op op : {Op::bcast, Op::reduce, Op::allreduce})
    ck_assert(!Selector(bcast_default_only, p).keeps_default_everywhere(op, Metric::completion));
}
END_TEST

// The component's table (mt_table_load) keeps of the provenance only what the component reads,
// with the whole file's checksum and the same margin.
START_TEST(component_table_keeps_the_provenance_it_reads) {
  CalibrationTable t = synthetic_table();
  t.reduce_source = "estimate: unit test";
  t.provenance = {{"host", "node1"},
                  {"date", "2026-11-28"},
                  {"hwloc", {{"signature", "pack:1 core:8"}}},
                  {"fit", {{"cache", {{"p2p", {{"held_out", {{"median_ape", 12.5}}}}}}}}},
                  {"checks", nlohmann::json::array({{{"op", "bcast"}, {"us", {1.5, 2.5}}}})}};
  const std::string path = "/tmp/modeltuned-provenance-" + std::to_string(getpid()) + ".json";
  save_calibration(t, path);
  const CalibrationTable whole = load_calibration(path);
  char err[256] = "";
  mt_table *component = mt_table_load(path.c_str(), err, sizeof err);
  std::remove(path.c_str());
  ck_assert_msg(component, "%s", err);
  const nlohmann::json &kept = component->table.provenance;
  ck_assert_uint_eq(kept.size(), 3);
  ck_assert(kept.contains("host") && kept.contains("hwloc") && kept.contains("fit"));
  ck_assert(whole.provenance.contains("checks") && whole.provenance.contains("date"));
  ck_assert_uint_eq(mt_table_checksum(component), whole.checksum);
  ck_assert_double_eq(held_out_uncertainty(component->table), 0.125);
  mt_table_free(component);
}
END_TEST

// Checks hold near the communicator sizes they were measured on (margin.hpp): within a factor of
// 2, the nearest size deciding; a check without sizes only where no sized one holds.
START_TEST(checks_hold_near_their_ranks) {
  CalibrationTable t;
  auto add = [&](double lo, double hi, int from_ranks, int below_ranks) {
    t.checks.push_back(
        {"bcast", "binomial", 0, 0, "completion", "core", "node", 1024, 4096, lo, hi, 4, from_ranks, below_ranks});
  };
  add(-0.1, 0.1, 64, 128);
  add(-0.5, 0.5, 16, 17);
  add(-2.0, 2.0, 0, 0);  // any size
  auto range = [&](int ranks) {
    return check_range(t, Op::bcast, "binomial", 0, 0, 2048, Metric::completion, Channel::core, Channel::node, ranks);
  };
  ck_assert_double_eq(range(100)->hi, 0.1);  // inside [64, 128)
  ck_assert_double_eq(range(200)->hi, 0.1);  // one side, 200 / 127 within the span it pooled (128 / 64)
  ck_assert_double_eq(range(40)->hi, 0.1);   // one side (16 is out of reach), 64 / 40 within its span
  ck_assert(!range(24).has_value());         // one side, measured on 16 alone: not carried to 24
  ck_assert(!range(8).has_value());          // the same below it
  ck_assert_double_eq(range(16)->hi, 0.5);   // measured there
  ck_assert_double_eq(range(7)->hi, 2.0);    // no sized check holds: the unsized one
  ck_assert_double_eq(range(256)->hi, 2.0);  // 256 >= 2 x 128
  ck_assert(std::isinf(ranks_distance(t.checks[0], 256)) && ranks_distance(t.checks[0], 100) == 0 &&
            ranks_distance(t.checks[2], 100) < 0);
  t.checks.pop_back();
  ck_assert(!range(256).has_value());  // beyond every sized check: unchecked, the default is kept
}
END_TEST

// Checks measured on single communicator sizes, as modeltuned-calibrate measures them: between two
// the range is the union of both (the error moves between them), beyond the extreme ones nothing.
START_TEST(checks_between_measured_sizes_take_both) {
  CalibrationTable t;
  auto add = [&](double lo, double hi, int ranks) {
    t.checks.push_back({"bcast", "chain", 0, 4, "completion", "core", "node", 1024, 4096, lo, hi, 4, ranks, ranks + 1});
  };
  add(-0.1, 0.2, 62);
  add(0.3, 0.5, 126);
  add(-0.4, 0.0, 90);
  auto range = [&](int ranks) {
    return check_range(t, Op::bcast, "chain", 0, 4, 2048, Metric::completion, Channel::core, Channel::node, ranks);
  };
  ck_assert(range(100)->lo == -0.4 && range(100)->hi == 0.5);    // between 90 and 126
  ck_assert(range(70)->lo == -0.4 && range(70)->hi == 0.2);      // between 62 and 90
  ck_assert(range(126)->lo == 0.3 && range(126)->hi == 0.5);     // measured there
  ck_assert(!range(130).has_value() && !range(50).has_value());  // beyond the largest and the smallest
  // The sizes the calibrator measures them on, and validate --calibrated-on fits them on.
  ck_assert(check_group_sizes(256) == (std::vector<int>{256, 180, 128, 90, 64, 44, 32, 22, 16, 10, 8, 4, 2}));
  ck_assert(check_group_sizes(254) == (std::vector<int>{254, 178, 126, 88, 62, 44, 30, 22, 14, 10, 6, 4, 2}));
  ck_assert(check_group_sizes(1024).size() == kCheckGroups && check_group_sizes(1024).back() == 4);
  ck_assert(check_group_sizes(4) == (std::vector<int>{4, 2}));
  ck_assert(check_group_sizes(2) == (std::vector<int>{2}));
}
END_TEST

// The default's check holds only where the fixed rule runs what it ran where it was measured;
// elsewhere the forced check of what it runs stands in.
START_TEST(default_checks_follow_the_fixed_rule) {
  CalibrationTable t;
  auto add = [&](const char *algorithm, double hi, int from_ranks, int below_ranks) {
    t.checks.push_back(
        {"bcast", algorithm, 0, 0, "completion", "core", "node", 1024, 4096, -hi, hi, 4, from_ranks, below_ranks});
  };
  add("default", 0.1, 64, 128);
  add("binomial", 0.3, 64, 128);
  const Candidate knomial{Op::bcast, 7, 0, 4}, binomial{Op::bcast, 6, 0, 0};
  const auto runs_at = [&](int ranks, double) { return ranks < 128 ? knomial : binomial; };
  auto range = [&](int ranks) {
    const auto held = checks_for(t, Op::bcast, 2048, Metric::completion, Channel::core, Channel::node, ranks);
    return default_range_in(held, Op::bcast, runs_at(ranks, 2048), ranks, runs_at);
  };
  ck_assert_double_eq(range(100)->hi, 0.1);  // measured where the default ran k-nomial too
  ck_assert_double_eq(range(200)->hi, 0.3);  // it runs binomial at 200: forced binomial's check
  t.checks.pop_back();
  ck_assert(!range(200).has_value());  // neither: unchecked, the default is kept
  add("default", 0.7, 0, 0);           // a check without sizes agrees with any size
  ck_assert_double_eq(range(200)->hi, 0.7);
  ck_assert_double_eq(range(100)->hi, 0.1);  // the sized one that agrees still comes first
  // What the default runs, also measured forced: the same code twice, so the range covers both.
  t.checks.push_back({"bcast", "knomial", 0, 4, "completion", "core", "node", 1024, 4096, -0.4, 0.05, 4, 64, 128});
  ck_assert_double_eq(range(100)->lo, -0.4);
  ck_assert_double_eq(range(100)->hi, 0.1);
  t.checks.pop_back();

  // The rule can change inside a check's size band: on 2 ranks the reduce default runs linear at
  // 4 B and binary at 8 B, so a default check over [4, 16) pooled both and holds for neither.
  CalibrationTable r;
  const Candidate linear{Op::reduce, 1, 0, 0}, binary{Op::reduce, 4, 0, 0};
  for (auto [name, hi] : {std::pair{"default", 0.1}, std::pair{"binary", 0.3}})
    r.checks.push_back({"reduce", name, 0, 0, "completion", "core", "core", 4, 16, -hi, hi, 4, 2, 3});
  const auto reduce_runs_at = [&](int, double bytes) { return bytes < 8 ? linear : binary; };
  const auto held = checks_for(r, Op::reduce, 8, Metric::completion, Channel::core, Channel::core, 2);
  ck_assert_double_eq(default_range_in(held, Op::reduce, binary, 2, reduce_runs_at)->hi, 0.3);  // forced binary's
  ck_assert(!default_range_in(held, Op::reduce, linear, 2, reduce_runs_at).has_value());        // no forced linear
  const auto always_binary = [&](int, double) { return binary; };
  // One configuration over the band: the default's own check holds, and with forced binary's
  // (the same code) the range covers both.
  ck_assert_double_eq(default_range_in(held, Op::reduce, binary, 2, always_binary)->lo, -0.3);
  ck_assert_double_eq(default_range_in(held, Op::reduce, binary, 2, always_binary)->hi, 0.3);
  r.checks.pop_back();
  const auto own_only = checks_for(r, Op::reduce, 8, Metric::completion, Channel::core, Channel::core, 2);
  ck_assert_double_eq(default_range_in(own_only, Op::reduce, binary, 2, always_binary)->hi, 0.1);
}
END_TEST

START_TEST(candidates_cover_parameters) {
  CallShape call{Op::bcast, 1 << 20, 1, 0, true};
  auto cands = enumerate_candidates(call, 64, kAllAlgorithms, OmpiVersion::v4_1);
  int chains = 0;
  bool segmented_chain_fanout_8 = false;
  for (const Candidate &c : cands) {
    if (c.algorithm == 2) {
      ++chains;
      if (c.fanout == 8 && c.segsize == 65536) segmented_chain_fanout_8 = true;
    }
  }
  ck_assert(segmented_chain_fanout_8);
  ck_assert_int_eq(chains, 5 * 9);  // fan-outs 2..32 x segment sizes {0, 1 KiB .. 128 KiB}
  // A small message gets no segment sizes beyond the message itself.
  call.count = 2000;
  for (const Candidate &c : enumerate_candidates(call, 64, kAllAlgorithms, OmpiVersion::v4_1))
    ck_assert(c.segsize < 2000);
}
END_TEST

START_TEST(algorithm_lists) {
  ck_assert_uint_eq(parse_algorithm_list(Op::bcast, ""), kAllAlgorithms);
  ck_assert_uint_eq(parse_algorithm_list(Op::bcast, "all"), kAllAlgorithms);
  ck_assert_uint_eq(parse_algorithm_list(Op::bcast, "linear, 6"), (1u << 1) | (1u << 6));
  bool threw = false;
  try {
    parse_algorithm_list(Op::bcast, "linear,bogus");
  } catch (const std::invalid_argument &e) {
    threw = std::string(e.what()).find("bogus") != std::string::npos;
  }
  ck_assert(threw);
  ck_assert_uint_eq(parse_algorithm_list(Op::reduce, "rabenseifner,7"), 1u << 7);
}
END_TEST

START_TEST(schedule_reduces_to_stage_sum) {
  // One segment, complete binary tree, one channel: every level costs the same, so the schedule
  // (max over paths) equals the stage sum (sum over levels) of eq. 3.
  CalibrationTable t = synthetic_table();
  for (int p : {3, 7, 15, 31}) {
    CallShape call{Op::bcast, 1000, 1, 0, true};
    Candidate c{Op::bcast, id(Op::bcast, "bintree"), 0, 0};
    double schedule = *predict_us(t, one_cache(p), c, call);
    double stages = *predict_us(t, one_cache(p), c, call, tools::stage_sum_us);
    ck_assert(near(schedule, stages));
    int levels = 0;
    while ((2 << levels) - 1 < p) ++levels;
    ck_assert(near(stages, levels * flat_tree_us(t[Channel::cache], FlatTreeKind::fanout, 3, 1000)));
  }
}
END_TEST

START_TEST(schedule_follows_paths) {
  // Chain of fan-out 2 on 5 ranks (0 -> 1 -> 2 and 0 -> 3 -> 4) where only 3 -> 4 crosses nodes:
  // the stage sum charges the slow hop to the whole second stage, the schedule only to its path;
  // both agree here. With segments, the schedule pipelines: the slow hop costs once per segment
  // after the first, plus the fast hops once.
  CalibrationTable t = synthetic_table();
  std::vector<RankPlace> ranks{place(0, 0, 0), place(0, 0, 0), place(0, 0, 0), place(0, 0, 0), place(1, 0, 0)};
  CallShape call{Op::bcast, 4096, 1, 0, true};
  Candidate c{Op::bcast, id(Op::bcast, "chain"), 1024, 2};
  double root = flat_tree_us(t[Channel::cache], FlatTreeKind::fanout, 3, 1024);
  double slow = p2p_us(t[Channel::node], 1024);
  ck_assert(near(*predict_us(t, Placement(ranks), c, call), root + slow + 3 * slow));
}
END_TEST

START_TEST(fallbacks_are_never_predicted) {
  CalibrationTable t = synthetic_table();
  Placement p = one_cache(8);
  auto predict = [&](Op op, int alg, size_t count, bool commutative, uint32_t segsize = 0) {
    return predict_us(t, p, Candidate{op, alg, segsize, 0}, CallShape{op, count, 4, 0, commutative});
  };
  // Scatter-allgather with fewer elements than ranks runs the linear bcast in Open MPI.
  ck_assert(!predict(Op::bcast, 8, 7, true).has_value());
  ck_assert(predict(Op::bcast, 8, 8, true).has_value());
  ck_assert(!predict(Op::bcast, 9, 3, true).has_value());
  // Rabenseifner: count below the largest power of two, or a non-commutative op: linear.
  ck_assert(!predict(Op::reduce, 7, 7, true).has_value());
  ck_assert(!predict(Op::reduce, 7, 800, false).has_value());
  ck_assert(predict(Op::reduce, 7, 800, true).has_value());
  // Split binary tree: one element, or a segment larger than a half: pipeline.
  ck_assert(!predict(Op::bcast, 4, 1, true).has_value());
  ck_assert(!predict(Op::bcast, 4, 100, true, 4096).has_value());
  ck_assert(predict(Op::bcast, 4, 100, true, 0).has_value());
  // The selector never offers them either.
  auto d = decide(t, p, CallShape{Op::bcast, 5, 4, 0, true}, kAllAlgorithms);
  for (const Prediction &pr : d->predictions) ck_assert(pr.candidate.algorithm != 8 && pr.candidate.algorithm != 9);
}
END_TEST

// The lines differ where Open MPI's sources do: 5.0's k-ary builder takes fan-out 1 (a pipeline).
START_TEST(ompi_versions) {
  ck_assert(parse_ompi_version("4.1") == OmpiVersion::v4_1 && parse_ompi_version("4.1.4") == OmpiVersion::v4_1);
  ck_assert(parse_ompi_version("5.0") == OmpiVersion::v5_0 && parse_ompi_version("5.0.7") == OmpiVersion::v5_0);
  for (const char *bad : {"", "4", "4.0", "5.1", "5.01", "4.1x"}) ck_assert_msg(!parse_ompi_version(bad), "%s", bad);
  ck_assert(ompi_version_name(OmpiVersion::v5_0) == "5.0");
  bool threw = false;
  try {
    (void)build_kary_tree(1, 5, 0);
  } catch (const std::invalid_argument &) {
    threw = true;
  }
  ck_assert(threw);
  const Tree pipeline = build_kary_tree(1, 5, 2, OmpiVersion::v5_0), chain = build_chain(1, 5, 2);
  ck_assert(pipeline.children == chain.children);
  for (int r = 0; r < 5; ++r) ck_assert_int_eq(pipeline.parent[r], chain.parent[r]);
}
END_TEST

// What runs when modeltuned hands a call back (coll_modeltuned_module.c decides the same from the
// modules Open MPI enabled): tuned, or under 5.0 han across nodes, which runs tuned's rule only with
// one rank per node.
START_TEST(fallback_under_han) {
  const Placement one_node({place(0, 0, 0), place(0, 1, 1)});
  const Placement one_per_node({place(0, 0, 0), place(1, 0, 0), place(2, 0, 0)});
  const Placement two_on_a_node({place(0, 0, 0), place(0, 1, 1), place(1, 0, 0)});
  for (const Placement *p : {&one_node, &one_per_node, &two_on_a_node}) {
    ck_assert(ompi_fallback(OmpiVersion::v4_1, *p) == Fallback::tuned);
    ck_assert(fallback_runs_tuned_rule(OmpiVersion::v4_1, *p));
    ck_assert(ompi_fallback(OmpiVersion::v5_0, *p, false) == Fallback::tuned);
    ck_assert(fallback_runs_tuned_rule(OmpiVersion::v5_0, *p, false));
  }
  ck_assert(ompi_fallback(OmpiVersion::v5_0, one_node) == Fallback::tuned);
  ck_assert(ompi_fallback(OmpiVersion::v5_0, one_per_node) == Fallback::han);
  ck_assert(fallback_runs_tuned_rule(OmpiVersion::v5_0, one_per_node));
  ck_assert(ompi_fallback(OmpiVersion::v5_0, two_on_a_node) == Fallback::han);
  ck_assert(!fallback_runs_tuned_rule(OmpiVersion::v5_0, two_on_a_node));
}
END_TEST

START_TEST(tuned_fixed_rules) {
  // Spot checks against coll_tuned_decision_fixed.c (Open MPI 4.1.4).
  ck_assert_int_eq(ompi_fixed_decision(Op::bcast, 100, 3, true).algorithm, 5);
  ck_assert_int_eq(ompi_fixed_decision(Op::bcast, 1, 200, true).algorithm, 6);
  ck_assert_int_eq(ompi_fixed_decision(Op::bcast, 1 << 20, 20, true).algorithm, 8);
  ck_assert_int_eq(ompi_fixed_decision(Op::bcast, 1000, 100, true).algorithm, 7);
  ck_assert_int_eq(ompi_fixed_decision(Op::bcast, 1000, 100, true).fanout, 4);
  ck_assert_int_eq(ompi_fixed_decision(Op::bcast, 20000, 500, true).algorithm, 4);
  ck_assert_int_eq(ompi_fixed_decision(Op::reduce, 4, 2, true).algorithm, 7);
  ck_assert_int_eq(ompi_fixed_decision(Op::reduce, 5000, 10, false).algorithm, 1);
  ck_assert_int_eq(ompi_fixed_decision(Op::reduce, 5000, 10, true).algorithm, 4);
  ck_assert_int_eq(ompi_fixed_decision(Op::reduce, 100, 300, true).algorithm, 5);
  ck_assert_int_eq(ompi_fixed_decision(Op::reduce, 10000, 300, true).algorithm, 6);
  ck_assert_int_eq(ompi_fixed_decision(Op::reduce, 20, 5000, true).algorithm, 6);
  ck_assert_uint_eq(ompi_fixed_decision(Op::bcast, 1 << 22, 2, true).segsize, 0);
  // Every rule names a registered algorithm.
  for (int p : {2, 3, 5, 9, 17, 33, 65, 129, 300, 600, 1500, 3000, 5000})
    for (size_t bytes = 1; bytes <= (size_t{1} << 22); bytes *= 2)
      for (Op op : {Op::bcast, Op::reduce})
        for (bool commutative : {true, false}) {
          const Candidate fixed = ompi_fixed_decision(op, bytes, p, commutative);
          ck_assert_msg(find_algorithm(op, fixed.algorithm), "%d", fixed.algorithm);
          // 5.0.7's coll_tuned_decision_fixed.c is byte-identical to 4.1.4's.
          const Candidate fixed5 = ompi_fixed_decision(op, bytes, p, commutative, OmpiVersion::v5_0);
          ck_assert_msg(fixed5.algorithm == fixed.algorithm && fixed5.fanout == fixed.fanout && fixed5.segsize == 0,
                        "P %d, %zu B: 5.0 runs %d, 4.1 %d", p, bytes, fixed5.algorithm, fixed.algorithm);
        }
  // What really runs: the fixed rule's chain (fan-out 0) is a pipeline; scatter-allgather with
  // fewer elements than ranks is linear; Rabenseifner for a non-commutative op is linear.
  ck_assert_int_eq(what_runs(ompi_fixed_decision(Op::bcast, 200000, 3, true), 200000, 1, 3, true).algorithm, 3);
  ck_assert_int_eq(what_runs(Candidate{Op::bcast, 8, 0, 0}, 10, 1, 20, true).algorithm, 1);
  ck_assert_int_eq(what_runs(Candidate{Op::bcast, 8, 0, 0}, 20, 1, 20, true).algorithm, 8);
  ck_assert_int_eq(what_runs(Candidate{Op::reduce, 7, 0, 0}, 1000, 4, 6, false).algorithm, 1);
  ck_assert_int_eq(what_runs(Candidate{Op::bcast, 4, 0, 0}, 1, 4, 6, true).algorithm, 3);
}
END_TEST

// The registry against Open MPI 4.1.4, 5.0.7 and 6.0: tuned's numbers and names
// (coll_tuned_<op>_decision.c) and base functions, modeltuned's own names, and every spec's plan is
// one its evaluator reads.
START_TEST(registry_matches_tuned) {
  const std::pair<int, const char *> bcast[] = {
      {1, "basic_linear"}, {2, "chain"},   {3, "pipeline"},          {4, "split_binary_tree"},     {5, "binary_tree"},
      {6, "binomial"},     {7, "knomial"}, {8, "scatter_allgather"}, {9, "scatter_allgather_ring"}};
  const std::pair<int, const char *> reduce[] = {{1, "linear"},       {2, "chain"},    {3, "pipeline"},
                                                 {4, "binary"},       {5, "binomial"}, {6, "in-order_binary"},
                                                 {7, "rabenseifner"}, {8, "knomial"}};
  for (auto [number, name] : bcast) ck_assert_int_eq(find_algorithm(Op::bcast, name)->id, number);
  for (auto [number, name] : reduce) ck_assert_int_eq(find_algorithm(Op::reduce, name)->id, number);
  const std::pair<int, const char *> allreduce[] = {
      {1, "basic_linear"},   {2, "nonoverlapping"}, {3, "recursive_doubling"}, {4, "ring"},
      {5, "segmented_ring"}, {6, "rabenseifner"},   {7, "allgather_reduce"}};
  for (auto [number, name] : allreduce) ck_assert_int_eq(find_algorithm(Op::allreduce, name)->id, number);
  const std::pair<int, const char *> barrier[] = {{1, "linear"}, {2, "double_ring"}, {3, "recursive_doubling"},
                                                  {4, "bruck"},  {5, "two_proc"},    {6, "tree"}};
  for (auto [number, name] : barrier) ck_assert_int_eq(find_algorithm(Op::barrier, name)->id, number);
  const std::pair<int, const char *> allgather[] = {{1, "linear"},  {2, "bruck"},          {3, "recursive_doubling"},
                                                    {4, "ring"},    {5, "neighbor"},       {6, "two_proc"},
                                                    {7, "sparbit"}, {2, "bruck-k-fanout"}, {8, "direct-messaging"}};
  for (auto [number, name] : allgather) ck_assert_int_eq(find_algorithm(Op::allgather, name)->id, number);
  ck_assert_int_eq(find_algorithm(Op::bcast, "bintree")->id, 5);
  ck_assert_int_eq(find_algorithm(Op::reduce, "in_order_binary")->id, 6);
  ck_assert(find_algorithm(Op::bcast, "binary") == nullptr && find_algorithm(Op::reduce, "0") == nullptr);
  CalibrationTable t = synthetic_table();
  int specs = 0;
  for (const AlgorithmSpec &a : algorithm_registry()) {
    if (!a.component.empty()) continue;  // other components' (tests/check_components.cpp)
    ++specs;
    // 6.0 names direct messaging without "intra".
    const std::string prefix =
        fmt::format("ompi_coll_base_{}_{}", op_name(a.op), a.name == "direct_messaging" ? "" : "intra_");
    ck_assert_msg(a.ompi_function.starts_with(prefix), "%s", a.ompi_function.data());
    if (a.composed == Composition::reduce_then_bcast || a.composed == Composition::allgather_then_reduce)
      continue;  // predicted by the selector (check_allreduce)
    // Segmented ones with segments (the segmented ring runs the ring without).
    const Candidate c{a.op, a.id, a.parameters.segmented ? 1024u : 0u,
                      a.parameters.fanouts.empty() ? 0 : a.parameters.fanouts.front()};
    const int ranks = a.runs_only_on != 0 ? a.runs_only_on : 4;  // a power of two: what every algorithm runs on
    const auto us = predict_us(t, one_cache(ranks), c, CallShape{a.op, 1000, 8, 1, true});
    ck_assert_msg(us && *us > 0, "%s %s", op_name(a.op).data(), a.name.data());
    if (a.runs_only_on != 0)  // refused elsewhere: never predicted there
      ck_assert(!predict_us(t, one_cache(ranks + 1), c, CallShape{a.op, 1000, 8, 1, true}));
  }
  ck_assert_int_eq(specs, 9 + 8 + 8 + 6 + 9 + 5);  // allreduce: 6.0's Rabenseifner beside 4.1's and 5.0's
}
END_TEST

START_TEST(registry_refuses_clashes) {
  AlgorithmSpec spec = *find_algorithm(Op::reduce, "binomial");
  auto refused = [](const AlgorithmSpec &s, const char *why) {
    try {
      register_algorithm(s);
    } catch (const std::invalid_argument &e) {
      return std::string(e.what()).find(why) != std::string::npos;
    }
    return false;
  };
  ck_assert(refused(spec, "clashes with binomial (5)"));
  spec.id = 12;
  ck_assert(refused(spec, "clashes with binomial (5)"));  // the same name
  spec.name = "binomial2";
  spec.tuned_name = "in-order_binary";
  ck_assert(refused(spec, "clashes with in_order_binary (6)"));
  spec.tuned_name = "";
  spec.id = 32;
  ck_assert(refused(spec, "1..31"));
  spec.id = 12;
  spec.evaluate = nullptr;
  ck_assert(refused(spec, "evaluator"));
}
END_TEST

START_TEST(emulated_orfeo_placements) {
  using namespace modeltuned::tools;
  // Channels of data/orfeo-epyc/README.md under Open MPI 4.1's mapping and binding.
  const MachineShape orfeo = orfeo_epyc(2);
  Placement by_core = emulate_placement(orfeo, 256, MapBy::core);
  ck_assert(by_core.channel(0, 3) == Channel::cache);  // same CCX (cores 0-3)
  ck_assert(by_core.channel(0, 4) == Channel::core);   // same socket
  ck_assert(by_core.channel(0, 63) == Channel::core);
  ck_assert(by_core.channel(0, 64) == Channel::socket);  // other socket
  ck_assert(by_core.channel(0, 128) == Channel::node);   // the second node starts at 128
  Placement by_socket = emulate_placement(orfeo, 200, MapBy::socket);
  ck_assert(by_socket.channel(0, 1) == Channel::socket);  // alternating sockets
  ck_assert(by_socket.channel(0, 2) == Channel::core);    // bound to a socket: no shared L3 known
  ck_assert(by_socket.channel(0, 128) == Channel::node);
  Placement by_node = emulate_placement(orfeo, 16, MapBy::node);
  ck_assert(by_node.channel(0, 1) == Channel::node);    // alternating nodes
  ck_assert(by_node.channel(0, 2) == Channel::core);    // NUMA 0 and 1 of socket 0
  ck_assert(by_node.channel(0, 8) == Channel::socket);  // fifth rank on node 0: NUMA 4, socket 1
  // Two ranks bind to cores whatever the mapping (but map-by socket still alternates sockets).
  Placement two = emulate_placement(orfeo, 2, MapBy::socket);
  ck_assert(two[0].core >= 0 && two[1].core >= 0);
  ck_assert(two.channel(0, 1) == Channel::socket);
  ck_assert(emulate_placement(orfeo, 2, MapBy::node).channel(0, 1) == Channel::node);
  // Descriptions and errors.
  ck_assert(parse_machine("node:2 pack:2 numa:4 l3:4 core:4") == orfeo);
  bool threw = false;
  try {
    emulate_placement(orfeo, 513, MapBy::core);
  } catch (const std::invalid_argument &) {
    threw = true;
  }
  ck_assert(threw);
  threw = false;
  try {
    parse_machine("node:2 socks:2");
  } catch (const std::invalid_argument &e) {
    threw = std::string(e.what()).find("socks") != std::string::npos;
  }
  ck_assert(threw);

  // Hosts with slots, as a hostfile (--hosts): by slot fills each node's slots in turn, by node
  // deals ranks to the nodes with free slots.
  MachineShape hosts = orfeo_epyc(1);
  apply_hosts(hosts, "a:2,b:2,c:1");
  ck_assert_int_eq(hosts.nodes, 3);
  ck_assert_int_eq(hosts.total_slots(), 5);
  auto nodes_of = [](const Placement &p) {
    std::vector<int> out;
    for (int r = 0; r < p.size(); ++r) out.push_back(p[r].node);
    return out;
  };
  ck_assert(nodes_of(emulate_placement(hosts, 5, "slot", BindTo::core)) == (std::vector<int>{0, 0, 1, 1, 2}));
  ck_assert(nodes_of(emulate_placement(hosts, 5, "node", BindTo::core)) == (std::vector<int>{0, 1, 2, 0, 1}));
  apply_hosts(hosts, "a:3,b:1");  // by node skips the full node
  ck_assert(nodes_of(emulate_placement(hosts, 4, "node", BindTo::core)) == (std::vector<int>{0, 1, 0, 0}));
  apply_hosts(hosts, "8x4");
  ck_assert_int_eq(hosts.total_slots(), 32);
  const Placement spread = emulate_placement(hosts, 32, "core", BindTo::core);
  ck_assert(spread.channel(0, 3) == Channel::cache && spread.channel(3, 4) == Channel::node);
  // Without slots the mapping is unchanged.
  ck_assert(nodes_of(emulate_placement(orfeo, 16, MapBy::node)) ==
            nodes_of(emulate_placement(orfeo_epyc(2), 16, "node")));
  for (const char *bad : {"a:2,b", "a:0", "8x", "a:129"}) {
    threw = false;
    try {
      apply_hosts(hosts, bad);
    } catch (const std::invalid_argument &e) {
      threw = std::string(e.what()).find("--hosts") != std::string::npos;
    }
    ck_assert_msg(threw, "--hosts %s accepted", bad);
  }
  apply_hosts(hosts, "a:1,b:1");
  threw = false;
  try {
    emulate_placement(hosts, 3, "slot");
  } catch (const std::invalid_argument &e) {
    threw = std::string(e.what()).find("2 slots") != std::string::npos;
  }
  ck_assert(threw);
}
END_TEST

int main() {
  Suite *s = suite_create("model");
  // One test case per layer of model/ (and the placements tools/lib/emulate makes for it).
  const std::vector<std::pair<const char *, std::vector<const TTest *>>> cases = {
      {"topology", {channel_rules}},
      {"cost", {p2p_pieces, gamma_from_flat_tree_fits, multi_channel_eq11, fresh_memory_charges}},
      {"schedule",
       {segmentation_matches_open_mpi, schedule_reduces_to_stage_sum, schedule_follows_paths, ompi_versions}},
      {"simulate",
       {pipeline_stage_sum_eq2, binary_tree_stage_sum_eq3, linear_is_one_flat_tree, in_order_binary_sends_to_root,
        rank_mean_metric, scatter_allgather_non_power_of_two, rabenseifner_odd_root_hop, relays_charge_forwarding_ranks,
        fallbacks_are_never_predicted}},
      {"select",
       {selector_rules, checks_decide_only_what_they_cover, picks_pass_the_checks_for_both_objectives,
        han_default_needs_checks_of_han, checks_hold_near_their_ranks, checks_between_measured_sizes_take_both,
        default_checks_follow_the_fixed_rule, uncovered_communicators_never_leave_the_default,
        ops_kept_at_the_default_everywhere, candidates_cover_parameters, algorithm_lists, tuned_fixed_rules,
        fallback_under_han}},
      {"registry", {registry_matches_tuned, registry_refuses_clashes}},
      {"capi", {component_table_keeps_the_provenance_it_reads}},
      {"emulate", {emulated_orfeo_placements}},
  };
  for (const auto &[name, tests] : cases) {
    TCase *tc = tcase_create(name);
    for (const TTest *test : tests) tcase_add_test(tc, test);
    suite_add_tcase(s, tc);
  }
  return modeltuned_run_suite(s, CK_NORMAL);
}

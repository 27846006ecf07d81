// The warm-up, the timed rounds and the gathering of modeltuned-bench (see measure.hpp).
#include "tools/bench/measure.hpp"

#include <mpi.h>

#include <algorithm>
#include <ctime>
#include <new>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "tools/bench/job.hpp"

namespace modeltuned::bench {
namespace {

double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// Reduce and allreduce use MPI_INT with MPI_SUM (sizes are multiples of 4 bytes); bcast MPI_BYTE,
// allgather a block of MPI_BYTE per rank, alltoall one per peer; the barrier moves nothing.
void run_collective(Op op, MPI_Comm comm, Buffers &buf, uint64_t call, uint64_t bytes, int root) {
  const int n = static_cast<int>(bytes);
  switch (op) {  // no default: a collective added to Op must be run here
    case Op::bcast:
      MPI_Bcast(buf.send_slot(call), n, MPI_BYTE, root, comm);
      break;
    case Op::reduce:
      MPI_Reduce(buf.send_slot(call), buf.recv_slot(call), n / 4, MPI_INT, MPI_SUM, root, comm);
      break;
    case Op::allreduce:
      MPI_Allreduce(buf.send_slot(call), buf.recv_slot(call), n / 4, MPI_INT, MPI_SUM, comm);
      break;
    case Op::barrier:
      MPI_Barrier(comm);
      break;
    case Op::allgather:
      MPI_Allgather(buf.send_slot(call), n, MPI_BYTE, buf.recv_slot(call), n, MPI_BYTE, comm);
      break;
    case Op::alltoall:
      MPI_Alltoall(buf.send_slot(call), n, MPI_BYTE, buf.recv_slot(call), n, MPI_BYTE, comm);
      break;
  }
}

std::vector<Pair> make_pairs(const std::vector<Variant> &variants, const Plan &plan) {
  std::vector<Pair> out;
  for (size_t v = 0; v < variants.size(); ++v)
    for (size_t s = 0; s < plan.sizes.at(variants[v].op).size(); ++s) out.push_back({int(v), int(s)});
  return out;
}

// `taken`: the calls modeltuned ran per variant, the fewest over ranks. Forced variants it
// declined are dropped, with a note; the plain modeltuned variant is kept (the default then runs:
// what the user gets).
void drop_declined(const std::vector<uint64_t> &taken, Setup &setup) {
  std::vector<Variant> kept;
  for (size_t v = 0; v < setup.variants.size(); ++v) {
    if (setup.variants[v].name == "modeltuned" && taken[v] == 0) {
      // Kept: this is what a user gets, Open MPI's default through no layer at all.
      setup.notes.push_back(
          fmt::format("{} modeltuned: Open MPI's default ran every call: modeltuned declined the "
                      "communicator or left this op to the previous component (no check of its "
                      "table covers it, or the model keeps the default at every size); "
                      "--mca coll_modeltuned_verbose 1 says which",
                      op_name(setup.variants[v].op)));
      kept.push_back(setup.variants[v]);
      continue;
    }
    if (setup.variants[v].through_modeltuned() && taken[v] == 0) {
      setup.notes.push_back(
          fmt::format("{} {}: skipped: modeltuned declined its communicator (no usable calibration "
                      "table?); --mca coll_modeltuned_verbose 1 says why",
                      op_name(setup.variants[v].op), setup.variants[v].name));
      MPI_Comm_free(&setup.variants[v].comm);
      continue;
    }
    kept.push_back(setup.variants[v]);
  }
  setup.variants = std::move(kept);
}

}  // namespace

Buffers make_buffers(const Options &o, const Plan &plan) {
  Buffers buf;
  buf.slots = o.rotate_buffers;
  int world_size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const auto has = [&](Op op) { return std::find(plan.ops.begin(), plan.ops.end(), op) != plan.ops.end(); };
  const bool gathers = has(Op::allgather) || has(Op::alltoall);
  // An allgather receives a block from every rank; an alltoall sends one to every rank too.
  for (Op op : plan.ops) {
    const uint64_t largest = plan.sizes.at(op).back(), blocks = static_cast<uint64_t>(world_size);
    buf.slot_bytes = std::max(buf.slot_bytes, largest * (op == Op::alltoall ? blocks : 1));
    buf.recv_slot_bytes =
        std::max(buf.recv_slot_bytes, largest * (op == Op::allgather || op == Op::alltoall ? blocks : 1));
  }
  try {
    buf.send.assign(buf.slot_bytes * buf.slots, 1);  // reduce sums ints of value 0x01010101: no overflow across ranks
    if (gathers || std::any_of(plan.ops.begin(), plan.ops.end(), reduces))
      buf.recv.assign(buf.recv_slot_bytes * buf.slots, 0);
  } catch (const std::bad_alloc &) {
    usage_error(fmt::format("--rotate-buffers {} x {} bytes does not fit in memory; lower one of them", buf.slots,
                            buf.slot_bytes));
  }
  return buf;
}

// Warm-up: tree construction, the model's decision per size class, first-touch of buffers and
// lazily opened connections all happen here, not in a timed call. The counters show whether
// modeltuned took each variant's communicator at all (without a usable table it declines).
void warm_up(const Options &o, const Plan &plan, Buffers &buf, uint64_t &call_number, Setup &setup) {
  const std::vector<Pair> pairs = make_pairs(setup.variants, plan);
  std::vector<uint64_t> taken(setup.variants.size(), 0), calls(std::max(setup.counter_width, 1));
  for (int w = 0; w < o.warmup + 1; ++w)
    for (const auto &p : pairs) {
      const Variant &v = setup.variants[p.variant];
      const std::vector<uint64_t> before = setup.counts(v.op);
      run_collective(v.op, v.comm, buf, call_number++, plan.sizes.at(v.op)[p.size], o.root);
      std::fill(calls.begin(), calls.end(), 0);
      setup.add_since(v.op, before, calls.data());
      for (uint64_t c : calls) taken[p.variant] += c;
    }
  if (!setup.counted) return;
  MPI_Allreduce(MPI_IN_PLACE, taken.data(), int(taken.size()), MPI_UINT64_T, MPI_MIN, setup.control);
  drop_declined(taken, setup);
}

Timings measure(const Options &o, const Plan &plan, uint64_t seed, Buffers &buf, uint64_t &call_number, Setup &setup) {
  Timings t;
  t.pairs = make_pairs(setup.variants, plan);
  const size_t npairs = t.pairs.size();
  const int width = std::max(setup.counter_width, 1);
  t.start.resize(npairs * o.reps);
  t.end.resize(npairs * o.reps);
  t.calls.assign(npairs * width, 0);
  std::mt19937_64 rng(seed);
  std::vector<size_t> order(npairs);
  std::iota(order.begin(), order.end(), 0);
  const double began = now();
  for (; t.rounds < o.reps; ++t.rounds) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t k : order) {
      const Variant &v = setup.variants[t.pairs[k].variant];
      MPI_Barrier(v.comm);
      const std::vector<uint64_t> before = setup.counts(v.op);  // after the barrier, which may be the op itself
      const double t0 = now();
      run_collective(v.op, v.comm, buf, call_number++, plan.sizes.at(v.op)[t.pairs[k].size], o.root);
      const double t1 = now();
      t.start[t.rounds * npairs + k] = t0;
      t.end[t.rounds * npairs + k] = t1;
      setup.add_since(v.op, before, &t.calls[k * width]);
    }
    int go_on = 1;
    if (world_rank == 0 && o.max_time > 0 && now() - began > o.max_time) go_on = 0;
    MPI_Bcast(&go_on, 1, MPI_INT, 0, setup.control);
    if (!go_on) {
      ++t.rounds;
      break;
    }
  }
  t.seconds = now() - began;
  return t;
}

void gather(bool one_node, const Setup &setup, Timings &t) {
  const size_t n = t.rounds * t.pairs.size();
  std::vector<double> &times = t.times;
  times.resize(n);
  if (one_node) {
    std::vector<double> first_start(n), last_end(n);
    MPI_Reduce(t.start.data(), first_start.data(), int(n), MPI_DOUBLE, MPI_MIN, 0, setup.control);
    MPI_Reduce(t.end.data(), last_end.data(), int(n), MPI_DOUBLE, MPI_MAX, 0, setup.control);
    for (size_t i = 0; i < n; ++i) times[i] = last_end[i] - first_start[i];
  } else {
    std::vector<double> local(n);
    for (size_t i = 0; i < n; ++i) local[i] = t.end[i] - t.start[i];
    MPI_Reduce(local.data(), times.data(), int(n), MPI_DOUBLE, MPI_MAX, 0, setup.control);
  }
  std::vector<double> own(n);
  for (size_t i = 0; i < n; ++i) own[i] = t.end[i] - t.start[i];
  t.rank_mean.resize(n);
  MPI_Reduce(own.data(), t.rank_mean.data(), int(n), MPI_DOUBLE, MPI_SUM, 0, setup.control);
  for (double &m : t.rank_mean) m /= world_size;
  std::vector<uint64_t> all_calls(t.calls.size());
  MPI_Reduce(t.calls.data(), all_calls.data(), int(t.calls.size()), MPI_UINT64_T, MPI_SUM, 0, setup.control);
  t.calls = std::move(all_calls);
}

}  // namespace modeltuned::bench

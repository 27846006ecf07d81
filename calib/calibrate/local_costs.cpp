// The local costs a calibration run measures on rank 0: MPI_Reduce_local per byte, and what a
// reduce's per-call temporaries cost through this process's allocator (docs/calibration.md).
#include <algorithm>
#include <cstdlib>
#include <vector>

#include <unistd.h>

#include "calib/calibrate/measurements.hpp"
#include "calib/regression.hpp"

namespace modeltuned::calibrate {

nlohmann::json ReduceLocalResult::to_json() const {
  return {{"double_us_per_byte", double_us_per_byte},
          {"double_method", double_method},
          {"int_us_per_byte", int_us_per_byte},
          {"samples", samples},
          {"fresh_memory_us_per_byte", fresh_us_per_byte},
          {"fresh_memory_one_buffer_us_per_byte", fresh_one_buffer_us_per_byte},
          {"fresh_memory_two_buffers_us_per_byte", fresh_two_buffers_us_per_byte},
          {"fresh_memory_from_bytes", fresh_from_bytes},
          {"fresh_memory_samples", fresh_samples}};
}

ReduceLocalResult Calibrator::reduce_local(double deadline) {
  ReduceLocalResult result;
  if (rank_ == 0) {
    const std::vector<size_t> sizes = {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20};
    const size_t largest = sizes.back();
    std::vector<double> din(largest / sizeof(double), 1.0), dinout(din.size(), 0.0);
    std::vector<int> iin(largest / sizeof(int), 1), iinout(iin.size(), 0);
    struct Case {
      MPI_Datatype type;
      size_t bytes;
    };
    std::vector<Case> cases;
    for (size_t bytes : sizes) {
      cases.push_back({MPI_DOUBLE, bytes});
      cases.push_back({MPI_INT, bytes});
    }
    auto reduce = [&](const Case &c) {
      const double start = MPI_Wtime();
      if (c.type == MPI_DOUBLE)
        MPI_Reduce_local(din.data(), dinout.data(), static_cast<int>(c.bytes / sizeof(double)), MPI_DOUBLE, MPI_SUM);
      else
        MPI_Reduce_local(iin.data(), iinout.data(), static_cast<int>(c.bytes / sizeof(int)), MPI_INT, MPI_SUM);
      return (MPI_Wtime() - start) * 1e6;
    };
    for (const Case &c : cases) reduce(c);  // warm-up: page faults, caches
    std::vector<calib::Point> doubles, ints;
    constexpr int kRounds = 10;
    // At least one full round: without two sizes of each type there is no slope.
    for (int round = 0; round < kRounds && (round == 0 || MPI_Wtime() < deadline); ++round) {
      std::shuffle(cases.begin(), cases.end(), rng_);
      for (const Case &c : cases) (c.type == MPI_DOUBLE ? doubles : ints).push_back({double(c.bytes), reduce(c)});
      progress_.update((round + 1.0) / kRounds);
    }
    // A loaded machine can make the small sizes slower than the large ones: the fit never gives
    // up on that, it takes an upper bound and says so (fit_per_byte_cost).
    const calib::PerByteCost per_double = calib::fit_per_byte_cost(doubles), per_int = calib::fit_per_byte_cost(ints);
    result.double_us_per_byte = per_double.us_per_byte;
    result.double_method = per_double.method;
    result.int_us_per_byte = per_int.us_per_byte;
    result.samples = static_cast<int>(doubles.size() + ints.size());
    fresh_memory(deadline, result);
  }
  idle_barrier(MPI_COMM_WORLD);
  return result;
}

// Fresh memory: what this process's allocator makes a reduce's temporaries cost. Open MPI's
// reduce mallocs message-sized buffers on every call (an accumulator and segment buffers), writes
// them and frees them on return. glibc either keeps a freed block for the next call, which then
// costs nothing beyond the writes, or gives it back to the system (mmap'd blocks; a heap top
// above the trim threshold, which two blocks freed together can pass where one does not), and
// then every page faults in again. So both patterns are timed in steady state, as the allocator
// settles after a few calls of one size, minus writing as many pages of warm memory, from 4 KiB
// (a segment buffer) to 4 MiB. The cost is a step (calib::fit_fresh_step): nothing below the size
// from which blocks come back cold, the per-byte cost above it; the costlier pattern's step is the
// table's (on the 2-core VM: two blocks of 4 MiB at 3 ns/B, nothing up to two of 2 MiB).
void Calibrator::fresh_memory(double deadline, ReduceLocalResult &result) {
  const std::vector<size_t> sizes = {4 << 10,   16 << 10, 64 << 10, 128 << 10, 256 << 10,
                                     512 << 10, 1 << 20,  2 << 20,  4 << 20};
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  constexpr int kWarmupCalls = 3, kTimedCalls = 5, kRounds = 5;
  std::vector<char> warm(2 * sizes.back(), 1);
  auto write_pages = [&](char *p, size_t bytes) {
    auto *v = static_cast<volatile char *>(p);
    for (size_t i = 0; i < bytes; i += page) v[i] = 1;
  };
  // One call of the pattern: malloc `buffers` blocks of `bytes`, write every page, free them all.
  // Microseconds; negative when malloc fails.
  auto allocate_write_free = [&](int buffers, size_t bytes) {
    const double start = MPI_Wtime();
    char *blocks[2] = {nullptr, nullptr};
    bool allocated = true;
    for (int k = 0; k < buffers; ++k) allocated &= (blocks[k] = static_cast<char *>(std::malloc(bytes))) != nullptr;
    if (allocated)
      for (int k = 0; k < buffers; ++k) write_pages(blocks[k], bytes);
    for (int k = 0; k < buffers; ++k) std::free(blocks[k]);
    return allocated ? (MPI_Wtime() - start) * 1e6 : -1.0;
  };
  auto median_of_calls = [&](auto &&call) {
    std::vector<double> us(kTimedCalls);
    for (double &t : us) t = call();
    return upper_median(us);
  };

  struct Case {
    int buffers;
    size_t bytes;
  };
  std::vector<Case> cases;
  for (int buffers : {1, 2})
    for (size_t bytes : sizes) cases.push_back({buffers, bytes});
  std::vector<calib::Point> samples[2];  // per pattern: fresh bytes per call, extra microseconds
  // At least one full round: without two sizes of each pattern there is no slope.
  for (int round = 0; round < kRounds && (round == 0 || MPI_Wtime() < deadline); ++round) {
    std::shuffle(cases.begin(), cases.end(), rng_);
    for (const Case &c : cases) {
      const size_t fresh_bytes = c.buffers * c.bytes;
      for (int i = 0; i < kWarmupCalls; ++i) allocate_write_free(c.buffers, c.bytes);
      const double pattern_us = median_of_calls([&] { return allocate_write_free(c.buffers, c.bytes); });
      if (pattern_us < 0) return;  // the allocator refused: leave it unmeasured
      const double warm_us = median_of_calls([&] {
        const double start = MPI_Wtime();
        write_pages(warm.data(), fresh_bytes);
        return (MPI_Wtime() - start) * 1e6;
      });
      samples[c.buffers - 1].push_back({static_cast<double>(fresh_bytes), pattern_us - warm_us});
    }
  }
  const calib::FreshStep one = calib::fit_fresh_step(samples[0]), two = calib::fit_fresh_step(samples[1]);
  const calib::FreshStep &costlier = one.us_per_byte > two.us_per_byte ? one : two;
  result.fresh_one_buffer_us_per_byte = one.us_per_byte;
  result.fresh_two_buffers_us_per_byte = two.us_per_byte;
  result.fresh_us_per_byte = costlier.us_per_byte;
  result.fresh_from_bytes = costlier.from_bytes;
  result.fresh_samples = static_cast<int>(samples[0].size() + samples[1].size());
}

}  // namespace modeltuned::calibrate

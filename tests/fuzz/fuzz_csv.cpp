// libFuzzer target: the measurement CSV readers (calib/csv.cpp, calib/osu_csv.cpp). The first
// byte picks the reader (OSU point-to-point, OSU flat tree, raw samples); the rest is the file.
// Any input either fails with one FitError line or yields samples with finite, positive values.
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "calib/fit.hpp"

namespace {

bool sane(const modeltuned::calib::Samples &s) {
  for (const auto &p : s.p2p)
    if (!(std::isfinite(p.latency_us) && p.latency_us > 0 && std::isfinite(p.bytes) && p.bytes > 0)) return false;
  for (const auto &f : s.flat)
    if (!(std::isfinite(f.latency_us) && f.latency_us > 0 && f.p >= 2)) return false;
  for (const auto &c : s.contention)
    if (!(std::isfinite(c.latency_us) && c.latency_us > 0 && c.p >= 2 && c.p % 2 == 0)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  // The readers take a path: an in-memory file.
  const int fd = memfd_create("fuzz.csv", MFD_CLOEXEC);
  if (fd < 0) std::abort();
  if (size > 1 && write(fd, data + 1, size - 1) != static_cast<ssize_t>(size - 1)) std::abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  modeltuned::calib::Samples samples;
  try {
    switch (data[0] % 3) {
      case 0:
        modeltuned::calib::read_osu_p2p_csv(path, samples);
        break;
      case 1:
        modeltuned::calib::read_osu_flat_csv(path, modeltuned::FlatTreeKind::fanout, samples);
        break;
      default:
        modeltuned::calib::read_samples_csv(path, samples);
        break;
    }
    if (!sane(samples)) std::abort();
  } catch (const modeltuned::calib::FitError &e) {
    if (std::string(e.what()).find('\n') != std::string::npos) std::abort();
  }
  close(fd);
  return 0;
}

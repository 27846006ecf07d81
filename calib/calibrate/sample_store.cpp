#include "calib/calibrate/sample_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace modeltuned::calibrate {

namespace {
const char *kind_name(FlatTreeKind kind) { return kind == FlatTreeKind::fanout ? "fanout" : "fanin"; }
}  // namespace

SampleStore::SampleStore(const std::string &csv_path) : path_(csv_path) {
  fd_ = open(csv_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw std::runtime_error(fmt::format("cannot create the samples file {}: {} (choose another with --samples)",
                                         csv_path, std::strerror(errno)));
  pending_ = "kind,channel,p,bytes,rep,latency_us\n";
  flush();
}

SampleStore::~SampleStore() {
  if (fd_ >= 0) close(fd_);
}

void SampleStore::add_p2p(Channel channel, double bytes, int rep, double latency_us) {
  std::lock_guard lock(mutex_);
  samples_.p2p.push_back({channel, bytes, latency_us});
  ++counts_["p2p"][std::string(channel_name(channel))];
  fmt::format_to(std::back_inserter(pending_), "p2p,{},2,{:.0f},{},{:.4f}\n", channel_name(channel), bytes, rep,
                 latency_us);
}

void SampleStore::add_flat(Channel channel, FlatTreeKind kind, int p, double bytes, int rep,
                           double latency_us) {
  std::lock_guard lock(mutex_);
  samples_.flat.push_back({channel, kind, p, bytes, latency_us});
  ++counts_[kind_name(kind)][std::string(channel_name(channel))];
  fmt::format_to(std::back_inserter(pending_), "{},{},{},{:.0f},{},{:.4f}\n", kind_name(kind),
                 channel_name(channel), p, bytes, rep, latency_us);
}

void SampleStore::flush() {
  std::lock_guard lock(mutex_);
  size_t written = 0;
  while (written < pending_.size()) {
    const ssize_t n = write(fd_, pending_.data() + written, pending_.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(fmt::format("writing {} failed: {}", path_, std::strerror(errno)));
    written += static_cast<size_t>(n);
  }
  pending_.clear();
}

calib::Samples SampleStore::snapshot() const {
  std::lock_guard lock(mutex_);
  return samples_;
}

nlohmann::json SampleStore::counts() const {
  std::lock_guard lock(mutex_);
  nlohmann::json j = nlohmann::json::object();
  for (const auto &[kind, per_channel] : counts_)
    for (const auto &[channel, n] : per_channel) j[kind][channel] = n;
  return j;
}

}  // namespace modeltuned::calibrate

#include "calib/calibrate/sample_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <iterator>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace modeltuned::calibrate {

namespace {
const char *kind_name(FlatTreeKind kind) { return kind == FlatTreeKind::fanout ? "fanout" : "fanin"; }

// A latency as its CSV row writes it (0.1 ns steps), parsed back as the CSV reader does: the run
// fits exactly what the file holds, so a refit of the file (modeltuned fit --samples) gives the
// run's table again.
struct Latency {
  std::string text;
  double us = 0;
  explicit Latency(double measured_us) : text(fmt::format("{:.4f}", measured_us)) {
    std::from_chars(text.data(), text.data() + text.size(), us);
  }
};
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
  const Latency latency(latency_us);
  std::lock_guard lock(mutex_);
  samples_.p2p.push_back({channel, bytes, latency.us});
  ++counts_["p2p"][std::string(channel_name(channel))];
  fmt::format_to(std::back_inserter(pending_), "p2p,{},2,{:.0f},{},{}\n", channel_name(channel), bytes, rep,
                 latency.text);
}

void SampleStore::add_flat(Channel channel, FlatTreeKind kind, int p, double bytes, int rep, double latency_us) {
  const Latency latency(latency_us);
  std::lock_guard lock(mutex_);
  samples_.flat.push_back({channel, kind, p, bytes, latency.us});
  ++counts_[kind_name(kind)][std::string(channel_name(channel))];
  fmt::format_to(std::back_inserter(pending_), "{},{},{},{:.0f},{},{}\n", kind_name(kind), channel_name(channel), p,
                 bytes, rep, latency.text);
}

void SampleStore::add_contention(Channel channel, calib::ContentionKind kind, int p, double bytes, int rep,
                                 double latency_us) {
  const Latency latency(latency_us);
  std::lock_guard lock(mutex_);
  samples_.contention.push_back({channel, kind, p, bytes, latency.us});
  ++counts_[calib::contention_name(kind)][std::string(channel_name(channel))];
  fmt::format_to(std::back_inserter(pending_), "{},{},{},{:.0f},{},{}\n", calib::contention_name(kind),
                 channel_name(channel), p, bytes, rep, latency.text);
}

void SampleStore::add_relay(Channel channel, double bytes, int rep, double ring_us, double hops_us) {
  const Latency ring(ring_us), hops(hops_us);
  std::lock_guard lock(mutex_);
  samples_.relay.push_back({channel, calib::RelayKind::ring, bytes, ring.us});
  samples_.relay.push_back({channel, calib::RelayKind::hops, bytes, hops.us});
  ++counts_["relay"][std::string(channel_name(channel))];
  for (auto [kind, latency] : {std::pair{calib::RelayKind::ring, &ring}, std::pair{calib::RelayKind::hops, &hops}})
    fmt::format_to(std::back_inserter(pending_), "{},{},3,{:.0f},{},{}\n", calib::relay_name(kind),
                   channel_name(channel), bytes, rep, latency->text);
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

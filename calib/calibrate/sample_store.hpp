// Raw measurements as rank 0 takes them: kept in memory for the fit and appended to a CSV file
// that is flushed after every batch, so an interrupted run loses nothing it measured.
#pragma once
#include <map>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "calib/fit.hpp"

namespace modeltuned::calibrate {

// CSV columns: kind,channel,p,bytes,rep,latency_us; kind is p2p, fanout, fanin, concurrent,
// exchange, relay or relay_hops; p is 2 for p2p, 3 for the relay ring.
class SampleStore {
 public:
  // Creates (truncates) the CSV and writes its header. Throws std::runtime_error naming the path.
  explicit SampleStore(const std::string &csv_path);
  ~SampleStore();
  SampleStore(const SampleStore &) = delete;
  SampleStore &operator=(const SampleStore &) = delete;

  void add_p2p(Channel channel, double bytes, int rep, double latency_us);
  void add_flat(Channel channel, FlatTreeKind kind, int p, double bytes, int rep, double latency_us);
  void add_contention(Channel channel, calib::ContentionKind kind, int p, double bytes, int rep, double latency_us);
  // One relay run: its ring time (kind relay) and its hops' half round trips summed (relay_hops).
  void add_relay(Channel channel, double bytes, int rep, double ring_us, double hops_us);
  // Appends the rows added since the last flush with one write(2), so that a kill never leaves
  // half a row in the file.
  void flush();

  calib::Samples snapshot() const;
  // {"p2p": {"cache": n, ...}, "fanout": {...}, ...}: the kinds measured so far
  nlohmann::json counts() const;
  const std::string &path() const { return path_; }

 private:
  mutable std::mutex mutex_;
  std::string path_;
  int fd_ = -1;
  std::string pending_;  // rows not yet written
  calib::Samples samples_;
  std::map<std::string, std::map<std::string, int>> counts_;
};

}  // namespace modeltuned::calibrate

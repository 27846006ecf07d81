// Reading OSU-style measurement CSVs (header line, comma-separated, no quoting).
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

#include "calib/csv.hpp"
#include "calib/fit.hpp"

namespace modeltuned::calib {

void read_osu_p2p_csv(const std::string &path, Samples &out) {
  CsvReader csv(path, {"mapby", "size", "latency"});
  size_t rows = 0;
  while (csv.next_row()) {
    out.p2p.push_back({csv.channel("mapby"), csv.positive("size"), csv.positive("latency")});
    ++rows;
  }
  if (rows == 0) throw FitError(path + ": no measurements after the header");
}

void read_osu_flat_csv(const std::string &path, FlatTreeKind kind, Samples &out, const std::string &column) {
  // The "comm" column of the ORFEO files is the number of peers (P - 1), not a channel index
  // as their README says; "mapby" names the channel, so "comm" is not used.
  CsvReader csv(path, {"mapby", "p", "size", column});
  size_t rows = 0;
  while (csv.next_row()) {
    const int p = csv.integer("p");
    if (p < 2) throw FitError(csv.where() + ": column 'p': " + std::to_string(p) + " ranks; a flat tree needs P >= 2");
    out.flat.push_back({csv.channel("mapby"), kind, p, csv.positive("size"), csv.positive(column)});
    ++rows;
  }
  if (rows == 0) throw FitError(path + ": no measurements after the header");
}

void read_samples_csv(const std::string &path, Samples &out) {
  CsvReader csv(path, {"kind", "channel", "p", "bytes", "rep", "latency_us"});
  size_t rows = 0;
  while (csv.next_row()) {
    const std::string_view kind = csv.text("kind");
    const int p = csv.integer("p");
    const Channel channel = csv.channel("channel");
    const double bytes = csv.positive("bytes");
    const double latency = csv.positive("latency_us");
    if (csv.integer("rep") < 0) throw FitError(csv.where() + ": column 'rep': must not be negative");
    if (kind == "p2p") {
      if (p != 2) throw FitError(csv.where() + ": column 'p': " + std::to_string(p) + "; p2p rows have p = 2");
      out.p2p.push_back({channel, bytes, latency});
    } else if (kind == "fanout" || kind == "fanin") {
      if (p < 2)
        throw FitError(csv.where() + ": column 'p': " + std::to_string(p) + " ranks; a flat tree needs P >= 2");
      out.flat.push_back({channel, kind == "fanout" ? FlatTreeKind::fanout : FlatTreeKind::fanin, p, bytes, latency});
    } else if (kind == "concurrent" || kind == "exchange") {
      if (p < 2 || p % 2 != 0)
        throw FitError(csv.where() + ": column 'p': " + std::to_string(p) + " ranks; " + std::string(kind) +
                       " runs pairs, so P is even and >= 2");
      out.contention.push_back(
          {channel, kind == "concurrent" ? ContentionKind::concurrent : ContentionKind::exchange, p, bytes, latency});
    } else if (kind == "relay" || kind == "relay_hops") {
      if (p != 3) throw FitError(csv.where() + ": column 'p': " + std::to_string(p) + "; relay rows have p = 3");
      out.relay.push_back({channel, kind == "relay" ? RelayKind::ring : RelayKind::hops, bytes, latency});
    } else {
      throw FitError(csv.where() + ": column 'kind': unknown kind '" + std::string(kind) +
                     "'; known kinds are p2p, fanout, fanin, concurrent, exchange, relay, relay_hops");
    }
    ++rows;
  }
  if (rows == 0) throw FitError(path + ": no measurements after the header");
}

}  // namespace modeltuned::calib

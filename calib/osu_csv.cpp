// Reading OSU-style measurement CSVs (header line, comma-separated, no quoting).
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

#include "fit.hpp"

namespace modeltuned::calib {
namespace {

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  for (size_t comma; (comma = line.find(',', start)) != std::string_view::npos; start = comma + 1)
    fields.push_back(line.substr(start, comma - start));
  fields.push_back(line.substr(start));
  for (auto &f : fields) {
    while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.remove_prefix(1);
    while (!f.empty() && (f.back() == ' ' || f.back() == '\t')) f.remove_suffix(1);
  }
  return fields;
}

// A CSV with named columns; rows are handed out with their line number for messages.
class OsuCsv {
 public:
  OsuCsv(const std::string &path, std::vector<std::string> required) : path_(path), in_(path) {
    if (!in_) throw FitError(path + ": cannot open: " + std::strerror(errno));
    std::string header;
    if (!next_line(header)) throw FitError(path + ": empty file; expected a header line naming the columns");
    auto names = split_fields(header);
    for (const auto &name : required) {
      size_t i = 0;
      while (i < names.size() && names[i] != name) ++i;
      if (i == names.size())
        throw FitError(path + ":" + std::to_string(line_) + ": missing column '" + name +
                       "'; the header must name at least " + join(required));
      columns_[name] = i;
    }
    width_ = names.size();
  }

  bool next_row() {
    std::string text;
    do {
      if (!next_line(text)) return false;
    } while (text.find_first_not_of(" \t") == std::string::npos);
    row_text_ = std::move(text);
    row_ = split_fields(row_text_);
    if (row_.size() != width_)
      throw FitError(where() + ": " + std::to_string(row_.size()) + " fields, the header has " +
                     std::to_string(width_));
    return true;
  }

  std::string_view text(const std::string &column) const { return row_[columns_.at(column)]; }

  double number(const std::string &column) const {
    std::string_view field = text(column);
    double value = 0;
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || field.empty())
      throw FitError(where() + ": column '" + column + "': '" + std::string(field) + "' is not a number");
    return value;
  }

  int integer(const std::string &column) const {
    std::string_view field = text(column);
    int value = 0;
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || field.empty())
      throw FitError(where() + ": column '" + column + "': '" + std::string(field) + "' is not an integer");
    return value;
  }

  Channel channel(const std::string &column) const {
    int c = channel_from_name(text(column));
    if (c < 0)
      throw FitError(where() + ": column '" + column + "': unknown channel '" + std::string(text(column)) +
                     "'; known channels are cache, core, socket, node");
    return static_cast<Channel>(c);
  }

  double positive(const std::string &column) const {
    double value = number(column);
    if (!(value > 0) || !std::isfinite(value))
      throw FitError(where() + ": column '" + column + "': " + std::string(text(column)) +
                     " is not a positive finite number");
    return value;
  }

  std::string where() const { return path_ + ":" + std::to_string(line_); }

 private:
  bool next_line(std::string &text) {
    if (!std::getline(in_, text)) {
      if (in_.bad()) throw FitError(path_ + ": read error: " + std::strerror(errno));
      return false;
    }
    ++line_;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    return true;
  }

  static std::string join(const std::vector<std::string> &names) {
    std::string out;
    for (const auto &n : names) out += (out.empty() ? "" : ",") + n;
    return out;
  }

  std::string path_;
  std::ifstream in_;
  size_t line_ = 0;
  size_t width_ = 0;
  std::map<std::string, size_t> columns_;
  std::string row_text_;
  std::vector<std::string_view> row_;
};

}  // namespace

void read_osu_p2p_csv(const std::string &path, Samples &out) {
  OsuCsv csv(path, {"mapby", "size", "latency"});
  size_t rows = 0;
  while (csv.next_row()) {
    out.p2p.push_back({csv.channel("mapby"), csv.positive("size"), csv.positive("latency")});
    ++rows;
  }
  if (rows == 0) throw FitError(path + ": no measurements after the header");
}

void read_osu_flat_csv(const std::string &path, FlatTreeKind kind, Samples &out) {
  // The "comm" column of the ORFEO files is the number of peers (P - 1), not a channel index
  // as their README says; "mapby" names the channel, so "comm" is not used.
  OsuCsv csv(path, {"mapby", "p", "size", "latency"});
  size_t rows = 0;
  while (csv.next_row()) {
    const int p = csv.integer("p");
    if (p < 2) throw FitError(csv.where() + ": column 'p': " + std::to_string(p) + " ranks; a flat tree needs P >= 2");
    out.flat.push_back({csv.channel("mapby"), kind, p, csv.positive("size"), csv.positive("latency")});
    ++rows;
  }
  if (rows == 0) throw FitError(path + ": no measurements after the header");
}

void read_samples_csv(const std::string &path, Samples &out) {
  OsuCsv csv(path, {"kind", "channel", "p", "bytes", "rep", "latency_us"});
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
      if (p < 2) throw FitError(csv.where() + ": column 'p': " + std::to_string(p) + " ranks; a flat tree needs P >= 2");
      out.flat.push_back({channel, kind == "fanout" ? FlatTreeKind::fanout : FlatTreeKind::fanin, p, bytes, latency});
    } else {
      throw FitError(csv.where() + ": column 'kind': unknown kind '" + std::string(kind) +
                     "'; known kinds are p2p, fanout, fanin");
    }
    ++rows;
  }
  if (rows == 0) throw FitError(path + ": no measurements after the header");
}

}  // namespace modeltuned::calib

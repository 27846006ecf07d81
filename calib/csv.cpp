// CsvReader (calib/csv.hpp).
#include "calib/csv.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

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

std::string join(const std::vector<std::string> &names) {
  std::string out;
  for (const auto &n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace

CsvReader::CsvReader(const std::string &path, std::vector<std::string> required) : path_(path), in_(path) {
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

bool CsvReader::next_row() {
  std::string text;
  do {
    if (!next_line(text)) return false;
  } while (text.find_first_not_of(" \t") == std::string::npos);
  row_text_ = std::move(text);
  row_ = split_fields(row_text_);
  if (row_.size() != width_)
    throw FitError(where() + ": " + std::to_string(row_.size()) + " fields, the header has " + std::to_string(width_));
  return true;
}

std::string_view CsvReader::text(const std::string &column) const { return row_[columns_.at(column)]; }

double CsvReader::number(const std::string &column) const {
  std::string_view field = text(column);
  double value = 0;
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || end != field.data() + field.size() || field.empty())
    throw FitError(where() + ": column '" + column + "': '" + std::string(field) + "' is not a number");
  return value;
}

int CsvReader::integer(const std::string &column) const {
  std::string_view field = text(column);
  int value = 0;
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || end != field.data() + field.size() || field.empty())
    throw FitError(where() + ": column '" + column + "': '" + std::string(field) + "' is not an integer");
  return value;
}

Channel CsvReader::channel(const std::string &column) const {
  int c = channel_from_name(text(column));
  if (c < 0)
    throw FitError(where() + ": column '" + column + "': unknown channel '" + std::string(text(column)) +
                   "'; known channels are cache, core, socket, node");
  return static_cast<Channel>(c);
}

double CsvReader::positive(const std::string &column) const {
  double value = number(column);
  if (!(value > 0) || !std::isfinite(value))
    throw FitError(where() + ": column '" + column + "': " + std::string(text(column)) +
                   " is not a positive finite number");
  return value;
}

std::string CsvReader::where() const { return path_ + ":" + std::to_string(line_); }

bool CsvReader::next_line(std::string &text) {
  if (!std::getline(in_, text)) {
    if (in_.bad()) throw FitError(path_ + ": read error: " + std::strerror(errno));
    return false;
  }
  ++line_;
  if (!text.empty() && text.back() == '\r') text.pop_back();
  return true;
}

}  // namespace modeltuned::calib

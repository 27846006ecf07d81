#include "tools/ab/tables.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "tools/ab/options.hpp"

namespace modeltuned::ab {
namespace {

std::vector<std::string> fields(const std::string &line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

bool whole_number(const std::string &text, uint64_t &value) {
  const char *end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && at == end;
}

bool number(const std::string &text, double &value) {
  if (text.empty()) return false;
  char *end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(value);
}

bool is_row(const std::vector<std::string> &f) {
  uint64_t size;
  double first;
  return f.size() >= 2 && whole_number(f[0], size) && number(f[1], first);
}

// Without '#', spaces and a carriage return at either end.
std::string trimmed(const std::string &line) {
  const char *strip = "# \t\r";
  const size_t begin = line.find_first_not_of(strip);
  if (begin == std::string::npos) return "";
  return line.substr(begin, line.find_last_not_of(strip) - begin + 1);
}

// "# Size   Avg Latency(us)" and IMB's "#bytes #repetitions ...": names of columns, not titles.
bool is_column_header(const std::string &line) {
  const auto f = fields(trimmed(line));
  if (f.empty()) return false;
  std::string first = f[0];
  for (char &c : first) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return first == "size" || first == "bytes" || first == "#bytes";
}

// A title names the benchmark (IMB's "# Benchmarking Bcast", OSU's "# OSU MPI Broadcast Latency
// Test v7.3"); failing one, a line naming an MPI call (modeltuned-latency's title). Lines such as
// OSU's "# Datatype: MPI_CHAR." or IMB's "# ( 2 additional processes waiting in MPI_Barrier)" only
// name a call, so they lose to a title further up.
int title_rank(const std::string &line) {
  static const std::regex benchmark("Benchmarking|Latency|Test"), call("MPI_");
  if (is_column_header(line)) return 0;
  if (std::regex_search(line, benchmark)) return 2;
  return std::regex_search(line, call) ? 1 : 0;
}

// IMB's t_avg column when `header` is IMB's column header, else OSU's average (column 2).
int automatic_column(const std::string &header) {
  const auto f = fields(header);
  if (f.empty() || f[0][0] != '#') return 2;
  for (size_t i = 0; i < f.size(); ++i)
    if (f[i].find("t_avg") != std::string::npos) return int(i) + 1;
  return 2;
}

// "table 2 (OSU MPI Broadcast Latency Test v7.3)", or "table 2" for a table without a title.
std::string describe(size_t index, const std::string &name) {
  const std::string label = fmt::format("table {}", index);
  return name == label ? label : fmt::format("{} ({})", label, name);
}

SizeTable read_table(const std::vector<std::string> &lines, size_t begin, size_t end, size_t title_from, int column,
                     size_t index) {
  SizeTable table;
  table.name = fmt::format("table {}", index);
  int best = 0;
  for (size_t k = begin; k-- > title_from && best < 2;)
    if (const int rank = title_rank(lines[k]); rank > best) {
      best = rank;
      table.name = trimmed(lines[k]);
    }
  table.column = column ? column : begin > 0 ? automatic_column(lines[begin - 1]) : 2;
  for (size_t i = begin; i < end; ++i) {
    const auto f = fields(lines[i]);
    uint64_t size = 0;
    double value = 0;
    whole_number(f[0], size);
    if (size_t(table.column) > f.size() || !number(f[table.column - 1], value))
      throw RunError(fmt::format("{}: the row of size {} has no number in column {}", describe(index, table.name), size,
                                 table.column));
    table.sizes.push_back(size);
    table.values.push_back(value);
  }
  return table;
}

std::string size_range(const SizeTable &t) {
  if (t.sizes.empty()) return "no sizes";
  return fmt::format("{} size{}, {} to {}", t.sizes.size(), t.sizes.size() == 1 ? "" : "s", size_label(t.sizes.front()),
                     size_label(t.sizes.back()));
}

}  // namespace

std::vector<SizeTable> parse_tables(const std::string &text, int column) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<SizeTable> tables;
  size_t title_from = 0;  // a title is looked for below the previous table only
  for (size_t i = 0; i < lines.size();) {
    if (!is_row(fields(lines[i]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < lines.size() && is_row(fields(lines[end]))) ++end;
    tables.push_back(read_table(lines, i, end, title_from, column, tables.size() + 1));
    title_from = i = end;
  }
  return tables;
}

void check_same_tables(const std::vector<SizeTable> &reference, const std::string &reference_job,
                       const std::vector<SizeTable> &other, const std::string &other_job) {
  if (reference.size() != other.size())
    throw RunError(fmt::format("{} printed {} size table{}, {} printed {}: the jobs must print the same tables",
                               other_job, other.size(), other.size() == 1 ? "" : "s", reference_job, reference.size()));
  for (size_t k = 0; k < reference.size(); ++k) {
    const SizeTable &a = reference[k], &b = other[k];
    if (a.sizes == b.sizes) continue;
    std::string detail = fmt::format("{} lists {}, {} {}", reference_job, size_range(a), other_job, size_range(b));
    if (a.sizes.size() == b.sizes.size())
      for (size_t i = 0; i < a.sizes.size(); ++i)
        if (a.sizes[i] != b.sizes[i]) {
          detail = fmt::format("row {} is size {} in {} and {} in {}", i + 1, a.sizes[i], reference_job, b.sizes[i],
                               other_job);
          break;
        }
    throw RunError(fmt::format("{} differs between the jobs: {}", describe(k + 1, a.name), detail));
  }
}

std::string diagnostic_line(const std::string &text) {
  static const std::regex prefix(R"(\[[^\]\s:]+:\d+\] )");
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, prefix)) return line;
  return "";
}

std::string size_label(uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return fmt::format("{}G", bytes >> 30);
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return fmt::format("{}M", bytes >> 20);
  if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return fmt::format("{}K", bytes >> 10);
  return fmt::format("{}", bytes);
}

}  // namespace modeltuned::ab

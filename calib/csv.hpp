// Reading measurement CSVs: a header line naming the columns, comma-separated fields, no
// quoting. Every error is a FitError naming the file, line and column.
#pragma once
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "calib/fit.hpp"

namespace modeltuned::calib {

class CsvReader {
 public:
  // Opens `path` and checks that the header names every `required` column.
  CsvReader(const std::string &path, std::vector<std::string> required);
  // Moves to the next non-blank row; false at the end.
  bool next_row();
  std::string_view text(const std::string &column) const;
  double number(const std::string &column) const;
  int integer(const std::string &column) const;
  double positive(const std::string &column) const;  // > 0 and finite
  Channel channel(const std::string &column) const;  // a channel name
  std::string where() const;                         // "file:line" for messages

 private:
  bool next_line(std::string &text);

  std::string path_;
  std::ifstream in_;
  size_t line_ = 0;
  size_t width_ = 0;
  std::map<std::string, size_t> columns_;
  std::string row_text_;
  std::vector<std::string_view> row_;
};

}  // namespace modeltuned::calib

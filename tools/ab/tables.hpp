// The size tables in a benchmark's output (OSU, IMB, modeltuned-latency): a table is a run of
// consecutive lines whose first field is a whole number of bytes followed by at least one number.
// Lines starting with '#' or with letters before the first number are not rows, so titles,
// column headers and messages end a table.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace modeltuned::ab {

struct SizeTable {
  // The nearest line above the rows (below the previous table) that matches Benchmarking, Latency
  // or Test, else the nearest naming MPI_..., trimmed of '#' and spaces; column headers ("# Size
  // Avg Latency(us)") do not count. "table K" without one.
  std::string name;
  int column = 2;  // the time column, 1-based, the size being column 1
  std::vector<uint64_t> sizes;
  std::vector<double> values;  // the time column, one per size
};

// The tables of `text`. `column`: the time column (>= 2), or 0 for IMB's t_avg where the line
// above the rows is an IMB header (#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]),
// else 2. Throws RunError naming the table and size when a row has no number in the column.
std::vector<SizeTable> parse_tables(const std::string &text, int column = 0);

// Throws RunError, naming both jobs, unless `other` lists the same tables with the same sizes as
// `reference` (the k-th table of every job is compared with the k-th of the others).
void check_same_tables(const std::vector<SizeTable> &reference, const std::string &reference_job,
                       const std::vector<SizeTable> &other, const std::string &other_job);

// The first line of `text` that holds Open MPI's diagnostic prefix ("[host:pid] "), anywhere in
// it, or "". Open MPI 5.0's mpirun can splice a rank's stderr into its stdout, even mid-line.
std::string diagnostic_line(const std::string &text);

// 4096 -> "4K", 4194304 -> "4M", 1536 -> "1536".
std::string size_label(uint64_t bytes);

}  // namespace modeltuned::ab

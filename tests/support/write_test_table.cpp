// Writes the tests' calibration table (table_path in mpi_launch.cpp says why it has no checks):
// SHIPPED without its "checks". make check builds it before any test runs, since the MPI tests
// and the script tests (external_suite.sh) all read it.
// Usage: write_test_table SHIPPED.json OUT.json
#include <exception>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: write_test_table SHIPPED.json OUT.json\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    nlohmann::json table = nlohmann::json::parse(in);
    table.erase("checks");
    std::ofstream out(argv[2]);
    out << table.dump(2) << "\n";
    return out.good() ? 0 : 1;
  } catch (const std::exception &e) {
    std::cerr << "write_test_table: " << argv[1] << ": " << e.what() << "\n";
    return 1;
  }
}

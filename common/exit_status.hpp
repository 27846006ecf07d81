// The exit status of a usage error in every modeltuned program (the conventions: common/cli.hpp),
// apart from CLI11 so that code which only exits with it does not compile CLI11's header.
#pragma once

namespace modeltuned::cli {

constexpr int kUsageError = 2;

}  // namespace modeltuned::cli

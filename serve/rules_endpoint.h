// The body of GET /api/rules: the `dtb rules --json` report of the table
// directory. Building it reads every class table (a fraction of a second for
// the 2-4 piece classes), so it is built once, on the first request, and
// kept; a failure is not kept, so tables added later are picked up.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "compress/table_file.h"

namespace dtb {

class RulesEndpoint {
 public:
  explicit RulesEndpoint(std::string dir) : dir_(std::move(dir)) {}

  /// The report, or why there is none (Missing: the directory lacks rule tables).
  TableError json(std::string& out);

 private:
  std::string dir_;
  std::mutex mutex_;  // one build at a time; the others wait for its result
  std::optional<std::string> json_;
};

}  // namespace dtb

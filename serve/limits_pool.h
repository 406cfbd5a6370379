// LimitsTables (limits/table_lookup.h) keep open files and a decoded block
// each and are not thread-safe: the server lends one to each request in
// flight. There are never more than the worker threads, and a lent instance
// keeps its open files and last blocks for the next request.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "limits/table_lookup.h"

namespace dtb {

class LimitsPool {
 public:
  explicit LimitsPool(std::string dir) : dir_(std::move(dir)) {}

  /// One instance for the lifetime of the lease; returned to the pool after.
  class Lease {
   public:
    Lease(LimitsPool& pool, std::unique_ptr<LimitsTables> tables)
        : pool_(pool), tables_(std::move(tables)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { pool_.give_back(std::move(tables_)); }
    LimitsTables& operator*() { return *tables_; }

   private:
    LimitsPool& pool_;
    std::unique_ptr<LimitsTables> tables_;
  };

  Lease borrow();

 private:
  void give_back(std::unique_ptr<LimitsTables> tables);

  std::string dir_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<LimitsTables>> idle_;
};

}  // namespace dtb

#include "serve/limits_pool.h"

namespace dtb {

LimitsPool::Lease LimitsPool::borrow() {
  std::unique_ptr<LimitsTables> tables;
  {
    const std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      tables = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (!tables) tables = std::make_unique<LimitsTables>(dir_);
  return Lease(*this, std::move(tables));
}

void LimitsPool::give_back(std::unique_ptr<LimitsTables> tables) {
  const std::lock_guard lock(mutex_);
  idle_.push_back(std::move(tables));
}

}  // namespace dtb

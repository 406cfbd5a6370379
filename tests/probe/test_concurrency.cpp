// Many threads probing one handle give the answers one thread gives. Run
// under ThreadSanitizer by tests/cli/probe_tsan.sh ([concurrency] tag).
#include <catch2/catch.hpp>
#include <random>
#include <thread>

#include "dtb/dtb.h"
#include "probe_test_support.h"

namespace dtb::test {
namespace {

std::vector<dtb_position> random_positions(const NaiveSolution& truth, std::size_t count) {
  std::mt19937_64 rng(20261129);
  const std::vector<Material> materials = truth.materials();
  std::vector<dtb_position> out;
  while (out.size() < count) {
    const Material& m = materials[rng() % materials.size()];
    Position p = truth.index(m).unrank(rng() % truth.index(m).size());
    p.side = rng() % 2 ? Color::White : Color::Black;
    out.push_back(c_position(p));
  }
  return out;
}

// Answers as status * 4 + value, to compare statuses too.
std::vector<int> probe_all(dtb_tables* tables, const std::vector<dtb_position>& positions,
                           std::size_t start) {
  std::vector<int> out(positions.size());
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const std::size_t i = (start + k) % positions.size();  // each thread its own order
    dtb_wdl v = DTB_DRAW;
    const dtb_status s = dtb_probe_wdl(tables, &positions[i], &v, nullptr);
    out[i] = static_cast<int>(s) * 4 + static_cast<int>(v);
  }
  return out;
}

TEST_CASE("threads probing one handle agree with a single thread", "[concurrency]") {
  static const NaiveSolution truth(3);
  TempDir dir;
  write_naive_tables(truth, dir.path());
  const std::vector<dtb_position> positions = random_positions(truth, 20000);
  // A tiny cache forces constant eviction and re-decoding while others read;
  // a large one exercises concurrent first opens and inserts.
  for (const std::size_t cache_bytes : {std::size_t{1}, std::size_t{64} << 20}) {
    INFO("cache bytes " << cache_bytes);
    dtb_tables* reference_handle = nullptr;
    REQUIRE(dtb_open(dir.path().c_str(), cache_bytes, &reference_handle, nullptr) == DTB_OK);
    const std::vector<int> reference = probe_all(reference_handle, positions, 0);
    dtb_close(reference_handle);

    dtb_tables* shared = nullptr;
    REQUIRE(dtb_open(dir.path().c_str(), cache_bytes, &shared, nullptr) == DTB_OK);
    constexpr int kThreads = 4;
    std::vector<std::vector<int>> answers(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        answers[t] = probe_all(shared, positions, positions.size() * t / kThreads);
      });
    for (auto& th : threads) th.join();
    dtb_close(shared);
    for (int t = 0; t < kThreads; ++t) CHECK(answers[t] == reference);
    std::size_t ok = 0;
    for (const int a : reference) ok += a / 4 == DTB_OK;
    CHECK(ok == positions.size());
  }
}

}  // namespace
}  // namespace dtb::test

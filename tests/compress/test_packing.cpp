// Packings round-trip every value they claim to hold, for every length, and
// reject encodings that no writer produces.
#include <catch2/catch.hpp>

#include "compress/packing.h"
#include "tests/compress/synthetic_values.h"

using namespace dtb;

namespace {

std::uint16_t largest_value(Packing p) {
  switch (p) {
    case Packing::Bits2: return 3;
    case Packing::Base3: return 2;
    case Packing::Bits16: return 65535;
    default: return 255;
  }
}

const Packing kAll[] = {Packing::Bits2, Packing::Base3, Packing::Bits8, Packing::Bits16, Packing::Runs};

}  // namespace

TEST_CASE("every packing round-trips random values of every length", "[packing]") {
  for (Packing p : kAll) {
    for (std::size_t n : {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 63, 64, 65, 1000, 4099}) {
      INFO(packing_name(p) << " n=" << n);
      const auto values = testing::random_values(n, largest_value(p), 17 * n + 3);
      std::vector<std::uint8_t> packed;
      packing::pack(p, values, packed);
      REQUIRE(packed.size() <= packing::max_packed_bytes(p, n));
      std::vector<std::uint16_t> back(n);
      REQUIRE(packing::unpack<std::uint16_t>(p, packed, back.data(), n));
      REQUIRE(back == values);
      if (largest_value(p) < 256) {
        std::vector<std::uint8_t> bytes(n);
        REQUIRE(packing::unpack<std::uint8_t>(p, packed, bytes.data(), n));
        REQUIRE(std::equal(bytes.begin(), bytes.end(), values.begin()));
      }
    }
  }
}

TEST_CASE("runs packing handles long runs and run lengths needing several varint bytes", "[packing]") {
  std::vector<std::uint16_t> values(300000, 7);
  values[0] = 1;
  values[200000] = 255;
  std::vector<std::uint8_t> packed;
  packing::pack(Packing::Runs, values, packed);
  CHECK(packed.size() < 16);
  std::vector<std::uint16_t> back(values.size());
  REQUIRE(packing::unpack<std::uint16_t>(Packing::Runs, packed, back.data(), back.size()));
  CHECK(back == values);
}

TEST_CASE("packings reject malformed input", "[packing]") {
  std::vector<std::uint16_t> out(16);
  const std::vector<std::uint8_t> two_bytes = {0x12, 0x34};
  SECTION("wrong lengths") {
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Bits2, two_bytes, out.data(), 16));
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Base3, two_bytes, out.data(), 16));
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Bits8, two_bytes, out.data(), 3));
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Bits16, two_bytes, out.data(), 2));
  }
  SECTION("bits2 with a value in the unused high bits of its last byte") {
    // Found by fuzz/fuzz_table_reader.cpp: decode_block and
    // decode_block_packed2 (the probe's cache form) disagreed on such a
    // block, by max_value one took it and the other refused it.
    const std::vector<std::uint8_t> hidden = {0xfa};  // 2, 2, then 3, 3 past the two values
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Bits2, hidden, out.data(), 2));
    const std::vector<std::uint8_t> clean = {0x0a};
    CHECK(packing::unpack<std::uint16_t>(Packing::Bits2, clean, out.data(), 2));
    CHECK((out[0] == 2 && out[1] == 2));
    // The probe's check of the stored form (decode_block_packed2) says the same.
    CHECK_FALSE(packing::packed2_padding_clear(hidden, 2));
    CHECK(packing::packed2_padding_clear(clean, 2));
    CHECK(packing::packed2_padding_clear(hidden, 4));
  }
  SECTION("a base-3 byte of 243 or more is not five digits") {
    const std::vector<std::uint8_t> bad = {243};
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Base3, bad, out.data(), 5));
  }
  SECTION("runs that overflow, fall short or end inside a varint") {
    const std::vector<std::uint8_t> overflow = {1, 16};  // 17 values into 16
    const std::vector<std::uint8_t> short_runs = {1, 3};  // 4 values, 16 expected
    const std::vector<std::uint8_t> cut = {1, 0x80};
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Runs, overflow, out.data(), 16));
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Runs, short_runs, out.data(), 16));
    CHECK_FALSE(packing::unpack<std::uint16_t>(Packing::Runs, cut, out.data(), 16));
  }
  SECTION("16-bit values do not fit bytes") {
    const std::vector<std::uint8_t> big = {0x00, 0x01};
    std::uint8_t b = 0;
    CHECK_FALSE(packing::unpack<std::uint8_t>(Packing::Bits16, big, &b, 1));
  }
}

TEST_CASE("packed2_max finds the largest two-bit value", "[packing]") {
  for (unsigned top = 0; top < 4; ++top) {
    for (std::size_t n : {1, 5, 31, 33, 100}) {
      auto values = testing::random_values(n, static_cast<std::uint16_t>(top), n);
      values[n / 2] = static_cast<std::uint16_t>(top);
      std::vector<std::uint8_t> packed;
      packing::pack(Packing::Bits2, values, packed);
      CHECK(packing::packed2_max(packed) == top);
      std::vector<std::uint8_t> bytes(values.begin(), values.end()), again;
      packing::bytes_to_packed2(bytes.data(), bytes.size(), again);
      CHECK(again == packed);
    }
  }
}

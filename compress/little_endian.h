// Endian-safe reads and writes of the little-endian integers of table files.
//
// The files are read through a memory map whose bytes may sit at any
// alignment, on any host: assembling the value byte by byte is the one
// portable way, and compilers turn these loops into a single load/store on
// little-endian machines.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dtb::le {

template <typename T>
inline T load(const std::uint8_t* p) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>(v | (static_cast<T>(p[i]) << (8 * i)));
  return v;
}

template <typename T>
inline void store(std::uint8_t* p, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace dtb::le

// zstd compression of single blocks, as table files store them.
//
// Every block is one zstd frame in the "magicless" format: the 4-byte frame
// magic would be the same in every block, and the block table already says
// where each block is, so it is dropped (FORMAT.md, "Blocks"). Frames carry
// their content size and no zstd checksum (the block table's XXH3 covers the
// compressed bytes before zstd ever sees them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct ZSTD_CCtx_s;
struct ZSTD_CDict_s;
struct ZSTD_DDict_s;

namespace dtb::block_codec {

/// Compresses blocks one after the other; owned by one writer call, so
/// writers on different threads share nothing.
class Compressor {
 public:
  /// `dictionary` may be empty (no dictionary). Check ok() before use.
  /// With `optimal_parsing`, zstd's optimal parser with the parameters of
  /// kOptimalParsing replaces the level's own (`level` still trains nothing
  /// here; it is ignored).
  Compressor(int level, std::span<const std::uint8_t> dictionary, bool optimal_parsing = false);
  ~Compressor();
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;

  bool ok() const { return cctx_ != nullptr; }
  /// Compress `in` into `out` (replaced). False with a message on failure.
  bool compress(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out, std::string* error);

 private:
  ZSTD_CCtx_s* cctx_ = nullptr;
  ZSTD_CDict_s* cdict_ = nullptr;
};

/// zstd's optimal parser set for blocks of 2-32 KB of packed values
/// (WriteOptions::zstd_optimal_parsing). Measured on three 6-piece WDL
/// tables (every 32nd block, their own dictionaries) against level 9: the
/// blocks are 2.7-6.7 % smaller, compressing takes 2.3-2.8x as long, and
/// decoding takes as long. The packed values hold long runs and long
/// repeats, so what pays is letting a match run on (target length 256) and
/// looking a little further (search log 5); a larger search log gains
/// nothing more, a target length of 64 loses half the gain.
struct OptimalParsing {
  int window_log = 14, chain_log = 15, hash_log = 14, search_log = 5, min_match = 3, target_length = 256;
};
inline constexpr OptimalParsing kOptimalParsing{};

/// A digested dictionary for decompression: immutable once built, so any
/// number of threads may decompress with it at once.
class DecompressionDictionary {
 public:
  explicit DecompressionDictionary(std::span<const std::uint8_t> dictionary);
  ~DecompressionDictionary();
  DecompressionDictionary(const DecompressionDictionary&) = delete;
  DecompressionDictionary& operator=(const DecompressionDictionary&) = delete;
  bool ok() const { return ddict_ != nullptr; }
  const ZSTD_DDict_s* get() const { return ddict_; }

 private:
  ZSTD_DDict_s* ddict_ = nullptr;
};

enum class DecompressResult { Ok, Failed, OutOfMemory };

/// Decompress one block frame into out[0..capacity); `*size` receives the
/// decompressed size. Uses a decompression context private to the calling
/// thread, so concurrent calls never contend. `dictionary` may be null.
DecompressResult decompress(const DecompressionDictionary* dictionary, std::span<const std::uint8_t> in,
                            std::uint8_t* out, std::size_t capacity, std::size_t* size, std::string* error);

/// Train a dictionary of at most `max_bytes` for blocks compressed at `level`
/// on `samples` (packed blocks): those that training_blocks() picks, in its
/// order. Deterministic: the same samples give the same dictionary. Empty if
/// zstd cannot train one (too few samples, ...).
std::vector<std::uint8_t> train_dictionary(const std::vector<std::vector<std::uint8_t>>& samples,
                                           std::size_t max_bytes, int level);

/// The blocks of a table of `blocks` blocks to train its dictionary on: no
/// more than kMaxTrainingSamples, evenly spaced. On a 5-piece table of 5,647
/// blocks, training on all took 1.1 s and on 256 took 0.06 s, for a table
/// within 1% of the same size; and the writer need pack only these before it
/// can compress (it packs and compresses the others one by one).
inline constexpr std::size_t kMaxTrainingSamples = 256;
std::vector<std::size_t> training_blocks(std::size_t blocks);

}  // namespace dtb::block_codec

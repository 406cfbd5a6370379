// XXH3 checksums of whole table files, and the checksum list format of
// tables/CHECKSUMS: one line per file (.wdl, .mtc, .r62),
// "<16 hex digits>  <file name>", written sorted by file name; '#' starts a comment line (the
// committed list has a sorted section per build, each under its comment).
// Comparing a rebuild with the committed list notices any change in the
// generator's output.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace dtb::gen {

using ChecksumList = std::map<std::string, std::uint64_t>;  // file name -> XXH3-64

/// XXH3-64 of a whole file. False with a message if it cannot be read.
bool file_xxh3(const std::string& path, std::uint64_t& hash, std::string& error);

std::string format_hash(std::uint64_t hash);

bool read_checksum_list(const std::string& path, ChecksumList& list, std::string& error);
/// Written atomically (compress/atomic_file.h); a full disk says so.
bool write_checksum_list(const std::string& path, const ChecksumList& list, std::string& error);

}  // namespace dtb::gen

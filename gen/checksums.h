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
/// Written atomically (write_text_atomically).
bool write_checksum_list(const std::string& path, const ChecksumList& list, std::string& error);

/// A small text file (a checksum list, a journal) written as the tables are:
/// temporary file, fsync, rename (compress/atomic_file.h). Readers see the old
/// file or the new one; a full disk is an error naming the file, the old
/// file then left as it was.
bool write_text_atomically(const std::string& path, const std::string& text, std::string& error);

}  // namespace dtb::gen

// Where the files of a table set are: one directory, or several given as
// "a:b:c" (like Stockfish's SyzygyPath), so that a set split across disks
// opens as one. A file is looked for in the directories in the order given;
// the first that has it answers.
//
// Two directories holding different files of one name would make the answer
// depend on the order, so scan() refuses them. "Different" is decided from
// the sizes and the first and last 64 KiB of the files: a table's header and
// block table (compress/FORMAT.md) carry the checksum of every block, so two
// tables that differ anywhere differ there too.
//
// Thread safety: every member is const after construction.
#pragma once

#include <string>
#include <vector>

#include "dtb/dtb.h"

namespace dtb::probe {

/// Files with more pieces are ignored: no such table can be built, and the
/// probe's material slots grow as (pieces + 1)^4.
inline constexpr int kMaxSupportedPieces = 12;

class TableLocator {
 public:
  /// Directories in the order given; the separator is ':'.
  explicit TableLocator(const std::string& dirs);

  /// List every directory: the largest piece count of its `.wdl` tables
  /// (max_wdl_pieces), and the check for conflicting files. DTB_IO_ERROR if
  /// a directory cannot be read, DTB_INVALID_ARGUMENT (naming both files)
  /// for a conflict; `message` says which.
  dtb_status scan(std::string& message);

  /// The path of `file` (a name such as "KKvK.mtc"): in the first directory
  /// that has it, else in the first directory (where a message names it).
  std::string path_of(const std::string& file) const;

  /// Whether any directory has `file`.
  bool has(const std::string& file) const;

  /// The directories as given, for messages.
  const std::string& text() const { return text_; }
  int max_wdl_pieces() const { return max_wdl_pieces_; }

 private:
  std::string text_;
  std::vector<std::string> dirs_;
  int max_wdl_pieces_ = 0;
};

}  // namespace dtb::probe

// A table set given as several directories (`--tables a:b`) for the commands
// that read a whole directory: `dtb verify`, `dtb stats`, `dtb rules`. The
// probe library looks each file up in the list itself
// (probe/table_locator.h), but the verifier and the reports list one
// directory and read its files by name. For them the set is seen through one
// temporary directory of symbolic links, each to the file of that name in
// the first directory that has it, after the library's own check that no two
// directories hold different files of one name. A single directory is read
// as it is, with no links.
#pragma once

#include <string>

namespace dtb::cli {

class TableDirView {
 public:
  TableDirView() = default;
  TableDirView(const TableDirView&) = delete;
  TableDirView& operator=(const TableDirView&) = delete;
  ~TableDirView();  // removes the links and their directory

  /// Sees `dirs` ("a" or "a:b:..."). False with `error` if a directory
  /// cannot be read or two hold different files of one name.
  bool open(const std::string& dirs, std::string& error);

  /// The directory to read: the one given, or the directory of links.
  const std::string& dir() const { return dir_; }

  /// `message` with each path into the directory of links replaced by the
  /// path of the file itself, so that errors name the files the user has.
  std::string named(std::string message) const;

 private:
  std::string dirs_;   // as given
  std::string dir_;    // what to read
  std::string links_;  // the directory of links, "" when there is none
};

}  // namespace dtb::cli

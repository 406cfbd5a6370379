// The WDL tables of a table set, opened lazily and shared by every thread.
//
// A set holds one file per material, White to move only:
// `<dir>/<Material::name()>.wdl`, in one directory or several
// (table_locator.h). Opening a handle only lists the directories (to learn
// the largest piece count); each file is opened, checked and
// memory-mapped (by compress's TableReader) the first time a probe needs it.
//
// Thread safety: table() may be called from many threads at once. Each
// material has a slot holding an atomic pointer; the first thread to need a
// table opens it under a mutex (double-checked), later ones only do an
// acquire load. A file that is missing or damaged is remembered as such, so a
// hot loop of probes does not retry the file system on every call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "index/material.h"
#include "index/position_index.h"
#include "dtb/dtb.h"
#include "probe/table_locator.h"

namespace dtb::probe {

/// One material's table: open and usable (status == DTB_OK), or the reason
/// it is not (missing file, damaged header, ...), kept to report it.
struct Table {
  Material material;
  std::uint64_t id = 0;  // unique within the directory, never 0 (cache keys)
  dtb_status status = DTB_OK;
  std::string error;     // message for status != DTB_OK, names the file
  std::string path;
  std::unique_ptr<TableReader> reader;
  std::optional<PositionIndex> index;
  std::uint64_t positions_per_block = 0;
  int block_shift = -1;  // log2(positions_per_block) if a power of two: no DIV on the hot path
  std::uint32_t pages_per_block = 0;  // cache pages per compressed block
};

class TableDirectory {
 public:
  /// List the directories `dirs` ("a" or "a:b", table_locator.h), probing
  /// tables of at most `max_pieces` pieces (0: all there are). DTB_IO_ERROR
  /// if one cannot be read, DTB_INVALID_ARGUMENT if two hold different files
  /// of one name (with `message`).
  static dtb_status scan(const std::string& dirs, int max_pieces, std::unique_ptr<TableDirectory>& out,
                         std::string& message);
  /// A directory whose tables of up to `max_pieces` pieces will be there when
  /// asked for (the generator's own output, filled as it goes): no listing.
  /// DTB_IO_ERROR if `dir` is not a readable directory.
  static dtb_status expect(const std::string& dir, int max_pieces, std::unique_ptr<TableDirectory>& out,
                           std::string& message);

  int max_pieces() const { return max_pieces_; }
  const std::string& path() const { return locator_.text(); }
  const TableLocator& locator() const { return locator_; }

  /// The table of a material with at most max_pieces() pieces (opened on
  /// first use). Never null; check its status.
  const Table& table(const Material& m);

  /// The table of m if a probe has opened it (never opens it): for the
  /// probes that must not touch the file system (cache-only).
  const Table* opened(const Material& m) const;

  /// Stop holding the pages of the open tables' files that reads have
  /// mapped (TableReader::drop_resident_pages). Safe during probes.
  void drop_resident_pages();

 private:
  TableDirectory(TableLocator locator, int max_pieces);
  std::size_t slot_of(const Material& m) const;
  std::unique_ptr<Table> open_table(const Material& m, std::uint64_t id) const;

  TableLocator locator_;
  int max_pieces_ = 0;
  std::vector<std::atomic<const Table*>> slots_;  // by slot_of(material)
  std::mutex open_mutex_;                         // serialises first opens
  std::vector<std::unique_ptr<Table>> owned_;     // guarded by open_mutex_
};

}  // namespace dtb::probe

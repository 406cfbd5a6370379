// The MTC counts of a table recorded when it is built: `<dir>/<Material>.mtc-stats`
// beside `<Material>.mtc`, so that `dtb rules --article 6.2` answers at once
// for any set instead of decoding every `.wdl` and `.mtc` table and resolving
// their capture positions (4 min 18 s for the 2-5 piece set, hours for 6).
// The same idea as the `.stats` sidecar of the WDL counts (stats_sidecar.h).
//
// One text line: "draughts-tb-mtc-stats 1 <material> <positions> <win> <draw>
// <loss> <longest win> <its index> <longest loss> <its index> W <win MTC
// histogram: longest win + 1 counts> L <loss histogram: longest loss + 1
// counts> <.wdl XXH3> <.mtc XXH3> <line XXH3>". The two table hashes tie the
// counts to the exact files they were counted from (a rebuilt or replaced
// table makes them stale); the last field checks the line itself. A sidecar
// that is missing, damaged or stale is not trusted: the report recounts that
// table (and `--recount` recounts all).
#pragma once

#include <optional>
#include <string>

#include "compress/table_file.h"
#include "gen/mtc_report.h"
#include "index/material.h"

namespace dtb::gen {

/// `<M>.mtc-stats`, or `<M>.r62-stats` for the counts of an `.r62` table
/// (article62_builder.h: the same line, its histograms by stored `.r62` value).
std::string mtc_sidecar_path(const std::string& dir, const Material& m, TableKind kind = TableKind::Mtc);

/// Record the counts of r.material's tables in `dir` (its `.wdl` and `.mtc`
/// must be there). False with a message if they cannot be read or the file
/// cannot be written.
bool write_mtc_sidecar(const std::string& dir, const MtcTableReport& r, std::string& error,
                       TableKind kind = TableKind::Mtc);

/// The recorded counts of m's tables (`exact` left false: it depends on the
/// whole set), if the sidecar is present, intact and matches both table files
/// as they are now.
std::optional<MtcTableReport> read_mtc_sidecar(const std::string& dir, const Material& m,
                                              TableKind kind = TableKind::Mtc);

}  // namespace dtb::gen

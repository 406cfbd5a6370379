// Finding the WDL tables of a directory, for verify and stats, and loading
// them one by one in build order (each table needs the smaller ones in memory
// to resolve its capture positions, table_loading.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/progress_bar.h"
#include "solver/unit_values.h"
#include "solver/finished_values.h"
#include "solver/table_loading.h"
#include "index/material.h"

namespace dtb::gen {

/// Materials of the `.wdl` files in `dir`, in build order. Fails (message in
/// `error`) if there is none, a name is not a material, or a table's
/// dependencies (captures, promotions, its reversal) are not all present.
bool discover_tables(const std::string& dir, std::vector<Material>& out, std::string& error);

/// Positions of all the given materials.
std::uint64_t total_positions(const std::vector<Material>& materials);

/// Open, check (header, every checksum) and load the table of m from `dir`,
/// capture positions resolved through `store` (which must hold every
/// dependency). Values as in table_loading.h. False with a message on failure.
bool load_checked(const std::string& dir, const Material& m, const FinishedValues& store,
                  std::vector<std::uint8_t>& values, std::uint64_t& file_bytes, std::string& error);

/// The same, packed: `values` zeroed, of the table's size (the verifier),
/// telling `progress` of each block loaded.
bool load_checked(const std::string& dir, const Material& m, const FinishedValues& store, UnitValues& values,
                  std::uint64_t& file_bytes, std::string& error, const LoadProgress& progress = {});

/// Open and check the table of m the same way, and load its values as stored
/// (load_stored_values: capture positions not resolved, not flagged).
bool load_checked_stored(const std::string& dir, const Material& m, UnitValues& values, std::uint64_t& file_bytes,
                         std::string& error, const LoadProgress& progress = {});

}  // namespace dtb::gen

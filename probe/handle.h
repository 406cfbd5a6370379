// What a dtb_tables handle (dtb/dtb.h) holds: the WDL tables with the
// handle's one block cache, and the readers of the other kinds of table in
// the same directory, sharing that cache and reporting through ProbeError.
//
// The C API is built on it (c_api.cpp), and so are the project's own C++
// consumers that need what the C API does not say: `dtb probe` and `dtb
// serve` (serve/probe_report.cpp) probe Positions and Moves, carry the
// draw-limit count across moves (RuleTables::rule_after) and read dtw per
// move through the handle they opened with dtb_open. Not installed: an
// engine uses dtb/dtb.h.
#pragma once

#include <memory>

#include "dtb/dtb.h"
#include "probe/dtw_tables.h"
#include "probe/perfect_play.h"
#include "probe/rule_tables.h"
#include "probe/tablebase.h"

struct dtb_tables {
  std::unique_ptr<dtb::probe::Tablebase> base;       // .wdl, and the cache of every kind
  std::unique_ptr<dtb::probe::DtwTables> dtw;        // .dtw tables, opened on first use
  std::unique_ptr<dtb::probe::RuleTables> rules;     // .rule tables, opened on first use
  std::unique_ptr<dtb::probe::PerfectPlay> play;     // over `base` and the .mtc tables (first use)
};

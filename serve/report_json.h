// The JSON form of a ProbeReport: one object on one line, as `dtb probe
// --json` prints it and `GET /api/probe` sends it (keys in docs/http-api.md).
// Every key of an answer is always there; a value the tables cannot give is
// null (docs/engine-guide.md#vocabulary), never a missing key and never 0.
#pragma once

#include <string>

#include "serve/probe_report.h"

namespace dtb {

/// The report as one JSON object, without a trailing newline.
std::string report_json(const ProbeReport& r);

/// One move of a report as a JSON object: the objects of the report's
/// `moves`, which `dtb play --json` lists for its line too.
std::string move_json(const MoveReport& m);

}  // namespace dtb

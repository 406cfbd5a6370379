// The JSON form of a ProbeReport: one object on one line, as `dtb probe
// --json` prints it and `GET /api/probe` sends it (keys in README.md).
#pragma once

#include <string>

#include "serve/probe_report.h"

namespace dtb {

/// The report as one JSON object, without a trailing newline.
std::string report_json(const ProbeReport& r);

}  // namespace dtb

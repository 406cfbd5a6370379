#include "gen/phases_sidecar.h"

#include <cmath>
#include <sstream>

#include "gen/sidecar_line.h"

namespace dtb::gen {
namespace {

constexpr const char* kTag = "draughts-tb-phases";
constexpr int kVersion = 1;

const char* kind_name(bool mtc) { return mtc ? "mtc" : "wdl"; }

}  // namespace

std::string phases_sidecar_path(const std::string& dir, const Material& unit) {
  return dir + "/" + unit.name() + ".phases";
}

bool write_phases_sidecar(const std::string& dir, const Material& unit, const SolvePhases& phases, bool mtc,
                          std::string& error) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(3);
  o << kTag << ' ' << kVersion << ' ' << unit.name() << ' ' << kind_name(mtc) << ' ' << phases.first_pass << ' '
    << phases.propagate;
  return write_checked_line(phases_sidecar_path(dir, unit), o.str(), error);
}

std::optional<SolvePhases> read_phases_sidecar(const std::string& dir, const Material& unit, bool mtc) {
  const auto text = read_checked_line(phases_sidecar_path(dir, unit));
  if (!text) return std::nullopt;  // missing or damaged
  std::istringstream fields(*text);
  std::string tag, name, kind;
  int version = 0;
  SolvePhases phases;
  if (!(fields >> tag >> version >> name >> kind >> phases.first_pass >> phases.propagate) || tag != kTag ||
      version != kVersion || name != unit.name() || kind != kind_name(mtc))
    return std::nullopt;
  const auto valid = [](double s) { return std::isfinite(s) && s >= 0; };
  if (!valid(phases.first_pass) || !valid(phases.propagate)) return std::nullopt;
  return phases;
}

}  // namespace dtb::gen

#include "drawrules/distance_solve.h"

#include <stdexcept>

#include "solver/unit_solver.h"

namespace dtb {
namespace {

class FunctionExits final : public gen::ExitOutcomes {
 public:
  explicit FunctionExits(const ExitOutcome& f) : f_(f) {}
  Outcome outcome(const Position& w) const override { return f_(w); }

 private:
  const ExitOutcome& f_;
};

}  // namespace

void solve_into(const Material& m, const ExitOutcome& exits, std::uint16_t (*encode)(Outcome), TableSet& out) {
  const FunctionExits policy(exits);
  gen::UnitSolution solution;
  if (gen::solve_unit_with_exits(m, policy, nullptr, solution) != gen::SolveStatus::Ok)
    throw std::runtime_error(m.name() + ": " + (solution.error.empty() ? "interrupted" : solution.error));
  for (std::size_t k = 0; k < solution.materials.size(); ++k) {
    const gen::UnitValues& values = *solution.values[k];
    const std::vector<std::uint16_t>& plies = solution.plies[k];
    std::vector<std::uint16_t> encoded(plies.size());
    for (std::uint64_t i = 0; i < encoded.size(); ++i) encoded[i] = encode(Outcome{values.value(i), plies[i]});
    out.put(solution.materials[k], std::move(encoded));
  }
}

}  // namespace dtb

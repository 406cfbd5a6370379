#include "tests/gen/reference_solver.h"

#include <stdexcept>

#include "rules/movegen.h"

namespace dtb::reference {
namespace {

// Squares a piece of each kind may stand on.
bool allowed(int square, bool man, Color c) {
  if (!man) return true;
  return c == Color::White ? square > 5 : square < 46;  // never on their own promotion row
}

struct Kind {
  int count;
  bool man;
  Color colour;
};

// Place the pieces of kinds[k..] in increasing square order, then record.
void place(const std::vector<Kind>& kinds, std::size_t k, int first_square, int left, Position p,
           std::vector<Position>& out) {
  if (k == kinds.size()) {
    out.push_back(p);
    return;
  }
  if (left == 0) {
    place(kinds, k + 1, 1, k + 1 < kinds.size() ? kinds[k + 1].count : 0, p, out);
    return;
  }
  const Kind& kind = kinds[k];
  for (int s = first_square; s <= 50; ++s) {
    const Bitboard b = square_bb(s);
    if ((p.white | p.black) & b || !allowed(s, kind.man, kind.colour)) continue;
    Position q = p;
    (kind.colour == Color::White ? q.white : q.black) |= b;
    if (!kind.man) q.kings |= b;
    place(kinds, k, s + 1, left - 1, q, out);
  }
}

}  // namespace

ReferenceTable::ReferenceTable(const Material& m) : material_(m) {
  if (m.pieces() > 4) throw std::invalid_argument("the reference solver handles up to 4 pieces");
  const std::vector<Kind> kinds = {{m.white_kings, false, Color::White},
                                   {m.white_men, true, Color::White},
                                   {m.black_kings, false, Color::Black},
                                   {m.black_men, true, Color::Black}};
  for (Color side : {Color::White, Color::Black}) {
    Position empty;
    empty.side = side;
    place(kinds, 0, 1, kinds[0].count, empty, positions_[int(side)]);
    values_[int(side)].assign(std::size_t{1} << (6 * m.pieces()), 3);
  }
}

// The squares of white kings, white men, black kings, black men in that
// order (ascending within each), 6 bits each.
std::uint32_t ReferenceTable::key(const Position& p) {
  std::uint32_t k = 0;
  for (Bitboard set : {p.white & p.kings, p.white & ~p.kings, p.black & p.kings, p.black & ~p.kings})
    for (int s = 1; s <= 50; ++s)
      if (set & square_bb(s)) k = k << 6 | static_cast<std::uint32_t>(s);
  return k;
}

ReferenceTable solve_material(const Material& m, const Oracle& oracle) {
  ReferenceTable table(m);
  std::vector<Position> unknown = table.positions(Color::White);
  unknown.insert(unknown.end(), table.positions(Color::Black).begin(), table.positions(Color::Black).end());

  // Value of a successor for ITS mover, or 3 if still unknown.
  auto successor_value = [&](const Position& s) -> std::uint8_t {
    if (s.pieces(s.side) == 0) return static_cast<std::uint8_t>(Wdl::Loss);
    if (material_of(s) == m) return table.raw(s);
    return static_cast<std::uint8_t>(oracle(s));
  };

  for (bool changed = true; changed;) {
    // Jacobi sweep: decide from the values of the previous sweep only, then
    // apply, so the sweep may run in parallel.
    std::vector<std::uint8_t> decided(unknown.size(), 3);
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      // thread_local: a MoveList is 16 KB, and zero-filling one per position dominated the profile.
      thread_local MoveList list;
      generate_moves(unknown[i], list);
      bool all_known = true;
      int best = static_cast<int>(Wdl::Loss);
      for (const Move& mv : list) {
        const std::uint8_t v = successor_value(make_move(unknown[i], mv));
        if (v == 3) {
          all_known = false;
          continue;
        }
        best = std::max(best, 2 - int(v));
      }
      if (best == int(Wdl::Win) || all_known) decided[i] = static_cast<std::uint8_t>(best);
    }
    changed = false;
    std::vector<Position> still;
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      if (decided[i] == 3) {
        still.push_back(unknown[i]);
      } else {
        table.set(unknown[i], static_cast<Wdl>(decided[i]));
        changed = true;
      }
    }
    unknown.swap(still);
  }
  for (const Position& p : unknown) table.set(p, Wdl::Draw);  // no forced result: endless, a draw
  return table;
}

}  // namespace dtb::reference

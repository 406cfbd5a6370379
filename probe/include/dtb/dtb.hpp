// draughts-tb probe: a thin C++ layer over the C API (dtb/dtb.h).
//
// RAII for the handle, std::string and std::vector instead of buffers. Every
// call still returns the C status; nothing here throws except std::bad_alloc
// from the standard containers.
//
//   dtb::Tablebase tb;
//   if (tb.open("tables", 64 << 20) != DTB_OK) ...;
//   dtb_position pos;
//   dtb::Tablebase::from_fen("W:WK46,28:B3", pos);
//   dtb_wdl v;
//   tb.probe(pos, v);
#ifndef DTB_DTB_HPP
#define DTB_DTB_HPP

#include <string>
#include <utility>
#include <vector>

#include "dtb/dtb.h"

namespace dtb {

class Tablebase {
 public:
  Tablebase() = default;
  Tablebase(const Tablebase&) = delete;
  Tablebase& operator=(const Tablebase&) = delete;
  Tablebase(Tablebase&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Tablebase& operator=(Tablebase&& other) noexcept {
    if (this != &other) {
      dtb_close(handle_);
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Tablebase() { dtb_close(handle_); }

  /// Open a table directory (closing any previous one).
  dtb_status open(const std::string& dir, std::size_t cache_bytes, dtb_error* error = nullptr) {
    dtb_close(std::exchange(handle_, nullptr));
    return dtb_open(dir.c_str(), cache_bytes, &handle_, error);
  }
  bool is_open() const { return handle_ != nullptr; }
  int max_pieces() const { return dtb_max_pieces(handle_); }
  dtb_tables* handle() const { return handle_; }

  /// Value for the side to move. Thread-safe.
  dtb_status probe(const dtb_position& pos, dtb_wdl& wdl, dtb_error* error = nullptr) const {
    return dtb_probe_wdl(handle_, &pos, &wdl, error);
  }

  /// Every legal move with its value (for the mover); `best` gets the value
  /// of the position. Thread-safe.
  dtb_status moves(const dtb_position& pos, std::vector<dtb_move>& out, dtb_wdl* best = nullptr,
                   dtb_error* error = nullptr) const {
    std::size_t count = 0;
    out.resize(64);
    dtb_status s = dtb_probe_moves(handle_, &pos, out.data(), out.size(), &count, best, error);
    if (s == DTB_INVALID_ARGUMENT && count > out.size()) {  // more moves than room: once more
      out.resize(count);
      s = dtb_probe_moves(handle_, &pos, out.data(), out.size(), &count, best, error);
    }
    out.resize(s == DTB_OK ? count : 0);
    return s;
  }

  /// Value and moves to conversion (plies; DTB_UNKNOWN for a draw) from the
  /// .mtc tables (dtb_probe_mtc). Thread-safe.
  dtb_status mtc(const dtb_position& pos, dtb_wdl& wdl, int& mtc, dtb_error* error = nullptr) const {
    return dtb_probe_mtc(handle_, &pos, &wdl, &mtc, error);
  }

  /// Value and distance to win (plies to the end of the game; DTB_UNKNOWN
  /// for a draw) from the .dtw tables (dtb_probe_dtw). Thread-safe.
  dtb_status dtw(const dtb_position& pos, dtb_wdl& wdl, int& plies, dtb_error* error = nullptr) const {
    return dtb_probe_dtw(handle_, &pos, &wdl, &plies, error);
  }

  /// The result a 6.3/6.4 class count can force and the least plies of the
  /// count it needs (DTB_UNKNOWN for a draw), from the .rule tables
  /// (dtb_probe_rule_budget). Thread-safe.
  dtb_status rule_budget(const dtb_position& pos, dtb_wdl& result, int& plies, dtb_error* error = nullptr) const {
    return dtb_probe_rule_budget(handle_, &pos, &result, &plies, error);
  }

  /// The move of perfect play: quickest conversion in a win, longest
  /// resistance in a loss, a drawing move in a draw (dtb_best_move);
  /// DTB_GAME_OVER without a legal move. Thread-safe.
  dtb_status best_move(const dtb_position& pos, dtb_move& move, dtb_error* error = nullptr) const {
    return dtb_best_move(handle_, &pos, &move, error);
  }

  /// Value under the 6.3/6.4 draw limits with plies_in_class plies played in
  /// the class (dtb_probe_rule); DTB_NOT_IN_CLASS outside them. Thread-safe.
  dtb_status rule(const dtb_position& pos, int plies_in_class, dtb_wdl& wdl, dtb_error* error = nullptr) const {
    return dtb_probe_rule(handle_, &pos, plies_in_class, &wdl, error);
  }

  /// Value under article 6.2 with both counts, 6.3/6.4 in their classes
  /// (dtb_probe_rules). Thread-safe.
  dtb_status rules(const dtb_position& pos, int plies_since_conversion, int plies_in_class, dtb_wdl& wdl,
                   dtb_error* error = nullptr) const {
    return dtb_probe_rules(handle_, &pos, plies_since_conversion, plies_in_class, &wdl, error);
  }

  /// The move of perfect play under article 6.2 with that many plies counted
  /// since the last conversion (dtb_best_move_rules). Thread-safe.
  dtb_status best_move_rules(const dtb_position& pos, int plies_since_conversion, dtb_move& move,
                             dtb_error* error = nullptr) const {
    return dtb_best_move_rules(handle_, &pos, plies_since_conversion, &move, error);
  }

  /// The move of perfect play in a 6.3/6.4 class position with that many
  /// plies played in its class (dtb_best_move_rule). Thread-safe.
  dtb_status best_move_rule(const dtb_position& pos, int plies_in_class, dtb_move& move,
                            dtb_error* error = nullptr) const {
    return dtb_best_move_rule(handle_, &pos, plies_in_class, &move, error);
  }

  /// Value under the draw rules with both counts (dtb_probe_counted). Thread-safe.
  dtb_status counted(const dtb_position& pos, const dtb_counts& counts, dtb_wdl& wdl,
                     dtb_error* error = nullptr) const {
    return dtb_probe_counted(handle_, &pos, &counts, &wdl, error);
  }

  /// The move of perfect play under the draw rules with both counts
  /// (dtb_best_move_counted). Thread-safe.
  dtb_status best_move_counted(const dtb_position& pos, const dtb_counts& counts, dtb_move& move,
                               dtb_error* error = nullptr) const {
    return dtb_best_move_counted(handle_, &pos, &counts, &move, error);
  }

  /// Every legal move with its value, MTC and counted value, best first
  /// (dtb_probe_root; `counts` may be null). Sizes `out` itself. Thread-safe.
  dtb_status root(const dtb_position& pos, const dtb_counts* counts, std::vector<dtb_root_move>& out,
                  dtb_error* error = nullptr) const {
    out.resize(64);
    std::size_t count = 0;
    dtb_status s = dtb_probe_root(handle_, &pos, counts, out.data(), out.size(), &count, error);
    if (s == DTB_INVALID_ARGUMENT && count > out.size()) {  // more moves than room: once more
      out.resize(count);
      s = dtb_probe_root(handle_, &pos, counts, out.data(), out.size(), &count, error);
    }
    out.resize(s == DTB_OK ? count : 0);
    return s;
  }

  static dtb_status from_fen(const std::string& fen, dtb_position& pos, dtb_error* error = nullptr) {
    return dtb_position_from_fen(fen.c_str(), &pos, error);
  }
  /// Canonical FEN, or "" if the position is not valid.
  static std::string to_fen(const dtb_position& pos) {
    char buffer[256];
    return dtb_position_to_fen(&pos, buffer, sizeof buffer) == DTB_OK ? buffer : "";
  }
  /// FMJD notation of a legal move of `pos`, or "" if it is not one.
  static std::string move_text(const dtb_position& pos, const dtb_move& move) {
    char buffer[128];
    return dtb_move_to_string(&pos, &move, buffer, sizeof buffer) == DTB_OK ? buffer : "";
  }
  /// Plies the 6.3/6.4 class of `pos` allows (32, 10), 0 outside them (dtb_class_limit).
  static int class_limit(const dtb_position& pos) { return dtb_class_limit(&pos); }
  /// Both draw-rule counts after `move` (dtb_counts_after).
  static dtb_status counts_after(const dtb_position& pos, const dtb_move& move, int& plies_since_conversion,
                                 int& plies_in_class) {
    return dtb_counts_after(&pos, &move, plies_since_conversion, plies_in_class, &plies_since_conversion,
                            &plies_in_class);
  }

 private:
  dtb_tables* handle_ = nullptr;
};

inline const char* to_string(dtb_wdl v) {
  return v == DTB_WIN ? "win" : v == DTB_DRAW ? "draw" : v == DTB_LOSS ? "loss" : "unknown";
}

}  // namespace dtb

#endif  // DTB_DTB_HPP

// The research report of `dtb rules`: for each class material and side to
// move, what the draw limits of articles 6.3 and 6.4 do to its results.
//
// All values are from the side to move's view. A "win length" is the rule
// budget b of a theoretical win (rule_builder.h): the plies the winner needs
// inside the class, from a fresh count, until the game ends or leaves the
// class with the win secured. The win survives the limit iff b <= limit.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "index/material.h"
#include "index/draw_rule_class.h"
#include "drawrules/table_set.h"

namespace dtb {

struct RuleReportEntry {
  Material material;  // as named, White first (e.g. KKKvK)
  Color to_move = Color::White;
  RuleClass rule = RuleClass::None;
  int limit_plies = 0;
  std::uint64_t positions = 0, win = 0, draw = 0, loss = 0;
  std::uint64_t rule_win = 0, rule_draw = 0, rule_loss = 0;  // from a fresh count
  std::uint64_t win_unbounded = 0;  // theoretical wins that no budget lets the winner force
  // Lengths in plies, -1 if there is none (null in the JSON): "in class" is a
  // win length (plies of the class count), "dtw" plies to the end of the game.
  int longest_win_in_class = -1;  // largest finite win length
  std::string longest_win_in_class_fen, longest_win_in_class_line;
  int longest_win_dtw = -1;  // largest dtw among the theoretical wins
  int longest_loss_in_class = -1;  // largest finite loss length: the opponent's longest win, this side to move
  std::map<int, std::uint64_t> histogram;  // win length -> positions
  std::map<int, std::uint64_t> loss_histogram;  // the same for theoretical losses
};

/// One entry per class material (strong side White) and side to move.
/// `rules` and `dtw` must hold every class material of both colours.
std::vector<RuleReportEntry> rule_report(const TableSet& rules, const TableSet& dtw);

/// `dtb rules --json`: an array of objects (keys in docs/http-api.md, `GET
/// /api/rules`); a length or position there is none of is null.
std::string rule_report_json(const std::vector<RuleReportEntry>& entries);
/// The human-readable report.
std::string rule_report_text(const std::vector<RuleReportEntry>& entries);

}  // namespace dtb

// The notation of sub-move grid games: cell names (a1, k10, aa7), passes, turns written `a1-b2-c3`, and boards as text.
//
// Files are named as in Russian notation, skipping the letter j: a b c d e f g h i k l m ...
// z (25 letters), and on boards wider than 25 files they go on aa ab ... az ba ... (no j in
// either place). Ranks are numbered 1.. from the bottom, so a1 is the bottom-left cell and
// cell index = width·(rank − 1) + file.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace boardlab {

class GridNotation {
 public:
  GridNotation(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  const std::string& file_name(int file) const { return files_[file]; }
  std::string cell_name(int cell) const;
  // A diagram of the empty board: ruled cells, file and rank labels, each cell a point by its
  // name. Games add their pieces and status.
  Diagram diagram() const;
  // The centre of `cell` in diagram units.
  double centre_x(int cell) const { return cell % width_ + 0.5; }
  double centre_y(int cell) const { return cell / width_ + 0.5; }
  // The cell `text` names (any case), or -1 with `why` saying what is wrong with it.
  int parse_cell(std::string_view text, std::string& why) const;
  // The board as text, rank `height` on top: a rank label, then each file's symbol, and the
  // file names underneath. A symbol is a char, or a string of `symbol_width` chars (War's
  // two-letter units); columns are wide enough for both the symbols and the file names.
  template <typename SymbolOf>
  std::string draw(SymbolOf symbol_of_cell, int symbol_width = 1) const {
    const int column = std::max(file_letters_, symbol_width);
    std::string out;
    for (int rank = height_ - 1; rank >= 0; --rank) {
      out += rank_label(rank);
      for (int file = 0; file < width_; ++file) {
        out.append(static_cast<std::size_t>(column - symbol_width + 1), ' ');
        out += symbol_of_cell(rank * width_ + file);
      }
      out += '\n';
    }
    return out + (column == file_letters_ ? footer_ : footer(column));
  }

 private:
  std::string rank_label(int rank) const;
  std::string footer(int column) const;  // the file names under columns this wide

  int width_;
  int height_;
  int file_letters_;  // letters of the longest file name
  int rank_digits_;
  std::vector<std::string> files_;
  std::string footer_;
  std::string files_text_;  // "files are a b ... k", for refusals
};

// The words for a whole-turn pass: `pass`, also read as `--`.
bool is_pass_text(std::string_view text);
// Game::split_turn for sub-move turns: a turn `a1-b2-c3` is its parts, and `--` is a pass, not
// two separators.
std::vector<std::string> split_sub_move_turn(const Game& game, std::string_view turn, bool simultaneous);

// The cells of a diagram: `height` rows of `width` symbols, the top rank first, whitespace
// ignored; returned in cell order (a1 first). Throws InputError when the count is wrong.
std::vector<char> read_diagram(std::string_view diagram, int width, int height);
// The same for symbols of `symbol_width` characters each (whitespace between or inside them ignored).
std::vector<std::string> read_wide_diagram(std::string_view diagram, int width, int height, int symbol_width);

}  // namespace boardlab

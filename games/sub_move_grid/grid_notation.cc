// Cell names, pass words, turn splitting and diagrams of sub-move grid games.
#include "games/sub_move_grid/grid_notation.h"

#include <cctype>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {
namespace {

constexpr std::string_view kLetters = "abcdefghiklmnopqrstuvwxyz";  // no j
constexpr int kBase = static_cast<int>(kLetters.size());

// Bijective base 25: a..z, then aa..az, ba.., as spreadsheets name their columns.
std::string letters_of(int file) {
  std::string out;
  for (int n = file + 1; n > 0; n = (n - 1) / kBase) out.insert(out.begin(), kLetters[static_cast<std::size_t>((n - 1) % kBase)]);
  return out;
}

int digits_of(int n) { return static_cast<int>(std::to_string(n).size()); }

}  // namespace

GridNotation::GridNotation(int width, int height)
    : width_(width), height_(height), file_letters_(0), rank_digits_(digits_of(height)) {
  for (int file = 0; file < width; ++file) {
    files_.push_back(letters_of(file));
    file_letters_ = std::max(file_letters_, static_cast<int>(files_.back().size()));
  }
  footer_ = footer(file_letters_);
  if (width <= kBase) {
    files_text_ = "files are";
    for (const std::string& name : files_) files_text_ += " " + name;
  } else {
    files_text_ = "files are a to z, then aa to " + files_.back();
  }
}

std::string GridNotation::cell_name(int cell) const {
  return files_[static_cast<std::size_t>(cell % width_)] + std::to_string(cell / width_ + 1);
}

Diagram GridNotation::diagram() const {
  Diagram out;
  out.width = width_;
  out.height = height_;
  out.grid = true;
  label_grid(out, files_, height_, 0.5);
  name_grid(out, files_, height_, 0.5);
  return out;
}

std::string GridNotation::footer(int column) const {
  std::string out(static_cast<std::size_t>(rank_digits_), ' ');
  for (const std::string& name : files_) {
    out += ' ';
    out.append(static_cast<std::size_t>(column) - name.size(), ' ');
    out += name;
  }
  return out + '\n';
}

std::string GridNotation::rank_label(int rank) const {
  const std::string number = std::to_string(rank + 1);
  return std::string(static_cast<std::size_t>(rank_digits_) - number.size(), ' ') + number;
}

int GridNotation::parse_cell(std::string_view text, std::string& why) const {
  const auto fail = [&](std::string reason) {
    why = std::move(reason);
    return -1;
  };
  if (text.size() < 2 || text.size() > static_cast<std::size_t>(file_letters_ + rank_digits_))
    return fail("expected a cell like a1 or " + cell_name(width_ * height_ - 1) + ", or pass");
  // The file: up to file_letters_ letters; whatever follows must be the rank.
  std::size_t letters = 0;
  int file = 0;
  while (letters < static_cast<std::size_t>(file_letters_) && letters < text.size() &&
         std::isalpha(static_cast<unsigned char>(text[letters]))) {
    const auto index = kLetters.find(static_cast<char>(std::tolower(static_cast<unsigned char>(text[letters]))));
    if (index == std::string_view::npos) return fail(files_text_ + " (there is no j)");  // the one letter missing
    file = file * kBase + static_cast<int>(index) + 1;
    ++letters;
  }
  if (letters == 0) return fail("expected a cell like a1 or " + cell_name(width_ * height_ - 1) + ", or pass");
  if (file > width_) return fail(files_text_ + " (there is no j)");
  const std::string_view digits = text.substr(letters);
  int rank = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') rank = -1;
    if (rank >= 0) rank = rank * 10 + (c - '0');
  }
  if (digits.empty() || digits[0] == '0' || rank < 1 || rank > height_)
    return fail("the rank must be a number 1.." + std::to_string(height_));
  return (rank - 1) * width_ + file - 1;
}

bool is_pass_text(std::string_view text) { return text == "pass" || text == "--"; }

std::vector<std::string> split_sub_move_turn(const Game& game, std::string_view turn, bool simultaneous) {
  if (turn == "--") return {std::string(turn)};  // the pass's other spelling, not two separators
  return game.Game::split_turn(turn, simultaneous);
}

std::vector<std::string> read_wide_diagram(std::string_view diagram, int width, int height, int symbol_width) {
  const int cells = width * height;
  const auto per_cell = static_cast<std::size_t>(symbol_width);
  std::vector<std::string> out(static_cast<std::size_t>(cells));
  std::string symbol;
  int read = 0;
  for (char c : diagram) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (read == cells) throw InputError("from_diagram: more than " + std::to_string(cells) + " cells");
    symbol += c;
    if (symbol.size() < per_cell) continue;
    // Rows come top rank first; cells are numbered from a1.
    const int rank = height - 1 - read / width;
    out[static_cast<std::size_t>(rank * width + read % width)] = std::move(symbol);
    symbol.clear();
    ++read;
  }
  if (read != cells || !symbol.empty())
    throw InputError("from_diagram: " + std::to_string(read) + " cells" +
                     (symbol.empty() ? "" : " and " + std::to_string(symbol.size()) + " character") + " given, " +
                     std::to_string(cells) + " expected" +
                     (symbol_width > 1 ? " (" + std::to_string(symbol_width) + " characters each)" : ""));
  return out;
}

std::vector<char> read_diagram(std::string_view diagram, int width, int height) {
  std::vector<char> out;
  for (const std::string& symbol : read_wide_diagram(diagram, width, height, 1)) out.push_back(symbol[0]);
  return out;
}

}  // namespace boardlab

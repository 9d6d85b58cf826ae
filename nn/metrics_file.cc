// Writing metrics.csv, and carrying its rows over a resume.
#include "nn/metrics_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/errors.h"
#include "core/text.h"
#include "files/atomic_file.h"
#include "files/read_file.h"

namespace boardlab {
namespace {

// One line of the file back into cells, quoted cells undone.
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

// Quoted as csv_field quotes: a column named after a player spec (score_vs_agent:CK(simulations=
// 128,concealed_moves=...)) holds commas, and unquoted it shifted every cell after it.
std::string join(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_field(cells[i]);
  return out;
}

// Drops the bytes after the last newline.
void trim_partial_line(const std::string& path) {
  const std::string text = read_file(path, kNoSizeBound, "metrics file");
  const std::size_t end = text.rfind('\n');
  std::filesystem::resize_file(path, end == std::string::npos ? 0 : end + 1);
}

}  // namespace

std::string metric_number(double value, int decimals) {
  if (std::isnan(value)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string rating_text(double elo, double low, double high) {
  return metric_number(elo, 0) + " [" + metric_number(low, 0) + ", " + metric_number(high, 0) + "]";
}

MetricsFile::MetricsFile(std::string path, std::vector<std::string> columns, std::optional<MetricsCut> cut)
    : path_(std::move(path)), columns_(std::move(columns)) {
  if (columns_.empty() || columns_.front() != "step") throw std::logic_error("metrics.csv: the first column is step");
  std::string kept;
  if (cut && std::filesystem::exists(path_)) {
    std::istringstream in(read_file(path_, kNoSizeBound, "metrics file"));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> old_columns = split_csv_line(line);
    // Columns this session does not write keep their history (a run resumed with fewer
    // actor ranks keeps the others' columns), after the session's own.
    for (const auto& old : old_columns)
      if (std::find(columns_.begin(), columns_.end(), old) == columns_.end()) columns_.push_back(old);
    for (std::int64_t read = 0; std::getline(in, line); ++read) {
      if (cut->rows >= 0 && read >= cut->rows) break;
      const std::vector<std::string> cells = split_csv_line(line);
      std::int64_t row_step = 0;
      if (cells.empty()) continue;
      auto [end, ec] = std::from_chars(cells[0].data(), cells[0].data() + cells[0].size(), row_step);
      if (ec != std::errc() || (cut->rows < 0 && row_step > cut->step)) continue;
      std::vector<std::string> row(columns_.size());
      for (std::size_t c = 0; c < columns_.size(); ++c)
        for (std::size_t o = 0; o < old_columns.size() && o < cells.size(); ++o)
          if (old_columns[o] == columns_[c]) row[c] = cells[o];
      for (std::size_t c = 0; c < columns_.size(); ++c)
        if (!row[c].empty()) last_kept_[columns_[c]] = row[c];
      kept += join(row) + "\n";
      ++rows_;
    }
  }
  write_file_atomically(path_, join(columns_) + "\n" + kept);
}

std::optional<double> MetricsFile::last_kept(const std::string& column) const {
  const auto it = last_kept_.find(column);
  if (it == last_kept_.end()) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
  if (ec != std::errc() || end != it->second.data() + it->second.size()) return std::nullopt;
  return value;
}

void MetricsFile::append(const MetricsRow& row) {
  std::vector<std::string> cells(columns_.size());
  std::size_t placed = 0;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const auto it = row.find(columns_[c]);
    if (it != row.end()) {
      cells[c] = it->second;
      ++placed;
    }
  }
  if (placed != row.size()) {
    for (const auto& [name, value] : row) {
      bool known = false;
      for (const auto& c : columns_) known |= c == name;
      if (!known) throw std::logic_error("metrics.csv has no column '" + name + "'");
    }
  }
  const std::string line = join(cells) + "\n";
  std::ofstream out(path_, std::ios::app | std::ios::binary);
  out << line;
  out.flush();
  if (!out) {
    const int error = errno;
    // A torn row would shift every later one: cut the file back to its last whole row.
    out.close();
    try {
      trim_partial_line(path_);
    } catch (const std::exception&) {
      // The row's own error is the one to report.
    }
    throw FileError("cannot write '" + path_ + "': " + std::strerror(error != 0 ? error : EIO));
  }
  ++rows_;
}

}  // namespace boardlab

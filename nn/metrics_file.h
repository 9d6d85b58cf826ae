// metrics.csv: named columns, one row per progress line or evaluation, kept consistent across resumes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace boardlab {

// A row: column name → formatted value; columns a row lacks are left empty.
using MetricsRow = std::map<std::string, std::string>;

class MetricsFile {
 public:
  // Opens `path` with `columns` (the first must be "step"). On resume, rows past
  // `resume_step` are dropped, so the file describes exactly the run that continues, and
  // the kept rows are mapped by column name onto `columns`: a run resumed by a newer
  // boardlab keeps its history, with empty cells for columns it did not have.
  MetricsFile(std::string path, std::vector<std::string> columns, std::optional<std::int64_t> resume_step);

  // Appends a row; a column outside the header is a programming error (std::logic_error).
  void append(const MetricsRow& row);
  const std::vector<std::string>& columns() const { return columns_; }

 private:
  std::string path_;
  std::vector<std::string> columns_;
};

// Numbers as metrics.csv writes them: fixed decimals, and an empty cell for NaN.
std::string metric_number(double value, int decimals);

}  // namespace boardlab

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

// Where a resume cuts metrics.csv: after the data rows its checkpoint counted (rows >= 0),
// or, for a checkpoint that did not count them, after the rows up to its step.
struct MetricsCut {
  std::int64_t step = 0;
  std::int64_t rows = -1;
};

class MetricsFile {
 public:
  // Opens `path` with `columns` (the first must be "step"). On resume, rows written after
  // the checkpoint are dropped (`cut`), so the file describes exactly the run that
  // continues and never holds a step's row twice from two sessions; the kept rows are
  // mapped by column name onto `columns`: a run resumed by a newer boardlab keeps its
  // history, with empty cells for columns it did not have, and columns this session does
  // not write stay, after `columns`. Without `cut` the file starts afresh.
  MetricsFile(std::string path, std::vector<std::string> columns, std::optional<MetricsCut> cut);

  // Appends a row; a column outside the header is a programming error (std::logic_error),
  // a row the system would not write (a full disk) a FileError naming the file.
  void append(const MetricsRow& row);
  const std::vector<std::string>& columns() const { return columns_; }
  // Data rows in the file: what a checkpoint records as its moment.
  std::int64_t rows() const { return rows_; }
  // The last number a kept row (one from before the resume) holds in `column`, if any: what
  // a resumed session picks up from, such as the network's last ladder rating.
  std::optional<double> last_kept(const std::string& column) const;

 private:
  std::string path_;
  std::vector<std::string> columns_;
  std::int64_t rows_ = 0;
  std::map<std::string, std::string> last_kept_;  // column → its last non-empty kept cell
};

// Numbers as metrics.csv writes them: fixed decimals, and an empty cell for NaN.
std::string metric_number(double value, int decimals);

// A rating with its interval as the logs print it, in whole points: "431 [298, 564]".
std::string rating_text(double elo, double low, double high);

}  // namespace boardlab

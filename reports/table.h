// Tables as experiments print them: aligned text for stdout, GitHub Markdown for files, and the
// number format both use.
//
// Contract: pure and locale-independent; the same table gives the same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace drainsim::reports {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each row has header.size() cells
  // Columns aligned to the right (numbers); the others to the left. Default: the first column
  // left, every other right.
  std::vector<bool> right;

  // Columns separated by two spaces, no trailing spaces, one line per row, header first.
  std::string Text(const std::string& indent = "") const;
  // A GitHub Markdown table ('|' in cells escaped).
  std::string Markdown() const;
};

// About 6 significant digits, at most 6 decimals, trailing zeros dropped: "86083", "25.0147",
// "0.001235". reports::Decimal underneath, so "-0" prints as "0".
std::string Number(double value);
// Number(*value), or "-" when there is none.
std::string NumberOr(const std::optional<double>& value, const std::string& none = "-");

// A JSON value as a parameter is printed in tables and file names (a sweep's grid values, a
// scenario edit): integers as written, other numbers by reports::Decimal, strings without
// quotes, anything else as compact JSON.
std::string ValueText(const nlohmann::json& value);

}  // namespace drainsim::reports

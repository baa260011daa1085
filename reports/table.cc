#include "reports/table.h"

#include <algorithm>
#include <cmath>

#include "reports/metrics.h"
#include "sim/base/check.h"

namespace drainsim::reports {

namespace {

// Display width: UTF-8 continuation bytes take no column (the tables hold "±" and "≤").
size_t Width(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;
  return width;
}

bool RightAligned(const Table& t, size_t column) {
  if (column < t.right.size()) return t.right[column];
  return column > 0;
}

}  // namespace

std::string Table::Text(const std::string& indent) const {
  std::vector<size_t> widths(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    DRAINSIM_CHECK(row.size() == header.size());
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], Width(row[c]));
  };
  measure(header);
  for (const auto& row : rows) measure(row);
  auto line = [&](const std::vector<std::string>& row) {
    std::string out = indent;
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string pad(widths[c] - Width(row[c]), ' ');
      if (c > 0) out += "  ";
      out += RightAligned(*this, c) ? pad + row[c] : row[c] + pad;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  for (const auto& row : rows) out += line(row);
  return out;
}

std::string Table::Markdown() const {
  auto cell = [](const std::string& text) {
    std::string escaped;
    for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
    return escaped;
  };
  std::string out = "|";
  for (const std::string& h : header) out += " " + cell(h) + " |";
  out += "\n|";
  for (size_t c = 0; c < header.size(); ++c) out += RightAligned(*this, c) ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const std::string& v : row) out += " " + cell(v) + " |";
    out += "\n";
  }
  return out;
}

std::string Number(double value) {
  if (!std::isfinite(value)) return Decimal(value);
  const double magnitude = std::abs(value);
  int decimals = 6;
  if (magnitude >= 1) {
    const int digits = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
    decimals = std::clamp(6 - digits, 0, 6);
  }
  return Decimal(value, decimals);
}

std::string NumberOr(const std::optional<double>& value, const std::string& none) {
  return value ? Number(*value) : none;
}

std::string ValueText(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  if (value.is_number_float()) return Decimal(value.get<double>());
  return value.dump();
}

}  // namespace drainsim::reports

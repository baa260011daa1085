// The other Split; a name in an inner namespace that hides the header's Table (finding); a
// macro #undef'd (none); a header's function implemented (none); a helper dump.cc borrows.
#define SPEC_SEPARATOR ','
namespace demo {
namespace {
std::vector<std::string> Split(const std::string& text, char separator) {
  if (text.empty()) {
    return {};
  }
  return {text};
}
double SecondsOf(int count) { return count; }
}  // namespace
std::string Number(double value) { return std::to_string(value); }
namespace inner {
namespace {
constexpr int Table = 3;
}  // namespace
}  // namespace inner
}  // namespace demo
#undef SPEC_SEPARATOR

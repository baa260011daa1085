// Uses a name only spec.cc declares, file-locally (finding: it compiles only in a unity build);
// and names it declares for itself or a header declares (none).
#include "lib/table.h"
namespace demo {
struct Row {
  int Width() const;
};
int Row::Width() const { return static_cast<int>(SecondsOf(3)); }
std::string Format(double value) {
  const int Split = 2;  // a local of a neighbour's name is its own
  return Number(value + Split);
}
}  // namespace demo

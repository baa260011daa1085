// A header of the fixture library: what its .cc files must not take the place of.
#include <string>
namespace demo {
struct Table {
  int rows = 0;
};
std::string Number(double value);
}  // namespace demo

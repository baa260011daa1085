// The case seen in drainsim: a file-local overload of a header's function (finding).
#include "lib/table.h"
namespace demo {
namespace {
using Json = nlohmann::json;
Json Number(double value) { return Json(value); }
}  // namespace
}  // namespace demo

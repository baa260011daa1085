// Two files' file-local functions of one name in one namespace (finding), an alias both
// declare alike (none), a macro left defined (finding), a using-directive (finding).
#define GRID_COLUMNS 4
namespace demo {
namespace {
using Json = nlohmann::json;
std::vector<std::string> Split(const std::string& text) { return {text}; }
const char* kName = "grid";  // a "string" with { and ; in it
}  // namespace
using namespace std;
}  // namespace demo

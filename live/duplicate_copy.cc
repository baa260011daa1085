#include "live/duplicate_copy.h"

namespace drainsim::live {

std::optional<int64_t> CopyKey(const AmqpHeaders& headers) {
  const int64_t attempt = HeaderInt(headers, "x-drainsim-attempt", 1);
  if (attempt < 2) return std::nullopt;
  const int64_t life_base = HeaderInt(headers, "x-drainsim-life-base", 0);
  return life_base * 65536 + attempt;
}

bool IsDuplicateCopy(std::atomic<int64_t>& seen, int64_t key, bool redelivered) {
  int64_t current = seen.load();
  while (current < key) {
    if (seen.compare_exchange_weak(current, key)) return false;  // the first with this key
  }
  return !redelivered;  // a key received before: a second copy unless the broker redelivers
}

}  // namespace drainsim::live

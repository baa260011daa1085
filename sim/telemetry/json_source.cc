#include "sim/telemetry/json_source.h"

namespace drainsim::telemetry {

JsonSource::JsonSource(std::string_view text, int depth_max)
    : chunk_(text), depth_max_(depth_max) {}

JsonSource::JsonSource(std::FILE* file, int depth_max) : file_(file), depth_max_(depth_max) {}

bool JsonSource::Refill() {
  if (file_ == nullptr || read_failed_) return false;
  buffer_.resize(kChunkBytes);
  const size_t got = std::fread(buffer_.data(), 1, buffer_.size(), file_);
  if (got == 0 && std::ferror(file_)) read_failed_ = true;
  chunk_ = std::string_view(buffer_.data(), got);
  at_ = 0;
  return got > 0;
}

void JsonSource::Drain() {
  while (!AtEnd()) Advance();
}

}  // namespace drainsim::telemetry

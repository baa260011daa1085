// Readers shared by several sections: distributions, windows, instants, kind references and
// per-message fields.
#include <cmath>

#include "sim/engine/distributions.h"
#include "sim/engine/math.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

// The loader applies the engine's limits (sim/engine/distributions.h), so that the model can
// build every distribution a loaded scenario names without failing a check.
using engine::Distribution;
constexpr double kMuAbsMax = Distribution::kLogNormalMuAbsMax;
constexpr double kSigmaMax = Distribution::kLogNormalSigmaMax;
// Every other parameter is a value in milliseconds of at most 100 years (ReadMsValue) or a
// probability, well inside the engine's bound on parameter magnitudes.
static_assert(static_cast<double>(engine::kInputMicrosMax) / 1e3 <= Distribution::kParameterAbsMax);
constexpr size_t kEmpiricalPointsMax = 10000;
static_assert(kEmpiricalPointsMax <= Distribution::kEmpiricalPointsMax);
constexpr size_t kFieldsMax = 32;
constexpr size_t kFieldValueBytesMax = 200;

// A value in milliseconds: a number in `range` that also converts to microseconds.
std::optional<double> ReadMsValue(const Node& node, const Range& range) {
  auto value = ReadNumber(node, range);
  if (!value) return std::nullopt;
  if (!engine::DurationFromMillis(*value)) {
    node.Error("must be at most 100 years (got " + Describe(node.json()) + ")");
    return std::nullopt;
  }
  return value;
}

std::optional<config::ConstantDist> ReadConstant(const Node& node) {
  auto value = ReadMsValue(node, Range::AtLeast(0));
  if (!value) return std::nullopt;
  return config::ConstantDist{*value};
}

std::optional<config::UniformDist> ReadUniform(const Node& node) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return std::nullopt;
  }
  Node high_node = o.Required("high");
  auto low = ReadMsValue(o.Required("low"), Range::AtLeast(0));
  auto high = ReadMsValue(high_node, Range::AtLeast(0));
  o.Finish();
  if (!low || !high) return std::nullopt;
  if (*high < *low) {
    high_node.Error("must be >= low = " + FormatNumber(*low) + " (got " + FormatNumber(*high) +
                    ")");
    return std::nullopt;
  }
  return config::UniformDist{*low, *high};
}

std::optional<config::ExponentialDist> ReadExponential(const Node& node) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return std::nullopt;
  }
  auto mean = ReadMsValue(o.Required("mean"), Range::Above(0));
  o.Finish();
  if (!mean) return std::nullopt;
  return config::ExponentialDist{*mean};
}

std::optional<config::LognormalDist> ReadLognormal(const Node& node) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return std::nullopt;
  }
  const bool quantiles = o.Has("median") || o.Has("p99");
  const bool parameters = o.Has("mu") || o.Has("sigma");
  config::LognormalDist out;
  if (quantiles && parameters) {
    node.Error("give either median and p99 or mu and sigma, not both");
    return std::nullopt;
  }
  if (parameters) {
    out.form = config::LognormalDist::Form::kMuSigma;
    auto mu = ReadNumber(o.Required("mu"), Range::Closed(-kMuAbsMax, kMuAbsMax));
    auto sigma = ReadNumber(o.Required("sigma"), Range::AboveAtMost(0, kSigmaMax));
    o.Finish();
    if (!mu || !sigma) return std::nullopt;
    out.mu = *mu;
    out.sigma = *sigma;
    return out;
  }
  if (!quantiles) {
    o.Finish();
    node.Error("needs median and p99 (or mu and sigma)");
    return std::nullopt;
  }
  Node median_node = o.Required("median");
  Node p99_node = o.Required("p99");
  auto median = ReadMsValue(median_node, Range::Above(0));
  auto p99 = ReadMsValue(p99_node, Range::Above(0));
  o.Finish();
  if (!median || !p99) return std::nullopt;
  if (*p99 <= *median) {
    p99_node.Error("must be > median = " + FormatNumber(*median) + " (got " + FormatNumber(*p99) +
                   ")");
    return std::nullopt;
  }
  // The engine derives mu = ln median and sigma = (ln p99 - ln median) / z_0.99, computed
  // exactly as here, and needs them within its lognormal limits.
  const double mu = std::log(*median);
  const double sigma = (std::log(*p99) - mu) / engine::kNormalQuantile99;
  if (!(std::fabs(mu) <= kMuAbsMax)) {
    median_node.Error(
        "must be at least e^-100 (about 3.7e-44): the lognormal's mu = ln median "
        "must be >= -100 (got " +
        FormatNumber(*median) + ")");
    return std::nullopt;
  }
  if (!(sigma > 0)) {
    p99_node.Error("is too close to median = " + FormatNumber(*median) +
                   ": ln p99 - ln median rounds to 0 (got " + FormatNumber(*p99) + ")");
    return std::nullopt;
  }
  if (!(sigma <= kSigmaMax)) {
    p99_node.Error("must be at most about 1.27e10 times median = " + FormatNumber(*median) +
                   ": the lognormal's sigma = (ln p99 - ln median) / 2.3263 would be " +
                   FormatNumber(std::round(sigma * 100) / 100) + ", above 10 (got " +
                   FormatNumber(*p99) + ")");
    return std::nullopt;
  }
  out.median = *median;
  out.p99 = *p99;
  return out;
}

std::optional<config::NormalDist> ReadNormal(const Node& node) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return std::nullopt;
  }
  auto mean = ReadMsValue(o.Required("mean"), Range::AtLeast(0));
  auto sd = ReadMsValue(o.Required("sd"), Range::AtLeast(0));
  o.Finish();
  if (!mean || !sd) return std::nullopt;
  return config::NormalDist{*mean, *sd};
}

std::optional<config::EmpiricalDist> ReadEmpirical(const Node& node) {
  if (!node.json().is_array()) {
    node.TypeError("an array of [probability, value] pairs");
    return std::nullopt;
  }
  config::EmpiricalDist out;
  bool ok = true;
  for (const Node& item : ArrayItems(node, 1, kEmpiricalPointsMax)) {
    if (!item.json().is_array() || item.json().size() != 2) {
      item.TypeError("a [probability, value] pair");
      ok = false;
      continue;
    }
    const Node p_node(&item.json().at(0), ChildPointer(item.pointer(), 0), &item.problems());
    const Node v_node(&item.json().at(1), ChildPointer(item.pointer(), 1), &item.problems());
    auto p = ReadNumber(p_node, Range::AboveAtMost(0, 1));
    auto v = ReadMsValue(v_node, Range::AtLeast(0));
    if (!p || !v) {
      ok = false;
      continue;
    }
    if (ok && !out.points.empty()) {
      const config::EmpiricalPoint& last = out.points.back();
      if (*p <= last.probability) {
        p_node.Error("probabilities must increase strictly: must be > " +
                     FormatNumber(last.probability) + " (got " + FormatNumber(*p) + ")");
        ok = false;
      } else if (*v < last.value) {
        v_node.Error("values must not decrease: must be >= " + FormatNumber(last.value) + " (got " +
                     FormatNumber(*v) + ")");
        ok = false;
      }
    }
    out.points.push_back({*p, *v});
  }
  if (!ok || out.points.empty()) return std::nullopt;
  if (out.points.back().probability != 1.0) {
    const std::string last = ChildPointer(node.pointer(), out.points.size() - 1);
    node.problems().Add(
        ChildPointer(last, 0),
        "the last probability must be 1 (got " + FormatNumber(out.points.back().probability) + ")");
    return std::nullopt;
  }
  return out;
}

}  // namespace

bool IsFieldName(std::string_view name) {
  if (name.empty() || name.size() > config::kNameBytesMax) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

std::optional<config::DistributionSpec> ReadDistribution(const Node& node) {
  if (!node.present()) return std::nullopt;
  const std::vector<std::string_view> names = NamesOf<config::DistributionKind>();
  if (!node.json().is_object()) {
    node.TypeError("a distribution such as {\"constant\": 5}");
    return std::nullopt;
  }
  // The distribution's name, and `drainsim fit`'s provenance beside it when it fitted it.
  const auto fitted_member = node.json().find("fitted");
  const bool has_fitted = fitted_member != node.json().end();
  if (node.json().size() != (has_fitted ? 2u : 1u)) {
    node.Error("must have exactly one key, the distribution's name (one of: " + JoinNames(names) +
               "), and optionally \"fitted\" (got " + std::to_string(node.json().size()) +
               " keys)");
    return std::nullopt;
  }
  std::optional<config::Fitted> fitted;
  if (has_fitted) {
    const Node fitted_node(&*fitted_member, ChildPointer(node.pointer(), "fitted"),
                           &node.problems());
    fitted = ReadFitted(fitted_node);
    if (!fitted) return std::nullopt;
    node.problems().fitted[node.pointer()] = *fitted;
  }
  auto member = node.json().begin();
  if (member.key() == "fitted") ++member;
  const std::string& name = member.key();
  const Json& value = member.value();
  const Node inner(&value, ChildPointer(node.pointer(), name), &node.problems());
  auto kind = config::FromName<config::DistributionKind>(name);
  if (!kind) {
    std::string message = "unknown distribution " + Quote(name);
    const std::string suggestion = Suggestion(name, names, '"');
    node.problems().Add(inner.pointer(), message + (suggestion.empty() ? "" : suggestion) +
                                             "; allowed: " + JoinNames(names));
    return std::nullopt;
  }
  // Built in place: GCC 12 (-O2 with sanitizers) warns falsely about a copied variant here.
  auto wrap = [](auto shape) {
    std::optional<config::DistributionSpec> out;
    if (shape)
      out.emplace().shape.template emplace<typename decltype(shape)::value_type>(std::move(*shape));
    return out;
  };
  switch (*kind) {
    case config::DistributionKind::kConstant:
      return wrap(ReadConstant(inner));
    case config::DistributionKind::kUniform:
      return wrap(ReadUniform(inner));
    case config::DistributionKind::kExponential:
      return wrap(ReadExponential(inner));
    case config::DistributionKind::kLognormal:
      return wrap(ReadLognormal(inner));
    case config::DistributionKind::kNormal:
      return wrap(ReadNormal(inner));
    case config::DistributionKind::kEmpirical:
      return wrap(ReadEmpirical(inner));
  }
  return std::nullopt;
}

std::string RunEndText(const Context& context) {
  return "run.until_s = " + FormatNumber(context.run_until->seconds());
}

bool ReadWindow(ObjectReader& object, const Context& context, bool required,
                config::Window* window) {
  const Node from_node = required ? object.Required("from_s") : object.Optional("from_s");
  const Node until_node = required ? object.Required("until_s") : object.Optional("until_s");
  const auto from_read = ReadInstant(from_node, Range::AtLeast(0));
  const auto until_read = ReadInstant(until_node, Range::Above(0));
  // Plain values and flags rather than optionals: GCC 12 misreads the comparisons otherwise.
  bool has_from = from_read.has_value();
  bool has_until = until_read.has_value();
  const engine::Instant end = context.run_until.value_or(engine::Instant::Never());
  const engine::Instant from = from_read.value_or(engine::Instant::Zero());
  const engine::Instant until =
      until_read.value_or(context.run_until.value_or(engine::Instant::Zero()));
  bool ok = (has_from || !from_node.present()) && (has_until || !until_node.present());
  if (required && (!from_node.present() || !until_node.present())) ok = false;
  if (has_from && from >= end) {
    from_node.Error("must be < " + RunEndText(context) + " (got " + Describe(from_node.json()) +
                    ")");
    has_from = false;
    ok = false;
  }
  if (has_until && until > end) {
    until_node.Error("must be <= " + RunEndText(context) + " (got " + Describe(until_node.json()) +
                     ")");
    has_until = false;
    ok = false;
  }
  if (has_until && until <= from && (has_from || !from_node.present())) {
    until_node.Error("must be > from_s = " + FormatNumber(from.seconds()) + " (got " +
                     Describe(until_node.json()) + ")");
    ok = false;
  }
  window->from = from;
  window->until = until;
  return ok;
}

std::optional<engine::Instant> ReadAt(const Node& node, const Context& context) {
  auto at = ReadInstant(node, Range::AtLeast(0));
  if (at && context.run_until && *at >= *context.run_until) {
    node.Error("must be < " + RunEndText(context) + " (got " + Describe(node.json()) + ")");
    return std::nullopt;
  }
  return at;
}

std::optional<std::string> ReadKindRef(const Node& node, const Context& context) {
  auto name = ReadString(node, 64, false);
  if (!name || !context.kinds_known) return name;
  if (context.kinds.find(*name) == context.kinds.end()) {
    std::vector<std::string_view> known(context.kinds.begin(), context.kinds.end());
    node.Error("unknown kind " + Quote(*name) + Suggestion(*name, known, '"') +
               "; kinds are: " + JoinNames(known));
    return std::nullopt;
  }
  return name;
}

bool ReadFields(const Node& node, config::Fields* fields) {
  if (!node.given() && node.present()) {
    node.TypeError("an object");
    return false;
  }
  bool ok = node.present() ? node.json().is_object() : true;
  for (auto& [name, value] : MapEntries(node, 0, kFieldsMax)) {
    if (!IsFieldName(name)) {
      value.Error("field names must match [A-Za-z_][A-Za-z0-9_]{0,63}");
      ok = false;
      continue;
    }
    // {id} and {kind} identify the message; {date} is built in too, but a field may set it
    // (a producer that knows the business date) and then wins over the simulated day.
    if (name == "id" || name == "kind") {
      value.Error("'" + name + "' is built in and cannot be set");
      ok = false;
      continue;
    }
    auto text = ReadString(value, kFieldValueBytesMax, true);
    if (!text) {
      ok = false;
      continue;
    }
    (*fields)[name] = *text;
  }
  if (node.present() && node.json().is_object() && node.json().size() > kFieldsMax) ok = false;
  return ok;
}

}  // namespace drainsim::scenario::internal

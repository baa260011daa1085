// `drainsim fit --report DIR`: fit.md and fit.html from the fit's result
// (experiments/results/fit_result.h). Per kind: the handler time's fitted CDFs (the lognormal and
// the empirical table) drawn over the data's ECDF, and the arrivals per bin (as a rate) with the
// fitted rate per window or segment.
//
// Contract: pure functions of the result; the same result gives the same bytes. Reports read
// results only: the points drawn (HandlerFit::cdf, KindFit::bins) are computed by experiments/.
#pragma once

#include <string>

#include "experiments/results/fit_result.h"

namespace drainsim::reports {

std::string FitMarkdown(const experiments::FitResult& fit);
std::string FitHtml(const experiments::FitResult& fit);

}  // namespace drainsim::reports

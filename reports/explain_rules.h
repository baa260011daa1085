// `drainsim explain` names the broker preset's rule behind what it tells: after a line, the
// settings that decided it, when a preset set them (and the scenario did not write its own).
//
//      105.000 s  dead-lettered: reason delivery_limit (after 21 attempts; last error transient)
//                 rule /broker/delivery_limit = 20: preset rabbitmq-quorum 4.3, RabbitMQ 4.0 ...
//
// Contract:
//  (1) PointersActingOn(e) lists the scenario settings (JSON pointers) that decided event e:
//      a dead-letter's reason its limit, a timeout its length and what the broker does then, a
//      return where it waits, a refused ack the stale-ack rule. Empty for events no setting
//      decides (a delivery, a commit).
//  (2) RuleLines gives one line per pointer of (1) that ExplainScene::preset_rules holds and
//      `named` does not; it adds those to `named`, so a rule is named once per life, at the
//      first event it decided.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "reports/explain_report.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports {

std::vector<std::string> PointersActingOn(const model::LifeEvent& e);

std::string RuleLines(const model::LifeEvent& e, const ExplainScene& scene,
                      std::set<std::string>* named);

}  // namespace drainsim::reports

#include "strategy.h"

namespace {

// How much an action gives away: low cards are cheap, trumps dear, taking the table dearest.
int Cost(const durak::v1::Action& action, const durak::v1::Observation& observation) {
  if (!action.has_card()) {  // take, pass or exchange
    switch (action.kind()) {
      case durak::v1::ACTION_KIND_TAKE: return 60;
      case durak::v1::ACTION_KIND_PASS: return 40;
      case durak::v1::ACTION_KIND_EXCHANGE: return 0;
      default: return 50;
    }
  }
  return action.card().rank() + (action.card().suit() == observation.trump() ? 20 : 0);
}

}  // namespace

// The cheapest legal action (the first of equals). The observation holds your hand, the table, the trump, the
// stock size, every seat's hand size, the discard pile, the cards known to be in each hand and the public history.
const durak::v1::Action& ChooseAction(const durak::v1::Observation& observation) {
  const durak::v1::Action* best = &observation.legal_actions(0);
  for (const durak::v1::Action& action : observation.legal_actions()) {
    if (Cost(action, observation) < Cost(*best, observation)) best = &action;
  }
  return *best;
}

package main

import pb "durak/v1"

// cost says how much an action gives away: low cards are cheap, trumps dear, taking the table dearest.
func cost(action *pb.Action, observation *pb.Observation) int {
	if action.GetCard() == nil { // take, pass or exchange
		switch action.GetKind() {
		case pb.ActionKind_ACTION_KIND_TAKE:
			return 60
		case pb.ActionKind_ACTION_KIND_PASS:
			return 40
		case pb.ActionKind_ACTION_KIND_EXCHANGE:
			return 0
		}
		return 50
	}
	value := int(action.GetCard().GetRank())
	if action.GetCard().GetSuit() == observation.GetTrump() {
		value += 20
	}
	return value
}

// chooseAction returns one of observation.legal_actions: the cheapest (the first of equals). Replace it with
// your own strategy; the observation holds your hand, the table, the trump, the stock size, every seat's hand
// size, the discard pile, the cards known to be in each hand and the public history.
func chooseAction(observation *pb.Observation) *pb.Action {
	legal := observation.GetLegalActions()
	best := legal[0]
	for _, action := range legal[1:] {
		if cost(action, observation) < cost(best, observation) {
			best = action
		}
	}
	return best
}

package durakbot;

import durak.v1.BotOuterClass.Action;
import durak.v1.BotOuterClass.ActionKind;
import durak.v1.BotOuterClass.Observation;

/** The bot's strategy: the one method to replace with your own (Main.java does the serving). */
final class Strategy {
    private Strategy() {}

    /** How much an action gives away: low cards are cheap, trumps dear, taking the table dearest. */
    private static int cost(Action action, Observation observation) {
        if (!action.hasCard()) { // take, pass or exchange
            if (action.getKind() == ActionKind.ACTION_KIND_TAKE) return 60;
            if (action.getKind() == ActionKind.ACTION_KIND_PASS) return 40;
            if (action.getKind() == ActionKind.ACTION_KIND_EXCHANGE) return 0;
            return 50;
        }
        return action.getCard().getRankValue() + (action.getCard().getSuit() == observation.getTrump() ? 20 : 0);
    }

    /**
     * One of observation.getLegalActionsList() (never empty here): the cheapest, the first of equals. The
     * observation holds your hand, the table, the trump, the stock size, every seat's hand size, the discard
     * pile, the cards known to be in each hand and the public history.
     */
    static Action chooseAction(Observation observation) {
        Action best = observation.getLegalActions(0);
        for (Action action : observation.getLegalActionsList()) {
            if (cost(action, observation) < cost(best, observation)) best = action;
        }
        return best;
    }
}

// Original file: durak/v1/bot.proto

import type { Rules as _durak_v1_Rules, Rules__Output as _durak_v1_Rules__Output } from '../../durak/v1/Rules';
import type { Card as _durak_v1_Card, Card__Output as _durak_v1_Card__Output } from '../../durak/v1/Card';
import type { Suit as _durak_v1_Suit, Suit__Output as _durak_v1_Suit__Output } from '../../durak/v1/Suit';
import type { TablePair as _durak_v1_TablePair, TablePair__Output as _durak_v1_TablePair__Output } from '../../durak/v1/TablePair';
import type { Action as _durak_v1_Action, Action__Output as _durak_v1_Action__Output } from '../../durak/v1/Action';
import type { CardList as _durak_v1_CardList, CardList__Output as _durak_v1_CardList__Output } from '../../durak/v1/CardList';
import type { Event as _durak_v1_Event, Event__Output as _durak_v1_Event__Output } from '../../durak/v1/Event';

export interface Observation {
  'seat'?: (number);
  'rules'?: (_durak_v1_Rules | null);
  'hand'?: (_durak_v1_Card)[];
  'trump'?: (_durak_v1_Suit);
  'trump_card'?: (_durak_v1_Card | null);
  'trump_drawn_by'?: (number);
  'stock_size'?: (number);
  'hand_sizes'?: (number)[];
  'out'?: (boolean)[];
  'out_order'?: (number)[];
  'table'?: (_durak_v1_TablePair)[];
  'discard'?: (_durak_v1_Card)[];
  'attacker'?: (number);
  'defender'?: (number);
  'eligible_attackers'?: (number)[];
  'take_declared'?: (boolean);
  'bout'?: (number);
  'attack_limit'?: (number);
  'pickups_in_a_row'?: (number);
  'dealer'?: (number);
  'to_act'?: (number);
  'legal_actions'?: (_durak_v1_Action)[];
  'known_cards'?: (_durak_v1_CardList)[];
  'history'?: (_durak_v1_Event)[];
  'partners'?: (number)[];
  'attacker_position'?: (number);
  'defender_position'?: (number);
  '_trump_drawn_by'?: "trump_drawn_by";
}

export interface Observation__Output {
  'seat': (number);
  'rules': (_durak_v1_Rules__Output | null);
  'hand': (_durak_v1_Card__Output)[];
  'trump': (_durak_v1_Suit__Output);
  'trump_card': (_durak_v1_Card__Output | null);
  'trump_drawn_by'?: (number);
  'stock_size': (number);
  'hand_sizes': (number)[];
  'out': (boolean)[];
  'out_order': (number)[];
  'table': (_durak_v1_TablePair__Output)[];
  'discard': (_durak_v1_Card__Output)[];
  'attacker': (number);
  'defender': (number);
  'eligible_attackers': (number)[];
  'take_declared': (boolean);
  'bout': (number);
  'attack_limit': (number);
  'pickups_in_a_row': (number);
  'dealer': (number);
  'to_act': (number);
  'legal_actions': (_durak_v1_Action__Output)[];
  'known_cards': (_durak_v1_CardList__Output)[];
  'history': (_durak_v1_Event__Output)[];
  'partners': (number)[];
  'attacker_position': (number);
  'defender_position': (number);
  '_trump_drawn_by'?: "trump_drawn_by";
}

// Original file: durak/v1/bot.proto

import type { FirstAttacker as _durak_v1_FirstAttacker, FirstAttacker__Output as _durak_v1_FirstAttacker__Output } from '../../durak/v1/FirstAttacker';
import type { ThrowIn as _durak_v1_ThrowIn, ThrowIn__Output as _durak_v1_ThrowIn__Output } from '../../durak/v1/ThrowIn';
import type { Team as _durak_v1_Team, Team__Output as _durak_v1_Team__Output } from '../../durak/v1/Team';

export interface Rules {
  'preset'?: (string);
  'players'?: (number);
  'deck'?: (number);
  'hand_size'?: (number);
  'first_attacker'?: (_durak_v1_FirstAttacker);
  'throw_in'?: (_durak_v1_ThrowIn);
  'bout_limit'?: (number);
  'first_bout_limit'?: (number);
  'multi_card_attacks'?: (boolean);
  'transfer'?: (boolean);
  'early_out'?: (boolean);
  'trump_exchange'?: (boolean);
  'teams'?: (_durak_v1_Team)[];
  'pickup_draw_limit'?: (number);
  'max_bouts'?: (number);
  '_bout_limit'?: "bout_limit";
  '_first_bout_limit'?: "first_bout_limit";
  '_pickup_draw_limit'?: "pickup_draw_limit";
}

export interface Rules__Output {
  'preset': (string);
  'players': (number);
  'deck': (number);
  'hand_size': (number);
  'first_attacker': (_durak_v1_FirstAttacker__Output);
  'throw_in': (_durak_v1_ThrowIn__Output);
  'bout_limit'?: (number);
  'first_bout_limit'?: (number);
  'multi_card_attacks': (boolean);
  'transfer': (boolean);
  'early_out': (boolean);
  'trump_exchange': (boolean);
  'teams': (_durak_v1_Team__Output)[];
  'pickup_draw_limit'?: (number);
  'max_bouts': (number);
  '_bout_limit'?: "bout_limit";
  '_first_bout_limit'?: "first_bout_limit";
  '_pickup_draw_limit'?: "pickup_draw_limit";
}

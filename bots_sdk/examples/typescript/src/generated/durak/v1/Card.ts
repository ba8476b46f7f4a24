// Original file: durak/v1/bot.proto

import type { Rank as _durak_v1_Rank, Rank__Output as _durak_v1_Rank__Output } from '../../durak/v1/Rank';
import type { Suit as _durak_v1_Suit, Suit__Output as _durak_v1_Suit__Output } from '../../durak/v1/Suit';

export interface Card {
  'rank'?: (_durak_v1_Rank);
  'suit'?: (_durak_v1_Suit);
}

export interface Card__Output {
  'rank': (_durak_v1_Rank__Output);
  'suit': (_durak_v1_Suit__Output);
}

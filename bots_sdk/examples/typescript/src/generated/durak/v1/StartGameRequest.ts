// Original file: durak/v1/bot.proto

import type { Rules as _durak_v1_Rules, Rules__Output as _durak_v1_Rules__Output } from '../../durak/v1/Rules';

export interface StartGameRequest {
  'game_id'?: (string);
  'seat'?: (number);
  'rules'?: (_durak_v1_Rules | null);
}

export interface StartGameRequest__Output {
  'game_id': (string);
  'seat': (number);
  'rules': (_durak_v1_Rules__Output | null);
}

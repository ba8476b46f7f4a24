// Original file: durak/v1/bot.proto

import type { Outcome as _durak_v1_Outcome, Outcome__Output as _durak_v1_Outcome__Output } from '../../durak/v1/Outcome';
import type { Observation as _durak_v1_Observation, Observation__Output as _durak_v1_Observation__Output } from '../../durak/v1/Observation';

export interface EndGameRequest {
  'game_id'?: (string);
  'outcome'?: (_durak_v1_Outcome | null);
  'observation'?: (_durak_v1_Observation | null);
}

export interface EndGameRequest__Output {
  'game_id': (string);
  'outcome': (_durak_v1_Outcome__Output | null);
  'observation': (_durak_v1_Observation__Output | null);
}

// Original file: durak/v1/bot.proto

import type { Observation as _durak_v1_Observation, Observation__Output as _durak_v1_Observation__Output } from '../../durak/v1/Observation';
import type { Clock as _durak_v1_Clock, Clock__Output as _durak_v1_Clock__Output } from '../../durak/v1/Clock';

export interface ActRequest {
  'game_id'?: (string);
  'observation'?: (_durak_v1_Observation | null);
  'clock'?: (_durak_v1_Clock | null);
}

export interface ActRequest__Output {
  'game_id': (string);
  'observation': (_durak_v1_Observation__Output | null);
  'clock': (_durak_v1_Clock__Output | null);
}

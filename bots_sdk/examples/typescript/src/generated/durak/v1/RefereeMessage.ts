// Original file: durak/v1/bot.proto

import type { StartGameRequest as _durak_v1_StartGameRequest, StartGameRequest__Output as _durak_v1_StartGameRequest__Output } from '../../durak/v1/StartGameRequest';
import type { ActRequest as _durak_v1_ActRequest, ActRequest__Output as _durak_v1_ActRequest__Output } from '../../durak/v1/ActRequest';
import type { EndGameRequest as _durak_v1_EndGameRequest, EndGameRequest__Output as _durak_v1_EndGameRequest__Output } from '../../durak/v1/EndGameRequest';

export interface RefereeMessage {
  'start'?: (_durak_v1_StartGameRequest | null);
  'act'?: (_durak_v1_ActRequest | null);
  'end'?: (_durak_v1_EndGameRequest | null);
  'message'?: "start"|"act"|"end";
}

export interface RefereeMessage__Output {
  'start'?: (_durak_v1_StartGameRequest__Output | null);
  'act'?: (_durak_v1_ActRequest__Output | null);
  'end'?: (_durak_v1_EndGameRequest__Output | null);
  'message'?: "start"|"act"|"end";
}

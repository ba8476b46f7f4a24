// Original file: durak/v1/bot.proto

import type { StartGameResponse as _durak_v1_StartGameResponse, StartGameResponse__Output as _durak_v1_StartGameResponse__Output } from '../../durak/v1/StartGameResponse';
import type { ActResponse as _durak_v1_ActResponse, ActResponse__Output as _durak_v1_ActResponse__Output } from '../../durak/v1/ActResponse';
import type { EndGameResponse as _durak_v1_EndGameResponse, EndGameResponse__Output as _durak_v1_EndGameResponse__Output } from '../../durak/v1/EndGameResponse';

export interface BotMessage {
  'started'?: (_durak_v1_StartGameResponse | null);
  'act'?: (_durak_v1_ActResponse | null);
  'ended'?: (_durak_v1_EndGameResponse | null);
  'message'?: "started"|"act"|"ended";
}

export interface BotMessage__Output {
  'started'?: (_durak_v1_StartGameResponse__Output | null);
  'act'?: (_durak_v1_ActResponse__Output | null);
  'ended'?: (_durak_v1_EndGameResponse__Output | null);
  'message'?: "started"|"act"|"ended";
}

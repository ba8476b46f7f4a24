// Original file: durak/v1/bot.proto

import type { Action as _durak_v1_Action, Action__Output as _durak_v1_Action__Output } from '../../durak/v1/Action';

export interface ActResponse {
  'action'?: (_durak_v1_Action | null);
}

export interface ActResponse__Output {
  'action': (_durak_v1_Action__Output | null);
}

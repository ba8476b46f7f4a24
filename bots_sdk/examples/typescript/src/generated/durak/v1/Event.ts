// Original file: durak/v1/bot.proto

import type { EventKind as _durak_v1_EventKind, EventKind__Output as _durak_v1_EventKind__Output } from '../../durak/v1/EventKind';
import type { Action as _durak_v1_Action, Action__Output as _durak_v1_Action__Output } from '../../durak/v1/Action';

export interface Event {
  'kind'?: (_durak_v1_EventKind);
  'seat'?: (number);
  'action'?: (_durak_v1_Action | null);
  'forced'?: (boolean);
  'count'?: (number);
  'turn_up'?: (boolean);
}

export interface Event__Output {
  'kind': (_durak_v1_EventKind__Output);
  'seat': (number);
  'action': (_durak_v1_Action__Output | null);
  'forced': (boolean);
  'count': (number);
  'turn_up': (boolean);
}

// Original file: durak/v1/bot.proto

import type { ActionKind as _durak_v1_ActionKind, ActionKind__Output as _durak_v1_ActionKind__Output } from '../../durak/v1/ActionKind';
import type { Card as _durak_v1_Card, Card__Output as _durak_v1_Card__Output } from '../../durak/v1/Card';

export interface Action {
  'kind'?: (_durak_v1_ActionKind);
  'card'?: (_durak_v1_Card | null);
  'target'?: (_durak_v1_Card | null);
  'text'?: (string);
}

export interface Action__Output {
  'kind': (_durak_v1_ActionKind__Output);
  'card': (_durak_v1_Card__Output | null);
  'target': (_durak_v1_Card__Output | null);
  'text': (string);
}

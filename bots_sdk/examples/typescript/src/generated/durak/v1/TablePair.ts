// Original file: durak/v1/bot.proto

import type { Card as _durak_v1_Card, Card__Output as _durak_v1_Card__Output } from '../../durak/v1/Card';

export interface TablePair {
  'attack'?: (_durak_v1_Card | null);
  'cover'?: (_durak_v1_Card | null);
}

export interface TablePair__Output {
  'attack': (_durak_v1_Card__Output | null);
  'cover': (_durak_v1_Card__Output | null);
}

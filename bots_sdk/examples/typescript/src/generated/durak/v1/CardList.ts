// Original file: durak/v1/bot.proto

import type { Card as _durak_v1_Card, Card__Output as _durak_v1_Card__Output } from '../../durak/v1/Card';

export interface CardList {
  'cards'?: (_durak_v1_Card)[];
}

export interface CardList__Output {
  'cards': (_durak_v1_Card__Output)[];
}

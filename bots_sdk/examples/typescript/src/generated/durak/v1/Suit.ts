// Original file: durak/v1/bot.proto

export const Suit = {
  SUIT_UNSPECIFIED: 0,
  SUIT_SPADES: 1,
  SUIT_HEARTS: 2,
  SUIT_DIAMONDS: 3,
  SUIT_CLUBS: 4,
} as const;

export type Suit =
  | 'SUIT_UNSPECIFIED'
  | 0
  | 'SUIT_SPADES'
  | 1
  | 'SUIT_HEARTS'
  | 2
  | 'SUIT_DIAMONDS'
  | 3
  | 'SUIT_CLUBS'
  | 4

export type Suit__Output = typeof Suit[keyof typeof Suit]

// Original file: durak/v1/bot.proto

export const Rank = {
  RANK_UNSPECIFIED: 0,
  RANK_TWO: 2,
  RANK_THREE: 3,
  RANK_FOUR: 4,
  RANK_FIVE: 5,
  RANK_SIX: 6,
  RANK_SEVEN: 7,
  RANK_EIGHT: 8,
  RANK_NINE: 9,
  RANK_TEN: 10,
  RANK_JACK: 11,
  RANK_QUEEN: 12,
  RANK_KING: 13,
  RANK_ACE: 14,
} as const;

export type Rank =
  | 'RANK_UNSPECIFIED'
  | 0
  | 'RANK_TWO'
  | 2
  | 'RANK_THREE'
  | 3
  | 'RANK_FOUR'
  | 4
  | 'RANK_FIVE'
  | 5
  | 'RANK_SIX'
  | 6
  | 'RANK_SEVEN'
  | 7
  | 'RANK_EIGHT'
  | 8
  | 'RANK_NINE'
  | 9
  | 'RANK_TEN'
  | 10
  | 'RANK_JACK'
  | 11
  | 'RANK_QUEEN'
  | 12
  | 'RANK_KING'
  | 13
  | 'RANK_ACE'
  | 14

export type Rank__Output = typeof Rank[keyof typeof Rank]

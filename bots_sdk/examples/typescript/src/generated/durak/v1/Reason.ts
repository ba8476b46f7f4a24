// Original file: durak/v1/bot.proto

export const Reason = {
  REASON_UNSPECIFIED: 0,
  REASON_NORMAL: 1,
  REASON_TIMEOUT: 2,
  REASON_CRASH: 3,
  REASON_ILLEGAL: 4,
  REASON_PROTOCOL: 5,
  REASON_PICKUP_LIMIT: 6,
  REASON_MAX_BOUTS: 7,
} as const;

export type Reason =
  | 'REASON_UNSPECIFIED'
  | 0
  | 'REASON_NORMAL'
  | 1
  | 'REASON_TIMEOUT'
  | 2
  | 'REASON_CRASH'
  | 3
  | 'REASON_ILLEGAL'
  | 4
  | 'REASON_PROTOCOL'
  | 5
  | 'REASON_PICKUP_LIMIT'
  | 6
  | 'REASON_MAX_BOUTS'
  | 7

export type Reason__Output = typeof Reason[keyof typeof Reason]

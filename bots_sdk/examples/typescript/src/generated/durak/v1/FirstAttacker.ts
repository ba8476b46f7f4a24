// Original file: durak/v1/bot.proto

export const FirstAttacker = {
  FIRST_ATTACKER_UNSPECIFIED: 0,
  FIRST_ATTACKER_LOWEST_TRUMP: 1,
  FIRST_ATTACKER_DEALER_LEFT: 2,
} as const;

export type FirstAttacker =
  | 'FIRST_ATTACKER_UNSPECIFIED'
  | 0
  | 'FIRST_ATTACKER_LOWEST_TRUMP'
  | 1
  | 'FIRST_ATTACKER_DEALER_LEFT'
  | 2

export type FirstAttacker__Output = typeof FirstAttacker[keyof typeof FirstAttacker]

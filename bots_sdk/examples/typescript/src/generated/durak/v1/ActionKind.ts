// Original file: durak/v1/bot.proto

export const ActionKind = {
  ACTION_KIND_UNSPECIFIED: 0,
  ACTION_KIND_ATTACK: 1,
  ACTION_KIND_DEFEND: 2,
  ACTION_KIND_TAKE: 3,
  ACTION_KIND_PASS: 4,
  ACTION_KIND_TRANSFER: 5,
  ACTION_KIND_EXCHANGE: 6,
} as const;

export type ActionKind =
  | 'ACTION_KIND_UNSPECIFIED'
  | 0
  | 'ACTION_KIND_ATTACK'
  | 1
  | 'ACTION_KIND_DEFEND'
  | 2
  | 'ACTION_KIND_TAKE'
  | 3
  | 'ACTION_KIND_PASS'
  | 4
  | 'ACTION_KIND_TRANSFER'
  | 5
  | 'ACTION_KIND_EXCHANGE'
  | 6

export type ActionKind__Output = typeof ActionKind[keyof typeof ActionKind]

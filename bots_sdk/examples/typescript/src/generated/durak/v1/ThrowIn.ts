// Original file: durak/v1/bot.proto

export const ThrowIn = {
  THROW_IN_UNSPECIFIED: 0,
  THROW_IN_ALL: 1,
  THROW_IN_NEIGHBOURS: 2,
} as const;

export type ThrowIn =
  | 'THROW_IN_UNSPECIFIED'
  | 0
  | 'THROW_IN_ALL'
  | 1
  | 'THROW_IN_NEIGHBOURS'
  | 2

export type ThrowIn__Output = typeof ThrowIn[keyof typeof ThrowIn]

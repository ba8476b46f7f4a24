// Original file: durak/v1/bot.proto

export const EventKind = {
  EVENT_KIND_UNSPECIFIED: 0,
  EVENT_KIND_ACTION: 1,
  EVENT_KIND_DRAW: 2,
} as const;

export type EventKind =
  | 'EVENT_KIND_UNSPECIFIED'
  | 0
  | 'EVENT_KIND_ACTION'
  | 1
  | 'EVENT_KIND_DRAW'
  | 2

export type EventKind__Output = typeof EventKind[keyof typeof EventKind]

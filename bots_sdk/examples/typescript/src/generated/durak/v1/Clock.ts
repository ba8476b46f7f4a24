// Original file: durak/v1/bot.proto


export interface Clock {
  'move_ms'?: (number);
  'bank_ms'?: (number);
}

export interface Clock__Output {
  'move_ms': (number);
  'bank_ms': (number);
}

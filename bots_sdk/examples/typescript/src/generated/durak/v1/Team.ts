// Original file: durak/v1/bot.proto


export interface Team {
  'seats'?: (number)[];
}

export interface Team__Output {
  'seats': (number)[];
}

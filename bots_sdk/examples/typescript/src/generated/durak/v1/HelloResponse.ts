// Original file: durak/v1/bot.proto


export interface HelloResponse {
  'name'?: (string);
  'version'?: (string);
  'sdk'?: (string);
  'play'?: (boolean);
}

export interface HelloResponse__Output {
  'name': (string);
  'version': (string);
  'sdk': (string);
  'play': (boolean);
}

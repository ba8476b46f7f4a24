// Original file: durak/v1/bot.proto


export interface HelloRequest {
  'protocol'?: (string);
  'referee_version'?: (string);
}

export interface HelloRequest__Output {
  'protocol': (string);
  'referee_version': (string);
}

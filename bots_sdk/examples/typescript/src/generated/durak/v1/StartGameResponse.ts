// Original file: durak/v1/bot.proto


export interface StartGameResponse {
}

export interface StartGameResponse__Output {
}

// Original file: durak/v1/bot.proto


export interface EndGameResponse {
}

export interface EndGameResponse__Output {
}

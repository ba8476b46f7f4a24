import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ActRequest as _durak_v1_ActRequest, ActRequest__Output as _durak_v1_ActRequest__Output } from './durak/v1/ActRequest';
import type { ActResponse as _durak_v1_ActResponse, ActResponse__Output as _durak_v1_ActResponse__Output } from './durak/v1/ActResponse';
import type { Action as _durak_v1_Action, Action__Output as _durak_v1_Action__Output } from './durak/v1/Action';
import type { BotClient as _durak_v1_BotClient, BotDefinition as _durak_v1_BotDefinition } from './durak/v1/Bot';
import type { BotMessage as _durak_v1_BotMessage, BotMessage__Output as _durak_v1_BotMessage__Output } from './durak/v1/BotMessage';
import type { Card as _durak_v1_Card, Card__Output as _durak_v1_Card__Output } from './durak/v1/Card';
import type { CardList as _durak_v1_CardList, CardList__Output as _durak_v1_CardList__Output } from './durak/v1/CardList';
import type { Clock as _durak_v1_Clock, Clock__Output as _durak_v1_Clock__Output } from './durak/v1/Clock';
import type { EndGameRequest as _durak_v1_EndGameRequest, EndGameRequest__Output as _durak_v1_EndGameRequest__Output } from './durak/v1/EndGameRequest';
import type { EndGameResponse as _durak_v1_EndGameResponse, EndGameResponse__Output as _durak_v1_EndGameResponse__Output } from './durak/v1/EndGameResponse';
import type { Event as _durak_v1_Event, Event__Output as _durak_v1_Event__Output } from './durak/v1/Event';
import type { HelloRequest as _durak_v1_HelloRequest, HelloRequest__Output as _durak_v1_HelloRequest__Output } from './durak/v1/HelloRequest';
import type { HelloResponse as _durak_v1_HelloResponse, HelloResponse__Output as _durak_v1_HelloResponse__Output } from './durak/v1/HelloResponse';
import type { Observation as _durak_v1_Observation, Observation__Output as _durak_v1_Observation__Output } from './durak/v1/Observation';
import type { Outcome as _durak_v1_Outcome, Outcome__Output as _durak_v1_Outcome__Output } from './durak/v1/Outcome';
import type { RefereeMessage as _durak_v1_RefereeMessage, RefereeMessage__Output as _durak_v1_RefereeMessage__Output } from './durak/v1/RefereeMessage';
import type { Rules as _durak_v1_Rules, Rules__Output as _durak_v1_Rules__Output } from './durak/v1/Rules';
import type { StartGameRequest as _durak_v1_StartGameRequest, StartGameRequest__Output as _durak_v1_StartGameRequest__Output } from './durak/v1/StartGameRequest';
import type { StartGameResponse as _durak_v1_StartGameResponse, StartGameResponse__Output as _durak_v1_StartGameResponse__Output } from './durak/v1/StartGameResponse';
import type { TablePair as _durak_v1_TablePair, TablePair__Output as _durak_v1_TablePair__Output } from './durak/v1/TablePair';
import type { Team as _durak_v1_Team, Team__Output as _durak_v1_Team__Output } from './durak/v1/Team';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  durak: {
    v1: {
      ActRequest: MessageTypeDefinition<_durak_v1_ActRequest, _durak_v1_ActRequest__Output>
      ActResponse: MessageTypeDefinition<_durak_v1_ActResponse, _durak_v1_ActResponse__Output>
      Action: MessageTypeDefinition<_durak_v1_Action, _durak_v1_Action__Output>
      ActionKind: EnumTypeDefinition
      Bot: SubtypeConstructor<typeof grpc.Client, _durak_v1_BotClient> & { service: _durak_v1_BotDefinition }
      BotMessage: MessageTypeDefinition<_durak_v1_BotMessage, _durak_v1_BotMessage__Output>
      Card: MessageTypeDefinition<_durak_v1_Card, _durak_v1_Card__Output>
      CardList: MessageTypeDefinition<_durak_v1_CardList, _durak_v1_CardList__Output>
      Clock: MessageTypeDefinition<_durak_v1_Clock, _durak_v1_Clock__Output>
      EndGameRequest: MessageTypeDefinition<_durak_v1_EndGameRequest, _durak_v1_EndGameRequest__Output>
      EndGameResponse: MessageTypeDefinition<_durak_v1_EndGameResponse, _durak_v1_EndGameResponse__Output>
      Event: MessageTypeDefinition<_durak_v1_Event, _durak_v1_Event__Output>
      EventKind: EnumTypeDefinition
      FirstAttacker: EnumTypeDefinition
      HelloRequest: MessageTypeDefinition<_durak_v1_HelloRequest, _durak_v1_HelloRequest__Output>
      HelloResponse: MessageTypeDefinition<_durak_v1_HelloResponse, _durak_v1_HelloResponse__Output>
      Observation: MessageTypeDefinition<_durak_v1_Observation, _durak_v1_Observation__Output>
      Outcome: MessageTypeDefinition<_durak_v1_Outcome, _durak_v1_Outcome__Output>
      Rank: EnumTypeDefinition
      Reason: EnumTypeDefinition
      RefereeMessage: MessageTypeDefinition<_durak_v1_RefereeMessage, _durak_v1_RefereeMessage__Output>
      Rules: MessageTypeDefinition<_durak_v1_Rules, _durak_v1_Rules__Output>
      StartGameRequest: MessageTypeDefinition<_durak_v1_StartGameRequest, _durak_v1_StartGameRequest__Output>
      StartGameResponse: MessageTypeDefinition<_durak_v1_StartGameResponse, _durak_v1_StartGameResponse__Output>
      Suit: EnumTypeDefinition
      TablePair: MessageTypeDefinition<_durak_v1_TablePair, _durak_v1_TablePair__Output>
      Team: MessageTypeDefinition<_durak_v1_Team, _durak_v1_Team__Output>
      ThrowIn: EnumTypeDefinition
    }
  }
}


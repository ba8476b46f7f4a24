// Original file: durak/v1/bot.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ActRequest as _durak_v1_ActRequest, ActRequest__Output as _durak_v1_ActRequest__Output } from '../../durak/v1/ActRequest';
import type { ActResponse as _durak_v1_ActResponse, ActResponse__Output as _durak_v1_ActResponse__Output } from '../../durak/v1/ActResponse';
import type { BotMessage as _durak_v1_BotMessage, BotMessage__Output as _durak_v1_BotMessage__Output } from '../../durak/v1/BotMessage';
import type { EndGameRequest as _durak_v1_EndGameRequest, EndGameRequest__Output as _durak_v1_EndGameRequest__Output } from '../../durak/v1/EndGameRequest';
import type { EndGameResponse as _durak_v1_EndGameResponse, EndGameResponse__Output as _durak_v1_EndGameResponse__Output } from '../../durak/v1/EndGameResponse';
import type { HelloRequest as _durak_v1_HelloRequest, HelloRequest__Output as _durak_v1_HelloRequest__Output } from '../../durak/v1/HelloRequest';
import type { HelloResponse as _durak_v1_HelloResponse, HelloResponse__Output as _durak_v1_HelloResponse__Output } from '../../durak/v1/HelloResponse';
import type { RefereeMessage as _durak_v1_RefereeMessage, RefereeMessage__Output as _durak_v1_RefereeMessage__Output } from '../../durak/v1/RefereeMessage';
import type { StartGameRequest as _durak_v1_StartGameRequest, StartGameRequest__Output as _durak_v1_StartGameRequest__Output } from '../../durak/v1/StartGameRequest';
import type { StartGameResponse as _durak_v1_StartGameResponse, StartGameResponse__Output as _durak_v1_StartGameResponse__Output } from '../../durak/v1/StartGameResponse';

export interface BotClient extends grpc.Client {
  Act(argument: _durak_v1_ActRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  Act(argument: _durak_v1_ActRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  Act(argument: _durak_v1_ActRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  Act(argument: _durak_v1_ActRequest, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  act(argument: _durak_v1_ActRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  act(argument: _durak_v1_ActRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  act(argument: _durak_v1_ActRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  act(argument: _durak_v1_ActRequest, callback: grpc.requestCallback<_durak_v1_ActResponse__Output>): grpc.ClientUnaryCall;
  
  EndGame(argument: _durak_v1_EndGameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  EndGame(argument: _durak_v1_EndGameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  EndGame(argument: _durak_v1_EndGameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  EndGame(argument: _durak_v1_EndGameRequest, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  endGame(argument: _durak_v1_EndGameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  endGame(argument: _durak_v1_EndGameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  endGame(argument: _durak_v1_EndGameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  endGame(argument: _durak_v1_EndGameRequest, callback: grpc.requestCallback<_durak_v1_EndGameResponse__Output>): grpc.ClientUnaryCall;
  
  Hello(argument: _durak_v1_HelloRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  Hello(argument: _durak_v1_HelloRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  Hello(argument: _durak_v1_HelloRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  Hello(argument: _durak_v1_HelloRequest, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  hello(argument: _durak_v1_HelloRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  hello(argument: _durak_v1_HelloRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  hello(argument: _durak_v1_HelloRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  hello(argument: _durak_v1_HelloRequest, callback: grpc.requestCallback<_durak_v1_HelloResponse__Output>): grpc.ClientUnaryCall;
  
  Play(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_durak_v1_RefereeMessage, _durak_v1_BotMessage__Output>;
  Play(options?: grpc.CallOptions): grpc.ClientDuplexStream<_durak_v1_RefereeMessage, _durak_v1_BotMessage__Output>;
  play(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_durak_v1_RefereeMessage, _durak_v1_BotMessage__Output>;
  play(options?: grpc.CallOptions): grpc.ClientDuplexStream<_durak_v1_RefereeMessage, _durak_v1_BotMessage__Output>;
  
  StartGame(argument: _durak_v1_StartGameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  StartGame(argument: _durak_v1_StartGameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  StartGame(argument: _durak_v1_StartGameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  StartGame(argument: _durak_v1_StartGameRequest, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  startGame(argument: _durak_v1_StartGameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  startGame(argument: _durak_v1_StartGameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  startGame(argument: _durak_v1_StartGameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  startGame(argument: _durak_v1_StartGameRequest, callback: grpc.requestCallback<_durak_v1_StartGameResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface BotHandlers extends grpc.UntypedServiceImplementation {
  Act: grpc.handleUnaryCall<_durak_v1_ActRequest__Output, _durak_v1_ActResponse>;
  
  EndGame: grpc.handleUnaryCall<_durak_v1_EndGameRequest__Output, _durak_v1_EndGameResponse>;
  
  Hello: grpc.handleUnaryCall<_durak_v1_HelloRequest__Output, _durak_v1_HelloResponse>;
  
  Play: grpc.handleBidiStreamingCall<_durak_v1_RefereeMessage__Output, _durak_v1_BotMessage>;
  
  StartGame: grpc.handleUnaryCall<_durak_v1_StartGameRequest__Output, _durak_v1_StartGameResponse>;
  
}

export interface BotDefinition extends grpc.ServiceDefinition {
  Act: MethodDefinition<_durak_v1_ActRequest, _durak_v1_ActResponse, _durak_v1_ActRequest__Output, _durak_v1_ActResponse__Output>
  EndGame: MethodDefinition<_durak_v1_EndGameRequest, _durak_v1_EndGameResponse, _durak_v1_EndGameRequest__Output, _durak_v1_EndGameResponse__Output>
  Hello: MethodDefinition<_durak_v1_HelloRequest, _durak_v1_HelloResponse, _durak_v1_HelloRequest__Output, _durak_v1_HelloResponse__Output>
  Play: MethodDefinition<_durak_v1_RefereeMessage, _durak_v1_BotMessage, _durak_v1_RefereeMessage__Output, _durak_v1_BotMessage__Output>
  StartGame: MethodDefinition<_durak_v1_StartGameRequest, _durak_v1_StartGameResponse, _durak_v1_StartGameRequest__Output, _durak_v1_StartGameResponse__Output>
}

// typescript-example: a Durak Arena bot in TypeScript, the starter kit of `durak new NAME --lang typescript`.
//
// A bot is a gRPC server for `service Bot` of proto/durak/v1/bot.proto plus the standard health service
// (proto/grpc/health/v1/health.proto). It listens on $DURAK_BOT_ADDRESS (a unix socket path, or host:port),
// reports SERVING once ready, answers each decision with one of observation.legal_actions, and exits cleanly
// on SIGTERM. It offers the Play stream (one stream per game, the fast path) and the unary calls too.
//
// The types under src/generated/ are made from ./proto by @grpc/proto-loader's proto-loader-gen-types
// (`python proto/generate.py` in the repository); the same .proto files are loaded at start-up. The arena
// compiles this file with tsc (`npm run build`) into dist/bot.js and runs `node dist/bot.js`. See README.md.

import * as fs from "fs";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import type { ProtoGrpcType as BotProto } from "./generated/bot";
import type { ProtoGrpcType as HealthProto } from "./generated/health";
import type { Action__Output } from "./generated/durak/v1/Action";
import { ActionKind } from "./generated/durak/v1/ActionKind";
import type { ActRequest__Output } from "./generated/durak/v1/ActRequest";
import type { ActResponse } from "./generated/durak/v1/ActResponse";
import type { BotHandlers } from "./generated/durak/v1/Bot";
import type { Observation__Output } from "./generated/durak/v1/Observation";
import type { Rules__Output } from "./generated/durak/v1/Rules";
import type { HealthHandlers } from "./generated/grpc/health/v1/Health";
import type { HealthCheckRequest__Output } from "./generated/grpc/health/v1/HealthCheckRequest";
import type { HealthCheckResponse } from "./generated/grpc/health/v1/HealthCheckResponse";
import {
  _grpc_health_v1_HealthCheckResponse_ServingStatus as ServingStatus,
  type _grpc_health_v1_HealthCheckResponse_ServingStatus__Output as Status,
} from "./generated/grpc/health/v1/HealthCheckResponse";

const NAME = "typescript-example";
const VERSION = "1";
const SERVICE_NAME = "durak.v1.Bot";
const GRPC_JS_VERSION: string = require("@grpc/grpc-js/package.json").version;

// ---------------------------------------------------------------- the contract

// Enums as numbers, both ways (as the generated types say): a Rank is its face value, a Suit 1..4.
const LOADER_OPTIONS = { keepCase: true, longs: Number, enums: Number, defaults: true, oneofs: true };

function loadContract(): BotProto & HealthProto {
  const dir = path.join(__dirname, "..", "proto"); // dist/bot.js -> ./proto
  const files = [path.join("durak", "v1", "bot.proto"), path.join("grpc", "health", "v1", "health.proto")];
  for (const file of files) {
    if (!fs.existsSync(path.join(dir, file))) {
      console.error(`${NAME}: ${path.join(dir, file)} not found: copy the repository's proto/ folder into the ` +
        "bot folder as ./proto (`durak new NAME --lang typescript` does)");
      process.exit(2);
    }
  }
  const definition = protoLoader.loadSync(files, { includeDirs: [dir], ...LOADER_OPTIONS });
  return grpc.loadPackageDefinition(definition) as unknown as BotProto & HealthProto;
}

// ---------------------------------------------------------------- the strategy

// How much an action gives away: low cards are cheap, trumps dear, taking the table dearest.
function cost(action: Action__Output, observation: Observation__Output): number {
  if (!action.card) { // take, pass or exchange
    switch (action.kind) {
      case ActionKind.ACTION_KIND_TAKE: return 60;
      case ActionKind.ACTION_KIND_PASS: return 40;
      case ActionKind.ACTION_KIND_EXCHANGE: return 0;
      default: return 50;
    }
  }
  return action.card.rank + (action.card.suit === observation.trump ? 20 : 0);
}

// One of observation.legal_actions: the cheapest (the first of equals). Replace it with your own.
function chooseAction(observation: Observation__Output): Action__Output {
  let best = observation.legal_actions[0];
  for (const action of observation.legal_actions) {
    if (cost(action, observation) < cost(best, observation)) best = action;
  }
  return best;
}

// ---------------------------------------------------------------- the services

const games = new Map<string, { seat: number; rules: Rules__Output | null }>();

// The answer to one decision: a copy of a legal action (kind, card, target and text, exactly as sent), or
// null if there is nothing to choose from. request.clock.move_ms is the time left; this bot answers at once.
function act(request: ActRequest__Output): ActResponse | null {
  const observation = request.observation;
  if (!observation || observation.legal_actions.length === 0) return null;
  const chosen = chooseAction(observation);
  return { action: { kind: chosen.kind, card: chosen.card, target: chosen.target, text: chosen.text } };
}

const NO_ACTIONS = { code: grpc.status.INVALID_ARGUMENT, details: "no legal actions to choose from" };

const botService: BotHandlers = {
  Hello(_call, callback) {
    // play: true offers the Play stream; the referee then uses it instead of StartGame/Act/EndGame.
    callback(null, { name: NAME, version: VERSION, sdk: `grpc-js ${GRPC_JS_VERSION}`, play: true });
  },
  StartGame(call, callback) {
    games.set(call.request.game_id, { seat: call.request.seat, rules: call.request.rules });
    callback(null, {});
  },
  Act(call, callback) {
    const answer = act(call.request);
    if (answer === null) callback(NO_ACTIONS);
    else callback(null, answer);
  },
  EndGame(call, callback) {
    games.delete(call.request.game_id);
    callback(null, {});
  },
  // One game on one stream: each referee message (start, act, end) answered in order (started, act, ended).
  Play(call) {
    call.on("data", (message) => {
      if (message.start) {
        games.set(message.start.game_id, { seat: message.start.seat, rules: message.start.rules });
        call.write({ started: {} });
      } else if (message.act) {
        const answer = act(message.act);
        if (answer === null) call.destroy(Object.assign(new Error(NO_ACTIONS.details), NO_ACTIONS));
        else call.write({ act: answer });
      } else if (message.end) {
        games.delete(message.end.game_id);
        call.write({ ended: {} });
      }
    });
    call.on("end", () => call.end()); // the referee closed its side: close ours
    call.on("error", () => {}); // a cancelled stream (the referee's deadline) needs no answer
  },
};

const watchers = new Set<grpc.ServerWritableStream<HealthCheckRequest__Output, HealthCheckResponse>>();
let status: Status = ServingStatus.NOT_SERVING; // SERVING once listening, NOT_SERVING again while stopping

function known(service: string): boolean {
  return service === "" || service === SERVICE_NAME;
}

const healthService: HealthHandlers = {
  Check(call, callback) {
    const { service } = call.request;
    if (!known(service)) {
      callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${JSON.stringify(service)}` });
      return;
    }
    callback(null, { status });
  },
  Watch(call) {
    // Send the status now, then keep the stream open until the client cancels or the server stops.
    call.write({ status: known(call.request.service) ? status : ServingStatus.SERVICE_UNKNOWN });
    watchers.add(call);
    const forget = () => watchers.delete(call);
    call.on("cancelled", forget);
    call.on("close", forget);
    call.on("error", forget);
  },
};

// ---------------------------------------------------------------- serving

// A gRPC target for a DURAK_BOT_ADDRESS value: "unix:" for a socket path, else host:port as is.
function grpcTarget(address: string): string {
  if (address.startsWith("unix:")) return address;
  if (address.includes("/") || address.endsWith(".sock") || !address.includes(":")) {
    return `unix:${path.resolve(address)}`;
  }
  return address;
}

function main(): void {
  const address = process.env.DURAK_BOT_ADDRESS;
  if (!address) {
    console.error("DURAK_BOT_ADDRESS is not set: it is the address to listen on (a unix socket path or " +
      "host:port). The arena, `durak check` and `durak play` set it.");
    process.exit(2);
  }
  const contract = loadContract();
  const target = grpcTarget(address);
  if (target.startsWith("unix:") && fs.existsSync(target.slice(5))) fs.unlinkSync(target.slice(5)); // stale socket

  const server = new grpc.Server();
  server.addService(contract.durak.v1.Bot.service, botService);
  server.addService(contract.grpc.health.v1.Health.service, healthService);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    status = ServingStatus.NOT_SERVING;
    for (const call of watchers) { call.write({ status }); call.end(); }
    watchers.clear();
    const force = setTimeout(() => { server.forceShutdown(); process.exit(0); }, 1500);
    server.tryShutdown(() => {
      clearTimeout(force);
      console.error(`${NAME}: stopped (${signal})`);
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  server.bindAsync(target, grpc.ServerCredentials.createInsecure(), (error) => {
    if (error) {
      console.error(`${NAME}: cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
    status = ServingStatus.SERVING; // ready: load anything slow (tables, models) before this point
    console.error(`${NAME} ${VERSION} serving on ${address}`);
  });
}

main();

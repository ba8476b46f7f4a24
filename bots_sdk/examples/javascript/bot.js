// javascript-example: a Durak Arena bot in JavaScript (Node.js), the starter kit of `durak new NAME --lang javascript`.
//
// A bot is a gRPC server for `service Bot` of proto/durak/v1/bot.proto plus the standard health
// service (proto/grpc/health/v1/health.proto). It listens on $DURAK_BOT_ADDRESS (a unix socket
// path, or host:port), reports SERVING once ready, answers each decision with one of
// observation.legal_actions, and exits cleanly on SIGTERM. It offers the Play stream (one stream per
// game, the fast path) and the unary calls too. See README.md.
//
// Environment:
//   DURAK_BOT_ADDRESS  where to listen (set by the arena, `durak check` and `durak play`)
//
// The contract is loaded at start-up from ./proto, a copy of the repository's proto/ folder (written by
// `python proto/generate.py`), with @grpc/proto-loader: grpc-js's own code generation, done at run time.

"use strict";

const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const NAME = "javascript-example";
const VERSION = "1";
const SERVICE_NAME = "durak.v1.Bot";
const GRPC_JS_VERSION = require(path.join(path.dirname(require.resolve("@grpc/grpc-js")), "..", "..", "package.json")).version;

// ---------------------------------------------------------------- the contract

function loadContract() {
  const dir = path.join(__dirname, "proto");
  const files = [path.join("durak", "v1", "bot.proto"), path.join("grpc", "health", "v1", "health.proto")];
  for (const file of files) {
    if (!fs.existsSync(path.join(dir, file))) {
      console.error(`${NAME}: ${path.join(dir, file)} not found: copy the repository's proto/ folder next to ` +
        "bot.js as ./proto (`durak new NAME --lang javascript` does)");
      process.exit(2);
    }
  }
  // Enums as numbers, both ways: a Rank is its face value (6..14), a Suit 1..4, an ActionKind 1..6.
  const definition = protoLoader.loadSync(files, {
    includeDirs: [dir], keepCase: true, longs: Number, enums: Number, defaults: true, oneofs: true,
  });
  return grpc.loadPackageDefinition(definition);
}

const contract = loadContract();
const durak = contract.durak.v1;
const health = contract.grpc.health.v1;
// Enum numbers from the proto files.
const ActionKind = { ATTACK: 1, DEFEND: 2, TAKE: 3, PASS: 4, TRANSFER: 5, EXCHANGE: 6 };
const ServingStatus = { SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 };

// ---------------------------------------------------------------- the strategy

// How much an action gives away: low cards are cheap, trumps dear, taking the table dearest.
function cost(action, observation) {
  if (!action.card) { // take, pass or exchange
    if (action.kind === ActionKind.TAKE) return 60;
    if (action.kind === ActionKind.PASS) return 40;
    if (action.kind === ActionKind.EXCHANGE) return 0;
    return 50;
  }
  return action.card.rank + (action.card.suit === observation.trump ? 20 : 0);
}

// One of observation.legal_actions: the cheapest (the first of equals).
function chooseAction(observation) {
  let best = observation.legal_actions[0];
  for (const action of observation.legal_actions) {
    if (cost(action, observation) < cost(best, observation)) best = action;
  }
  return best;
}

// ---------------------------------------------------------------- the services

const games = new Map(); // game_id -> { seat, rules }

// The answer to one decision: a copy of a legal action (kind, card, target and text, exactly as sent),
// or null if there is nothing to choose from.
function act(request) {
  const { observation } = request;
  // request.clock.move_ms is the time left for this decision; this bot answers at once.
  if (!observation || observation.legal_actions.length === 0) return null;
  const chosen = chooseAction(observation);
  return { action: { kind: chosen.kind, card: chosen.card, target: chosen.target, text: chosen.text } };
}

const botService = {
  Hello(call, callback) {
    // play: true offers the Play stream; the referee then uses it instead of StartGame/Act/EndGame.
    callback(null, { name: NAME, version: VERSION, sdk: `grpc-js ${GRPC_JS_VERSION}`, play: true });
  },
  StartGame(call, callback) {
    const { game_id, seat, rules } = call.request;
    games.set(game_id, { seat, rules });
    callback(null, {});
  },
  Act(call, callback) {
    const answer = act(call.request);
    if (answer === null) {
      callback({ code: grpc.status.INVALID_ARGUMENT, details: "no legal actions to choose from" });
      return;
    }
    callback(null, answer);
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
        if (answer === null) {
          call.emit("error", { code: grpc.status.INVALID_ARGUMENT, details: "no legal actions to choose from" });
          return;
        }
        call.write({ act: answer });
      } else if (message.end) {
        games.delete(message.end.game_id);
        call.write({ ended: {} });
      }
    });
    call.on("end", () => call.end()); // the referee closed its side: close ours
    call.on("error", () => {}); // a cancelled stream (the referee's deadline) needs no answer
  },
};

const watchers = new Set();
let status = ServingStatus.NOT_SERVING; // SERVING once listening, NOT_SERVING again while stopping

function statusOf(service) {
  return service === "" || service === SERVICE_NAME ? status : ServingStatus.SERVICE_UNKNOWN;
}

const healthService = {
  Check(call, callback) {
    const { service } = call.request;
    if (service !== "" && service !== SERVICE_NAME) {
      callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${JSON.stringify(service)}` });
      return;
    }
    callback(null, { status });
  },
  Watch(call) {
    // Send the status now, then keep the stream open until the client cancels or the server stops.
    call.write({ status: statusOf(call.request.service) });
    watchers.add(call);
    const forget = () => watchers.delete(call);
    call.on("cancelled", forget);
    call.on("close", forget);
    call.on("error", forget);
  },
};

// ---------------------------------------------------------------- serving

// A gRPC target for a DURAK_BOT_ADDRESS value: "unix:" for a socket path, else host:port as is.
function grpcTarget(address) {
  if (address.startsWith("unix:")) return address;
  if (address.includes("/") || address.endsWith(".sock") || !address.includes(":")) {
    return `unix:${path.resolve(address)}`;
  }
  return address;
}

function main() {
  const address = process.env.DURAK_BOT_ADDRESS;
  if (!address) {
    console.error("DURAK_BOT_ADDRESS is not set: it is the address to listen on (a unix socket path or host:port). " +
      "The arena, `durak check` and `durak play` set it.");
    process.exit(2);
  }
  const target = grpcTarget(address);
  if (target.startsWith("unix:") && fs.existsSync(target.slice(5))) fs.unlinkSync(target.slice(5)); // stale socket

  const server = new grpc.Server();
  server.addService(durak.Bot.service, botService);
  server.addService(health.Health.service, healthService);

  let stopping = false;
  const stop = (signal) => {
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

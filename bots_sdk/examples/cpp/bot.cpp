// cpp-example: a Durak Arena bot in C++, built by the arena from these sources (see README.md).
//
// A bot is a gRPC server for `service Bot` of proto/durak/v1/bot.proto plus the standard health service
// (gRPC's own, grpc::EnableDefaultHealthCheckService). It listens on $DURAK_BOT_ADDRESS (a unix socket path, or
// host:port), reports SERVING once ready, answers each decision with one of observation.legal_actions, and
// exits cleanly on SIGTERM. It offers the Play stream (one stream per game, the fast path) and the unary calls.
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "durak/v1/bot.grpc.pb.h"
#include "strategy.h"

namespace {

const char kName[] = "cpp-example";
const char kVersion[] = "1";
const char kServiceName[] = "durak.v1.Bot";

using durak::v1::ActRequest;
using durak::v1::ActResponse;

// The answer to one decision: a copy of a legal action (kind, card, target and text, exactly as sent).
// request.clock().move_ms() is the time left for this decision; this bot answers at once.
grpc::Status Act(const ActRequest& request, ActResponse* response) {
  if (request.observation().legal_actions_size() == 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no legal actions to choose from");
  }
  *response->mutable_action() = ChooseAction(request.observation());
  return grpc::Status::OK;
}

class Bot final : public durak::v1::Bot::Service {
 public:
  grpc::Status Hello(grpc::ServerContext*, const durak::v1::HelloRequest*,
                     durak::v1::HelloResponse* response) override {
    response->set_name(kName);
    response->set_version(kVersion);
    response->set_sdk(std::string("grpc++ ") + grpc::Version());
    response->set_play(true);  // offers the Play stream; the referee then uses it instead of the unary calls
    return grpc::Status::OK;
  }

  grpc::Status StartGame(grpc::ServerContext*, const durak::v1::StartGameRequest* request,
                         durak::v1::StartGameResponse*) override {
    Start(*request);
    return grpc::Status::OK;
  }

  grpc::Status Act(grpc::ServerContext*, const ActRequest* request, ActResponse* response) override {
    return ::Act(*request, response);
  }

  grpc::Status EndGame(grpc::ServerContext*, const durak::v1::EndGameRequest* request,
                       durak::v1::EndGameResponse*) override {
    End(*request);
    return grpc::Status::OK;
  }

  // One game on one stream: each referee message (start, act, end) answered in order (started, act, ended),
  // until the referee closes its side.
  grpc::Status Play(grpc::ServerContext*,
                    grpc::ServerReaderWriter<durak::v1::BotMessage, durak::v1::RefereeMessage>* stream) override {
    durak::v1::RefereeMessage message;
    while (stream->Read(&message)) {
      durak::v1::BotMessage answer;
      switch (message.message_case()) {
        case durak::v1::RefereeMessage::kStart:
          Start(message.start());
          answer.mutable_started();
          break;
        case durak::v1::RefereeMessage::kAct: {
          grpc::Status status = ::Act(message.act(), answer.mutable_act());
          if (!status.ok()) return status;
          break;
        }
        case durak::v1::RefereeMessage::kEnd:
          End(message.end());
          answer.mutable_ended();
          break;
        default:
          return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "an empty referee message");
      }
      if (!stream->Write(answer)) break;  // the referee went away
    }
    return grpc::Status::OK;
  }

 private:
  struct Game {
    int seat;
    durak::v1::Rules rules;
  };

  void Start(const durak::v1::StartGameRequest& request) {
    std::lock_guard<std::mutex> lock(mutex_);
    games_[request.game_id()] = Game{request.seat(), request.rules()};
  }

  void End(const durak::v1::EndGameRequest& request) {
    std::lock_guard<std::mutex> lock(mutex_);
    games_.erase(request.game_id());
  }

  std::mutex mutex_;
  std::map<std::string, Game> games_;  // game_id -> what the bot keeps of it
};

// A gRPC address for a DURAK_BOT_ADDRESS value: "unix:" for a socket path (one with a "/", or no ":"),
// else host:port as is.
std::string ListenAddress(const std::string& address) {
  if (address.rfind("unix:", 0) == 0) return address;
  bool is_path = address.find('/') != std::string::npos || address.find(':') == std::string::npos ||
                 (address.size() > 5 && address.compare(address.size() - 5, 5, ".sock") == 0);
  if (!is_path) return address;
  std::filesystem::path path = std::filesystem::absolute(address);
  std::error_code ignored;
  std::filesystem::remove(path, ignored);  // a stale socket of an earlier run
  return "unix:" + path.string();
}

}  // namespace

int main() {
  const char* address = std::getenv("DURAK_BOT_ADDRESS");
  if (address == nullptr || *address == '\0') {
    std::cerr << "DURAK_BOT_ADDRESS is not set: it is the address to listen on (a unix socket path or "
                 "host:port). The arena, `durak check` and `durak play` set it." << std::endl;
    return 2;
  }
  // SIGTERM and SIGINT are taken by one thread (below) with sigwait: block them before gRPC starts its threads.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  grpc::EnableDefaultHealthCheckService(true);
  Bot bot;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(ListenAddress(address), grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&bot);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::cerr << kName << ": cannot listen on " << address << std::endl;
    return 1;
  }
  // Ready: load anything slow (tables, models) before this point.
  grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService();
  health->SetServingStatus("", true);
  health->SetServingStatus(kServiceName, true);
  std::cerr << kName << " " << kVersion << " serving on " << address << std::endl;

  std::thread stopper([&] {
    int received = 0;
    sigwait(&stop_signals, &received);
    health->Shutdown();  // NOT_SERVING, to every watcher
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(1500));
    std::cerr << kName << ": stopped (signal " << received << ")" << std::endl;
  });
  server->Wait();
  stopper.join();
  return 0;
}

// go-example: a Durak Arena bot in Go, built by the arena from these sources (see README.md).
//
// A bot is a gRPC server for `service Bot` of proto/durak/v1/bot.proto plus the standard health service. It
// listens on $DURAK_BOT_ADDRESS (a unix socket path, or host:port), reports SERVING once ready, answers each
// decision with one of observation.legal_actions, and exits cleanly on SIGTERM. It offers the Play stream (one
// stream per game, the fast path) and the unary calls too.
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	pb "durak/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

const (
	name        = "go-example"
	version     = "1"
	serviceName = "durak.v1.Bot"
)

// game is what the bot keeps of one game between its calls.
type game struct {
	seat  int32
	rules *pb.Rules
}

type bot struct {
	pb.UnimplementedBotServer
	mu    sync.Mutex
	games map[string]game
}

func (b *bot) start(request *pb.StartGameRequest) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.games[request.GetGameId()] = game{seat: request.GetSeat(), rules: request.GetRules()}
}

func (b *bot) end(request *pb.EndGameRequest) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.games, request.GetGameId())
}

// act answers one decision with a copy of a legal action (kind, card, target and text, exactly as sent).
// request.Clock.MoveMs is the time left for this decision; this bot answers at once.
func act(request *pb.ActRequest) (*pb.ActResponse, error) {
	observation := request.GetObservation()
	if len(observation.GetLegalActions()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "no legal actions to choose from")
	}
	chosen := chooseAction(observation)
	return &pb.ActResponse{Action: &pb.Action{
		Kind: chosen.GetKind(), Card: chosen.GetCard(), Target: chosen.GetTarget(), Text: chosen.GetText(),
	}}, nil
}

func (b *bot) Hello(ctx context.Context, request *pb.HelloRequest) (*pb.HelloResponse, error) {
	// Play: true offers the Play stream; the referee then uses it instead of StartGame/Act/EndGame.
	return &pb.HelloResponse{Name: name, Version: version, Sdk: "grpc-go " + grpc.Version, Play: true}, nil
}

func (b *bot) StartGame(ctx context.Context, request *pb.StartGameRequest) (*pb.StartGameResponse, error) {
	b.start(request)
	return &pb.StartGameResponse{}, nil
}

func (b *bot) Act(ctx context.Context, request *pb.ActRequest) (*pb.ActResponse, error) {
	return act(request)
}

func (b *bot) EndGame(ctx context.Context, request *pb.EndGameRequest) (*pb.EndGameResponse, error) {
	b.end(request)
	return &pb.EndGameResponse{}, nil
}

// Play is one game on one stream: each referee message (start, act, end) answered in order (started, act,
// ended), until the referee closes its side.
func (b *bot) Play(stream pb.Bot_PlayServer) error {
	for {
		message, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var answer *pb.BotMessage
		switch kind := message.GetMessage().(type) {
		case *pb.RefereeMessage_Start:
			b.start(kind.Start)
			answer = &pb.BotMessage{Message: &pb.BotMessage_Started{Started: &pb.StartGameResponse{}}}
		case *pb.RefereeMessage_Act:
			response, err := act(kind.Act)
			if err != nil {
				return err
			}
			answer = &pb.BotMessage{Message: &pb.BotMessage_Act{Act: response}}
		case *pb.RefereeMessage_End:
			b.end(kind.End)
			answer = &pb.BotMessage{Message: &pb.BotMessage_Ended{Ended: &pb.EndGameResponse{}}}
		default:
			return status.Error(codes.InvalidArgument, "an empty referee message")
		}
		if err := stream.Send(answer); err != nil {
			return err
		}
	}
}

// listener listens where DURAK_BOT_ADDRESS says: a value with a "/" (or no ":") is a unix socket path,
// "unix:PATH" too; anything else is host:port.
func listener(address string) (net.Listener, error) {
	path := strings.TrimPrefix(address, "unix:")
	if strings.HasPrefix(address, "unix:") || strings.Contains(address, "/") || strings.HasSuffix(address, ".sock") ||
		!strings.Contains(address, ":") {
		path, _ = filepath.Abs(path)
		_ = os.Remove(path) // a stale socket of an earlier run
		return net.Listen("unix", path)
	}
	return net.Listen("tcp", address)
}

func main() {
	address := os.Getenv("DURAK_BOT_ADDRESS")
	if address == "" {
		fmt.Fprintln(os.Stderr, "DURAK_BOT_ADDRESS is not set: it is the address to listen on (a unix socket path "+
			"or host:port). The arena, `durak check` and `durak play` set it.")
		os.Exit(2)
	}
	lis, err := listener(address)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot listen on %s: %v\n", name, address, err)
		os.Exit(1)
	}
	server := grpc.NewServer()
	pb.RegisterBotServer(server, &bot{games: map[string]game{}})
	healthServer := health.NewServer()
	healthServer.SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING) // SERVING once ready, below
	healthpb.RegisterHealthServer(server, healthServer)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		received := <-signals
		healthServer.Shutdown() // NOT_SERVING, to every watcher
		stopped := make(chan struct{})
		go func() { server.GracefulStop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(1500 * time.Millisecond):
			server.Stop()
		}
		fmt.Fprintf(os.Stderr, "%s: stopped (%v)\n", name, received)
		os.Exit(0)
	}()

	// Ready: load anything slow (tables, models) before this point.
	healthServer.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	healthServer.SetServingStatus(serviceName, healthpb.HealthCheckResponse_SERVING)
	fmt.Fprintf(os.Stderr, "%s %s serving on %s\n", name, version, address)
	if err := server.Serve(lis); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

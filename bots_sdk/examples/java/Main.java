// java-example: a Durak Arena bot in Java, built by the arena from these sources (see README.md).
//
// A bot is a gRPC server for `service Bot` of proto/durak/v1/bot.proto plus the standard health service
// (proto/grpc/health/v1/health.proto). It listens on $DURAK_BOT_ADDRESS (a unix socket path, or host:port),
// reports SERVING once ready, answers each decision with one of observation.legal_actions, and exits cleanly on
// SIGTERM. It offers the Play stream (one stream per game, the fast path) and the unary calls too.
package durakbot;

import durak.v1.BotGrpc;
import durak.v1.BotOuterClass.ActRequest;
import durak.v1.BotOuterClass.ActResponse;
import durak.v1.BotOuterClass.BotMessage;
import durak.v1.BotOuterClass.EndGameRequest;
import durak.v1.BotOuterClass.EndGameResponse;
import durak.v1.BotOuterClass.HelloRequest;
import durak.v1.BotOuterClass.HelloResponse;
import durak.v1.BotOuterClass.RefereeMessage;
import durak.v1.BotOuterClass.Rules;
import durak.v1.BotOuterClass.StartGameRequest;
import durak.v1.BotOuterClass.StartGameResponse;
import grpc.health.v1.HealthGrpc;
import grpc.health.v1.HealthOuterClass.HealthCheckRequest;
import grpc.health.v1.HealthOuterClass.HealthCheckResponse;
import grpc.health.v1.HealthOuterClass.HealthCheckResponse.ServingStatus;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

public final class Main {
    static final String NAME = "java-example";
    static final String VERSION = "1";
    static final String SERVICE_NAME = "durak.v1.Bot";

    /** What the bot keeps of one game between its calls. */
    record Game(int seat, Rules rules) {}

    /** The answer to one decision: a copy of a legal action (kind, card, target and text, exactly as sent). */
    static ActResponse act(ActRequest request) throws StatusException {
        // request.getClock().getMoveMs() is the time left for this decision; this bot answers at once.
        if (request.getObservation().getLegalActionsCount() == 0) {
            throw Status.INVALID_ARGUMENT.withDescription("no legal actions to choose from").asException();
        }
        return ActResponse.newBuilder().setAction(Strategy.chooseAction(request.getObservation())).build();
    }

    static final class BotService extends BotGrpc.BotImplBase {
        private final Map<String, Game> games = new ConcurrentHashMap<>();

        private void start(StartGameRequest request) {
            games.put(request.getGameId(), new Game(request.getSeat(), request.getRules()));
        }

        private void end(EndGameRequest request) {
            games.remove(request.getGameId());
        }

        @Override
        public void hello(HelloRequest request, StreamObserver<HelloResponse> response) {
            // play: true offers the Play stream; the referee then uses it instead of StartGame/Act/EndGame.
            response.onNext(HelloResponse.newBuilder().setName(NAME).setVersion(VERSION)
                    .setSdk("grpc-java " + io.grpc.ManagedChannel.class.getPackage().getImplementationVersion())
                    .setPlay(true).build());
            response.onCompleted();
        }

        @Override
        public void startGame(StartGameRequest request, StreamObserver<StartGameResponse> response) {
            start(request);
            response.onNext(StartGameResponse.getDefaultInstance());
            response.onCompleted();
        }

        @Override
        public void act(ActRequest request, StreamObserver<ActResponse> response) {
            try {
                response.onNext(Main.act(request));
                response.onCompleted();
            } catch (StatusException error) {
                response.onError(error);
            }
        }

        @Override
        public void endGame(EndGameRequest request, StreamObserver<EndGameResponse> response) {
            end(request);
            response.onNext(EndGameResponse.getDefaultInstance());
            response.onCompleted();
        }

        /** One game on one stream: each referee message (start, act, end) answered in order (started, act, ended). */
        @Override
        public StreamObserver<RefereeMessage> play(StreamObserver<BotMessage> answers) {
            return new StreamObserver<>() {
                @Override
                public void onNext(RefereeMessage message) {
                    switch (message.getMessageCase()) {
                        case START -> {
                            start(message.getStart());
                            answers.onNext(BotMessage.newBuilder()
                                    .setStarted(StartGameResponse.getDefaultInstance()).build());
                        }
                        case ACT -> {
                            try {
                                answers.onNext(BotMessage.newBuilder().setAct(Main.act(message.getAct())).build());
                            } catch (StatusException error) {
                                answers.onError(error);
                            }
                        }
                        case END -> {
                            end(message.getEnd());
                            answers.onNext(BotMessage.newBuilder()
                                    .setEnded(EndGameResponse.getDefaultInstance()).build());
                        }
                        default -> answers.onError(
                                Status.INVALID_ARGUMENT.withDescription("an empty referee message").asException());
                    }
                }

                @Override
                public void onError(Throwable error) {} // a cancelled stream (the referee's deadline) needs no answer

                @Override
                public void onCompleted() {
                    answers.onCompleted(); // the referee closed its side: close ours
                }
            };
        }
    }

    /** grpc.health.v1.Health: SERVING for "" and durak.v1.Bot once ready, NOT_FOUND for any other service. */
    static final class HealthService extends HealthGrpc.HealthImplBase {
        private volatile ServingStatus status = ServingStatus.NOT_SERVING;
        private final Set<StreamObserver<HealthCheckResponse>> watchers = ConcurrentHashMap.newKeySet();

        void set(ServingStatus newStatus) {
            status = newStatus;
            for (StreamObserver<HealthCheckResponse> watcher : watchers) {
                watcher.onNext(HealthCheckResponse.newBuilder().setStatus(newStatus).build());
            }
        }

        private static boolean known(String service) {
            return service.isEmpty() || service.equals(SERVICE_NAME);
        }

        @Override
        public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> response) {
            if (!known(request.getService())) {
                response.onError(Status.NOT_FOUND.withDescription("unknown service " + request.getService())
                        .asException());
                return;
            }
            response.onNext(HealthCheckResponse.newBuilder().setStatus(status).build());
            response.onCompleted();
        }

        @Override
        public void watch(HealthCheckRequest request, StreamObserver<HealthCheckResponse> response) {
            // Send the status now, then keep the stream open until the client cancels it or the server stops.
            ServingStatus now = known(request.getService()) ? status : ServingStatus.SERVICE_UNKNOWN;
            response.onNext(HealthCheckResponse.newBuilder().setStatus(now).build());
            if (!known(request.getService())) return;
            watchers.add(response);
            ((ServerCallStreamObserver<HealthCheckResponse>) response).setOnCancelHandler(
                    () -> watchers.remove(response));
        }
    }

    /**
     * Where DURAK_BOT_ADDRESS says to listen: a value with a "/" (or no ":"), or "unix:PATH", is a unix socket
     * path; anything else is host:port.
     */
    static SocketAddress listenAddress(String address) throws IOException {
        boolean unix = address.startsWith("unix:");
        String rest = unix ? address.substring(5) : address;
        if (unix || rest.contains("/") || rest.endsWith(".sock") || !rest.contains(":")) {
            Path path = Path.of(rest).toAbsolutePath();
            Files.deleteIfExists(path); // a stale socket of an earlier run
            return UnixDomainSocketAddress.of(path);
        }
        int colon = rest.lastIndexOf(':');
        return new InetSocketAddress(rest.substring(0, colon), Integer.parseInt(rest.substring(colon + 1)));
    }

    public static void main(String[] args) throws Exception {
        String address = System.getenv("DURAK_BOT_ADDRESS");
        if (address == null || address.isEmpty()) {
            System.err.println("DURAK_BOT_ADDRESS is not set: it is the address to listen on (a unix socket path "
                    + "or host:port). The arena, `durak check` and `durak play` set it.");
            System.exit(2);
        }
        SocketAddress listen = listenAddress(address);
        HealthService health = new HealthService();
        // One event-loop thread, and calls run on it (directExecutor): calls come one at a time, and the
        // sandbox counts threads.
        NioEventLoopGroup loop = new NioEventLoopGroup(1);
        NettyServerBuilder builder = NettyServerBuilder.forAddress(listen)
                .bossEventLoopGroup(loop).workerEventLoopGroup(loop).directExecutor()
                .addService(new BotService()).addService(health);
        if (listen instanceof UnixDomainSocketAddress) {
            builder.channelType(UnixDomainServerChannel.class); // Netty of Debian has no native unix sockets
        } else {
            builder.channelType(io.netty.channel.socket.nio.NioServerSocketChannel.class);
        }
        Server server = builder.build().start();
        // Ready: load anything slow (tables, models) before this point.
        health.set(ServingStatus.SERVING);
        System.err.println(NAME + " " + VERSION + " serving on " + address);

        Runtime.getRuntime().addShutdownHook(new Thread(() -> { // SIGTERM, SIGINT
            health.set(ServingStatus.NOT_SERVING);
            server.shutdown();
            try {
                if (!server.awaitTermination(1500, TimeUnit.MILLISECONDS)) server.shutdownNow();
            } catch (InterruptedException interrupted) {
                server.shutdownNow();
            }
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            System.err.println(NAME + ": stopped");
        }));
        server.awaitTermination();
    }
}

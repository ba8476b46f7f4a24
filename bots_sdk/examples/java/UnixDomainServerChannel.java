package durakbot;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.EventLoop;
import io.netty.channel.FileRegion;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.AbstractNioByteChannel;
import io.netty.channel.nio.AbstractNioMessageChannel;
import io.netty.channel.nio.NioEventLoop;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * A Netty server channel on a unix domain socket, over the JDK's own (java.nio, JDK 16 and later).
 *
 * <p>gRPC's Netty transport listens on unix sockets only through Netty's native epoll library, which Debian's
 * libnetty-java does not ship; the JDK's NIO channels do unix sockets, and Netty's NIO event loop selects on
 * them like on TCP ones. The arena's referee connects to the bot through a unix socket, so this is the plumbing
 * that lets grpc-java serve there. Nothing here is about the game: leave it as it is.
 */
public final class UnixDomainServerChannel extends AbstractNioMessageChannel implements ServerChannel {
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);
    private final ChannelConfig config = new Config(this);

    public UnixDomainServerChannel() throws IOException {
        super(null, ServerSocketChannel.open(StandardProtocolFamily.UNIX), SelectionKey.OP_ACCEPT);
    }

    /** Takes the TCP option gRPC sets on every connection (SO_KEEPALIVE), which means nothing on a unix socket. */
    private static final class Config extends DefaultChannelConfig {
        Config(Channel channel) {
            super(channel);
        }

        @Override
        public <T> boolean setOption(ChannelOption<T> option, T value) {
            return option == ChannelOption.SO_KEEPALIVE || super.setOption(option, value);
        }
    }

    @Override
    protected ServerSocketChannel javaChannel() {
        return (ServerSocketChannel) super.javaChannel();
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public boolean isActive() {
        return isOpen() && localAddress0() != null;
    }

    @Override
    protected boolean isCompatible(EventLoop loop) {
        return loop instanceof NioEventLoop;
    }

    @Override
    protected SocketAddress localAddress0() {
        try {
            return javaChannel().getLocalAddress();
        } catch (IOException closed) {
            return null;
        }
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doBind(SocketAddress address) throws Exception {
        javaChannel().bind(address, 64);
    }

    @Override
    protected void doClose() throws Exception {
        javaChannel().close();
    }

    @Override
    protected int doReadMessages(List<Object> accepted) throws Exception {
        SocketChannel connection = javaChannel().accept();
        if (connection == null) return 0;
        accepted.add(new Connection(this, connection));
        return 1;
    }

    @Override
    protected boolean doConnect(SocketAddress remote, SocketAddress local) {
        throw new UnsupportedOperationException("a server channel does not connect");
    }

    @Override
    protected void doFinishConnect() {
        throw new UnsupportedOperationException("a server channel does not connect");
    }

    @Override
    protected void doDisconnect() {
        throw new UnsupportedOperationException("a server channel does not disconnect");
    }

    @Override
    protected boolean doWriteMessage(Object message, ChannelOutboundBuffer buffer) {
        throw new UnsupportedOperationException("a server channel does not write");
    }

    /** One accepted connection: bytes in and out of the JDK's unix socket channel. */
    static final class Connection extends AbstractNioByteChannel {
        private final ChannelConfig config = new Config(this);

        Connection(Channel parent, SocketChannel socket) {
            super(parent, socket);
        }

        @Override
        protected SocketChannel javaChannel() {
            return (SocketChannel) super.javaChannel();
        }

        @Override
        public ChannelConfig config() {
            return config;
        }

        @Override
        public ChannelMetadata metadata() {
            return METADATA;
        }

        @Override
        public boolean isActive() {
            return javaChannel().isOpen() && javaChannel().isConnected();
        }

        @Override
        protected boolean isCompatible(EventLoop loop) {
            return loop instanceof NioEventLoop;
        }

        @Override
        protected SocketAddress localAddress0() {
            try {
                return javaChannel().getLocalAddress();
            } catch (IOException closed) {
                return null;
            }
        }

        @Override
        protected SocketAddress remoteAddress0() {
            try {
                return javaChannel().getRemoteAddress();
            } catch (IOException closed) {
                return null;
            }
        }

        @Override
        protected int doReadBytes(ByteBuf buffer) throws Exception {
            var handle = unsafe().recvBufAllocHandle();
            handle.attemptedBytesRead(buffer.writableBytes());
            return buffer.writeBytes(javaChannel(), handle.attemptedBytesRead());
        }

        @Override
        protected int doWriteBytes(ByteBuf buffer) throws Exception {
            return buffer.readBytes(javaChannel(), buffer.readableBytes());
        }

        @Override
        protected long doWriteFileRegion(FileRegion region) throws Exception {
            return region.transferTo(javaChannel(), region.transferred());
        }

        @Override
        protected ChannelFuture shutdownInput() {
            try {
                javaChannel().shutdownInput();
                return newSucceededFuture();
            } catch (IOException error) {
                return newFailedFuture(error);
            }
        }

        @Override
        protected void doBind(SocketAddress address) {
            throw new UnsupportedOperationException("an accepted connection is bound already");
        }

        @Override
        protected boolean doConnect(SocketAddress remote, SocketAddress local) {
            throw new UnsupportedOperationException("an accepted connection is connected already");
        }

        @Override
        protected void doFinishConnect() {
            throw new UnsupportedOperationException("an accepted connection is connected already");
        }

        @Override
        protected void doDisconnect() throws Exception {
            doClose();
        }

        @Override
        protected void doClose() throws Exception {
            javaChannel().close();
        }
    }
}

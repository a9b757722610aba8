import net from 'node:net';

/** One direction of a connection through the proxy. */
interface Link {
  from: net.Socket;
  to: net.Socket;
  piped: boolean;
}

/**
 * A loopback TCP proxy in front of a server (PostgreSQL, Redis), to break the way a network or a failover does:
 * reset every connection through it, refuse new ones, and take them again on the same port; or hold them all
 * and forward nothing, as a server that hangs.
 */
export class TcpProxy {
  readonly #sockets = new Set<net.Socket>();
  readonly #links = new Set<Link>();
  #silent = false;
  #server: net.Server | undefined;
  #port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  /** Listens on a free loopback port, forwarding each connection to the server of the database URL `url`. */
  static async inFrontOf(url: string): Promise<TcpProxy> {
    const { hostname, port } = new URL(url);
    const proxy = new TcpProxy({ host: hostname, port: Number(port || 5432) });
    await proxy.open();
    return proxy;
  }

  get port(): number {
    return this.#port;
  }

  /** `url` (a database URL of the proxied server) pointed at the proxy instead. */
  proxied(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.#port);
    return through.toString();
  }

  /** Takes connections (again, on the port it had). */
  async open(): Promise<void> {
    const server = net.createServer((client) => this.forward(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  /** Resets both sides of every connection through the proxy (TCP RST); the number of sockets reset. */
  reset(): number {
    const open = [...this.#sockets];
    for (const socket of open) {
      // A socket still connecting has no connection to reset yet.
      if (socket.connecting) socket.destroy();
      else socket.resetAndDestroy();
    }
    this.#sockets.clear();
    return open.length;
  }

  /** Keeps every connection, and takes new ones, but forwards nothing in either direction until `resume`. */
  silence(): void {
    this.#silent = true;
    for (const link of this.#links) {
      link.from.unpipe(link.to);
      link.from.pause();
      link.piped = false;
    }
  }

  /** Forwards again what was held since `silence`, and all that follows. */
  resume(): void {
    this.#silent = false;
    for (const link of this.#links) this.pipe(link);
  }

  /** Refuses new connections and resets the open ones, until `open`. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    const closed = new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    this.reset();
    await closed;
  }

  private forward(client: net.Socket): void {
    const upstream = net.connect(this.target);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#sockets.add(from);
      const link = { from, to, piped: false };
      this.#links.add(link);
      if (!this.#silent) this.pipe(link);
      // Either side gone ends the other: the proxy holds nothing half-open.
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.#sockets.delete(from);
        this.#links.delete(link);
        to.destroy();
      });
    }
  }

  private pipe(link: Link): void {
    if (link.piped) return;
    link.from.pipe(link.to);
    link.piped = true;
  }
}

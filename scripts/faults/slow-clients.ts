import net from 'node:net';
import { drive, type Fault, forMs, ms, type Outcome, sleep, tally } from './kit';

const SOCKETS = 500;
/** The demand on GET /healthz while the slow clients hang on. */
const HEALTHZ_P99_MS = 100;

/** A client that sends its request a few bytes a second and never finishes it. */
interface SlowClient {
  socket: net.Socket;
  answered: boolean;
  closed: boolean;
}

/**
 * Open `count` slow clients to `port`: half send headers one short line a second, half send complete
 * headers for a JSON body of 100 kB and then a few bytes of it a second (to a route that reads the
 * body: sign-out, which takes one).
 */
async function openSlowClients(
  port: number,
  count: number,
): Promise<{ clients: SlowClient[]; drip: () => void }> {
  const clients = await Promise.all(
    Array.from(
      { length: count },
      (_, index) =>
        new Promise<SlowClient>((resolve) => {
          const socket = net.connect(port, '127.0.0.1');
          const client: SlowClient = { socket, answered: false, closed: false };
          socket.on('data', () => {
            client.answered = true;
          });
          socket.on('error', () => {});
          socket.on('close', () => {
            client.closed = true;
          });
          socket.once('connect', () => {
            socket.write(
              index % 2
                ? `POST /api/auth/logout HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"x":"`
                : 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n',
            );
            resolve(client);
          });
        }),
    ),
  );
  let line = 0;
  const drip = () => {
    line++;
    clients.forEach((client, index) => {
      if (!client.closed) client.socket.write(index % 2 ? 'aaaaaaaa' : `x-slow-${line}: ${line}\r\n`);
    });
  };
  return { clients, drip };
}

const healthz = () => ({ kind: 'healthz', method: 'GET' as const, path: '/healthz' });

/**
 * Slow headers and slow bodies from 500 sockets (issue 18): while they trickle, GET /healthz from a
 * well-behaved client must keep its p99 under 100 ms.
 */
export const slowClients: Fault = {
  name: 'slow-clients',
  timeoutMs: 60_000,
  needs: ['pglite'],
  async run({ suite, processes, short }) {
    const port = suite.port();
    const server = await processes.start({ DATA_DIR: suite.pglite('slow') }, { port });
    const measureMs = short ? 3_000 : 10_000;
    await drive(server.base, { concurrency: 2, next: healthz, stop: forMs(1_000) });
    const baseline = tally(await drive(server.base, { concurrency: 2, next: healthz, stop: forMs(2_000) }));
    const { clients, drip } = await openSlowClients(port, SOCKETS);
    const dripping = setInterval(drip, 1_000);
    let outcomes: Outcome[];
    try {
      await sleep(1_000);
      outcomes = await drive(server.base, { concurrency: 2, next: healthz, stop: forMs(measureMs) });
    } finally {
      clearInterval(dripping);
    }
    const open = clients.filter((client) => !client.closed).length;
    const answered = clients.filter((client) => client.answered).length;
    for (const client of clients) client.socket.destroy();
    const t = tally(outcomes);
    const failures: string[] = [];
    if (t.p99 >= HEALTHZ_P99_MS) failures.push(`/healthz p99 ${ms(t.p99)} (at most ${HEALTHZ_P99_MS} ms)`);
    if (t.ok !== t.total) failures.push(`${t.total - t.ok} /healthz requests failed`);
    if (open < SOCKETS * 0.9)
      failures.push(`only ${open} of ${SOCKETS} slow sockets were still open: the load was not there`);
    return {
      figures:
        `${SOCKETS} slow sockets (${SOCKETS / 2} headers, ${SOCKETS / 2} bodies) for ${measureMs / 1000} s, ` +
        `${open} still open, ${answered} answered; /healthz ${t.total} requests, p50 ${ms(t.p50)}, ` +
        `p99 ${ms(t.p99)}, max ${ms(t.max)} (alone: p99 ${ms(baseline.p99)})`,
      failures,
    };
  },
};

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callbackSchema, type Callback, type CallbackEvent } from '../../src/contract/index.js';

/** One callback a subscriber received, as sent: raw body (what the signature covers) and headers. */
export interface ReceivedCallback {
  raw: string;
  headers: IncomingHttpHeaders;
  body: Callback;
}

export interface CallbackSubscriber {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  /** Callbacks answered 200, in order. */
  received: ReceivedCallback[];
  /** Every callback attempt, whatever was answered. */
  attempts: ReceivedCallback[];
  challenges: number;
  /** Resolves once `received` holds at least `count` callbacks (polling; tests give their own timeout). */
  waitFor(count: number): Promise<ReceivedCallback[]>;
  /** Resolves once the callbacks received carry at least `count` events in all; resolves them. */
  waitForEvents(count: number): Promise<CallbackEvent[]>;
  close(): Promise<void>;
}

/**
 * A loopback subscriber for a reference server's webhooks: echoes verification challenges, and answers callback
 * attempt `n` (0-based) with `statusOf(n)` (default 200).
 */
export async function startCallbackSubscriber(statusOf: (attempt: number) => number = () => 200): Promise<CallbackSubscriber> {
  const received: ReceivedCallback[] = [];
  const attempts: ReceivedCallback[] = [];
  let challenges = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const challenge = req.headers['smartsheet-hook-challenge'];
      if (typeof challenge === 'string') {
        challenges += 1;
        res.writeHead(200, { 'content-type': 'application/json', 'smartsheet-hook-response': challenge }).end('{}');
        return;
      }
      const callback = { raw, headers: req.headers, body: callbackSchema.parse(JSON.parse(raw)) };
      const status = statusOf(attempts.length);
      attempts.push(callback);
      if (status === 200) received.push(callback);
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    attempts,
    get challenges() {
      return challenges;
    },
    async waitFor(count) {
      while (received.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
      return received;
    },
    async waitForEvents(count) {
      const events = () => received.flatMap((callback) => callback.body.events ?? []);
      while (events().length < count) await new Promise((resolve) => setTimeout(resolve, 20));
      return events();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

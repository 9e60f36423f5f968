import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface StubAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Never answer (for timeout tests). */
  hang?: boolean;
  /** Destroy the socket without answering. */
  destroy?: boolean;
}

export interface StubHttpServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A port-0 HTTP server that answers each request with `answer(request)`: for transport tests of the client. */
export async function startStubHttpServer(answer: (request: RecordedRequest, index: number) => StubAnswer): Promise<StubHttpServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      const reply = answer(recorded, requests.length - 1);
      if (reply.hang) return;
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/2.0`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

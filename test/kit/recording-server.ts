import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingServer {
  url: string;
  /** Every request that reached it (a proxy CONNECT included), with its headers. */
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/**
 * An attacker's HTTP server on loopback: it answers 502 to everything and records what reached it,
 * so a test can prove that nothing (a token above all) was sent there.
 */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordingServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket) => {
    requests.push({ method: 'CONNECT', url: req.url ?? '', headers: req.headers });
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

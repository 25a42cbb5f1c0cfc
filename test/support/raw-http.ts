/**
 * HTTP/1.1 by hand over one TCP connection, for what fetch cannot do: a request whose body arrives
 * slowly (a client on a poor network), a request begun on a kept-alive connection, pipelining.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export function formatRequest({ method, path, headers = {}, body = '' }: RawRequest, host: string): string {
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Splits what the server sent on the connection into responses (bodies sized by Content-Length). */
export function parseResponses(raw: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...headerLines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    responses.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

/** One connection: write bytes, wait for what the server sent to match, and every final answer once it closes. */
function rawConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  const received = () => Buffer.concat(chunks).toString('utf8');
  let onData = () => {};
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    onData();
  });
  const responses = new Promise<RawResponse[]>((resolve, reject) => {
    socket.on('close', () => resolve(parseResponses(received()).filter((r) => r.status !== 100)));
    socket.on('error', reject);
  });
  return {
    host: `127.0.0.1:${port}`,
    responses,
    write: (text: string) => socket.write(text),
    /** Resolves once what was received satisfies `check`. */
    until: (check: (received: string) => boolean) =>
      new Promise<void>((resolve, reject) => {
        onData = () => check(received()) && resolve();
        onData();
        void responses.then(() => reject(new Error(`connection closed first; received: ${received()}`)), reject);
      }),
  };
}

/**
 * Sends `request` with `Expect: 100-continue` and, once the server has taken it up (its `100 Continue`
 * is the proof: Node sends it as it hands the request to the app), all but the last `heldBytes` bytes
 * of its body. `finish(...more)` sends the rest, then any further (pipelined) requests.
 */
export async function slowRequest(port: number, request: RawRequest, heldBytes = 10) {
  const connection = rawConnection(port);
  const text = formatRequest({ ...request, headers: { ...request.headers, expect: '100-continue' } }, connection.host);
  const headerEnd = text.indexOf('\r\n\r\n') + 4;
  connection.write(text.slice(0, headerEnd));
  await connection.until((received) => received.startsWith('HTTP/1.1 100 Continue'));
  connection.write(text.slice(headerEnd, text.length - heldBytes));
  return {
    responses: connection.responses,
    finish: (...more: RawRequest[]) =>
      connection.write(text.slice(text.length - heldBytes) + more.map((r) => formatRequest(r, connection.host)).join('')),
  };
}

/**
 * A kept-alive connection, answered once (`GET /healthz`), on which the client has begun its next
 * request: the request line and one header so far. `finish()` sends the rest.
 */
export async function requestBegunOnKeptAliveConnection(port: number, request: RawRequest) {
  const connection = rawConnection(port);
  connection.write(formatRequest({ method: 'GET', path: '/healthz' }, connection.host));
  await connection.until((received) => parseResponses(received).length === 1);
  const text = formatRequest(request, connection.host);
  const cut = text.indexOf('\r\n', text.indexOf('\r\n') + 2) + 2;
  connection.write(text.slice(0, cut));
  return {
    responses: connection.responses.then((all) => all.slice(1)),
    finish: () => connection.write(text.slice(cut)),
  };
}

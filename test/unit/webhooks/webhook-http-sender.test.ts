import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSender } from '../../../src/adapters/webhooks/http-sender.ts';
import { startReceiver } from '../../support/webhook-receiver.ts';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(({ path }) => {
    if (path === '/fail') return 500;
    if (path === '/moved') return (res) => res.writeHead(301, { location: receiver.url('/target') }).end();
    if (path === '/silent') return () => {};
    return 200;
  });
});
afterAll(() => receiver.close());

const sender = new HttpSender({ allowPrivateAddresses: true });
const send = (url: string, s = sender, timeoutMs = 2000) =>
  s.send({ url, headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"a":1}', timeoutMs });

describe('HttpSender', () => {
  it('POSTs the body and headers as given and returns the status', async () => {
    expect(await send(receiver.url('/ok'))).toEqual({ status: 200 });
    expect(await send(receiver.url('/fail'))).toEqual({ status: 500 });
    const [request] = receiver.at('/ok');
    expect(request).toMatchObject({
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'x-test': 'yes', 'content-length': '7' },
    });
  });

  it('returns a redirect as it is, without following it', async () => {
    expect(await send(receiver.url('/moved'))).toEqual({ status: 301 });
    expect(receiver.at('/target')).toEqual([]);
  });

  it('gives up after the timeout', async () => {
    await expect(send(receiver.url('/silent'), sender, 100)).rejects.toThrow('timed out after 100 ms');
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(send(`http://127.0.0.1:${port}/`)).rejects.toThrow('connection refused');
  });

  it('refuses to connect to a host name that resolves to a private address when those are not allowed', async () => {
    const guarded = new HttpSender({ allowPrivateAddresses: false });
    await expect(send(`http://localhost:${receiver.port}/guarded`, guarded)).rejects.toThrow(
      /^localhost resolves to a non-public address \((127\.0\.0\.1|::1)\)$/,
    );
    expect(receiver.at('/guarded')).toEqual([]);
    expect(await send(`http://localhost:${receiver.port}/open`)).toEqual({ status: 200 });
  });
});

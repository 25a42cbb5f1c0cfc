/**
 * The Turnstile adapter's HTTP call, against a local fake of Cloudflare's Siteverify (test/support/fake-turnstile.ts):
 * what it sends, and how each kind of answer (or none) becomes passed, refused or unavailable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnstileVerifier } from '../../../src/adapters/human-check/turnstile.ts';
import { SandboxHumanCheck } from '../../../src/adapters/human-check/sandbox.ts';
import { SITEVERIFY_PATH, startFakeTurnstile } from '../../support/fake-turnstile.ts';

const SECRET = '0x4AAAAAAAtest-secret';
let fake: Awaited<ReturnType<typeof startFakeTurnstile>>;
let verifier: TurnstileVerifier;

beforeAll(async () => {
  fake = await startFakeTurnstile(SECRET);
  verifier = new TurnstileVerifier({ secretKey: SECRET, baseUrl: fake.baseUrl, timeoutMs: 300 });
});
afterAll(() => fake.close());

describe('TurnstileVerifier', () => {
  it("POSTs the secret, the token and the visitor's address as JSON to Siteverify, and passes a genuine token", async () => {
    expect(await verifier.verify('human', '203.0.113.7')).toEqual({ outcome: 'passed' });
    expect(fake.requests.at(-1)).toEqual({
      path: SITEVERIFY_PATH,
      contentType: 'application/json',
      body: { secret: SECRET, response: 'human', remoteip: '203.0.113.7' },
    });
    await verifier.verify('human', undefined);
    expect(fake.requests.at(-1)!.body).toEqual({ secret: SECRET, response: 'human' });
  });

  it("refuses a token Cloudflare refuses, with Cloudflare's error codes as the reason", async () => {
    expect(await verifier.verify('forged', '203.0.113.7')).toEqual({ outcome: 'refused', reason: 'invalid-input-response' });
    expect(await verifier.verify('used', '203.0.113.7')).toEqual({ outcome: 'refused', reason: 'timeout-or-duplicate' });
  });

  it("calls unavailable whatever is no verdict on the token: Cloudflare's own error, a 5xx, an outage page, a rejected secret", async () => {
    expect(await verifier.verify('cf-internal', '203.0.113.7')).toEqual({ outcome: 'unavailable', reason: 'internal-error' });
    expect(await verifier.verify('cf-500', '203.0.113.7')).toEqual({ outcome: 'unavailable', reason: 'HTTP 500' });
    expect(await verifier.verify('cf-outage', '203.0.113.7')).toEqual({ outcome: 'unavailable', reason: 'unreadable answer' });
    const misconfigured = new TurnstileVerifier({ secretKey: 'not-the-secret', baseUrl: fake.baseUrl, timeoutMs: 300 });
    expect(await misconfigured.verify('human', '203.0.113.7')).toEqual({ outcome: 'unavailable', reason: 'invalid-input-secret' });
  });

  it('gives up on a provider that does not answer within the timeout, and on one it cannot reach', async () => {
    const started = performance.now();
    expect(await verifier.verify('cf-silent', '203.0.113.7')).toEqual({ outcome: 'unavailable', reason: 'no answer within 300 ms' });
    expect(performance.now() - started).toBeLessThan(2_000);
    const nowhere = new TurnstileVerifier({ secretKey: SECRET, baseUrl: 'http://127.0.0.1:1', timeoutMs: 300 });
    expect(await nowhere.verify('human', '203.0.113.7')).toEqual({ outcome: 'unavailable', reason: 'unreachable' });
  });
});

describe('SandboxHumanCheck', () => {
  it('passes `pass`, refuses `fail` and anything else', async () => {
    const sandbox = new SandboxHumanCheck();
    expect(await sandbox.verify('pass')).toEqual({ outcome: 'passed' });
    expect(await sandbox.verify('fail')).toEqual({ outcome: 'refused', reason: 'sandbox-refused' });
    expect(await sandbox.verify('human')).toEqual({ outcome: 'refused', reason: 'not-a-sandbox-token' });
  });
});

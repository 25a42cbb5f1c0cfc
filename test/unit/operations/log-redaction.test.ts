import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, scrubSecrets } from '../../../src/http/logging.ts';

function capture() {
  const lines: string[] = [];
  const stream = { write: (line: string) => lines.push(line) };
  const log = pino(loggerOptions('info', stream) as LoggerOptions, stream);
  return { log, text: () => lines.join('') };
}

describe('log redaction', () => {
  it('blanks credentials in request headers, whatever their shape', () => {
    const { log, text } = capture();
    log.info(
      { req: { headers: { authorization: 'Bearer opaque-token-1', 'tessera-secret-key': 'opaque-token-2', 'user-agent': 'curl' } } },
      'incoming',
    );
    expect(JSON.parse(text()).req.headers).toEqual({
      authorization: '[Redacted]',
      'tessera-secret-key': '[Redacted]',
      'user-agent': 'curl',
    });
  });

  it('blanks secret fields of logged bodies, answers and GraphQL variables', () => {
    const { log, text } = capture();
    log.info({
      paymentIntentSecret: 'opaque-1',
      body: { paymentIntentSecret: 'opaque-2', outcome: 'succeeded' },
      response: { endpoint: { id: 'e1' }, secret: 'opaque-3' },
      variables: { input: { secret: 'opaque-4' } },
    });
    const line = JSON.parse(text());
    expect(line).toMatchObject({
      paymentIntentSecret: '[Redacted]',
      body: { paymentIntentSecret: '[Redacted]', outcome: 'succeeded' },
      response: { endpoint: { id: 'e1' }, secret: '[Redacted]' },
      variables: { input: { secret: '[Redacted]' } },
    });
  });

  it('blanks anything shaped like one of our secrets wherever it appears, error messages and stacks included', () => {
    const { log, text } = capture();
    const err = new Error('processor refused pi_sbx_abc123_secret_0123456789abcdef for whsec_AbC-123_xyz');
    log.error({ err, url: '/v1/x?key=sk_live_AbCdEf123' }, 'failed with Authorization: Bearer sk_test_lisbon_demo');
    const output = text();
    for (const leaked of ['0123456789abcdef', 'whsec_AbC', 'sk_live_AbCdEf123', 'sk_test_lisbon_demo'])
      expect(output).not.toContain(leaked);
    // The intent reference is not a secret and stays, to trace the payment.
    expect(output).toContain('pi_sbx_abc123_secret_[Redacted]');
  });

  it('scrubs each shape on its own', () => {
    expect(scrubSecrets('a sk_test_x-y_z b')).toBe('a [Redacted] b');
    expect(scrubSecrets('"authorization":"Bearer abc.def"')).toBe('"authorization":"Bearer [Redacted]"');
    expect(scrubSecrets('no secrets: pi_sbx_123, sk-live, whsec')).toBe('no secrets: pi_sbx_123, sk-live, whsec');
    // Each shape alone on a line (the quick test of a line must let every one through to its replacement).
    expect(scrubSecrets('rk_live_abc')).toBe('[Redacted]');
    expect(scrubSecrets('whsec_abc')).toBe('[Redacted]');
    expect(scrubSecrets('pi_1_secret_abc')).toBe('pi_1_secret_[Redacted]');
    expect(scrubSecrets('BEARER\tabc')).toBe('BEARER\t[Redacted]');
  });
});

import { describe, expect, it } from 'vitest';
import { exactClientAddress, normalizeClientAddress, UNPARSABLE_CLIENT } from '../../../src/http/client-address.ts';

describe('a client address in one spelling', () => {
  it.each([
    ['198.51.100.9', '198.51.100.9'],
    ['198.51.100.9:1111', '198.51.100.9'],
    [' 198.51.100.9 ', '198.51.100.9'],
    ['[198.51.100.9]:3333', '198.51.100.9'],
    ['::ffff:198.51.100.9', '198.51.100.9'],
    ['[::ffff:198.51.100.9]:443', '198.51.100.9'],
    ['::FFFF:C633:6409', '198.51.100.9'],
    ['2001:DB8::1', '2001:db8::'],
    ['[2001:db8::1]:443', '2001:db8::'],
    ['2001:0db8:0000:0000:ffff::2', '2001:db8::'],
    ['2001:db8::1%eth0', '2001:db8::'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::'],
    ['::1', '::'],
    ['unknown', UNPARSABLE_CLIENT],
    ['', UNPARSABLE_CLIENT],
    ['0xc6.51.100.9', UNPARSABLE_CLIENT],
    ['3325256713', UNPARSABLE_CLIENT],
    ['198.051.100.009', UNPARSABLE_CLIENT],
    ['"198.51.100.9"', UNPARSABLE_CLIENT],
    ['198.51.100.9:abc', UNPARSABLE_CLIENT],
  ])('%j is %j', (token, client) => {
    expect(normalizeClientAddress(token)).toBe(client);
  });

  it('gives the whole address, not its /64, where a provider compares it with its own', () => {
    expect(exactClientAddress({ ip: '[2001:DB8::7]:443' })).toBe('2001:db8::7');
    expect(exactClientAddress({ ip: '::ffff:198.51.100.9' })).toBe('198.51.100.9');
    expect(exactClientAddress({ ip: 'unknown' })).toBeUndefined();
    expect(exactClientAddress({})).toBeUndefined();
  });
});

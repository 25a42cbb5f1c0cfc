import { describe, expect, it } from 'vitest';
import { nonPublicKind } from '../../../src/domain/webhooks/addresses.ts';
import type { WebhookUrlPolicy } from '../../../src/domain/webhooks/settings.ts';
import { checkWebhookUrl, targetProblem } from '../../../src/domain/webhooks/urls.ts';
import { codeAndField } from '../../support/domain-error.ts';

describe('nonPublicKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.20', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    // The gaps of issue 34, and the rest of IANA's special-purpose registries.
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.254', 'benchmarking'],
    ['192.0.0.9', 'IETF protocol assignment'],
    ['192.0.0.170', 'IETF protocol assignment'],
    ['64:ff9b:1::a00:1', 'NAT64 (local use)'],
    ['64:ff9b:1::808:808', 'NAT64 (local use)'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['::ffff:0:808:808', 'IPv4-translated'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2002:7f00:1::', '6to4'],
    ['2002:c0a8:1::', '6to4'],
    ['2002:808:808::', '6to4'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::c0a8:1', 'private'],
    ['::7f00:1', 'reserved'],
    ['::808:808', 'reserved'],
    ['100::1', 'discard-only'],
    ['100:0:0:1::5', 'dummy prefix'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['2001:20::1', 'ORCHID'],
    ['5f00::1', 'segment routing'],
    ['fec0::1', 'site-local'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.31.196.1', 'AS112'],
    ['192.52.193.1', 'AMT'],
    ['localhost', 'invalid'],
    ['2130706433', 'invalid'],
    ['256.1.1.1', 'invalid'],
    ['1::2::3', 'invalid'],
  ])('%s is %s', (ip, kind) => {
    expect(nonPublicKind(ip)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '1.1.1.1',
    '198.17.255.255',
    '198.20.0.1',
    '192.0.1.1',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
  ])('%s is public', (ip) => {
    expect(nonPublicKind(ip)).toBeNull();
  });
});

const dns: Record<string, string[]> = {
  'hooks.partner.test': ['93.184.216.34', '2606:2800:220:1::1'],
  'internal.partner.test': ['127.0.0.1'],
  'mixed.partner.test': ['93.184.216.34', '10.0.0.7'],
};
const lookup = async (host: string) => {
  const addresses = dns[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses;
};
const production: WebhookUrlPolicy = { allowPrivateUrls: false, httpsOnly: true, lookup };
const development: WebhookUrlPolicy = { allowPrivateUrls: true, httpsOnly: false, lookup };
const refusal = async (policy: WebhookUrlPolicy, url: string) => {
  try {
    await checkWebhookUrl(policy, url);
  } catch (error) {
    return codeAndField(() => {
      throw error;
    });
  }
  return null;
};

describe('checkWebhookUrl in production', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://LOCALHOST./hook',
    'https://api.localhost/hook',
    'https://10.0.0.5/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://2130706433/hook',
    'https://internal.partner.test/hook',
    'https://mixed.partner.test/hook',
    'https://nowhere.partner.test/hook',
    'http://hooks.partner.test/hook',
    'https://user:pw@hooks.partner.test/hook',
    'ftp://hooks.partner.test/hook',
    'hooks.partner.test/hook',
    `https://hooks.partner.test/${'a'.repeat(2030)}`,
  ])('refuses %s as VALIDATION_FAILED on url', async (url) => {
    expect(await refusal(production, url)).toEqual({ code: 'VALIDATION_FAILED', field: 'url' });
  });

  it('explains what the host resolves to', async () => {
    await expect(checkWebhookUrl(production, 'https://internal.partner.test/x')).rejects.toThrow(
      'url host internal.partner.test resolves to a loopback address (127.0.0.1): webhooks may only target public addresses',
    );
  });

  it('accepts a public https URL and normalizes it', async () => {
    expect(await checkWebhookUrl(production, 'HTTPS://Hooks.Partner.test/tessera?x=1')).toBe('https://hooks.partner.test/tessera?x=1');
  });
});

describe('checkWebhookUrl outside production', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.0.0.5/hook',
    'http://[::1]/hook',
    'http://nowhere.partner.test/',
  ])('accepts %s without resolving it', async (url) => {
    expect(await refusal(development, url)).toBeNull();
  });

  it('still refuses what is not an http(s) URL', async () => {
    expect(await refusal(development, 'file:///etc/passwd')).toEqual({ code: 'VALIDATION_FAILED', field: 'url' });
  });
});

describe('targetProblem (the check before each delivery)', () => {
  it('sees a host that now resolves elsewhere (DNS rebinding)', async () => {
    let answer = ['93.184.216.34'];
    const policy: WebhookUrlPolicy = { ...production, lookup: async () => answer };
    const url = new URL('https://rebinding.partner.test/hook');
    expect(await targetProblem(policy, url)).toBeNull();
    answer = ['127.0.0.1'];
    expect(await targetProblem(policy, url)).toBe('host rebinding.partner.test resolves to a loopback address (127.0.0.1)');
  });
});

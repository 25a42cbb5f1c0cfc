/** Name resolution for webhook targets, refusing non-public addresses when asked (SSRF guard). */
import { lookup as dnsLookup, promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { nonPublicKind } from '../../domain/webhooks/addresses.ts';
import type { HostLookup } from '../../domain/webhooks/settings.ts';

/** Every address the system resolver gives for `hostname` (as connecting would see them). */
export const lookupAll: HostLookup = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * A `lookup` for node:http that fails when any address of the host is not public, so the connection
 * goes to an address that was checked this very moment: a host that resolved to a public address when
 * checked cannot switch to an internal one before connecting (DNS rebinding).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((entry) => nonPublicKind(entry.address) !== null);
    if (refused) {
      const denied: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address (${refused.address})`);
      denied.code = 'ENONPUBLIC';
      return callback(denied, '');
    }
    const first = addresses[0];
    if (options.all) return callback(null, addresses);
    return first ? callback(null, first.address, first.family) : callback(new Error(`${hostname} does not resolve`), '');
  });
};

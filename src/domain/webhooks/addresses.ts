/**
 * Which IP addresses a webhook may not target when private URLs are refused (SSRF): anything that is
 * not a globally reachable unicast address. The ranges are ipaddr.js's (its `range()` names follow
 * IANA's IPv4 and IPv6 special-purpose address registries), plus what this module adds below. An
 * address that carries an IPv4 address a router would reach instead (IPv4-mapped, NAT64's well-known
 * prefix) is judged by that IPv4 address; the other translation and tunnelling forms (IPv4-translated,
 * IPv4-compatible, 6to4, Teredo, NAT64's local-use prefix) are refused outright, whatever they carry.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Ranges of IANA's registries that ipaddr.js folds into a wider one (`reserved`, `rfc6052`) or leaves
 * out, named here, checked first. IPv4-compatible addresses (::/96) and the rest of ::/8 fall outside
 * 2000::/3 and are refused as reserved.
 */
const added: Array<[range: string, kind: string]> = [
  ['198.18.0.0/15', 'benchmarking'],
  ['192.0.0.0/24', 'IETF protocol assignment'],
  ['64:ff9b:1::/48', 'NAT64 (local use)'],
  ['::ffff:0:0:0/96', 'IPv4-translated'],
  ['100:0:0:1::/64', 'dummy prefix'],
];
const addedRanges = added.map(([range, kind]) => ({ cidr: ipaddr.parseCIDR(range), kind }));

/** ipaddr.js's range names, as the refusal message says them ("resolves to a ... address"). */
const kindNames: Record<string, string> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  teredo: 'Teredo',
  '6to4': '6to4',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT',
  discard: 'discard-only',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHID',
  droneRemoteIdProtocolEntityTags: 'drone remote ID',
  segmentRouting: 'segment routing',
};

/** IPv6's global unicast space (2000::/3): anything outside it is reserved, multicast or local. */
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): globally reachable, it reaches the IPv4 address in its last 32 bits. */
const nat64WellKnown = ipaddr.parseCIDR('64:ff9b::/96');

/** The address `text` names (a dotted quad, or IPv6 with an optional zone), or null. */
function parse(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : null;
}

function kindOf(address: Address): string | null {
  for (const { cidr, kind } of addedRanges) {
    if (address.kind() === cidr[0].kind() && address.match(cidr)) return kind;
  }
  if (address instanceof ipaddr.IPv6) {
    if (address.isIPv4MappedAddress()) return kindOf(address.toIPv4Address());
    if (address.match(nat64WellKnown)) return kindOf(new ipaddr.IPv4(address.toByteArray().slice(12)));
  }
  const range = address.range();
  if (range !== 'unicast') return kindNames[range] ?? range;
  if (address instanceof ipaddr.IPv6 && !address.match(globalUnicastV6)) return 'reserved';
  return null;
}

export function isIpLiteral(text: string): boolean {
  return parse(text) !== null;
}

/**
 * Why `ip` is not a public unicast address (`loopback`, `private`, `link-local`, `unique-local`,
 * `unspecified`, `benchmarking`, `Teredo`, ...), or null when it is public. Text that is not an IP
 * address is `invalid`.
 */
export function nonPublicKind(ip: string): string | null {
  const address = parse(ip);
  return address ? kindOf(address) : 'invalid';
}

/**
 * Which IP addresses a webhook may not target when private URLs are refused (SSRF): anything that is
 * not a public unicast address, including the IPv6 forms that embed an IPv4 address.
 */

/** The four octets of a dotted-quad IPv4 address, or null. */
export function ipv4Octets(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address (zone index dropped, dotted IPv4 tail allowed), or null. */
export function ipv6Groups(text: string): number[] | null {
  let body = text.toLowerCase().replace(/%.*$/, '');
  const tail = body.slice(body.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const v4 = ipv4Octets(tail);
    if (!v4) return null;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    body = `${body.slice(0, body.length - tail.length)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const split = (s: string | undefined) => (s ? s.split(':') : []);
  const head = split(halves[0]);
  const rest = split(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

export function isIpLiteral(text: string): boolean {
  return ipv4Octets(text) !== null || ipv6Groups(text) !== null;
}

function ipv4Kind([a = 0, b = 0]: number[]): string | null {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'shared (carrier-grade NAT)';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return null;
}

const embeddedV4 = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

function ipv6Kind(g: number[]): string | null {
  const zeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUntil(8)) return 'unspecified';
  if (zeroUntil(7) && g[7] === 1) return 'loopback';
  const first = g[0]!;
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'site-local';
  if ((first & 0xfe00) === 0xfc00) return 'unique-local';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4
  // (2002:AABB:CCDD::) reach the IPv4 address they carry: judge that one.
  const mapped = zeroUntil(5) && (g[5] === 0xffff || g[5] === 0);
  const nat64 = first === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || nat64) return ipv4Kind(embeddedV4(g[6]!, g[7]!));
  if (first === 0x2002) return ipv4Kind(embeddedV4(g[1]!, g[2]!));
  return null;
}

/**
 * Why `ip` is not a public unicast address (`loopback`, `private`, `link-local`, `unique-local`,
 * `unspecified`, ...), or null when it is public. Text that is not an IP address is `invalid`.
 */
export function nonPublicKind(ip: string): string | null {
  const v4 = ipv4Octets(ip);
  if (v4) return ipv4Kind(v4);
  const v6 = ipv6Groups(ip);
  return v6 ? ipv6Kind(v6) : 'invalid';
}

// Where WebFetch may connect: the addresses a host resolves to, judged before the connection and
// bound to it (the socket connects to the address that was checked, never to a second lookup: a
// DNS answer that changes between the check and the connect — rebinding — cannot redirect it).
import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, shared (CGNAT), unspecified, multicast and reserved ranges. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address embedded in an IPv6 one (mapped `::ffff:a.b.c.d`, compatible, NAT64 `64:ff9b::/96`), if any. */
function embeddedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

/** Is this IP address loopback, private, link-local or otherwise not on the public internet? */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIPv4(address);
    if (v4 !== undefined) return INTERNAL.check(v4, 'ipv4');
    return INTERNAL.check(address, 'ipv6');
  }
  return true; // not an address at all: never treated as public
}

/** A URL's hostname as an address or a DNS name: brackets of an IPv6 literal removed, lower case, trailing dots dropped. */
export function bareHost(hostname: string): string {
  const h = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return h.toLowerCase().replace(/\.+$/, '');
}

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedHost[]>;

export const systemResolver: Resolver = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * The address to connect to for `host`, or why there is none. Every address the name resolves to
 * is judged: one internal address among public ones refuses the host (a name that points inside
 * is not fetched by accident of which answer comes first), unless `internalAllowed`.
 */
export async function checkedAddress(
  host: string,
  internalAllowed: boolean,
  resolve: Resolver = systemResolver,
): Promise<{ ok: true; address: ResolvedHost } | { ok: false; message: string }> {
  const bare = bareHost(host);
  let addresses: ResolvedHost[];
  const literal = isIP(bare);
  if (literal) addresses = [{ address: bare, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(bare);
    } catch (err) {
      return { ok: false, message: `${bare} could not be resolved: ${(err as Error).message}` };
    }
  }
  if (addresses.length === 0) return { ok: false, message: `${bare} resolves to no address.` };
  const internal = addresses.filter((a) => isInternalAddress(a.address));
  if (internal.length > 0 && !internalAllowed)
    return {
      ok: false,
      message: `${bare} resolves to ${internal[0]!.address}, a loopback, private or link-local address: WebFetch does not connect there unless an allow rule names the host (WebFetch(domain:${bare})).`,
    };
  return { ok: true, address: addresses[0]! };
}

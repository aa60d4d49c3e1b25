import dns from 'node:dns';
import net from 'node:net';

/**
 * Which addresses WebFetch may connect to. Everything that is not the public internet is off
 * limits unless an allow rule names the host: loopback, private (RFC 1918, unique local), link-local
 * (where cloud metadata services answer), carrier-grade NAT, "this network", multicast, reserved and
 * documentation ranges, and the IPv6 forms that embed such an IPv4 address (mapped, NAT64, 6to4).
 */
const NOT_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * True when `address` (an IP literal) is on the public internet. Anything unparsable is not. IPv4
 * addresses mapped into IPv6 (`::ffff:127.0.0.1`) are judged as the IPv4 address they carry.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = net.isIP(bare);
  if (family === 0) return false;
  // The block list judges an IPv4-mapped IPv6 address (either spelling) by its IPv4 rules.
  return !NOT_PUBLIC.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** Raised (as a `lookup` error) when a host resolves to an address WebFetch may not reach. */
export class PrivateAddressError extends Error {
  readonly code = 'EHOOKLOOP_PRIVATE_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'PrivateAddressError';
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` that resolves the host and refuses the connection unless every
 * address it resolves to is public (or `allowPrivate`). The socket connects to the very address
 * checked here, so a name that answers differently a moment later (DNS rebinding) gains nothing.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      const blocked = allowPrivate ? undefined : list.find((entry) => !isPublicAddress(entry.address));
      if (blocked !== undefined)
        return callback(new PrivateAddressError(hostname, blocked.address) as NodeJS.ErrnoException, []);
      if (options.all === true) return callback(null, list);
      const first = list[0];
      if (first === undefined)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

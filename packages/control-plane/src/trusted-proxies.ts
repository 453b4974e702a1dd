import { BlockList, isIP } from "node:net";

// Which address a request came from, for per-address limits (sign-in throttling). By default the
// socket's own address: X-Forwarded-For is a header any client can write, so it is believed only
// when the socket belongs to a proxy the operator listed (SOLSERVER_TRUSTED_PROXIES), and then
// read from the right, where the trusted proxies appended what they saw, to the first hop that
// is not one of them.

/**
 * An address as written by a socket or a proxy, plain: `::ffff:192.0.2.1` (an IPv4 peer on a
 * dual-stack socket) is 192.0.2.1, and a port some proxies append (`192.0.2.1:5678`,
 * `[2001:db8::1]:443`) is dropped, so the hop is still recognised as an address.
 */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  const withoutPort =
    /^\[([0-9a-f:.]+)\](?::\d+)?$/i.exec(trimmed)?.[1] ??
    /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(trimmed)?.[1] ??
    trimmed;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(withoutPort);
  return (mapped?.[1] ?? withoutPort).toLowerCase();
}

/** The eight groups of an IPv6 address, as lowercase hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let s = address.toLowerCase();
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = s.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16).toString(16));
}

/**
 * An address as per-address limits count it: an IPv6 address by its /64 network (one host or
 * home gets a whole /64 and can rotate through it at will), any other address as it is.
 */
export function throttleAddress(address: string): string {
  const plain = address.split("%")[0] ?? address;
  if (isIP(plain) !== 6) return address;
  return `${ipv6Groups(plain).slice(0, 4).join(":")}::/64`;
}

/** Why an entry of SOLSERVER_TRUSTED_PROXIES is not an address or a CIDR range, or null. */
export function trustedProxyProblem(entry: string): string | null {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return "must be an IP address or a CIDR range such as 10.0.0.0/8";
  if (prefix === undefined) return null;
  const bits = Number(prefix);
  const max = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || bits > max) return `must have a prefix length between 0 and ${max}`;
  return null;
}

export type TProxyMatcher = (address: string) => boolean;

/** Whether an address is one of the trusted proxies (entries already validated by the env schema). */
export function proxyMatcher(entries: readonly string[]): TProxyMatcher {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(normalizeAddress(address), type);
    else list.addSubnet(normalizeAddress(address), Number(prefix), type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * The client's address: `peer` (the socket's address) unless it is a trusted proxy; then the
 * rightmost X-Forwarded-For hop that is not a trusted proxy. A hop that is not an address ends
 * the walk at the last trusted hop seen: a proxy that appends garbage is not believed further.
 */
export function clientAddressOf(peer: string | null, forwardedFor: string | null, isTrusted: TProxyMatcher): string {
  const socket = peer ? normalizeAddress(peer) : "";
  if (!socket) return "unknown";
  if (!isTrusted(socket) || !forwardedFor) return socket;
  let client = socket;
  const hops = forwardedFor.split(",").map(normalizeAddress).reverse();
  for (const hop of hops) {
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!isTrusted(hop)) return hop;
  }
  return client;
}

import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { WEBHOOKS_PRIVATE_ENV, WebhookError } from "./webhook-error";

// Which addresses a workflow webhook (or checkpoint notification) may reach: by default none that
// resolves to a loopback, private or link-local network, checked before a delivery and again by
// the connection's own lookup, so a definition cannot turn the server into a proxy to internal
// services (docs/workflows-webhooks.md).

export type TLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export function privateNetworksAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  // The one reading of the variable: "1" allows (env.ts refuses anything but 0 and 1 at start-up).
  return env[WEBHOOKS_PRIVATE_ENV]?.trim() === "1";
}

// ---------------------------------------------------------------------------------------------
// Addresses

type TRange = { net: number; bits: number; kind: string };

function v4(text: string): number {
  return text.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

const V4_RANGES: readonly TRange[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (carrier-grade NAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved (benchmarking)"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
].map(([net, bits, kind]) => ({ net: v4(net as string), bits: bits as number, kind: kind as string }));

function v4Kind(address: number): string | undefined {
  for (const range of V4_RANGES) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(address / size) === Math.floor(range.net / size)) return range.kind;
  }
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (an embedded dotted IPv4 tail included). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1]) {
    const n = v4(dotted[1]);
    text = `${text.slice(0, dotted.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
}

function v6Kind(address: string): string | undefined {
  const g = v6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = g6 * 65536 + g7;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return "unspecified";
  if (zeroTo(7) && g7 === 1) return "loopback";
  const inner = (label: string, v4Address: number) => {
    const kind = v4Kind(v4Address);
    return kind === undefined ? undefined : `${label} ${kind}`;
  };
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d),
  // 6to4 (2002:aabb:ccdd::) all reach the embedded IPv4 address.
  if (zeroTo(5) && g5 === 0xffff) return inner("IPv4-mapped", embedded);
  if (zeroTo(6)) return inner("IPv4-compatible", embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return inner("NAT64", embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "private (local NAT64)";
  if (g0 === 0x2002) return inner("6to4", g1 * 65536 + g2);
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "reserved (discard)";
  if ((g0 & 0xfe00) === 0xfc00) return "private (unique local)";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "private (site-local)";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return undefined;
}

/**
 * Why an IP address is not a public one ("loopback", "private", "link-local", "IPv4-mapped
 * loopback", …), or undefined when it is public (or not an IP address at all).
 */
export function nonPublicAddressKind(address: string): string | undefined {
  const plain = (address.split("%")[0] ?? address).replace(/^\[|\]$/g, "");
  const family = isIP(plain);
  if (family === 4) return v4Kind(v4(plain));
  if (family === 6) return v6Kind(plain);
  return undefined;
}

export const defaultLookup: TLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The connection's own name lookup refuses non-public addresses too. checkDestination resolves the
 * name before a delivery, but fetch resolves it again when it connects: a name that answers with a
 * public address first and 127.0.0.1 next (DNS rebinding) would pass the first check. Checked here,
 * the address connected to is the one that was checked.
 */
const publicOnlyAgent = new Agent({
  connect: {
    lookup: (hostname, options, callback) => {
      dnsLookup(hostname, { all: true, verbatim: true }).then(
        (addresses) => {
          const refused = addresses.find((a) => nonPublicAddressKind(a.address) !== undefined);
          if (refused) {
            const kind = nonPublicAddressKind(refused.address);
            callback(new WebhookError(`${hostname} resolves to ${refused.address}, a ${kind} address`), "", 0);
          } else if ((options as { all?: boolean }).all) {
            (callback as unknown as (e: null, list: typeof addresses) => void)(null, addresses);
          } else {
            const first = addresses[0];
            if (!first) callback(new Error(`${hostname} resolves to no address`), "", 0);
            else callback(null, first.address, first.family);
          }
        },
        (error: NodeJS.ErrnoException) => callback(error, "", 0),
      );
    },
  },
});

/** fetch over the public-only connection (undici's own fetch, so the agent is its own version). */
export const publicFetch: typeof fetch = (input, init) =>
  undiciFetch(input as string | URL, {
    ...(init as object),
    dispatcher: publicOnlyAgent,
  }) as unknown as Promise<Response>;

/**
 * Refuses (WebhookError, nothing sent) a URL whose host is, or resolves to, a non-public address;
 * every address the name resolves to is checked. Resolution failures are network errors (thrown
 * as they are, so the caller retries them).
 */
export async function checkDestination(url: URL, lookup: TLookup): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) !== 0 ? [host] : (await lookup(host)).map((entry) => entry.address);
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  for (const address of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind === undefined) continue;
    const what = address === host ? `${host} is` : `${host} resolves to ${address},`;
    throw new WebhookError(
      `${what} a ${kind} address; webhooks to private networks are refused unless ${WEBHOOKS_PRIVATE_ENV}=1`,
    );
  }
}

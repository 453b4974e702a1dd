// The client's address for per-address limits: the socket's unless it is a trusted proxy, then
// X-Forwarded-For read from the right; and the SOLSERVER_TRUSTED_PROXIES setting.
import { describe, expect, it } from "vitest";
import {
  clientAddressOf,
  loadServerEnv,
  normalizeAddress,
  proxyMatcher,
  throttleAddress,
  trustedProxyProblem,
} from "../src";

describe("clientAddressOf", () => {
  const none = proxyMatcher([]);
  const proxies = proxyMatcher(["10.0.0.1", "172.16.0.0/12", "fd00::/8"]);

  it.each([
    // [peer, X-Forwarded-For, trusted, expected]
    ["203.0.113.7", null, none, "203.0.113.7"],
    ["203.0.113.7", "198.51.100.1", none, "203.0.113.7"],
    ["::ffff:203.0.113.7", "198.51.100.1", none, "203.0.113.7"],
    [null, "198.51.100.1", none, "unknown"],
    ["", null, none, "unknown"],
    // An untrusted peer's header is ignored even with proxies configured.
    ["203.0.113.7", "198.51.100.1", proxies, "203.0.113.7"],
    // A trusted proxy: the hop it appended.
    ["10.0.0.1", "198.51.100.1", proxies, "198.51.100.1"],
    ["::ffff:10.0.0.1", "198.51.100.1", proxies, "198.51.100.1"],
    // A client that forges hops to the left: the rightmost untrusted hop wins.
    ["10.0.0.1", "1.2.3.4, 198.51.100.1", proxies, "198.51.100.1"],
    // A chain of trusted proxies is skipped.
    ["10.0.0.1", "1.2.3.4, 198.51.100.1, 172.20.0.3", proxies, "198.51.100.1"],
    ["fd00::5", "2001:db8::1, fd12::9", proxies, "2001:db8::1"],
    // All hops trusted: the leftmost.
    ["10.0.0.1", "172.16.0.9", proxies, "172.16.0.9"],
    // A trusted proxy without the header: the proxy itself.
    ["10.0.0.1", null, proxies, "10.0.0.1"],
    // Garbage where an address should be ends the walk at the last trusted hop.
    ["10.0.0.1", "198.51.100.1, not-an-ip", proxies, "10.0.0.1"],
    ["10.0.0.1", "not-an-ip, 172.16.0.9", proxies, "172.16.0.9"],
  ] as const)("peer %s, X-Forwarded-For %s → %s", (peer, forwarded, trusted, expected) => {
    expect(clientAddressOf(peer, forwarded, trusted)).toBe(expected);
  });

  it("normalizes IPv4-mapped IPv6 and case", () => {
    expect(normalizeAddress(" ::FFFF:192.0.2.1 ")).toBe("192.0.2.1");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8::1");
  });

  it("drops a port a proxy appended, so the hop still counts as an address", () => {
    expect(normalizeAddress("203.0.113.9:5678")).toBe("203.0.113.9");
    expect(normalizeAddress("[2001:db8::7]:443")).toBe("2001:db8::7");
    const trusted = proxyMatcher(["10.0.0.1"]);
    expect(clientAddressOf("10.0.0.1", "203.0.113.9:5678", trusted)).toBe("203.0.113.9");
  });
});

describe("throttleAddress", () => {
  it("counts an IPv6 client by its /64, whatever its spelling", () => {
    const net = "2001:db8:0:12::/64";
    for (const a of [
      "2001:db8:0:12::1",
      "2001:0DB8:0000:0012:ffff:1:2:3",
      "2001:db8:0:12:a:b:c:d",
      "2001:db8::12:0:0:0:1",
    ])
      expect(throttleAddress(a), a).toBe(net);
    expect(throttleAddress("2001:db8:0:13::1")).not.toBe(net);
    expect(throttleAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(throttleAddress("::1")).toBe("0:0:0:0::/64");
    expect(throttleAddress("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it("leaves IPv4 and anything else as it is", () => {
    expect(throttleAddress("192.0.2.1")).toBe("192.0.2.1");
    expect(throttleAddress("unknown")).toBe("unknown");
  });
});

describe("SOLSERVER_TRUSTED_PROXIES", () => {
  const env = (value: string) =>
    loadServerEnv({ SOLSERVER_TRUSTED_PROXIES: value, BETTER_AUTH_SECRET: "x".repeat(32) });

  it("is empty by default and accepts addresses and CIDR ranges", () => {
    expect(loadServerEnv({ BETTER_AUTH_SECRET: "x".repeat(32) }).trustedProxies).toEqual([]);
    expect(env(" 10.0.0.1, 172.16.0.0/12 ,fd00::/8").trustedProxies).toEqual(["10.0.0.1", "172.16.0.0/12", "fd00::/8"]);
  });

  it.each([
    ["localhost", "must be an IP address or a CIDR range"],
    ["10.0.0.0/33", "must have a prefix length between 0 and 32"],
    ["fd00::/129", "must have a prefix length between 0 and 128"],
    ["10.0.0.0/8/1", "must be an IP address or a CIDR range"],
    ["10.0.0.0/x", "must have a prefix length"],
  ])("refuses %s", (entry, problem) => {
    expect(trustedProxyProblem(entry)).toMatch(problem);
    expect(() => env(entry)).toThrow(`SOLSERVER_TRUSTED_PROXIES: "${entry}" ${problem}`);
  });
});

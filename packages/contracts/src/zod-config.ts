import { z } from "zod";

// zod compiles object parsers with `new Function`, probing for it when the first object schema
// is built. In the browser the dashboard's CSP refuses eval, so that probe is a reported
// violation: parse without the JIT there. Servers keep it (it is faster, and no CSP applies).
if ("window" in globalThis) z.config({ jitless: true });

#!/usr/bin/env node
// The `breakpoint` bin: runs the bundle built by scripts/build.mjs (dist/ is not committed).
import { existsSync } from "node:fs";

const bundle = new URL("../dist/breakpoint.mjs", import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    "breakpoint: error: not built (dist/breakpoint.mjs is missing): run `pnpm --filter @solserver/breakpoint build`\n",
  );
  process.exit(4);
}
try {
  await import(bundle.href);
} catch (err) {
  process.stderr.write(`breakpoint: internal error: cannot load ${bundle.pathname}: ${err?.message ?? err}\n`);
  process.exit(4);
}

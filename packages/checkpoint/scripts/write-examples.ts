// Writes examples/umbra-beat.yaml from UMBRA_BEAT_YAML (src/umbra-beat.ts), its one source: the
// shipped workflow is a constant so pure code loads it without a file, and the example beside the
// seed patterns is generated from it. test/examples.test.ts fails when the file drifts.
// Run: `pnpm checkpoint:examples` (from the repository root).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { UMBRA_BEAT_YAML } from "../src/umbra-beat";

const file = path.resolve(import.meta.dirname, "../examples/umbra-beat.yaml");
writeFileSync(file, UMBRA_BEAT_YAML);
console.log(`wrote ${path.relative(process.cwd(), file)}`);

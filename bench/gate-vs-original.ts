// Benchmark: our BreakPoint gate (@solserver/gate + the `breakpoint` CLI) side by side with the
// original Python library it re-implements, breakpoint-ai 0.2.2 (read from its git mirror and run
// with this machine's python3; it imports only the standard library, which step 0 checks).
// 0. extract the original into a temp directory, check its imports, build our CLI;
// 1. the original's own example cases: the 20 baseline/candidate pairs of its examples/ and
//    test_examples/ folders, each in lite, full and lite --strict (60 cases): both CLIs once per
//    case (one process each), both libraries in-process, and the two decisions;
// 2. 1,000 generated pairs (deterministic PRNG, bench/gate.ts's vocabulary: prose with numbers,
//    dates, prices, some PII and PII look-alikes, varied costs, latencies and length changes) in a
//    temp directory: our `breakpoint batch <dir> --json` (one process), our evaluate() in-process,
//    the original's evaluate() in one python process over all pairs (it has no batch command), and
//    both CLIs once per pair on a sample (--cli-sample, default every 10th pair);
// 3. the adversarial 100 KB shapes of bench/gate.ts through both, full mode, default config: ours
//    in-process and through the CLI; the original through its CLI's main() in its own process with
//    a per-case timeout (--timeout, default 120 s);
// 4. agreement of the lite decisions on the 1,000 pairs (and on the 60 cases, and full mode on the
//    1,000), with the kinds of disagreement and examples of each.
// Run: `pnpm bench:gate-vs-original` (options: --pairs N, --cli-sample N, --timeout S,
// --original <git dir>; --keep keeps the temp inputs, --skip-adversarial for a quick check).
// Writes bench/results/gate-vs-original.json.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { evaluate, jsonStrings, scanPii } from "@solserver/gate";

const { values } = parseArgs({
  options: {
    pairs: { type: "string", default: "1000" },
    "cli-sample": { type: "string", default: "100" },
    timeout: { type: "string", default: "120" },
    original: { type: "string", default: "/work/.mirror/cholmess+breakpoint-ai/repo" },
    keep: { type: "boolean", default: false },
    "skip-adversarial": { type: "boolean", default: false },
  },
});
const PAIRS = Number(values.pairs);
const CLI_SAMPLE = Number(values["cli-sample"]);
const TIMEOUT_S = Number(values.timeout);
if (!Number.isInteger(PAIRS) || PAIRS < 10 || PAIRS > 100_000) fail("--pairs must be an integer in [10, 100000]");
if (!Number.isInteger(CLI_SAMPLE) || CLI_SAMPLE < 0 || CLI_SAMPLE > PAIRS) fail("--cli-sample must be in [0, --pairs]");
if (!Number.isFinite(TIMEOUT_S) || TIMEOUT_S < 1 || TIMEOUT_S > 3600) fail("--timeout must be seconds in [1, 3600]");

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

const ROOT = path.resolve(import.meta.dirname, "..");
const OUR_BIN = path.join(ROOT, "packages", "breakpoint", "bin", "breakpoint.mjs");
const TMP = mkdtempSync(path.join(os.tmpdir(), "gate-vs-original-"));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const log = (line: string) => process.stderr.write(`${line}\n`);
const loadAtStart = os.loadavg();

// ---------------------------------------------------------------------------------------------
// 0. The original, python, our CLI.

const ORIG = path.join(TMP, "original");
mkdirSync(ORIG);
let originalCommit: string;
try {
  originalCommit = execFileSync("git", ["-C", values.original, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  const archive = execFileSync("git", ["-C", values.original, "archive", "HEAD"], { maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", ORIG], { input: archive });
} catch (err) {
  fail(`cannot extract the original from ${values.original}: ${(err as Error).message.split("\n")[0]}`);
}
const origVersion = /^version = "([^"]+)"/m.exec(readFileSync(path.join(ORIG, "pyproject.toml"), "utf8"))?.[1] ?? "?";
// Its CLI asks importlib.metadata for the version of the installed distribution "breakpoint-ai":
// a minimal dist-info stands in for `pip install` (no network needed, nothing installed).
mkdirSync(path.join(ORIG, `breakpoint_ai-${origVersion}.dist-info`));
writeFileSync(
  path.join(ORIG, `breakpoint_ai-${origVersion}.dist-info`, "METADATA"),
  `Metadata-Version: 2.1\nName: breakpoint-ai\nVersion: ${origVersion}\n`,
);

// The real interpreter, not a pyenv shim (a shim adds a bash + pyenv start to every process).
let PYTHON: string;
try {
  PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
} catch {
  fail("python3 is not available");
}
// A clean environment for the original: its config can come from BREAKPOINT_* variables.
const PY_ENV: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PYTHONPATH: ORIG, LANG: "C.UTF-8" };
for (const key of Object.keys(PY_ENV)) if (PY_ENV[key] === undefined) delete PY_ENV[key];

const PY_FILES: Record<string, string> = {
  // Which non-standard-library modules do the evaluator and the CLI import?
  "imports.py": `
import json, sys
before = set(sys.modules)
import breakpoint.engine.evaluator, breakpoint.cli.main
new = set(sys.modules) - before
tops = sorted({m.split(".")[0] for m in new} - set(sys.stdlib_module_names) - {"breakpoint"})
print(json.dumps({"python": sys.version.split()[0], "third_party": tops, "modules_loaded": len(new)}))
`,
  // The original's evaluate() over every <name>.baseline.json + <name>.candidate.json of a
  // directory in one process: read both files, evaluate (timed), serialise the decision, like a
  // batch command would. argv: dir mode strict(0/1) reps details(0/1).
  "batch.py": `
import json, os, re, sys, time
t0 = time.perf_counter()
from breakpoint.engine.evaluator import evaluate
from breakpoint.engine.config import load_config
from breakpoint.engine.policies.pii import _is_luhn_valid
t1 = time.perf_counter()
folder, mode, strict, reps, details = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4]), sys.argv[5] == "1"
names = sorted(f[: -len(".baseline.json")] for f in os.listdir(folder) if f.endswith(".baseline.json"))
eval_s = 0.0
rows = []
for name in names:
    with open(os.path.join(folder, name + ".baseline.json"), encoding="utf-8") as f:
        baseline = json.load(f)
    with open(os.path.join(folder, name + ".candidate.json"), encoding="utf-8") as f:
        candidate = json.load(f)
    t = time.perf_counter()
    for _ in range(reps):
        decision = evaluate(baseline=baseline, candidate=candidate, mode=mode, strict=strict)
    eval_s += time.perf_counter() - t
    rows.append({"name": name, "decision": decision.to_dict(), "candidate": candidate.get("output", "")})
report = json.dumps([r["decision"] for r in rows])
t2 = time.perf_counter()
results = []
patterns = load_config()["pii_policy"]["patterns"] if details else {}
for r in rows:
    row = {"name": r["name"], "status": r["decision"]["status"], "reason_codes": r["decision"]["reason_codes"]}
    if details:
        text = r["candidate"] if isinstance(r["candidate"], str) else str(r["candidate"])
        found = []
        for label, pattern in patterns.items():
            for m in re.finditer(pattern, text):
                if label == "credit_card" and not _is_luhn_valid(m.group(0)):
                    continue
                found.append({"type": label.upper(), "value": m.group(0), "start": m.start(), "end": m.end()})
        row["pii"] = found
    results.append(row)
print(json.dumps({
    "import_ms": (t1 - t0) * 1000, "eval_ms": eval_s * 1000 / reps, "run_ms": (t2 - t0) * 1000,
    "report_bytes": len(report), "results": results,
}))
`,
  // The original's CLI main() in this process, timed around the call (stdout captured).
  "cli_timed.py": `
import contextlib, io, json, sys, time
t0 = time.perf_counter()
from breakpoint.cli.main import main
t1 = time.perf_counter()
sys.argv = ["breakpoint"] + sys.argv[1:]
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    rc = main()
t2 = time.perf_counter()
decision = json.loads(buf.getvalue())
print(json.dumps({"import_ms": (t1 - t0) * 1000, "main_ms": (t2 - t1) * 1000, "rc": rc,
                  "status": decision["status"], "reason_codes": decision["reason_codes"]}))
`,
};

import { ADVERSARIAL, ADVERSARIAL_SIZE, gateProse, pad2, WORDS } from "./lib/gate-text";
import { resultsPath } from "./lib/results-file";

for (const [name, code] of Object.entries(PY_FILES)) writeFileSync(path.join(TMP, name), code.trimStart());
/** The original's CLI as its console script runs it. */
const ORIG_CLI = ["-c", "import sys; from breakpoint.cli.main import main; sys.exit(main())"];

function py(args: string[], timeoutMs = 600_000) {
  const started = performance.now();
  const r = spawnSync(PYTHON, args, {
    env: PY_ENV,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    timeout: timeoutMs,
    killSignal: "SIGKILL",
  });
  return { ms: performance.now() - started, ...r };
}
function ours(args: string[]) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [OUR_BIN, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
  return { ms: performance.now() - started, ...r };
}

const imports = JSON.parse(py([path.join(TMP, "imports.py")]).stdout) as {
  python: string;
  third_party: string[];
  modules_loaded: number;
};
if (imports.third_party.length > 0) {
  fail(`the original imports non-standard-library packages: ${imports.third_party.join(", ")}`);
}
log(`original breakpoint-ai ${origVersion} (${originalCommit.slice(0, 7)}), python ${imports.python}: stdlib only`);

let cliBuild = "fresh build";
const build = spawnSync(process.execPath, [path.join(ROOT, "packages", "breakpoint", "scripts", "build.mjs")], {
  encoding: "utf8",
});
if (build.status !== 0) {
  cliBuild = `build failed, existing dist used: ${(build.stderr || build.stdout).split("\n")[0]}`;
  log(`warning: ${cliBuild}`);
}

// ---------------------------------------------------------------------------------------------
// Decisions and their comparison.

type TStatus = "ALLOW" | "WARN" | "BLOCK";
type TPolicyStatus = { status: TStatus; codes: string[] };
type TOurPolicy = { policy: string; status: TStatus; codes: string[] };
type TOurDecision = { status: TStatus; reason_codes: string[]; policies: TOurPolicy[] };
type TPiiHit = { type: string; value: string; start: number; end: number };
type TOrigRow = { name: string; status: TStatus; reason_codes: string[]; pii?: TPiiHit[] };

const RANK: Record<TStatus, number> = { ALLOW: 0, WARN: 1, BLOCK: 2 };
const worse = (a: TStatus, b: TStatus): TStatus => (RANK[b] > RANK[a] ? b : a);

function ourPolicies(d: TOurDecision): Map<string, TPolicyStatus> {
  return new Map(d.policies.map((p) => [p.policy, { status: p.status, codes: p.codes }]));
}
/** The original reports codes only (COST_INCREASE_WARN, PII_EMAIL_BLOCK, ...): policy by prefix. */
function origPolicies(codes: string[]): Map<string, TPolicyStatus> {
  const out = new Map<string, TPolicyStatus>();
  for (const code of codes) {
    const policy = code.startsWith("OUTPUT_CONTRACT_")
      ? "output_contract"
      : code.startsWith("RED_TEAM_")
        ? "red_team"
        : (code.split("_")[0] ?? "").toLowerCase();
    if (policy === "strict") continue;
    const prev = out.get(policy) ?? { status: "ALLOW" as TStatus, codes: [] };
    out.set(policy, {
      status: worse(prev.status, code.includes("BLOCK") ? "BLOCK" : "WARN"),
      codes: [...prev.codes, code],
    });
  }
  return out;
}

type TRecord = { output: string; cost_usd?: number; latency_ms?: number; model?: string; [k: string]: unknown };
type TPairData = { name: string; baseline: TRecord; candidate: TRecord };
type TExample = { pair: string; ours: string; original: string; detail: string };
type TKind = {
  kind: string;
  pairs: number;
  decision_differs: number;
  examples: TExample[];
  /** PII kinds: the matched values with every digit written 9 (e.g. "999-9999999"), by count. */
  value_shapes?: Record<string, number>;
};

const usd = (x: unknown) => (typeof x === "number" ? `$${x < 0.01 ? x.toFixed(4) : x.toFixed(3)}` : "none");
function context(text: string, start: number, end: number): string {
  const before = text.slice(Math.max(0, start - 24), start).replace(/\s+/g, " ");
  const after = text.slice(end, end + 24).replace(/\s+/g, " ");
  return `…${before}[${text.slice(start, end)}]${after}…`;
}
function ourPii(output: string): TPiiHit[] {
  const read = jsonStrings(output) ?? output;
  return scanPii(read).map((m) => ({ type: m.type, value: m.value, start: m.source.start, end: m.source.end }));
}

/**
 * Compare two sets of decisions pair by pair: how many final decisions agree, the confusion
 * matrix, and every policy-level difference grouped by kind with examples.
 */
function compare(pairs: TPairData[], oursBy: Map<string, TOurDecision>, origBy: Map<string, TOrigRow>) {
  const matrix: Record<string, number> = {};
  const kinds = new Map<string, TKind>();
  let agree = 0;
  for (const pair of pairs) {
    const o = oursBy.get(pair.name);
    const g = origBy.get(pair.name);
    if (!o || !g) throw new Error(`missing decision for ${pair.name}`);
    const key = `ours ${o.status} / original ${g.status}`;
    matrix[key] = (matrix[key] ?? 0) + 1;
    const differs = o.status !== g.status;
    if (!differs) agree++;
    const op = ourPolicies(o);
    const gp = origPolicies(g.reason_codes);
    const found: { kind: string; detail: string; shape?: string }[] = [];
    for (const policy of new Set([...op.keys(), ...gp.keys()])) {
      const a = op.get(policy) ?? { status: "ALLOW" as TStatus, codes: [] };
      const b = gp.get(policy) ?? { status: "ALLOW" as TStatus, codes: [] };
      if (policy === "pii") {
        const oursHits = ourPii(pair.candidate.output);
        const origHits = g.pii ?? [];
        const oursTypes = new Set(oursHits.map((h) => h.type));
        const origTypes = new Set(origHits.map((h) => h.type));
        const text = pair.candidate.output;
        for (const t of origTypes) {
          if (oursTypes.has(t)) continue;
          const hit = origHits.find((h) => h.type === t) as TPiiHit;
          found.push({
            kind: `pii: ${t} found by the original only`,
            detail: context(text, hit.start, hit.end),
            shape: hit.value.replace(/[0-9]/g, "9"),
          });
        }
        for (const t of oursTypes) {
          if (origTypes.has(t)) continue;
          const hit = oursHits.find((h) => h.type === t) as TPiiHit;
          found.push({
            kind: `pii: ${t} found by ours only`,
            detail: context(text, hit.start, hit.end),
            shape: hit.value.replace(/[0-9]/g, "9"),
          });
        }
        continue;
      }
      if (a.status === b.status) continue;
      const side = (s: TPolicyStatus) => (s.status === "ALLOW" ? "ALLOW" : `${s.status} ${s.codes.join("+")}`);
      if (policy === "cost") {
        const bc = pair.baseline.cost_usd;
        const cc = pair.candidate.cost_usd;
        const pct = typeof bc === "number" && typeof cc === "number" && bc > 0 ? ((cc - bc) / bc) * 100 : Number.NaN;
        const detail = Number.isNaN(pct)
          ? `cost_usd ${usd(bc)} → ${usd(cc)} (model ${pair.baseline.model ?? "?"} → ${pair.candidate.model ?? "?"})`
          : `cost ${usd(bc)} → ${usd(cc)} (${pct >= 0 ? "+" : ""}${round(pct)}%)`;
        if (b.codes.includes("COST_WARN_LOW_BASELINE")) {
          found.push({
            kind: `cost: baseline under $0.01, original WARN COST_WARN_LOW_BASELINE whatever the change / ours ${side(a)}`,
            detail,
          });
        } else if (b.codes.includes("COST_WARN_MISSING_DATA")) {
          found.push({ kind: "cost: no cost data, original WARNs, ours skips", detail });
        } else {
          found.push({ kind: `cost: ours ${side(a)} / original ${side(b)}`, detail });
        }
        continue;
      }
      let detail = "";
      if (policy === "drift") {
        const bl = [...pair.baseline.output].length;
        const cl = [...pair.candidate.output].length;
        detail = `length ${bl} → ${cl} (${cl >= bl ? "+" : ""}${round(((cl - bl) / Math.max(1, bl)) * 100)}%, ratio ${round(cl / Math.max(1, bl), 3)})`;
      } else if (policy === "latency") {
        const bl = pair.baseline.latency_ms ?? Number.NaN;
        const cl = pair.candidate.latency_ms ?? Number.NaN;
        detail = `latency ${bl} → ${cl} ms (${cl >= bl ? "+" : ""}${round(((cl - bl) / bl) * 100)}%)`;
      } else {
        detail = pair.candidate.output.slice(0, 60);
      }
      found.push({ kind: `${policy}: ours ${side(a)} / original ${side(b)}`, detail });
    }
    for (const f of found) {
      const k = kinds.get(f.kind) ?? { kind: f.kind, pairs: 0, decision_differs: 0, examples: [] };
      k.pairs++;
      if (differs) k.decision_differs++;
      // Two examples, preferring pairs whose decision differs.
      const example = { pair: pair.name, ours: o.status, original: g.status, detail: f.detail };
      if (k.examples.length < 2) k.examples.push(example);
      else if (differs && k.examples.some((e) => e.ours === e.original)) {
        k.examples[k.examples.findIndex((e) => e.ours === e.original)] = example;
      }
      if (f.shape !== undefined) {
        k.value_shapes ??= {};
        k.value_shapes[f.shape] = (k.value_shapes[f.shape] ?? 0) + 1;
      }
      kinds.set(f.kind, k);
    }
  }
  for (const k of kinds.values()) {
    if (k.value_shapes) {
      k.value_shapes = Object.fromEntries(Object.entries(k.value_shapes).sort((a, b) => b[1] - a[1]));
    }
  }
  return {
    pairs: pairs.length,
    agree,
    agree_pct: round((agree / pairs.length) * 100),
    matrix,
    kinds: [...kinds.values()].sort((a, b) => b.decision_differs - a.decision_differs || b.pairs - a.pairs),
  };
}

function writePairs(dir: string, pairs: TPairData[]) {
  mkdirSync(dir, { recursive: true });
  for (const p of pairs) {
    writeFileSync(path.join(dir, `${p.name}.baseline.json`), JSON.stringify(p.baseline));
    writeFileSync(path.join(dir, `${p.name}.candidate.json`), JSON.stringify(p.candidate));
  }
}

/** Run the original's evaluate() over a directory in one process (batch.py). */
function origBatch(dir: string, mode: "lite" | "full", strict: boolean, reps: number, details: boolean) {
  const r = py([path.join(TMP, "batch.py"), dir, mode, strict ? "1" : "0", String(reps), details ? "1" : "0"]);
  if (r.status !== 0) throw new Error(`original batch failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { import_ms: number; eval_ms: number; run_ms: number; results: TOrigRow[] };
  return { wall_ms: r.ms, ...out, byName: new Map(out.results.map((row) => [row.name, row])) };
}

// ---------------------------------------------------------------------------------------------
// 1. The original's own example cases.

const EXAMPLE_PAIRS: [string, string, string][] = [
  ["quickstart-allow", "examples/quickstart/baseline.json", "examples/quickstart/candidate_allow.json"],
  ["quickstart-warn", "examples/quickstart/baseline.json", "examples/quickstart/candidate_warn.json"],
  ["quickstart-block", "examples/quickstart/baseline.json", "examples/quickstart/candidate_block.json"],
  [
    "iw-cost-model-swap",
    "examples/install_worthy/baseline.json",
    "examples/install_worthy/candidate_cost_model_swap.json",
  ],
  [
    "iw-format-regression",
    "examples/install_worthy/baseline.json",
    "examples/install_worthy/candidate_format_regression.json",
  ],
  [
    "iw-killer-tradeoff",
    "examples/install_worthy/baseline.json",
    "examples/install_worthy/candidate_killer_tradeoff.json",
  ],
  ["iw-pii-verbosity", "examples/install_worthy/baseline.json", "examples/install_worthy/candidate_pii_verbosity.json"],
  ["iwd-good", "examples/install-worthy-demo/baseline.json", "examples/install-worthy-demo/candidate_good.json"],
  ["iwd-bad", "examples/install-worthy-demo/baseline.json", "examples/install-worthy-demo/candidate_bad.json"],
  [
    "fastapi-good",
    "examples/fastapi-llm-demo/app/baselines/baseline.json",
    "examples/fastapi-llm-demo/candidates/good.json",
  ],
  [
    "fastapi-bad-format",
    "examples/fastapi-llm-demo/app/baselines/baseline.json",
    "examples/fastapi-llm-demo/candidates/bad_format.json",
  ],
  [
    "fastapi-bad-pii",
    "examples/fastapi-llm-demo/app/baselines/baseline.json",
    "examples/fastapi-llm-demo/candidates/bad_pii.json",
  ],
  [
    "fastapi-bad-tokens",
    "examples/fastapi-llm-demo/app/baselines/baseline.json",
    "examples/fastapi-llm-demo/candidates/bad_tokens.json",
  ],
  ["te-borderline-warn", "test_examples/baseline_borderline.json", "test_examples/candidate_borderline_warn.json"],
  ["te-true-borderline", "test_examples/baseline_borderline.json", "test_examples/candidate_true_borderline.json"],
  ["te-credit-card", "test_examples/baseline_clean.json", "test_examples/candidate_credit_card.json"],
  ["te-valid-credit-card", "test_examples/baseline_clean.json", "test_examples/candidate_valid_credit_card.json"],
  ["te-latency-issue", "test_examples/baseline_fast.json", "test_examples/candidate_latency_issue.json"],
  ["te-empty", "test_examples/baseline_short.json", "test_examples/candidate_empty.json"],
  ["te-token-cost-spike", "test_examples/baseline_token_cost.json", "test_examples/candidate_token_cost_spike.json"],
];
const EXAMPLE_MODES = [
  { label: "lite", mode: "lite" as const, strict: false },
  { label: "full", mode: "full" as const, strict: false },
  { label: "lite --strict", mode: "lite" as const, strict: true },
];
const exampleDir = path.join(TMP, "examples");
mkdirSync(exampleDir);
const examplePairs: TPairData[] = EXAMPLE_PAIRS.map(([name, b, c]) => {
  cpSync(path.join(ORIG, b), path.join(exampleDir, `${name}.baseline.json`));
  cpSync(path.join(ORIG, c), path.join(exampleDir, `${name}.candidate.json`));
  return {
    name,
    baseline: JSON.parse(readFileSync(path.join(ORIG, b), "utf8")),
    candidate: JSON.parse(readFileSync(path.join(ORIG, c), "utf8")),
  };
});

log(`1. the original's example cases: ${examplePairs.length} pairs x ${EXAMPLE_MODES.length} modes, CLI per case`);
const exampleCases: {
  case: string;
  ours: TStatus;
  original: TStatus;
  ours_codes: string[];
  original_codes: string[];
  ours_cli_ms: number;
  original_cli_ms: number;
}[] = [];
const exampleCompare: Record<string, ReturnType<typeof compare>> = {};
const exampleInProcess: Record<string, { ours_ms_per_case: number; original_ms_per_case: number }> = {};
const exampleOursBy = new Map<string, Map<string, TOurDecision>>();
for (const m of EXAMPLE_MODES) {
  const flags = [...(m.mode === "full" ? ["--mode", "full"] : []), ...(m.strict ? ["--strict"] : [])];
  const oursBy = new Map<string, TOurDecision>();
  for (const p of examplePairs) {
    const b = path.join(exampleDir, `${p.name}.baseline.json`);
    const c = path.join(exampleDir, `${p.name}.candidate.json`);
    const o = ours(["evaluate", b, c, "--json", ...flags]);
    if (o.status === null || o.status > 2) throw new Error(`our CLI failed on ${p.name}: ${o.stderr}`);
    const g = py([...ORIG_CLI, "evaluate", b, c, "--json", ...flags]);
    if (g.status !== 0) throw new Error(`the original CLI failed on ${p.name}: ${g.stderr}`);
    const od = JSON.parse(o.stdout) as TOurDecision;
    const gd = JSON.parse(g.stdout) as { status: TStatus; reason_codes: string[] };
    oursBy.set(p.name, od);
    exampleCases.push({
      case: `${p.name} (${m.label})`,
      ours: od.status,
      original: gd.status,
      ours_codes: od.reason_codes,
      original_codes: gd.reason_codes,
      ours_cli_ms: round(o.ms),
      original_cli_ms: round(g.ms),
    });
  }
  exampleOursBy.set(m.label, oursBy);
}
// In-process: both libraries, REPS repetitions of every case. Ours: after warm-up passes over
// every mode (so the first mode measured does not pay for the JIT), the median of 5 passes.
const REPS = 50;
const runExamples = (m: (typeof EXAMPLE_MODES)[number]) => {
  for (const p of examplePairs) {
    for (let i = 0; i < REPS; i++)
      evaluate({ baseline: p.baseline, candidate: p.candidate, mode: m.mode, strict: m.strict });
  }
};
for (let i = 0; i < 3; i++) for (const m of EXAMPLE_MODES) runExamples(m);
for (const m of EXAMPLE_MODES) {
  const passes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    runExamples(m);
    passes.push(performance.now() - started);
  }
  const orig = origBatch(exampleDir, m.mode, m.strict, REPS, true);
  exampleInProcess[m.label] = {
    ours_ms_per_case: round(median(passes) / examplePairs.length / REPS, 4),
    original_ms_per_case: round(orig.eval_ms / examplePairs.length, 4),
  };
  exampleCompare[m.label] = compare(examplePairs, exampleOursBy.get(m.label) as Map<string, TOurDecision>, orig.byName);
}
const examplesSummary = {
  what:
    "the 20 baseline/candidate pairs of the original's examples/ (quickstart, install_worthy, install-worthy-demo, " +
    "fastapi-llm-demo) and test_examples/ folders, each in lite, full and lite --strict (60 cases)",
  cases: exampleCases.length,
  agree: exampleCases.filter((c) => c.ours === c.original).length,
  ours_cli_ms_median: round(median(exampleCases.map((c) => c.ours_cli_ms))),
  original_cli_ms_median: round(median(exampleCases.map((c) => c.original_cli_ms))),
  ours_cli_total_s: round(exampleCases.reduce((s, c) => s + c.ours_cli_ms, 0) / 1000, 2),
  original_cli_total_s: round(exampleCases.reduce((s, c) => s + c.original_cli_ms, 0) / 1000, 2),
  cases_where_ours_cli_slower: exampleCases.filter((c) => c.ours_cli_ms > c.original_cli_ms).length,
  in_process: exampleInProcess,
  by_mode: exampleCompare,
  disagreements: exampleCases.filter((c) => c.ours !== c.original),
};
log(
  `   CLI per case median: ours ${examplesSummary.ours_cli_ms_median} ms, original ${examplesSummary.original_cli_ms_median} ms; ` +
    `agree ${examplesSummary.agree}/${examplesSummary.cases}`,
);

// ---------------------------------------------------------------------------------------------
// 2. 1,000 generated pairs.

// Deterministic answer-like prose (bench/lib/gate-text.ts), seeded so every run measures the same inputs.
const { random, pick, sentence } = gateProse(0x6a7e_0b1d);
const between = (lo: number, hi: number) => lo + random() * (hi - lo);
const logUniform = (lo: number, hi: number) => Math.exp(between(Math.log(lo), Math.log(hi)));
const sentences = (n: number) => Array.from({ length: n }, sentence);

// Real PII, in the formats answers carry it.
const PII_SENTENCES = [
  () =>
    `You can reach the account owner at ${pick(["jane.doe@example.com", "ops+oncall@acme.io", "m.garcia@mail.example.org"])}.`,
  () => `Call ${pick(["415-555-0134", "(415) 555-0134", "+1 415 555 0134", "415.555.0134"])} for urgent issues.`,
  () => `The card on file is ${pick(["4111 1111 1111 1111", "5555-5555-5555-4444", "378282246310005"])}.`,
  () => `The customer's SSN is ${pick(["219-09-9999", "078-05-1120"])}.`,
];
// Numbers that are not PII but that answers are full of: timestamps, order and tracking
// numbers, invoice ids, builds, addresses, ISBNs, amounts.
const LOOKALIKE_SENTENCES = [
  () =>
    `The job ran at 2025-${pad2(1 + Math.floor(random() * 12))}-${pad2(1 + Math.floor(random() * 28))} ` +
    `${pad2(Math.floor(random() * 24))}:${pad2(Math.floor(random() * 60))}:${pad2(Math.floor(random() * 60))} UTC.`,
  () => `Request ${1_700_000_000 + Math.floor(random() * 60_000_000)} was retried twice.`, // a Unix timestamp
  () =>
    `Order ${100 + Math.floor(random() * 900)}-${1_000_000 + Math.floor(random() * 9_000_000)}-${1_000_000 + Math.floor(random() * 9_000_000)} shipped yesterday.`,
  () =>
    `Your tracking number is 1Z 999 AA1 01 ${1000 + Math.floor(random() * 9000)} ${1000 + Math.floor(random() * 9000)}.`,
  () =>
    `Invoice INV-2025-${String(Math.floor(random() * 1e6)).padStart(6, "0")} totals $${(random() * 5000).toFixed(2)}.`,
  () =>
    `Build 2025${pad2(1 + Math.floor(random() * 12))}${pad2(1 + Math.floor(random() * 28))}.${Math.floor(random() * 9)} passed.`,
  () =>
    `Server 10.0.${Math.floor(random() * 256)}.${Math.floor(random() * 256)} answered in ${Math.floor(random() * 900)} ms.`,
  () => "ISBN 978-0-306-40615-7 is out of print.",
  () => `Volume was ${Math.floor(random() * 9000) + 1000} calls, ${Math.floor(random() * 900)} escalations.`,
];
const MODELS: [string, number, number][] = [
  // model, per-call cost range in USD (log-uniform)
  ["gpt-4.1-mini", 0.0002, 0.004],
  ["gpt-4.1", 0.002, 0.04],
  ["claude-sonnet-4", 0.003, 0.06],
  ["o3", 0.01, 0.25],
];

function lightEdit(parts: string[]): string[] {
  const out = [...parts];
  const i = Math.floor(random() * out.length);
  const words = (out[i] as string).split(" ");
  for (let k = 0; k < 1 + Math.floor(random() * 2); k++) words[Math.floor(random() * words.length)] = pick(WORDS);
  out[i] = words.join(" ");
  if (random() < 0.3) out.push(sentence());
  return out;
}
const join = (parts: string[]) =>
  parts.map((s, i) => (i > 0 && random() < 0.2 ? `\n\n${s}` : i > 0 ? ` ${s}` : s)).join("");

const KINDS: [string, number][] = [
  ["same", 35],
  ["cost-up", 15],
  ["cheaper", 5],
  ["longer", 10],
  ["shorter", 8],
  ["pii", 10],
  ["lookalike", 7],
  ["rewrite", 5],
  ["empty-or-refusal", 3],
  ["json", 2],
];
function pickKind(): string {
  let u = random() * 100;
  for (const [kind, weight] of KINDS) {
    u -= weight;
    if (u < 0) return kind;
  }
  return "same";
}

function generatePair(index: number): TPairData & { kind: string } {
  const kind = pickKind();
  const [model, lo, hi] = pick(MODELS);
  const baseCost = Number(logUniform(lo, hi).toFixed(6));
  const baseLatency = Math.round(logUniform(200, 5000));
  const parts = sentences(1 + Math.floor(random() ** 1.5 * 14));
  let baseOut = join(parts);
  let candParts = lightEdit(parts);
  let candOut: string | null = null;
  let costFactor = between(0.85, 1.15);
  let latencyFactor = between(0.8, 1.25);
  let candModel = model;
  switch (kind) {
    case "cost-up":
      costFactor = between(1.15, 1.8);
      latencyFactor = between(0.9, 1.6);
      if (random() < 0.5) candModel = pick(MODELS)[0];
      break;
    case "cheaper":
      costFactor = between(0.3, 0.85);
      candParts = parts.slice(0, Math.max(1, Math.round(parts.length * between(0.6, 1))));
      break;
    case "longer":
      candParts = [...parts, ...sentences(Math.max(1, Math.round(parts.length * between(0.3, 1.5))))];
      costFactor = between(1, 1.6);
      latencyFactor = between(1, 1.8);
      break;
    case "shorter":
      candParts = parts.slice(0, Math.max(1, Math.round(parts.length * between(0.15, 0.75))));
      costFactor = between(0.5, 1);
      break;
    case "pii":
      candParts.splice(Math.floor(random() * (candParts.length + 1)), 0, (pick(PII_SENTENCES) as () => string)());
      break;
    case "lookalike":
      for (let k = 0; k < 1 + Math.floor(random() * 2); k++) {
        candParts.splice(
          Math.floor(random() * (candParts.length + 1)),
          0,
          (pick(LOOKALIKE_SENTENCES) as () => string)(),
        );
      }
      break;
    case "rewrite":
      candParts = sentences(Math.max(1, Math.round(parts.length * between(0.7, 1.3))));
      break;
    case "empty-or-refusal":
      candOut = random() < 1 / 3 ? "" : "I'm sorry, but I can't help with that request.";
      costFactor = between(0.2, 0.6);
      latencyFactor = between(0.3, 0.8);
      break;
    case "json": {
      const base = {
        answer: baseOut,
        ticket: `#${Math.floor(random() * 1e6)}`,
        priority: pick(["low", "medium", "high"]),
      };
      baseOut = JSON.stringify(base);
      const cand: Record<string, unknown> = { ...base, answer: join(candParts) };
      if (random() < 0.3) delete cand.priority;
      candOut = JSON.stringify(cand);
      break;
    }
  }
  return {
    name: `pair-${String(index).padStart(4, "0")}`,
    kind,
    baseline: { output: baseOut, cost_usd: baseCost, latency_ms: baseLatency, model },
    candidate: {
      output: candOut ?? join(candParts),
      cost_usd: Number((baseCost * costFactor).toFixed(6)),
      latency_ms: Math.round(baseLatency * latencyFactor),
      model: candModel,
    },
  };
}

log(`2. ${PAIRS} generated pairs`);
const generated = Array.from({ length: PAIRS }, (_, i) => generatePair(i + 1));
const pairDir = path.join(TMP, "pairs");
writePairs(pairDir, generated);
const kindCounts: Record<string, number> = {};
for (const p of generated) kindCounts[p.kind] = (kindCounts[p.kind] ?? 0) + 1;
const outputChars = generated.flatMap((p) => [p.baseline.output.length, p.candidate.output.length]);

// Our CLI, one process for all pairs (3 runs).
const ourBatchRuns: number[] = [];
let ourBatchReport: { results: { name: string; status: string; decision: TOurDecision | null }[] } | null = null;
for (let r = 0; r < 3; r++) {
  const run = ours(["batch", pairDir, "--json"]);
  if (run.status === null || run.status > 2) throw new Error(`our batch failed: ${run.stderr.slice(0, 500)}`);
  ourBatchRuns.push(run.ms);
  ourBatchReport ??= JSON.parse(run.stdout);
}
const oursLiteBy = new Map<string, TOurDecision>();
for (const row of ourBatchReport?.results ?? []) {
  if (!row.decision) throw new Error(`our batch could not evaluate ${row.name}`);
  oursLiteBy.set(row.name, row.decision);
}

// Our library in-process: evaluate() only, the records already parsed (warm-up pass + 3 passes).
function oursInProcess(mode: "lite" | "full"): { ms: number; by: Map<string, TOurDecision> } {
  const by = new Map<string, TOurDecision>();
  for (const p of generated) by.set(p.name, evaluate({ baseline: p.baseline, candidate: p.candidate, mode }));
  const passes: number[] = [];
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    for (const p of generated) evaluate({ baseline: p.baseline, candidate: p.candidate, mode });
    passes.push(performance.now() - started);
  }
  return { ms: median(passes), by };
}
const oursLite = oursInProcess("lite");
const oursFull = oursInProcess("full");

// The original's evaluate() in one python process over all pairs (3 runs; decisions from the first).
const origRuns = [0, 1, 2].map((r) => origBatch(pairDir, "lite", false, 1, r === 0));
const origLite = origRuns[0] as ReturnType<typeof origBatch>;
const origFull = origBatch(pairDir, "full", false, 1, true);

// Both CLIs once per pair, on every (PAIRS / CLI_SAMPLE)-th pair.
const sample =
  CLI_SAMPLE === 0 ? [] : generated.filter((_, i) => i % Math.floor(PAIRS / CLI_SAMPLE) === 0).slice(0, CLI_SAMPLE);
const perPairOurs: number[] = [];
const perPairOrig: number[] = [];
for (const p of sample) {
  const b = path.join(pairDir, `${p.name}.baseline.json`);
  const c = path.join(pairDir, `${p.name}.candidate.json`);
  perPairOurs.push(ours(["evaluate", b, c, "--json"]).ms);
  const g = py([...ORIG_CLI, "evaluate", b, c, "--json"]);
  if (g.status !== 0) throw new Error(`the original CLI failed on ${p.name}: ${g.stderr}`);
  perPairOrig.push(g.ms);
}

const pairsPerS = (ms: number, n = PAIRS) => round((n / ms) * 1000, 0);
const throughput = {
  pairs: PAIRS,
  our_cli_batch: {
    what: "`breakpoint batch <dir> --json`, one node process for all pairs (reads, evaluates, prints the JSON report)",
    wall_ms_runs: ourBatchRuns.map((x) => round(x)),
    wall_ms: round(median(ourBatchRuns)),
    pairs_per_s: pairsPerS(median(ourBatchRuns)),
  },
  original_one_process: {
    what:
      "python3 running the original's evaluate() over all pairs in one process (reads both files, evaluates, " +
      "serialises the decision); the original has no batch command (`evaluate <baseline> <dir>` compares one " +
      "baseline with many candidates)",
    wall_ms_runs: origRuns.map((r) => round(r.wall_ms)),
    wall_ms: round(median(origRuns.map((r) => r.wall_ms))),
    pairs_per_s: pairsPerS(median(origRuns.map((r) => r.wall_ms))),
    import_ms: round(median(origRuns.map((r) => r.import_ms))),
  },
  in_process_evaluate_only: {
    what: "evaluate() alone, records already parsed; ours: median of 3 passes after a warm-up pass",
    ours_lite_ms: round(oursLite.ms),
    ours_lite_pairs_per_s: pairsPerS(oursLite.ms),
    original_lite_ms: round(median(origRuns.map((r) => r.eval_ms))),
    original_lite_pairs_per_s: pairsPerS(median(origRuns.map((r) => r.eval_ms))),
    ours_full_ms: round(oursFull.ms),
    ours_full_pairs_per_s: pairsPerS(oursFull.ms),
    original_full_ms: round(origFull.eval_ms),
    original_full_pairs_per_s: pairsPerS(origFull.eval_ms),
  },
  cli_once_per_pair: {
    what: `each CLI started once per pair (\`evaluate <baseline> <candidate> --json\`) on ${sample.length} pairs (every ${Math.floor(PAIRS / Math.max(1, CLI_SAMPLE))}th); extrapolated to ${PAIRS}`,
    sample: sample.length,
    ours_ms_median: round(median(perPairOurs)),
    original_ms_median: round(median(perPairOrig)),
    ours_est_total_s: round((median(perPairOurs) * PAIRS) / 1000),
    original_est_total_s: round((median(perPairOrig) * PAIRS) / 1000),
    ours_pairs_per_s: round(1000 / median(perPairOurs), 1),
    original_pairs_per_s: round(1000 / median(perPairOrig), 1),
  },
};
log(
  `   batch: ours CLI ${throughput.our_cli_batch.wall_ms} ms (${throughput.our_cli_batch.pairs_per_s}/s), ` +
    `original one process ${throughput.original_one_process.wall_ms} ms (${throughput.original_one_process.pairs_per_s}/s)`,
);

// ---------------------------------------------------------------------------------------------
// 3. Adversarial 100 KB inputs.

log(`3. ${Object.keys(ADVERSARIAL).length} adversarial 100 KB shapes, full mode (original: timeout ${TIMEOUT_S} s)`);
const advDir = path.join(TMP, "adversarial");
mkdirSync(advDir);
const advBaseline = { output: "A short, ordinary baseline answer.", cost_usd: 0.01, latency_ms: 800 };
const advBaselineFile = path.join(advDir, "baseline.json");
writeFileSync(advBaselineFile, JSON.stringify(advBaseline));
type TAdvRow = {
  shape: string;
  ours_evaluate_ms: number;
  ours_cli_ms: number;
  ours_status: string;
  original_cli_ms: number | "timeout";
  original_main_ms: number | null;
  original_status: string;
  original_codes: string[];
};
const advRows: TAdvRow[] = [];
for (const [shape, output] of values["skip-adversarial"] ? [] : Object.entries(ADVERSARIAL)) {
  const candidate = { output: [output].join(""), cost_usd: 0.01, latency_ms: 800 };
  const file = path.join(advDir, `${advRows.length}.candidate.json`);
  writeFileSync(file, JSON.stringify(candidate));
  // Ours in-process: median of 7 after 2 warm-ups.
  let decision = evaluate({ baseline: advBaseline, candidate, mode: "full" });
  evaluate({ baseline: advBaseline, candidate, mode: "full" });
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    decision = evaluate({ baseline: advBaseline, candidate, mode: "full" });
    runs.push(performance.now() - started);
  }
  const cliRuns = [0, 1, 2].map(() => ours(["evaluate", advBaselineFile, file, "--mode", "full", "--json"]).ms);
  // The original: its CLI's main() in a fresh process; repeated (median of 3) only when fast.
  const origWalls: number[] = [];
  const origMains: number[] = [];
  let origStatus = "";
  let origCodes: string[] = [];
  let timedOut = false;
  for (let i = 0; i < 3; i++) {
    const g = py(
      [path.join(TMP, "cli_timed.py"), "evaluate", advBaselineFile, file, "--mode", "full", "--json"],
      TIMEOUT_S * 1000,
    );
    if (g.error || g.signal) {
      timedOut = true;
      break;
    }
    if (g.status !== 0) throw new Error(`the original failed on ${shape}: ${g.stderr}`);
    const out = JSON.parse(g.stdout) as { main_ms: number; status: string; reason_codes: string[] };
    origWalls.push(g.ms);
    origMains.push(out.main_ms);
    origStatus = out.status;
    origCodes = out.reason_codes;
    if (g.ms > 5000) break;
  }
  const row: TAdvRow = {
    shape,
    ours_evaluate_ms: round(median(runs), 2),
    ours_cli_ms: round(median(cliRuns)),
    ours_status: `${decision.status} ${decision.reason_codes.join(",")}`,
    original_cli_ms: timedOut ? "timeout" : round(median(origWalls)),
    original_main_ms: timedOut ? null : round(median(origMains)),
    original_status: timedOut ? "timeout" : `${origStatus} ${origCodes.join(",")}`,
    original_codes: origCodes,
  };
  advRows.push(row);
  log(
    `   ${shape.padEnd(28)} ours ${row.ours_evaluate_ms} ms in-process, ${row.ours_cli_ms} ms CLI; ` +
      `original ${row.original_cli_ms}${row.original_cli_ms === "timeout" ? "" : " ms"} CLI`,
  );
}
const origMs = (r: TAdvRow) => (r.original_cli_ms === "timeout" ? Number.POSITIVE_INFINITY : r.original_cli_ms);
const NONE: TAdvRow = {
  shape: "(skipped)",
  ours_evaluate_ms: 0,
  ours_cli_ms: 0,
  ours_status: "",
  original_cli_ms: 0,
  original_main_ms: null,
  original_status: "",
  original_codes: [],
};
const worstOurs = advRows.reduce((a, b) => (b.ours_cli_ms > a.ours_cli_ms ? b : a), NONE);
const worstOursEval = advRows.reduce((a, b) => (b.ours_evaluate_ms > a.ours_evaluate_ms ? b : a), NONE);
const worstOrig = advRows.reduce((a, b) => (origMs(b) > origMs(a) ? b : a), NONE);
const adversarial = {
  input_chars: ADVERSARIAL_SIZE,
  mode: "full, default config (ours: PII, cost, drift with similarity, latency, no contract configured)",
  original_timeout_s: TIMEOUT_S,
  worst_ours_cli: { shape: worstOurs.shape, ms: worstOurs.ours_cli_ms },
  worst_ours_evaluate: { shape: worstOursEval.shape, ms: worstOursEval.ours_evaluate_ms },
  worst_original_cli: { shape: worstOrig.shape, ms: worstOrig.original_cli_ms },
  original_over_1s: advRows.filter((r) => origMs(r) > 1000).map((r) => r.shape),
  shapes: advRows,
};

// ---------------------------------------------------------------------------------------------
// 4. Agreement.

const agreementLite = compare(generated, oursLiteBy, origLite.byName);
const agreementFull = compare(generated, oursFull.by, origFull.byName);
// Our CLI and our library must give the same decisions (same code, same defaults).
const cliVsLibrary = generated.filter((p) => oursLiteBy.get(p.name)?.status !== oursLite.by.get(p.name)?.status).length;

// ---------------------------------------------------------------------------------------------
// Results.

const result = {
  date: new Date().toISOString().slice(0, 10),
  machine: {
    description: "shared 2-vCPU development container (other work running alongside)",
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? "?",
    memory_gb: round(os.totalmem() / 2 ** 30),
    load_average_start: loadAtStart.map((x) => round(x, 2)),
    load_average_end: os.loadavg().map((x) => round(x, 2)),
  },
  node: process.version,
  python: imports.python,
  python_executable: PYTHON,
  original: {
    package: `breakpoint-ai ${origVersion}`,
    commit: originalCommit,
    third_party_imports: imports.third_party,
    note:
      "evaluator and CLI import only the standard library (pytest_plugin.py imports pytest, used only as a " +
      "pytest plugin; the declared 'ml' extra is never imported). Run from the extracted source with a minimal " +
      "dist-info so its CLI finds its version.",
  },
  our_cli_build: cliBuild,
  examples: examplesSummary,
  generated_pairs: {
    pairs: PAIRS,
    kinds: kindCounts,
    output_chars_median: median(outputChars),
    output_chars_max: Math.max(...outputChars),
    baseline_cost_under_1_cent: generated.filter((p) => (p.baseline.cost_usd ?? 0) < 0.01).length,
  },
  throughput,
  adversarial,
  agreement_lite: agreementLite,
  agreement_full: agreementFull,
  our_cli_vs_library_status_mismatches: cliVsLibrary,
};
const out = resultsPath("gate-vs-original.json");
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
if (values.keep) log(`inputs kept in ${TMP}`);
else rmSync(TMP, { recursive: true, force: true });

const t = throughput;
console.log(
  `BreakPoint: ours (node ${process.version}) vs breakpoint-ai ${origVersion} (python ${imports.python}), ` +
    `${os.cpus().length} vCPU, load ${loadAtStart.map((x) => round(x, 1)).join("/")}`,
);
console.log(
  `\nThe original's ${examplesSummary.cases} example cases, CLI once per case: median ours ${examplesSummary.ours_cli_ms_median} ms, ` +
    `original ${examplesSummary.original_cli_ms_median} ms (ours slower on ${examplesSummary.cases_where_ours_cli_slower}); ` +
    `decisions agree ${examplesSummary.agree}/${examplesSummary.cases}`,
);
for (const [label, v] of Object.entries(exampleInProcess)) {
  console.log(
    `  in-process ${label.padEnd(14)} ours ${v.ours_ms_per_case} ms/case, original ${v.original_ms_per_case} ms/case`,
  );
}
for (const c of examplesSummary.disagreements) {
  console.log(
    `  differs: ${c.case}: ours ${c.ours} ${c.ours_codes.join(",")} / original ${c.original} ${c.original_codes.join(",")}`,
  );
}
console.log(`\n${PAIRS} generated pairs (lite):`);
console.log(
  `  ours, CLI batch (1 process)          ${t.our_cli_batch.wall_ms} ms  ${t.our_cli_batch.pairs_per_s} pairs/s`,
);
console.log(
  `  original, evaluate() in 1 process    ${t.original_one_process.wall_ms} ms  ${t.original_one_process.pairs_per_s} pairs/s`,
);
console.log(
  `  in-process evaluate() only           ours ${t.in_process_evaluate_only.ours_lite_pairs_per_s}/s, ` +
    `original ${t.in_process_evaluate_only.original_lite_pairs_per_s}/s (full: ${t.in_process_evaluate_only.ours_full_pairs_per_s}/s vs ` +
    `${t.in_process_evaluate_only.original_full_pairs_per_s}/s)`,
);
console.log(
  `  CLI once per pair (${t.cli_once_per_pair.sample} sampled)        ours ${t.cli_once_per_pair.ours_ms_median} ms, ` +
    `original ${t.cli_once_per_pair.original_ms_median} ms per pair (≈ ${t.cli_once_per_pair.ours_est_total_s} s vs ` +
    `${t.cli_once_per_pair.original_est_total_s} s for ${PAIRS})`,
);
console.log(
  `\nAdversarial 100 KB, full mode: worst ours ${worstOurs.ours_cli_ms} ms CLI ("${worstOurs.shape}"), ` +
    `${worstOursEval.ours_evaluate_ms} ms in-process; worst original ${worstOrig.original_cli_ms}${worstOrig.original_cli_ms === "timeout" ? "" : " ms"} ("${worstOrig.shape}")`,
);
console.log(
  `\nAgreement (lite): ${agreementLite.agree}/${PAIRS} (${agreementLite.agree_pct}%); full: ${agreementFull.agree}/${PAIRS} (${agreementFull.agree_pct}%)`,
);
for (const [k, v] of Object.entries(agreementLite.matrix).sort()) console.log(`  ${k.padEnd(32)} ${v}`);
console.log("Kinds of difference (lite): pairs, of which the decision differs");
for (const k of agreementLite.kinds) {
  console.log(`  ${String(k.pairs).padStart(4)} ${String(k.decision_differs).padStart(4)}  ${k.kind}`);
  for (const e of k.examples)
    console.log(`             ${e.pair} (ours ${e.ours} / original ${e.original}): ${e.detail}`);
  if (k.value_shapes) {
    const top = Object.entries(k.value_shapes).slice(0, 6);
    console.log(`             matched values (digits as 9): ${top.map(([v, n]) => `"${v}" ${n}`).join(", ")}`);
  }
}
console.log("Kinds of difference (full mode), pairs / decision differs:");
for (const k of agreementFull.kinds) {
  console.log(`  ${String(k.pairs).padStart(4)} ${String(k.decision_differs).padStart(4)}  ${k.kind}`);
}
console.log(`written to ${path.relative(process.cwd(), out)}`);

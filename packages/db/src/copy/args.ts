// The command line of `pnpm db:copy` (scripts/copy.ts): options, defaults and the help text.
import { parseArgs } from "node:util";
import { resolveDatabaseUrl } from "../database-url";
import { CopyRefusal } from "./refusal";

export const COPY_USAGE = `Usage: pnpm db:copy --to <database URL> [--from <database URL>]

Copies every row of one Solserver database into another, empty one: an existing SQLite file
into a new PostgreSQL database when a team outgrows one machine, or back (a backup, a way back).

  --to <url>    the database to copy into: postgresql://user:password@host:5432/solserver or
                file:path/to/new.db. Created and migrated when missing; it must hold no rows.
  --from <url>  the database to copy from (default: DATABASE_URL, else file:.data/solserver.db).
                It must exist and is only read, in one transaction (a consistent snapshot):
                writes made to it once the copy has started are not copied, so stop the server.
  -h, --help    this text

The copy runs in ONE transaction on the target: when it fails or is interrupted, the target
holds none of the copied rows (only the schema its migrations made), and you can run it again.
Before committing, it checks that every table holds as many rows as in the source.

Not copied, because the target makes them itself: its migration history, the search index, the
candidate index's change log (CfbChange), the vector index (rebuilt from CfbEmbedding) and the
leases the source's processes hold on background work (WorkLease) and their job queue (Job).

Exit codes: 0 copied and verified; 1 the copy failed (the target holds no copied rows);
2 a bad or missing argument, one database given twice, or a --from database that does not
exist (never created); 3 the target already holds rows (nothing was written).`;

export type TCopyArgs = { help: true } | { help: false; from: string; to: string };

const OPTIONS = {
  to: { type: "string" },
  from: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The option a parseArgs message names ('--to', '-x'), or the whole message. */
function optionIn(message: string): string {
  return /'(--?[^'\s,<=]+)/.exec(message)?.[1] ?? message;
}

/** Why parseArgs refused, as one line naming the option and the rule. */
function parseProblem(error: Error & { code?: string }): string {
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `${optionIn(error.message)} is not an option of db:copy (it takes --to, --from and --help)`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      // "Option '-h, --help' does not take an argument" / "Option '--to <value>' argument missing"
      if (error.message.includes("--help")) return "--help takes no value";
      const option = optionIn(error.message);
      return `${option} needs a value: ${option} <database URL>`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${/'([^']*)'/.exec(error.message)?.[1] ?? ""}': name the databases with --to <url> and --from <url>`;
    default:
      return error.message;
  }
}

/**
 * The databases of `pnpm db:copy <argv>`: `--to` (required), `--from` (default DATABASE_URL of
 * `env`, else the default SQLite file). Throws CopyRefusal (exit 2) for anything else.
 */
export function parseCopyArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): TCopyArgs {
  const parse = () =>
    parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false, tokens: true });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    throw new CopyRefusal(parseProblem(error as Error & { code?: string }), 2);
  }
  if (parsed.values.help) return { help: true };
  for (const name of ["to", "from"] as const) {
    const given = parsed.tokens.filter((t) => t.kind === "option" && t.name === name).length;
    if (given > 1) throw new CopyRefusal(`--${name} is given ${given} times: name one database`, 2);
  }
  const { to, from } = parsed.values;
  if (to === undefined)
    throw new CopyRefusal(
      "--to is required: the database to copy into, e.g. --to postgresql://user:password@host:5432/solserver",
      2,
    );
  if (to.trim() === "") throw new CopyRefusal("--to is empty: give the database to copy into", 2);
  if (from !== undefined && from.trim() === "")
    throw new CopyRefusal("--from is empty: give the database to copy from, or leave --from out for DATABASE_URL", 2);
  return { help: false, to: to.trim(), from: from?.trim() ?? resolveDatabaseUrl(env.DATABASE_URL) };
}

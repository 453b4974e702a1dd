import { resolveDatabaseUrl } from "@solserver/db";
import { z } from "zod";

// The server environment, parsed in one place for the web app and the scripts alike. A bad
// value stops start-up with the variable's name and the rule it breaks.
const ZServerEnv = z.object({
  // Empty or unset: the default file; relative paths resolve against the repository root.
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => resolveDatabaseUrl(value))
    .pipe(z.string().startsWith("file:", { error: "must be a SQLite file: URL such as file:.data/solserver.db" })),
  SOLSERVER_MODEL: z
    .enum(["offline"], { error: 'must be "offline" (the only model provider in this build)' })
    .default("offline"),
});

export type TServerEnv = z.infer<typeof ZServerEnv>;

export function loadServerEnv(env: Record<string, string | undefined> = process.env): TServerEnv {
  const parsed = ZServerEnv.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
  throw new Error(`Invalid environment:\n${lines}`);
}

import { defaultDatabaseUrl } from "@solserver/db";
import { z } from "zod";

// Server environment, parsed once. A bad value fails start-up with the variable's name.
const ZEnv = z.object({
  DATABASE_URL: z
    .string()
    .startsWith("file:", { error: "must be a SQLite file: URL (e.g. file:./.data/solserver.db)" })
    .default(defaultDatabaseUrl()),
  SOLSERVER_MODEL: z.enum(["offline"]).default("offline"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

export type TEnv = z.infer<typeof ZEnv>;

let cached: TEnv | undefined;

export function serverEnv(): TEnv {
  if (cached) return cached;
  const parsed = ZEnv.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  cached = parsed.data;
  return cached;
}

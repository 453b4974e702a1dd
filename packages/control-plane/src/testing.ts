// Test support: a control plane with accounts on a fresh, migrated SQLite file.

import type { TCfbSuggestion, TOutputMeta } from "@solserver/contracts";
import { createTestDatabase } from "@solserver/db/testing";
import { createPasswordAccount } from "./auth/auth";
import { openControlPlane, type TOpenOptions } from "./control-plane";
import type { TModelProvider } from "./model/provider";
import { requireSignedIn } from "./services/access";
import type { TServiceContext } from "./services/context";
import type { TActor } from "./services/deps";

export type TTestActor = Extract<TActor, { kind: "user" }>;

export const TEST_BASE_URL = "http://localhost:3000";

export async function openTestControlPlane(opts: Omit<TOpenOptions, "databaseUrl" | "auth"> & { label?: string } = {}) {
  const database = await createTestDatabase(opts.label ?? "cp");
  const opened = await openControlPlane({
    ...opts,
    databaseUrl: database.url,
    auth: {
      secret: "test-secret-test-secret-test-secret-0123",
      baseURL: TEST_BASE_URL,
      trustedOrigins: [TEST_BASE_URL],
    },
  });
  const auth = opened.auth;
  if (!auth) throw new Error("auth missing");
  let counter = 0;
  /** A new account with this role; its actor as a cookie session would resolve it. */
  async function account(role: "user" | "jam", email?: string): Promise<TTestActor & { password: string }> {
    counter++;
    const address = email ?? `${role}${counter}-${process.pid}@test.local`;
    const password = `password-${counter}-long-enough`;
    const { id } = await createPasswordAccount(auth as NonNullable<typeof auth>, {
      email: address,
      name: `${role} ${counter}`,
      password,
      role,
    });
    return { kind: "user", userId: id, email: address, role, via: "cookie", password };
  }
  /** The context a transport would hand a service for this actor (refuses anonymous, as they do). */
  const as = (actor: TActor): TServiceContext => ({ deps: opened.deps, caller: requireSignedIn(actor) });
  return {
    ...opened,
    database,
    account,
    as,
    close: async () => {
      await opened.db.$disconnect();
      await database.cleanup();
    },
  };
}

/** A valid OutputEnvelope with this text: empty meta lists, overridden by `meta`. */
export function testEnvelope(text: string, meta: Partial<TOutputMeta> = {}) {
  return {
    assistant_text: text,
    meta: {
      modeLabel: "System",
      domainHints: [],
      used_cfb_ids: [],
      ignored_cfb_ids: [],
      unknowns: [],
      cfb_suggestions: [],
      ...meta,
    },
  };
}

/**
 * A suggestion as promotion tests script it (they add the confidence, and a rationale if any);
 * `summary` and `text` are the content it proposes, when it proposes any.
 */
export type TTestSuggestion = Pick<
  TCfbSuggestion,
  "op" | "title" | "delta_summary" | "target_cfb_id" | "summary" | "text"
> & {
  tags: string[];
  entities: string[];
};

/** What a scripted model answers on its next turn (set by the test before each turn). */
export type TScriptedAnswer = { suggestions: TCfbSuggestion[]; text?: string; missing?: string[] };

/**
 * A model that answers whatever the test scripted: the suggestions (and missing queries) the
 * turn under test needs, in a valid envelope, so tests drive proposals without the offline
 * model's sentence heuristics.
 */
export function scriptedModel(next: () => TScriptedAnswer): TModelProvider {
  return {
    name: "scripted",
    async generate() {
      const answer = next();
      return {
        envelope: testEnvelope(answer.text ?? "Noted.", {
          ...(answer.missing ? { missing_cfb_queries: answer.missing } : {}),
          cfb_suggestions: answer.suggestions,
        }),
        tokensIn: 1,
        tokensOut: 1,
      };
    },
  };
}

// The CFB draft factory lives with the database's test support, the lowest package that needs it.
export { testCfb } from "@solserver/db/testing";

// The pieces a streamed turn runs on every chunk, for bench/stream.ts to time on their own.
export { assistantTextStream } from "./model/stream-text";
export { createStreamGuard } from "./services/turn/stream-guard";
export { startTestEmbedder, type TTestEmbedder, testEmbedding } from "./testing-embedder";
export {
  scriptedEnvelope,
  scriptedProvider,
  type TScript,
  type TScriptedMeta,
  turnFailure,
} from "./testing-scripted-model";

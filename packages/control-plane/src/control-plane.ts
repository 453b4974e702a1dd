import { randomUUID } from "node:crypto";
import type { TChatRespondRequest, TPromoteRequest } from "@solserver/contracts";
import { ZCfbListRequest, ZProposalListRequest } from "@solserver/contracts";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "@solserver/db";
import type { z } from "zod";
import { loadServerEnv, type TServerEnv } from "./env";
import { createOfflineModel } from "./model/offline-model";
import type { TModelProvider } from "./model/provider";
import { createModel } from "./model/registry";
import type { TActor, TServiceDeps } from "./services/deps";
import { promoteProposal } from "./services/promote";
import { getCfb, getProposal, listCfbs, listProposals } from "./services/read";
import { respondToTurn } from "./services/respond";

/** The application services, bound to their dependencies. Transports call only these. */
export function createControlPlane(deps: TServiceDeps) {
  return {
    chat: {
      respond: (input: TChatRespondRequest) => respondToTurn(deps, input),
    },
    proposals: {
      list: (input: z.input<typeof ZProposalListRequest>) => listProposals(deps, ZProposalListRequest.parse(input)),
      get: (proposalId: string) => getProposal(deps, proposalId),
    },
    promotion: {
      promote: (actor: TActor, input: TPromoteRequest) => promoteProposal(deps, actor, input),
    },
    cfbs: {
      list: (input: z.input<typeof ZCfbListRequest>) => listCfbs(deps, ZCfbListRequest.parse(input)),
      get: (cfbId: string) => getCfb(deps, cfbId),
    },
    system: {
      /** Liveness with a real database read, for probes and start-up checks. */
      health: async () => ({ status: "ok" as const, model: deps.model.name, cfbs: await deps.repos.cfbs.count() }),
    },
  };
}
export type TControlPlane = ReturnType<typeof createControlPlane>;

/** Short, URL-safe thread id: "th-" and 16 hex characters. */
export function newThreadId(): string {
  return `th-${randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/**
 * Opens the control plane on a (migrated) database, with the offline model unless another is
 * given. The web app and scripts use this (see `openControlPlaneFromEnv`); tests pass their own.
 */
export async function openControlPlane(opts: { databaseUrl: string; model?: TModelProvider }): Promise<{
  controlPlane: TControlPlane;
  repos: TRepositories;
  db: DbClient;
}> {
  const db = await createPrismaClient(opts.databaseUrl);
  const repos = createRepositories(db);
  const controlPlane = createControlPlane({
    repos,
    model: opts.model ?? createOfflineModel(),
    now: () => new Date(),
    newThreadId,
  });
  return { controlPlane, repos, db };
}

/** The control plane as the environment configures it (DATABASE_URL, SOLSERVER_MODEL). */
export function openControlPlaneFromEnv(env: TServerEnv = loadServerEnv()) {
  return openControlPlane({ databaseUrl: env.DATABASE_URL, model: createModel(env.SOLSERVER_MODEL) });
}

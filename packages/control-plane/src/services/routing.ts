// Teaching the router (issue 34): a message filed under a domain becomes one of its examples,
// learned by every server process within seconds (routing/router.ts). Filed by a reviewer who
// moves a proposal to another domain (its turn's message), by a Jam editor who teaches a routing
// suggestion (the message of a domain_mismatch trigger), or by hand on the routing page; removed
// there too. Every change is audited.
import {
  DomainError,
  type TRoutingExampleAdd,
  type TRoutingExampleRemove,
  type TRoutingExampleView,
  type TRoutingOverview,
  type TRoutingTeach,
} from "@solserver/contracts";
import type { TRoutingExampleRow, TRoutingExampleSource } from "@solserver/db";
import { domainExamples } from "@solserver/engine";
import { learnable } from "../routing/routing-config";
import { auditActor, requireJam } from "./access";
import type { TCaller, TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";
import { mismatchExcerpt } from "./turn/route";

const view = (r: TRoutingExampleRow): TRoutingExampleView => ({
  id: r.id,
  domain: r.domain,
  text: r.text,
  source: r.source,
  source_ref: r.sourceRef,
  created_by: r.createdById,
  created_ts: r.createdAt,
});

export async function routingOverview({ deps, caller }: TServiceContext): Promise<TRoutingOverview> {
  requireJam(caller, "see the router");
  const router = await deps.routing.current();
  const learned = await deps.repos.routingExamples.list();
  const { config } = router;
  return {
    fallback_domain: config.fallback_domain,
    min_confidence: config.min_confidence,
    meaning: router.model.meaning,
    domains: config.domains.map((d) => ({
      id: d.id,
      label: d.label,
      strict: d.strict,
      scope: d.scope,
      config_examples: domainExamples(d).length,
      learned_examples: learned.filter((e) => e.domain === d.id).length,
      always: d.always,
    })),
    learned: learned.map(view).reverse(),
  };
}

/** Files `text` under `domain` for the router and retrains this process's router. */
async function file(
  deps: TServiceDeps,
  caller: TCaller,
  example: { domain: string; text: string; source: TRoutingExampleSource; sourceRef: string | null },
): Promise<TRoutingExampleRow> {
  if (!deps.routing.config.domains.some((d) => d.id === example.domain))
    throw new DomainError(
      "BAD_INPUT",
      `domain: "${example.domain}" is not a domain of the routing config (${deps.routing.config.domains.map((d) => d.id).join(", ")})`,
      { field: "domain" },
    );
  if (!learnable(example.text))
    throw new DomainError("BAD_INPUT", "text: holds no word the router can learn from", { field: "text" });
  const filed = await deps.repos.routingExamples.add(
    { ...example, createdById: caller.userId },
    { ...auditActor(caller), action: "routing_example.add" },
    deps.now(),
  );
  await deps.routing.refresh();
  return filed;
}

export async function addRoutingExample(
  { deps, caller }: TServiceContext,
  input: TRoutingExampleAdd,
): Promise<TRoutingExampleView> {
  const editor = requireJam(caller, "teach the router");
  return view(await file(deps, editor, { ...input, source: "manual", sourceRef: null }));
}

export async function removeRoutingExample(
  { deps, caller }: TServiceContext,
  { id }: TRoutingExampleRemove,
): Promise<{ id: string; removed: true }> {
  const editor = requireJam(caller, "teach the router");
  if (
    !(await deps.repos.routingExamples.remove(
      id,
      { ...auditActor(editor), action: "routing_example.remove" },
      deps.now(),
    ))
  )
    throw new DomainError("NOT_FOUND", `no routing example ${id}`, { field: "id" });
  await deps.routing.refresh();
  return { id, removed: true };
}

/** A routing suggestion taught: its first message filed under `domain`, the trigger dismissed. */
export async function teachRouting(
  { deps, caller }: TServiceContext,
  { trigger_id, domain }: TRoutingTeach,
): Promise<TRoutingExampleView> {
  const editor = requireJam(caller, "teach the router");
  const trigger = await deps.repos.triggers.open(deps.repetitionThresholds, trigger_id);
  const text = trigger?.kind === "domain_mismatch" ? mismatchExcerpt(trigger.label) : null;
  if (!trigger || text === null)
    throw new DomainError("NOT_FOUND", `trigger ${trigger_id} is not an open routing suggestion`, {
      field: "trigger_id",
    });
  const filed = await file(deps, editor, { domain, text, source: "suggestion", sourceRef: trigger_id });
  await deps.repos.triggers.dismiss(trigger_id);
  return view(filed);
}

/** A reviewer moved a proposal to another domain: the message that proposed it is that domain's. */
export async function learnProposalDomain(
  deps: TServiceDeps,
  caller: TCaller,
  proposal: { proposal_id: string; domain: string },
  moved: string,
  message: string,
): Promise<void> {
  if (moved === proposal.domain || !deps.routing.config.domains.some((d) => d.id === moved)) return;
  if (!learnable(message)) return;
  await file(deps, caller, {
    domain: moved,
    text: message.slice(0, 1000),
    source: "proposal_domain",
    sourceRef: proposal.proposal_id,
  });
}

/**
 * An approval that moved a proposal's domain was undone (proposals.reopen): what it taught the
 * router goes with it, audited like any removal.
 */
export async function unlearnProposalDomain(deps: TServiceDeps, caller: TCaller, proposalId: string): Promise<void> {
  const taught = (await deps.repos.routingExamples.list()).filter(
    (e) => e.source === "proposal_domain" && e.sourceRef === proposalId,
  );
  for (const e of taught)
    await deps.repos.routingExamples.remove(
      e.id,
      { ...auditActor(caller), action: "routing_example.remove" },
      deps.now(),
    );
  if (taught.length > 0) await deps.routing.refresh();
}

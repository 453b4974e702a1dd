import { z } from "zod";

// The routing config of the selector step (seed 001 §7.1): which router_domain and modeLabel a
// turn gets, which domains are strict about claims (§4), and how retrieval is scoped. Shipped
// defaults live in the control plane; SOLSERVER_ROUTING_CONFIG names a YAML or JSON file.

const ZDomainId = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_-]*$/, { error: 'must be a lowercase domain id such as "rv_service"' })
  .max(64, { error: "must be at most 64 characters" });
const ZWordList = z.array(z.string().trim().min(1, { error: "must not be empty" }).max(100)).max(500);
const ZWords = ZWordList.default([]);
export const ZRoutingDomain = z.strictObject({
  id: ZDomainId,
  label: z.string().trim().min(1).max(100),
  /** The Transmission's modeLabel for turns routed here. */
  mode_label: z.string().trim().min(1).max(64),
  /** Every claim of an answer must cite an injected CFB or a declared unknown (seed 001 §4). */
  strict: z.boolean().default(false),
  /** "domain": retrieve only this domain's and shared (general) CFBs; "boost": all, this domain first. */
  scope: z.enum(["domain", "boost"], { error: 'must be "domain" or "boost"' }).default("boost"),
  /**
   * Messages people send about this domain, in any language the analyser reads: what the router's
   * classifier learns the domain from (docs/routing.md).
   */
  examples: z
    .array(
      z.string().trim().min(1, { error: "must not be empty" }).max(1000, { error: "must be at most 1000 characters" }),
    )
    .max(20_000)
    .default([]),
  /** Words and names of the domain: learned as short examples of it. */
  keywords: ZWords,
  tags: ZWords,
  entities: ZWords,
  /** The operator's rules: a message holding one of these phrases routes here, whatever else it says. */
  always: ZWords,
  /** Procedure-catalog systems whose threads route here (procedure mode). */
  procedures: ZWords,
});
export type TRoutingDomainConfig = z.output<typeof ZRoutingDomain>;

export const ZRoutingConfig = z
  .strictObject({
    /** Where an unrouted turn of a new thread goes (docs/routing.md); need not be a listed domain. */
    fallback_domain: ZDomainId.default("general"),
    /** The classifier's probability a route needs; below it the turn is unrouted. */
    min_confidence: z
      .number()
      .gt(0, { error: "must be between 0 and 1 (exclusive)" })
      .lt(1, { error: "must be between 0 and 1 (exclusive)" })
      .default(0.5),
    domains: z.array(ZRoutingDomain).min(1, { error: "must list at least one domain" }),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.domains.forEach((d, i) => {
      if (seen.has(d.id))
        ctx.addIssue({ code: "custom", path: ["domains", i, "id"], message: `duplicate domain id "${d.id}"` });
      seen.add(d.id);
      if (d.examples.length + d.keywords.length === 0)
        ctx.addIssue({
          code: "custom",
          path: ["domains", i, "examples"],
          message: "a domain needs examples (or keywords) to be learned from",
        });
      for (const key of ["examples", "keywords", "tags", "entities", "always"] as const) {
        const entries = new Set<string>();
        d[key].forEach((entry, j) => {
          const folded = entry.toLowerCase().replace(/\s+/g, " ");
          if (entries.has(folded))
            ctx.addIssue({ code: "custom", path: ["domains", i, key, j], message: `duplicate entry "${entry}"` });
          entries.add(folded);
        });
      }
    });
    const owners = new Map<string, string>();
    config.domains.forEach((d, i) => {
      for (const system of d.procedures) {
        const other = owners.get(system);
        if (other !== undefined)
          ctx.addIssue({
            code: "custom",
            path: ["domains", i, "procedures"],
            message: `procedure system "${system}" is already routed to "${other}"`,
          });
        owners.set(system, d.id);
      }
    });
  });
export type TRoutingConfig = z.output<typeof ZRoutingConfig>;
export type TRoutingConfigInput = z.input<typeof ZRoutingConfig>;

/** The selector step's choice for a turn, as the API shows it. */
export const ZRoutingView = z.object({
  router_domain: z.string(),
  mode_label: z.string(),
  strict: z.boolean(),
});
export type TRoutingView = z.infer<typeof ZRoutingView>;

/** A message filed under a domain, that the router learns from (issue 34). */
export const ZRoutingExampleView = z.object({
  id: z.string(),
  domain: z.string(),
  text: z.string(),
  /** How it was filed: a reviewer moved a proposal, a Jam editor taught a suggestion or added it. */
  source: z.enum(["proposal_domain", "suggestion", "manual"]),
  source_ref: z.string().nullable(),
  created_by: z.string().nullable(),
  created_ts: z.string(),
});
export type TRoutingExampleView = z.infer<typeof ZRoutingExampleView>;

/** The router as Jam editors see it: its domains, threshold, fallback and what it learned. */
export const ZRoutingOverview = z.object({
  fallback_domain: z.string(),
  min_confidence: z.number(),
  /** Whether the sentence model's nearest examples vote (it is loaded and the examples embedded). */
  meaning: z.boolean(),
  domains: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      strict: z.boolean(),
      scope: z.enum(["domain", "boost"]),
      /** Examples of the routing config (keywords, tags and entities included), and learned ones. */
      config_examples: z.number().int().nonnegative(),
      learned_examples: z.number().int().nonnegative(),
      always: z.array(z.string()),
    }),
  ),
  learned: z.array(ZRoutingExampleView),
});
export type TRoutingOverview = z.infer<typeof ZRoutingOverview>;

export const ZRoutingExampleAdd = z.strictObject({
  domain: ZDomainId,
  text: z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(1000, { error: "must be at most 1000 characters" }),
});
export type TRoutingExampleAdd = z.infer<typeof ZRoutingExampleAdd>;
export const ZRoutingExampleRemove = z.strictObject({ id: z.string().min(1).max(32) });
export type TRoutingExampleRemove = z.infer<typeof ZRoutingExampleRemove>;
/** A routing suggestion (a domain_mismatch trigger) taught: its message filed under `domain`, the trigger dismissed. */
export const ZRoutingTeach = z.strictObject({ trigger_id: z.string().min(1).max(64), domain: ZDomainId });
export type TRoutingTeach = z.infer<typeof ZRoutingTeach>;

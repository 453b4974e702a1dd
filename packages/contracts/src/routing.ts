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
/** Phrases in other languages by language tag ("de", "fr", "es", "pt-br"). */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;
const ZPhrases = z.record(z.string(), ZWordList).superRefine((phrases, ctx) => {
  for (const language of Object.keys(phrases))
    if (!LANGUAGE_TAG.test(language))
      ctx.addIssue({
        code: "custom",
        path: [language],
        message: 'must be a lowercase language tag such as "de" or "pt-br"',
      });
});

export const ZRoutingDomain = z.strictObject({
  id: ZDomainId,
  label: z.string().trim().min(1).max(100),
  /** The Transmission's modeLabel for turns routed here. */
  mode_label: z.string().trim().min(1).max(64),
  /** Every claim of an answer must cite an injected CFB or a declared unknown (seed 001 §4). */
  strict: z.boolean().default(false),
  /** "domain": retrieve only this domain's and shared (general) CFBs; "boost": all, this domain first. */
  scope: z.enum(["domain", "boost"], { error: 'must be "domain" or "boost"' }).default("boost"),
  keywords: ZWords,
  /**
   * Keywords in other languages, by language tag: `{ de: [Wasserpumpe], fr: [pompe à eau] }`.
   * Every message is matched against all of them (the language is not detected); they score as
   * keywords, and the trace names the language (`keyword(de):Wasserpumpe`).
   */
  phrases: ZPhrases.optional(),
  tags: ZWords,
  entities: ZWords,
  /**
   * Words that say a message is about something else, in any language: each one found counts
   * against the domain as a keyword would for it ("kitchen" or "house" against an RV desk whose
   * keywords include "fridge" and "furnace"; "movie" against "trailer"). The trace names them
   * (`against:kitchen`).
   */
  against: ZWords,
  /** Procedure-catalog systems whose threads route here (procedure mode). */
  procedures: ZWords,
});
export type TRoutingDomainConfig = z.output<typeof ZRoutingDomain>;

export const ZRoutingConfig = z
  .strictObject({
    default_domain: ZDomainId.default("general"),
    /** The score a domain needs to win on this message's words and the thread's history. */
    min_score: z.number().min(0).max(100).default(1),
    domains: z.array(ZRoutingDomain).min(1, { error: "must list at least one domain" }),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.domains.forEach((d, i) => {
      if (seen.has(d.id))
        ctx.addIssue({ code: "custom", path: ["domains", i, "id"], message: `duplicate domain id "${d.id}"` });
      seen.add(d.id);
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

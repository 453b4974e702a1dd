import { z } from "zod";

// Tags are written normalised: near-duplicates (case, separators, plurals, aliases such as
// postgres / postgresql) become one tag (docs/tags.md). The alias table ships with the control
// plane; SOLSERVER_TAG_ALIASES names a YAML or JSON file of this shape that extends or replaces it.

/**
 * What two spellings of a tag share when they are the same tag but for case and separators:
 * "On-Call", "on call" and "oncall" are all "oncall". Plurals and aliases are the normaliser's.
 */
export function tagKey(tag: string): string {
  const lower = tag.normalize("NFKC").trim().toLowerCase();
  return lower.replace(/[\s_./-]+/g, "") || lower;
}

const ZTag = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(64, { error: "must be at most 64 characters" });

export const ZTagAliasConfig = z
  .strictObject({
    /** true (default): these aliases on top of the shipped table; false: these only. */
    shipped: z.boolean({ error: "must be true or false" }).default(true),
    /** Each tag with the other names that mean it: `{ postgresql: [postgres, pg] }`. */
    aliases: z.record(ZTag, z.array(ZTag).min(1, { error: "must list at least one alias" }).max(64)).default({}),
  })
  .superRefine((config, ctx) => {
    // One name, one meaning: an alias listed under two tags, or a name used both as a tag and as
    // an alias, would make the result depend on the order of the file.
    const tags = new Set(Object.keys(config.aliases).map(tagKey));
    const owner = new Map<string, string>();
    for (const [tag, aliases] of Object.entries(config.aliases)) {
      for (const alias of aliases) {
        const key = tagKey(alias);
        if (tags.has(key) && key !== tagKey(tag))
          ctx.addIssue({
            code: "custom",
            path: ["aliases", tag],
            message: `"${alias}" is a tag of its own in this file; a name is either a tag or an alias`,
          });
        const first = owner.get(key);
        if (first !== undefined && first !== tag)
          ctx.addIssue({
            code: "custom",
            path: ["aliases", tag],
            message: `"${alias}" is already an alias of "${first}"; a name may stand for one tag only`,
          });
        owner.set(key, tag);
      }
    }
  });
export type TTagAliasConfig = z.output<typeof ZTagAliasConfig>;
export type TTagAliasConfigInput = z.input<typeof ZTagAliasConfig>;

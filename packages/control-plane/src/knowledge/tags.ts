import { type TTagAliasConfig, tagKey } from "@solserver/contracts";
import { SHIPPED_TAG_ALIASES } from "./tag-aliases";

// Tags as they are written (promotion drafts, a Jam editor's CFB create and edit): one tag per
// meaning. Two tags are the same when their keys (contracts' tagKey: case and separators aside)
// match as singular or plural ("backup" / "Backups", "policy" / "policies", "box" / "boxes"),
// or when one is an alias of the other ("postgres" → "postgresql"). The first spelling is kept;
// an alias is written as the tag it stands for. Rules: docs/tags.md.

/** Alias key (tagKey) → the tag it stands for, as the table spells it. */
export type TTagAliasTable = ReadonlyMap<string, string>;

export type TTagNormalizer = {
  /** `tags` with near-duplicates dropped (the first kept) and aliases written as their tag. */
  normalize: (tags: readonly string[]) => string[];
  /** Whether two tags are the same tag by these rules. */
  same: (a: string, b: string) => boolean;
};

/**
 * A key and the singulars it may be the plural of ("policies" → "policy", "boxes" → "box",
 * "caches" → "cache", "apis" → "api"). Only the last word inflects ("on-call rotations"), and
 * words of three letters are left alone ("ops", "aws"). A form that is no word ("redis" →
 * "redi") matches nothing, so only a real singular merges. Compared both ways, so either
 * spelling may come first.
 */
function forms(key: string): string[] {
  const out = [key];
  if (key.length > 4 && key.endsWith("ies")) out.push(`${key.slice(0, -3)}y`);
  if (key.length > 4 && key.endsWith("es")) out.push(key.slice(0, -2));
  if (key.length > 3 && key.endsWith("s")) out.push(key.slice(0, -1));
  return out;
}

/**
 * The alias table: the shipped one (unless the config turns it off) with the config's on top; a
 * name the config uses, as a tag or an alias, replaces what the shipped table said about it. An
 * alias of a name that is itself an alias ends at the latter's tag. There is no cycle: each group
 * drops what earlier ones said of its own tag, and a file may not use a name both ways.
 */
export function tagAliasTable(config?: TTagAliasConfig | null): TTagAliasTable {
  const table = new Map<string, string>();
  const add = (groups: Readonly<Record<string, readonly string[]>>) => {
    for (const [tag, aliases] of Object.entries(groups)) {
      table.delete(tagKey(tag));
      for (const alias of aliases) if (tagKey(alias) !== tagKey(tag)) table.set(tagKey(alias), tag.trim());
    }
  };
  if (config?.shipped !== false) add(SHIPPED_TAG_ALIASES);
  if (config) add(config.aliases);
  for (const [alias, tag] of table) {
    let to = tag;
    for (let hops = 0; table.has(tagKey(to)) && hops < table.size; hops++) to = table.get(tagKey(to)) as string;
    table.set(alias, to);
  }
  return table;
}

export function createTagNormalizer(aliases: TTagAliasTable = tagAliasTable()): TTagNormalizer {
  /** The tag as written: its alias's tag, else itself (whitespace tidied). */
  const written = (tag: string) => {
    const tidy = tag.trim().replace(/\s+/g, " ");
    for (const form of forms(tagKey(tidy))) {
      const to = aliases.get(form);
      if (to !== undefined) return to;
    }
    return tidy;
  };
  const keys = (tag: string) => forms(tagKey(written(tag)));
  return {
    normalize(tags) {
      const seen = new Set<string>();
      const out: string[] = [];
      for (const tag of tags) {
        const shown = written(tag);
        if (shown === "") continue;
        const own = forms(tagKey(shown));
        if (own.some((k) => seen.has(k))) continue;
        for (const k of own) seen.add(k);
        out.push(shown);
      }
      return out;
    },
    same(a, b) {
      const ka = new Set(keys(a));
      return keys(b).some((k) => ka.has(k));
    },
  };
}

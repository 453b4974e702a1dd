// Function words per language: they say nothing about a subject, so they are never terms.
// Lists from @orama/stopwords (Apache-2.0), plus the fillers a model writes into English
// proposals ("now", "still", "going forward", "please"). Folded as tokens are, so "für" is "fur".
import { stopwords as dutch } from "@orama/stopwords/dutch";
import { stopwords as english } from "@orama/stopwords/english";
import { stopwords as french } from "@orama/stopwords/french";
import { stopwords as german } from "@orama/stopwords/german";
import { stopwords as italian } from "@orama/stopwords/italian";
import { stopwords as portuguese } from "@orama/stopwords/portuguese";
import { stopwords as spanish } from "@orama/stopwords/spanish";
import { fold } from "./fold";
import type { TLanguage } from "./language";
import { tokens } from "./tokens";

const ENGLISH_FILLERS =
  "also already always just now still then via per every others another get gets got going forward new note please let lets make makes made need needs one ones two";

function set(words: readonly string[], extra = ""): ReadonlySet<string> {
  return new Set([...words.flatMap((w) => tokens(fold(w))), ...tokens(extra)]);
}

const LISTS: Readonly<Record<TLanguage, ReadonlySet<string>>> = {
  en: set(english, ENGLISH_FILLERS),
  de: set(german),
  fr: set(french),
  es: set(spanish),
  it: set(italian),
  nl: set(dutch),
  pt: set(portuguese),
};

/** Whether a folded token is a function word of `language` (English when the language is unknown). */
export function isStopword(token: string, language: TLanguage | null = null): boolean {
  return (LISTS[language ?? "en"] as ReadonlySet<string>).has(token);
}

/** Whether a folded token is a function word of any supported language. */
export function isAnyStopword(token: string): boolean {
  for (const list of Object.values(LISTS)) if (list.has(token)) return true;
  return false;
}

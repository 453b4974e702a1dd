// @solserver/text: the one text analyser (pure, no I/O). Every component that reads language
// (retrieval, resolve, the router, the claim checker, the context engine) folds, cuts, stems and
// identifies languages here, so "a word" means the same everywhere; where two callers need
// different behaviour it is an option of one function, not a copy.
export { fold } from "./fold";
export { detectLanguage, LANGUAGES, languagesDiffer, type TLanguage, type TLanguageGuess } from "./language";
export { isNameLike, rawWords, type TRawWord } from "./names";
export { isUnit, quantities, quantityKey, type TQuantity } from "./quantities";
export { Spellings } from "./spellings";
export { stem } from "./stem";
export { isAnyStopword, isStopword } from "./stopwords";
export {
  analysisLanguage,
  analyzeTerms,
  analyzeToken,
  cachedTermSet,
  type TAnalyzeOptions,
  termBigrams,
  termSet,
} from "./terms";
export { clauses, isNumber, type TClause, tokens } from "./tokens";

// Types for snowball-stemmers 0.6 (the package ships none): what stem.ts uses.
declare module "snowball-stemmers" {
  export function newStemmer(language: string): { stem(word: string): string };
  export function algorithms(): string[];
}

// How every text is compared: NFKC (full-width "ＲＶ" is "RV", "ﬁ" is "fi"), Unicode case folding
// (upper then lower case, so "STRASSE" and "Straße" agree) and the combining diacritics of Latin,
// Greek and Cyrillic letters dropped ("pompe à eau" = "pompe a eau", "Kühlschrank" =
// "Kuhlschrank"). Marks of other scripts (Devanagari vowel signs, Thai) are part of their words and
// stay. One function, so the index, a message and a config entry always fold alike.

/** Combining Diacritical Marks (U+0300–U+036F), what NFD splits off Latin, Greek and Cyrillic letters. */
const DIACRITICS = /[\u0300-\u036f]/g;
const ASCII = /^\p{ASCII}*$/u;

export function fold(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFD").replace(DIACRITICS, "").normalize("NFC");
}

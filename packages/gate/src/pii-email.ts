// EMAIL: local part [A-Za-z0-9._%+-]{1,64}, '@', labels of [A-Za-z0-9-] (1..63, no leading or
// trailing '-') joined by '.', at least two labels, the last one (TLD) >= 2 letters; the whole
// domain at most 253 characters. A TLD may be followed by '-' ("hi@example.com-"), as a regex's
// \b allows. Not addresses, although shaped like them:
// - a file name whose "TLD" is a file extension no registry delegates ("logo@2x.png",
//   "icon@3x.svg": retina asset names);
// - "user@host:port" and "user@host:path/…" ("git@github.com:acme/api.git": an SSH remote,
//   "deploy@example.com:2222"); "mail hi@example.com: I'll…" and "hi@example.com:today" are
//   still addresses.
// Linear: anchored on '@', at most 64 characters are read leftwards and 253 rightwards, and the
// runs read from successive '@'s are disjoint anyway.

import * as chars from "./pii-chars";
import type { RawMatch } from "./pii-scan";

// Bound once at load: under vitest's module transform every imported name is a getter read per
// call, which made these per-character scans several times slower (pii-chars.ts).
const { codeAt, DASH, DOT, isAsciiLetter, isDigit, PLUS, UNDERSCORE } = chars;

const PERCENT = 37;
const SLASH = 47;
const COLON = 58;
const AT = 64;

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const MAX_LABEL = 63;
const MAX_PATH = 128;

/** File extensions that are not top-level domains (.zip, .mov, .md, .py … are real TLDs: kept). */
const FILE_EXTENSIONS: ReadonlySet<string> = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "svg",
  "webp",
  "avif",
  "bmp",
  "ico",
  "tif",
  "tiff",
  "heic",
  "css",
  "scss",
  "js",
  "mjs",
  "cjs",
  "jsx",
  "ts",
  "tsx",
  "json",
  "yaml",
  "yml",
  "toml",
  "txt",
  "log",
  "html",
  "htm",
  "pdf",
  "xml",
  "csv",
  "wasm",
]);

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isLocalChar(c: number): boolean {
  return isDigit(c) || isAsciiLetter(c) || c === DOT || c === UNDERSCORE || c === PERCENT || c === PLUS || c === DASH;
}

function isLabelChar(c: number): boolean {
  return isDigit(c) || isAsciiLetter(c) || c === DASH;
}

export function scanEmails(text: string, out: RawMatch[]): void {
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    // Local part: at most 64 characters back. A longer run still yields its last 64 (the safe
    // side for a leak detector); a leading '.' is never part of an address.
    const floor = Math.max(0, at - MAX_LOCAL);
    let start = at;
    while (start > floor && isLocalChar(codeAt(text, start - 1))) start--;
    while (start < at && codeAt(text, start) === DOT) start++;
    if (start === at) continue;
    const end = domainEnd(text, at + 1);
    if (end === -1) continue;
    if (codeAt(text, end) === COLON && isRemotePath(text, end + 1)) continue;
    out.push({ type: "EMAIL", value: text.slice(start, end), index: start });
  }
}

/**
 * Whether what follows "user@host:" is a port or a path ("…:8080", "…:acme/api.git"): an SSH or
 * scp remote, not an address. Reads up to the next blank or '@' (so no character is read for two
 * addresses), at most MAX_PATH characters.
 */
function isRemotePath(text: string, from: number): boolean {
  if (isDigit(codeAt(text, from))) return true;
  for (let i = from; i < text.length && i - from < MAX_PATH; i++) {
    const c = text.charCodeAt(i);
    if (c === SLASH) return true;
    if (isBlank(c) || c === AT) return false;
  }
  return false;
}

/** Whether the label [from, to) can end a domain: >= 2 letters, not a file extension. */
function isTld(text: string, from: number, to: number): boolean {
  return to - from >= 2 && !(to - from <= 5 && FILE_EXTENSIONS.has(text.slice(from, to).toLowerCase()));
}

/** End (exclusive) of the longest valid domain starting at `from`, or -1. Reads <= 253 chars. */
function domainEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_DOMAIN);
  let best = -1;
  let labels = 0;
  let labelStart = from;
  let lettersOnly = true;
  for (let i = from; ; i++) {
    const c = i < limit ? codeAt(text, i) : -1;
    if (c !== -1 && isLabelChar(c)) {
      if (!isAsciiLetter(c)) {
        // "hi@example.com-": the letters before a dash are a whole TLD (the dash is not part of
        // the address, as in "hi@example.com-or call"); a longer domain may still follow.
        if (lettersOnly && c === DASH && labels >= 1 && i - labelStart <= MAX_LABEL && isTld(text, labelStart, i)) {
          best = i;
        }
        lettersOnly = false;
      }
      continue;
    }
    // A label ends at i. If the 253-character cap cut it, it is not a whole label: stop.
    if (i === limit && limit < text.length && isLabelChar(codeAt(text, limit))) return best;
    const len = i - labelStart;
    if (len === 0 || len > MAX_LABEL) return best;
    if (codeAt(text, labelStart) === DASH || codeAt(text, i - 1) === DASH) return best;
    labels++;
    if (labels >= 2 && lettersOnly && isTld(text, labelStart, i)) best = i;
    // Continue only through a '.' that is followed by another label character.
    if (c !== DOT || i + 1 >= limit || !isLabelChar(codeAt(text, i + 1))) return best;
    labelStart = i + 1;
    lettersOnly = true;
  }
}

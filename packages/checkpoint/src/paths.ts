// Paths a definition may name for a command step: its working directory and the files it leaves
// behind. Both are relative to the host's workspace and may not climb out of it, so a definition
// (which may come from an API call) cannot point a host at /etc or at ../other-checkout.

/** Why `path` is not a relative path inside the workspace, or undefined when it is one. */
export function relativePathProblem(path: string): string | undefined {
  if (path.length === 0) return "must not be empty";
  if (path.includes("\0")) return "must not contain a NUL character";
  // A backslash is a separator on Windows and a file-name character elsewhere: refuse the doubt.
  if (path.includes("\\")) return 'must use "/" as its separator, not "\\"';
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path))
    return `"${path}" is absolute; write a path relative to the workspace`;
  if (path.split("/").includes("..")) return `"${path}" climbs out with ".."; stay inside the workspace`;
  return undefined;
}

/**
 * Why `pattern` is not an artifact path or simple glob, or undefined. A glob is `*` (any run of
 * characters within one path segment) and `?` (one character); `**`, `[…]` and `{…}` are refused
 * rather than half-supported, so a pattern means the same to every host.
 */
export function artifactPatternProblem(pattern: string): string | undefined {
  const problem = relativePathProblem(pattern);
  if (problem !== undefined) return problem;
  // The host matches patterns after the step ran, against files: nothing substitutes there.
  if (pattern.includes("{{")) return `"${pattern}": {{variables}} are not substituted in artifacts`;
  if (pattern.includes("**")) return `"${pattern}": "**" is not supported; name each folder ("out/*/*.md")`;
  if (/[[\]{}]/.test(pattern)) return `"${pattern}": only * and ? are supported in an artifact pattern`;
  if (pattern.endsWith("/")) return `"${pattern}" names a folder; name its files ("${pattern}*")`;
  return undefined;
}

/** Segments that change nothing ("./out", "out//a.md") are dropped, so both sides compare alike. */
function segments(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "" && segment !== ".");
}

/**
 * Whether a file's workspace-relative path matches an artifact pattern (`out/*.md` matches
 * `out/a.md`, not `out/sub/a.md`). Pure string matching: the host lists the files, this filters.
 */
export function matchesArtifact(pattern: string, path: string): boolean {
  if (artifactPatternProblem(pattern) !== undefined || relativePathProblem(path) !== undefined) return false;
  const wanted = segments(pattern);
  const actual = segments(path);
  return wanted.length === actual.length && wanted.every((segment, i) => matchSegment(segment, actual[i] ?? ""));
}

/** Wildcard match of one segment, greedy with one backtrack point: linear-ish, never exponential. */
function matchSegment(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p;
      resume = t;
      p += 1;
    } else if (star >= 0) {
      p = star + 1;
      resume += 1;
      t = resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p += 1;
  return p === pattern.length;
}

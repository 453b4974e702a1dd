import { constants } from "node:fs";
import { open, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { matchesArtifact, relativePathProblem } from "@solserver/checkpoint";

// What a command step leaves behind for a checkpoint: files of the workspace, read as text, inside
// the workspace after symlinks, and bounded in size and number. The CLI's show_files reads through
// the same rules, so an artifact and a shown file are judged alike.

export const MAX_ARTIFACT_BYTES = 1024 * 1024;
const MAX_ARTIFACTS = 50;

export type TArtifact = { path: string; content: string };

/** Whether `child` is `parent` or inside it (both absolute and already resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** A workspace file as text, or why it is not shown: the rules artifacts and show_files share. */
export async function readWorkspaceFile(
  workspace: string,
  rel: string,
  maxBytes = MAX_ARTIFACT_BYTES,
): Promise<{ content: string } | { problem: string }> {
  const problem = relativePathProblem(rel);
  if (problem !== undefined) return { problem: problem.replace(/^"[^"]*" /, "") };
  let real: string;
  try {
    real = await realpath(path.resolve(workspace, rel));
  } catch {
    return { problem: "not found" };
  }
  if (!isInside(workspace, real)) return { problem: "leads outside the workspace" };
  // O_NONBLOCK: a FIFO put there must not hang the host; the type is checked on the open file.
  const file = await open(real, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (!file) return { problem: "cannot be read" };
  try {
    const info = await file.stat();
    if (!info.isFile()) return { problem: "is not a regular file" };
    if (info.size > maxBytes) return { problem: `is ${info.size} bytes; the limit is ${maxBytes}` };
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await file.read(buffer, 0, info.size, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return { problem: "is binary, not text" };
    try {
      return { content: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
    } catch {
      return { problem: "is not UTF-8 text" };
    }
  } finally {
    await file.close();
  }
}

/** The workspace-relative paths a pattern matches (`*` and `?` within one segment), sorted. */
async function expandPattern(workspace: string, pattern: string): Promise<string[]> {
  const segments = pattern.split("/").filter((s) => s !== "" && s !== ".");
  let found = [""];
  for (const [i, segment] of segments.entries()) {
    if (!/[*?]/.test(segment)) {
      found = found.map((rel) => (rel ? `${rel}/${segment}` : segment));
      continue;
    }
    const prefix = segments.slice(0, i + 1).join("/");
    const next: string[] = [];
    for (const rel of found) {
      const names = await readdir(path.resolve(workspace, rel || ".")).catch(() => [] as string[]);
      for (const name of names.sort()) {
        const candidate = rel ? `${rel}/${name}` : name;
        if (matchesArtifact(prefix, candidate)) next.push(candidate);
      }
    }
    found = next;
  }
  return found;
}

/** The phase's artifacts: the text files its patterns match, and a warning for each left out. */
export async function collectArtifacts(
  patterns: readonly string[],
  workspace: string,
): Promise<{ artifacts: TArtifact[]; warnings: string[] }> {
  const artifacts: TArtifact[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const pattern of patterns) {
    const problem = relativePathProblem(pattern);
    if (problem !== undefined) {
      warnings.push(`${pattern}: ${problem}`);
      continue;
    }
    const paths = await expandPattern(workspace, pattern);
    if (paths.length === 0) warnings.push(`${pattern}: no file matches`);
    for (const rel of paths) {
      if (seen.has(rel)) continue;
      seen.add(rel);
      if (artifacts.length >= MAX_ARTIFACTS) {
        warnings.push(`${rel}: left out, a phase keeps at most ${MAX_ARTIFACTS} artifacts`);
        continue;
      }
      const file = await readWorkspaceFile(workspace, rel);
      if ("content" in file) artifacts.push({ path: rel, content: file.content });
      else if (!(file.problem === "not found" && /[*?]/.test(pattern))) warnings.push(`${rel}: ${file.problem}`);
    }
  }
  return { artifacts, warnings };
}

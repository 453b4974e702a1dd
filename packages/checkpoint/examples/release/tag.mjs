#!/usr/bin/env node
// The last phase of ../release-pipeline.yaml: tag the release in git, only when asked to.
//
//   node packages/checkpoint/examples/release/tag.mjs <tag>      e.g. v1.2.3
//
// A dry run unless the phase declares RELEASE_CREATE_TAG=true (the definition passes it from a
// variable: `--var create_tag=true`), so running the example never changes a checkout by accident.
// Either way it writes out/release/tag.txt, the record of what was (or would have been) tagged.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const [tag] = process.argv.slice(2);
if (!tag || !/^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(tag)) {
  console.error(`tag: "${tag ?? ""}" is not a release tag like v1.2.3`);
  process.exit(2);
}
const create = process.env.RELEASE_CREATE_TAG === "true";
const git = (args) => spawnSync("git", args, { encoding: "utf8" });
const head = git(["rev-parse", "--short", "HEAD"]);
const commit = head.status === 0 ? head.stdout.trim() : "(not a git checkout)";

mkdirSync("out/release", { recursive: true });
if (!create) {
  writeFileSync("out/release/tag.txt", `dry run: ${tag} at ${commit}\n`);
  console.log(`dry run: would run "git tag ${tag}" at ${commit}; run with --var create_tag=true to create it`);
  process.exit(0);
}
const made = spawnSync("git", ["tag", tag], { stdio: "inherit" });
if (made.status !== 0) {
  console.error(`tag: git tag ${tag} failed (exit ${made.status ?? made.signal})`);
  process.exit(1);
}
writeFileSync("out/release/tag.txt", `${tag} at ${commit}\n`);
console.log(`tagged ${tag} at ${commit}`);

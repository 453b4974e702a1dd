// Tags written one per meaning (issue 19, point 2; docs/tags.md): near-duplicates by case,
// separators and plurals collapse to the first spelling, aliases (shipped, or from
// SOLSERVER_TAG_ALIASES) are written as the tag they stand for. The rules, the config file, and
// every place tags are written on a real SQLite file: promotion drafts (create, update, edits)
// and a Jam editor's CFB create and edit.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ZTagAliasConfig } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCfb, loadServerEnv, promoteProposal, respondToTurn, reviewProposal, updateCfb } from "../src/index";
import { createTagNormalizer, tagAliasTable } from "../src/knowledge/tags";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

const shipped = createTagNormalizer();

describe("the rules", () => {
  it.each([
    ["case", ["Backup", "backup", "BACKUP"], ["Backup"]],
    ["separators", ["on-call", "On Call", "oncall", "on_call"], ["on-call"]],
    ["a plural after its singular", ["backup", "Backups"], ["backup"]],
    ["a singular after its plural", ["runbooks", "runbook"], ["runbooks"]],
    ["-ies", ["policy", "policies"], ["policy"]],
    ["-es", ["boxes", "box", "status", "statuses"], ["boxes", "status"]],
    ["-s after -e", ["caches", "cache"], ["caches"]],
    ["-s after a vowel", ["API", "apis", "wikis", "wiki"], ["API", "wikis"]],
    ["the last word of several", ["incident review", "Incident Reviews"], ["incident review"]],
    ["an alias as its tag", ["postgres"], ["postgresql"]],
    ["an alias after its tag", ["PostgreSQL", "postgres", "pg", "Postgres"], ["PostgreSQL"]],
    ["an alias before its tag", ["k8s", "Kubernetes"], ["kubernetes"]],
    ["the plural of an alias", ["repos", "repository"], ["repository"]],
    ["blank and padded tags", ["  release  ", "", "release"], ["release"]],
  ])("%s", (_name, tags, expected) => {
    expect(shipped.normalize(tags)).toEqual(expected);
  });

  it("leaves apart what only looks alike", () => {
    const distinct = ["class", "ops", "aws", "redis", "deploy", "deployment", "analytics", "ts", "c++", "c#"];
    expect(shipped.normalize(distinct)).toEqual(distinct);
  });

  it("same() compares two tags by the same rules", () => {
    expect(shipped.same("Postgres", "postgresql")).toBe(true);
    expect(shipped.same("backup", "Backups")).toBe(true);
    expect(shipped.same("On Call", "on-call")).toBe(true);
    expect(shipped.same("deploy", "deployment")).toBe(false);
  });
});

describe("the alias table", () => {
  it("a file's aliases join the shipped ones and replace what the shipped table said of their names", () => {
    const table = tagAliasTable(
      ZTagAliasConfig.parse({ aliases: { observability: ["o11y"], timestamps: ["pg"], postgres: ["psql"] } }),
    );
    const normal = createTagNormalizer(table);
    expect(normal.normalize(["o11y", "observability"])).toEqual(["observability"]);
    // "pg" now means timestamps (an odd team, but theirs); "postgres" is a tag of its own now.
    expect(normal.normalize(["pg", "postgres", "psql", "k8s"])).toEqual(["timestamps", "postgres", "kubernetes"]);
  });

  it("shipped: false keeps the file's aliases only", () => {
    const normal = createTagNormalizer(
      tagAliasTable(ZTagAliasConfig.parse({ shipped: false, aliases: { observability: ["o11y"] } })),
    );
    expect(normal.normalize(["postgres", "o11y"])).toEqual(["postgres", "observability"]);
  });

  it("follows an alias of an alias to its tag", () => {
    // The file makes the shipped tag "postgresql" an alias: the shipped aliases of it follow.
    const chained = tagAliasTable(ZTagAliasConfig.parse({ aliases: { pg: ["postgresql"] } }));
    expect(createTagNormalizer(chained).normalize(["postgres", "psql", "PostgreSQL"])).toEqual(["pg"]);
  });

  it("refuses a name listed under two tags or used both ways, an empty list or an unknown key, naming where", () => {
    const both = ZTagAliasConfig.safeParse({ aliases: { a: ["b"], b: ["a"] } });
    expect(both.error?.issues[0]).toMatchObject({
      path: ["aliases", "a"],
      message: '"b" is a tag of its own in this file; a name is either a tag or an alias',
    });
    const twice = ZTagAliasConfig.safeParse({ aliases: { postgresql: ["pg"], pagerduty: ["PG"] } });
    expect(twice.error?.issues[0]).toMatchObject({
      path: ["aliases", "pagerduty"],
      message: '"PG" is already an alias of "postgresql"; a name may stand for one tag only',
    });
    expect(ZTagAliasConfig.safeParse({ aliases: { postgresql: [] } }).error?.issues[0]).toMatchObject({
      path: ["aliases", "postgresql"],
      message: "must list at least one alias",
    });
    expect(ZTagAliasConfig.safeParse({ alias: {} }).success).toBe(false);
  });
});

describe("SOLSERVER_TAG_ALIASES", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "solserver-tag-aliases-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };
  const envWith = (file?: string) =>
    loadServerEnv({ BETTER_AUTH_SECRET: "x".repeat(40), ...(file ? { SOLSERVER_TAG_ALIASES: file } : {}) });

  it("is read as YAML, like the routing config; unset, the shipped table alone", () => {
    expect(envWith().tagAliases).toBeNull();
    const file = write("aliases.yaml", "aliases:\n  observability: [o11y, monitoring]\n");
    expect(envWith(file).tagAliases).toEqual({ shipped: true, aliases: { observability: ["o11y", "monitoring"] } });
  });

  it("stops start-up on a bad file, naming the variable, the file, the key and the rule", () => {
    const both = write("both.yaml", "aliases:\n  a: [b]\n  b: [a]\n");
    expect(() => envWith(both)).toThrow(
      `Invalid environment:\n  SOLSERVER_TAG_ALIASES: ${both}: aliases.a: "b" is a tag of its own in this file; a name is either a tag or an alias`,
    );
    const empty = write("empty.yaml", "aliases:\n  observability: []\n");
    expect(() => envWith(empty)).toThrow(`${empty}: aliases.observability: must list at least one alias`);
    expect(() => envWith(path.join(dir, "nope.yaml"))).toThrow(/cannot read the tag alias file/);
  });
});

describe("wherever tags are written", () => {
  let next: TTestSuggestion[] = [];
  let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
  let user: TTestActor;
  let jam: TTestActor;
  let n = 0;
  async function propose(s: TTestSuggestion): Promise<string> {
    next = [s];
    const res = await respondToTurn(opened.as(user), { request_id: `tags-${++n}`, message: "We decided." });
    return res.ui_hints.proposal_previews[0]?.proposal_id as string;
  }

  beforeAll(async () => {
    opened = await openTestControlPlane({
      label: "tags",
      model: scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) })),
      limits: { chatTurnsPerMinute: 1000 },
      tagAliases: { aliases: { observability: ["o11y"] } },
    });
    user = await opened.account("user");
    jam = await opened.account("jam");
  });
  afterAll(async () => opened?.close());

  it("a new CFB from a proposal: the preview and the CFB have one tag per meaning", async () => {
    const id = await propose({
      op: "create",
      title: "Zephyr dashboards",
      delta_summary: "Zephyr dashboards live in Grafana.",
      tags: ["Postgres", "postgresql", "Dashboards", "dashboard", "o11y"],
      entities: [],
    });
    const review = await reviewProposal(opened.as(user), { proposal_id: id });
    expect(review.preview.create?.tags).toEqual(["postgresql", "Dashboards", "observability"]);
    const res = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_create" });
    expect(res.cfb?.tags).toEqual(["postgresql", "Dashboards", "observability"]);
  });

  it("an update: the target's tags first, the proposal's near-duplicates dropped, an old alias rewritten", async () => {
    const target = await opened.repos.cfbs.create(
      testCfb({ title: "Quasar backups", summary: "Quasar backups run hourly.", tags: ["postgres", "backup"] }),
    );
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "Quasar backups",
      delta_summary: "Add: restores are tested weekly.",
      tags: ["PostgreSQL", "Backups", "restore drills"],
      entities: [],
    });
    const res = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_update" });
    expect(res.cfb?.tags).toEqual(["postgresql", "backup", "restore drills"]);
  });

  it("a Jam editor's tag edits: a removal takes its near-duplicates, an addition already there is not added", async () => {
    const target = await opened.repos.cfbs.create(
      testCfb({ title: "Nimbus runbooks", summary: "Nimbus runbooks live in the wiki.", tags: ["runbooks", "wiki"] }),
    );
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "Nimbus runbooks",
      delta_summary: "Add: each runbook names an owner.",
      tags: ["Wikis"],
      entities: [],
    });
    const res = await promoteProposal(opened.as(jam), {
      proposal_id: id,
      action: "edit_then_approve",
      editorial_overrides: { tags_remove: ["Wiki"], tags_add: ["Runbook", "owners", "o11y"] },
    });
    expect(res.cfb?.tags).toEqual(["runbooks", "owners", "observability"]);
  });

  it("a Jam editor's CFB create and edit", async () => {
    const created = await createCfb(
      opened.as(jam),
      testCfb({
        title: "Helm charts",
        summary: "Charts live in infra.",
        tags: ["K8s", "kubernetes", "Charts", "chart"],
      }),
    );
    expect(created.tags).toEqual(["kubernetes", "Charts"]);
    const { cfb_id, version, created_ts: _c, updated_ts: _u, last_accessed_ts: _l, staleness: _s, ...rest } = created;
    const edited = await updateCfb(opened.as(jam), {
      ...rest,
      cfb_id,
      version,
      tags: [...created.tags, "chart", "Postgres", "postgresql"],
    });
    expect(edited.tags).toEqual(["kubernetes", "Charts", "postgresql"]);
  });
});

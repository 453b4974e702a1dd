// The wire contract (seed 001): ids, chat.respond, promote, the model's OutputEnvelope and the
// DomainError that services throw. Pure zod schemas, so these run without a database.
import {
  DOMAIN_ERROR_CODES,
  DomainError,
  isDomainError,
  MAX_MESSAGE_CHARS,
  MAX_RETRY_AFTER_SECONDS,
  ZAttemptId,
  ZCfbId,
  ZChatRespondRequest,
  ZOutputEnvelope,
  ZPacketId,
  ZPromoteRequest,
  ZPromotionId,
  ZProposalId,
  ZRequestId,
  ZResponseId,
  ZThreadId,
  ZTransmissionId,
} from "@solserver/contracts";
import { describe, expect, it, vi } from "vitest";
import type { z } from "zod";

/** The issues of a parse that must fail. */
function issuesOf(schema: z.ZodType, data: unknown) {
  const result = schema.safeParse(data);
  expect(result.success, `expected ${JSON.stringify(data)?.slice(0, 120)} to be rejected`).toBe(false);
  return result.error?.issues ?? [];
}

/** The single issue of a parse that must fail with exactly one problem. */
function onlyIssue(schema: z.ZodType, data: unknown) {
  const issues = issuesOf(schema, data);
  expect(issues).toHaveLength(1);
  return issues[0] as z.core.$ZodIssue;
}

describe("ids", () => {
  it("accepts a CFB id and trims surrounding whitespace", () => {
    expect(ZCfbId.parse("CFB-0001")).toBe("CFB-0001");
    expect(ZCfbId.parse("CFB-187")).toBe("CFB-187");
    expect(ZCfbId.parse("  CFB-0001 ")).toBe("CFB-0001");
  });

  it.each([
    ["lower case", "cfb-1"],
    ["empty", ""],
    ["no digits", "CFB-"],
    ["wrong prefix", "UP-0001"],
    ["letters after the dash", "CFB-00a1"],
    ["more than 12 digits", "CFB-1234567890123"],
    ["inner whitespace", "CFB- 0001"],
  ])("rejects a CFB id with %s (%j), naming the rule", (_label, value) => {
    const issue = onlyIssue(ZCfbId, value);
    expect(issue.message).toBe("must be a CFB id like CFB-0001");
  });

  it("accepts the upper digit bound of 12 digits", () => {
    expect(ZCfbId.safeParse("CFB-123456789012").success).toBe(true);
  });

  it.each([
    [ZProposalId, "UP-771", "proposal id like UP-0001"],
    [ZPacketId, "P-12", "packet id like P-0001"],
    [ZTransmissionId, "T-3", "transmission id like T-0001"],
    [ZAttemptId, "A-4", "attempt id like A-0001"],
    [ZResponseId, "R-009", "response id like R-0001"],
    [ZPromotionId, "PE-5", "promotion id like PE-0001"],
  ] as const)("id family %#: accepts %s and names itself when rejecting", (schema, good, rule) => {
    expect(schema.parse(good)).toBe(good);
    expect(onlyIssue(schema, "CFB-0001").message).toBe(`must be a ${rule}`);
  });

  it("keeps id families apart: a packet id is not a promotion id", () => {
    // "P-1" must not pass as "PE-…" and "PE-1" must not pass as "P-…".
    expect(ZPromotionId.safeParse("P-1").success).toBe(false);
    expect(ZPacketId.safeParse("PE-1").success).toBe(false);
  });

  it("thread ids are opaque but URL-safe and at most 64 characters", () => {
    expect(ZThreadId.parse("th-0123abcd_XY")).toBe("th-0123abcd_XY");
    expect(ZThreadId.safeParse("a".repeat(64)).success).toBe(true);
    for (const bad of ["", "a".repeat(65), "has space", "slash/inside", "ünïcode"]) {
      expect(onlyIssue(ZThreadId, bad).message).toBe("must be 1-64 characters of A-Z, a-z, 0-9, _ or -");
    }
  });

  it("request ids are printable ASCII without spaces, 1-128 characters", () => {
    expect(ZRequestId.parse("req:1/abc~!")).toBe("req:1/abc~!");
    expect(ZRequestId.safeParse("x".repeat(128)).success).toBe(true);
    expect(onlyIssue(ZRequestId, "x".repeat(129)).message).toBe("must be at most 128 characters");
    expect(issuesOf(ZRequestId, "").map((i) => i.message)).toContain("must not be empty");
  });
});

describe("ZChatRespondRequest", () => {
  const valid = { request_id: "req-1", message: "What database do we use?" };

  it("accepts a minimal request and trims the message", () => {
    expect(ZChatRespondRequest.parse({ ...valid, message: "  hello  " })).toEqual({
      request_id: "req-1",
      message: "hello",
    });
  });

  it("accepts an optional thread_id", () => {
    expect(ZChatRespondRequest.parse({ ...valid, thread_id: "th-1" }).thread_id).toBe("th-1");
  });

  it("reports a missing message on path [message] with the contract's rule", () => {
    const issue = onlyIssue(ZChatRespondRequest, { request_id: "req-1" });
    expect(issue.path).toEqual(["message"]);
    expect(issue.message).toBe("is required and must be a string");
  });

  it("reports a non-string message with the same rule", () => {
    const issue = onlyIssue(ZChatRespondRequest, { ...valid, message: 42 });
    expect(issue.path).toEqual(["message"]);
    expect(issue.message).toBe("is required and must be a string");
  });

  it.each([
    ["empty", ""],
    ["spaces", "   "],
    ["mixed whitespace", " \n\t "],
  ])("rejects a %s message as empty", (_label, message) => {
    const issue = onlyIssue(ZChatRespondRequest, { ...valid, message });
    expect(issue.path).toEqual(["message"]);
    expect(issue.message).toBe("must not be empty");
  });

  it(`accepts exactly ${MAX_MESSAGE_CHARS} characters and rejects one more`, () => {
    expect(MAX_MESSAGE_CHARS).toBe(8000);
    expect(ZChatRespondRequest.safeParse({ ...valid, message: "a".repeat(8000) }).success).toBe(true);
    const issue = onlyIssue(ZChatRespondRequest, { ...valid, message: "a".repeat(8001) });
    expect(issue.path).toEqual(["message"]);
    expect(issue.message).toBe("must be at most 8000 characters");
  });

  it("measures the length after trimming", () => {
    // Surrounding whitespace is not content: 8000 characters plus padding still fit.
    const parsed = ZChatRespondRequest.parse({ ...valid, message: `  ${"a".repeat(8000)}  ` });
    expect(parsed.message).toHaveLength(8000);
  });

  it("rejects unknown keys because the object is strict", () => {
    const issue = onlyIssue(ZChatRespondRequest, { ...valid, extra: true });
    expect(issue.code).toBe("unrecognized_keys");
    expect(issue).toMatchObject({ keys: ["extra"] });
  });

  it("rejects a request_id with spaces", () => {
    const issue = onlyIssue(ZChatRespondRequest, { ...valid, request_id: "req 1" });
    expect(issue.path).toEqual(["request_id"]);
    expect(issue.message).toBe("must be printable ASCII without spaces");
  });

  it("requires request_id", () => {
    const issue = onlyIssue(ZChatRespondRequest, { message: "hi" });
    expect(issue.path).toEqual(["request_id"]);
  });

  it("rejects a malformed thread_id on its own path", () => {
    const issue = onlyIssue(ZChatRespondRequest, { ...valid, thread_id: "bad thread" });
    expect(issue.path).toEqual(["thread_id"]);
  });
});

describe("ZPromoteRequest", () => {
  const valid = { proposal_id: "UP-1", action: "approve_create" };

  it.each(["approve_create", "approve_update", "reject", "edit_then_approve"])("accepts action %s", (action) => {
    expect(ZPromoteRequest.parse({ ...valid, action }).action).toBe(action);
  });

  it("rejects an unknown action on path [action]", () => {
    const issue = onlyIssue(ZPromoteRequest, { ...valid, action: "approve_everything" });
    expect(issue.path).toEqual(["action"]);
    expect(issue.code).toBe("invalid_value");
  });

  it("requires a proposal id of the UP family", () => {
    const issue = onlyIssue(ZPromoteRequest, { ...valid, proposal_id: "CFB-1" });
    expect(issue.path).toEqual(["proposal_id"]);
    expect(issue.message).toBe("must be a proposal id like UP-0001");
  });

  it("accepts editorial overrides and trims them", () => {
    const parsed = ZPromoteRequest.parse({
      ...valid,
      action: "edit_then_approve",
      response_id: "R-9",
      editorial_overrides: { title_edit: "  New title ", tags_add: ["ops"], tags_remove: ["old"], text_edit: "" },
    });
    expect(parsed.editorial_overrides).toEqual({
      title_edit: "New title",
      tags_add: ["ops"],
      tags_remove: ["old"],
      text_edit: "",
    });
  });

  it("rejects unknown keys inside editorial_overrides (strict)", () => {
    const issue = onlyIssue(ZPromoteRequest, { ...valid, editorial_overrides: { title_edit: "x", colour: "red" } });
    expect(issue.code).toBe("unrecognized_keys");
    expect(issue.path).toEqual(["editorial_overrides"]);
    expect(issue).toMatchObject({ keys: ["colour"] });
  });

  it("rejects unknown top-level keys (strict)", () => {
    expect(onlyIssue(ZPromoteRequest, { ...valid, editor: "mallory" }).code).toBe("unrecognized_keys");
  });

  it("rejects an empty title edit", () => {
    const issue = onlyIssue(ZPromoteRequest, { ...valid, editorial_overrides: { title_edit: "   " } });
    expect(issue.path).toEqual(["editorial_overrides", "title_edit"]);
  });
});

describe("ZOutputEnvelope", () => {
  const suggestion = {
    op: "create",
    title: "Use Postgres",
    delta_summary: "Analytics runs on Postgres.",
    confidence: 0.8,
  };

  it("fills missing meta fields with defaults", () => {
    const parsed = ZOutputEnvelope.parse({ assistant_text: "hi", meta: {} });
    expect(parsed.meta).toEqual({
      modeLabel: "System",
      domainHints: [],
      used_cfb_ids: [],
      ignored_cfb_ids: [],
      assumptions: [],
      unknowns: [],
      missing_cfb_queries: [],
      cfb_suggestions: [],
    });
    expect(parsed.meta.claim_map).toBeUndefined();
  });

  it("fills a suggestion's missing tags and entities", () => {
    const parsed = ZOutputEnvelope.parse({ assistant_text: "hi", meta: { cfb_suggestions: [suggestion] } });
    expect(parsed.meta.cfb_suggestions[0]).toEqual({ ...suggestion, tags: [], entities: [] });
  });

  it("requires meta and a non-empty assistant_text", () => {
    expect(onlyIssue(ZOutputEnvelope, { assistant_text: "hi" }).path).toEqual(["meta"]);
    expect(onlyIssue(ZOutputEnvelope, { assistant_text: "", meta: {} }).path).toEqual(["assistant_text"]);
  });

  it.each([1.7, -0.3, 0, 1])("accepts confidence %d: the server clamps it later", (confidence) => {
    const parsed = ZOutputEnvelope.parse({
      assistant_text: "hi",
      meta: { cfb_suggestions: [{ ...suggestion, confidence }] },
    });
    expect(parsed.meta.cfb_suggestions[0]?.confidence).toBe(confidence);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])("rejects confidence %d", (confidence) => {
    const issues = issuesOf(ZOutputEnvelope, {
      assistant_text: "hi",
      meta: { cfb_suggestions: [{ ...suggestion, confidence }] },
    });
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(issue.path).toEqual(["meta", "cfb_suggestions", 0, "confidence"]);
  });

  it("accepts 16 cfb_suggestions and rejects 17", () => {
    const envelope = (n: number) => ({ assistant_text: "hi", meta: { cfb_suggestions: Array(n).fill(suggestion) } });
    expect(ZOutputEnvelope.safeParse(envelope(16)).success).toBe(true);
    const issue = onlyIssue(ZOutputEnvelope, envelope(17));
    expect(issue.path).toEqual(["meta", "cfb_suggestions"]);
    expect(issue.code).toBe("too_big");
  });

  it.each([
    ["domainHints", Array(17).fill("general")],
    ["used_cfb_ids", Array(65).fill("CFB-1")],
    ["ignored_cfb_ids", Array(65).fill("CFB-1")],
    ["assumptions", Array(33).fill({ id: "A1", text: "x" })],
    ["unknowns", Array(33).fill({ id: "U1", text: "x" })],
    ["missing_cfb_queries", Array(33).fill("q")],
    ["claim_map", Array(65).fill({ claim_id: "c1", span: {}, text: "x", support: {} })],
  ])("bounds meta.%s", (field, value) => {
    const issue = onlyIssue(ZOutputEnvelope, { assistant_text: "hi", meta: { [field]: value } });
    expect(issue.path).toEqual(["meta", field]);
    expect(issue.code).toBe("too_big");
  });

  it("bounds string fields a runaway model could fill", () => {
    const big = (field: string, value: unknown) => ({ assistant_text: "hi", meta: { [field]: value } });
    expect(onlyIssue(ZOutputEnvelope, big("missing_cfb_queries", ["q".repeat(301)])).path).toEqual([
      "meta",
      "missing_cfb_queries",
      0,
    ]);
    expect(onlyIssue(ZOutputEnvelope, big("domainHints", ["d".repeat(65)])).path).toEqual(["meta", "domainHints", 0]);
    expect(
      onlyIssue(ZOutputEnvelope, big("cfb_suggestions", [{ ...suggestion, tags: ["t".repeat(65)] }])).path,
    ).toEqual(["meta", "cfb_suggestions", 0, "tags", 0]);
    expect(
      onlyIssue(ZOutputEnvelope, big("cfb_suggestions", [{ ...suggestion, delta_summary: "s".repeat(2001) }])).path,
    ).toEqual(["meta", "cfb_suggestions", 0, "delta_summary"]);
    expect(onlyIssue(ZOutputEnvelope, { assistant_text: "a".repeat(20001), meta: {} }).path).toEqual([
      "assistant_text",
    ]);
  });

  it("rejects an unknown op and an empty title", () => {
    const bad = (s: object) => ({ assistant_text: "hi", meta: { cfb_suggestions: [{ ...suggestion, ...s }] } });
    expect(onlyIssue(ZOutputEnvelope, bad({ op: "delete" })).path).toEqual(["meta", "cfb_suggestions", 0, "op"]);
    expect(onlyIssue(ZOutputEnvelope, bad({ title: "  " })).path).toEqual(["meta", "cfb_suggestions", 0, "title"]);
  });

  it("validates claim spans as non-negative integers", () => {
    const claim = (span: object) => ({
      assistant_text: "hi",
      meta: { claim_map: [{ claim_id: "c1", span, text: "x", support: { cfb_ids: ["CFB-1"] } }] },
    });
    expect(ZOutputEnvelope.safeParse(claim({ sentence: 0, start_char: 0, end_char: 5 })).success).toBe(true);
    expect(onlyIssue(ZOutputEnvelope, claim({ sentence: -1 })).path).toEqual([
      "meta",
      "claim_map",
      0,
      "span",
      "sentence",
    ]);
    expect(onlyIssue(ZOutputEnvelope, claim({ sentence: 1.5 })).path).toEqual([
      "meta",
      "claim_map",
      0,
      "span",
      "sentence",
    ]);
  });
});

describe("DomainError", () => {
  it("carries code, field, message and cause", () => {
    const cause = new Error("root");
    const error = new DomainError("BAD_INPUT", "message: must not be empty", { field: "message", cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DomainError");
    expect(error.code).toBe("BAD_INPUT");
    expect(error.field).toBe("message");
    expect(error.message).toBe("message: must not be empty");
    expect(error.cause).toBe(cause);
  });

  it("leaves field and cause undefined when not given", () => {
    const error = new DomainError("NOT_FOUND", "no such CFB");
    expect(error.field).toBeUndefined();
    expect(error.cause).toBeUndefined();
    expect("cause" in error).toBe(false);
  });

  it("keeps Retry-After a sane wait: whole seconds from 1 to an hour", () => {
    const wait = (seconds: number) => new DomainError("RATE_LIMITED", "slow down", { retryAfterSeconds: seconds });
    expect(wait(30).retryAfterSeconds).toBe(30);
    expect(wait(0.2).retryAfterSeconds).toBe(1);
    expect(wait(0).retryAfterSeconds).toBe(1);
    expect(wait(-5).retryAfterSeconds).toBe(1);
    expect(wait(2.1).retryAfterSeconds).toBe(3);
    expect(wait(10 ** 9).retryAfterSeconds).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(wait(Number.NaN).retryAfterSeconds).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(new DomainError("RATE_LIMITED", "slow down").retryAfterSeconds).toBeUndefined();
  });

  it("is recognised by isDomainError, other errors are not", () => {
    expect(isDomainError(new DomainError("CONFLICT", "x"))).toBe(true);
    expect(isDomainError(new Error("x"))).toBe(false);
    expect(isDomainError({ code: "BAD_INPUT", message: "x" })).toBe(false);
    expect(isDomainError(undefined)).toBe(false);
  });

  it("recognises a DomainError made by another copy of the module (Next bundles instrumentation apart)", async () => {
    vi.resetModules();
    // A query string makes the module loader evaluate the file again: a second copy of the class.
    const other = (await import(`../src/errors${"?copy"}`)) as typeof import("../src/errors");
    const foreign = new other.DomainError("CONFLICT", "made elsewhere");
    expect(foreign).not.toBeInstanceOf(DomainError);
    expect(isDomainError(foreign)).toBe(true);
  });

  it("lists the codes transports map", () => {
    expect([...DOMAIN_ERROR_CODES].sort()).toEqual(
      [
        "BAD_INPUT",
        "CONFLICT",
        "FORBIDDEN",
        "NOT_FOUND",
        "PAYLOAD_TOO_LARGE",
        "PRECONDITION_FAILED",
        "PRECONDITION_REQUIRED",
        "RATE_LIMITED",
        "UNAUTHENTICATED",
        "UNSUPPORTED",
        "UPSTREAM",
        "UNAVAILABLE",
        "METHOD_NOT_ALLOWED",
        "UNSUPPORTED_MEDIA_TYPE",
        "URI_TOO_LONG",
        "HEADERS_TOO_LARGE",
        "REQUEST_TIMEOUT",
      ].sort(),
    );
  });
});

import { cfbDraftOf, DomainError, sameCfbContent, type TCfb, type TCfbDraft } from "@solserver/contracts";
import type { TSqlDriver } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import { insertCfbs, readCfbRow, revisionSnapshot, rewriteCfb, type TCfbRewrite } from "./cfb-write";

// Writes to CFBs outside promotion: a Jam editor's authoring, edits, endorsements and repairs, and
// imports. Each is one transaction through the one CFB writer (cfb-write.ts) with its audit
// event; reads live in cfbs.ts, promotion's writes in promotion-write.ts.

type TAuditActor = Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;

/** A Jam editor's edit names the version it was based on in `version`, the CFB in `cfb_id`. */
const EDIT_FIELDS = { conflict: "version", cfb: "cfb_id" } as const;
/** A merge's other CFB, in `merge_cfb_id` at `merge_version`. */
const MERGED_FIELDS = { conflict: "merge_version", cfb: "merge_cfb_id" } as const;

/**
 * One Jam editor's change to one CFB, in one transaction: a new version through the one CFB
 * writer (conditional on the version they saw, answering in the request's `version` / `cfb_id`)
 * and its audit event. Edits, endorsements, reverts, retirements and restorations all write so.
 */
async function editorRewrite(
  sql: TSqlDriver,
  w: Pick<TCfbRewrite, "cfbId" | "expectedVersion" | "change" | "revision" | "liveOnly"> & {
    audit: TAuditActor;
    action: string;
    details: (cfb: TCfb) => Record<string, unknown>;
  },
): Promise<{ cfb: TCfb; now: Date }> {
  return sql.transaction(async (tx) => {
    const now = new Date();
    const { audit, action, details, ...change } = w;
    const cfb = await rewriteCfb(tx, { ...change, promotionId: null, now, fields: EDIT_FIELDS });
    await insertAudit(tx, [{ ...audit, action, targetType: "cfb", targetId: w.cfbId, details: details(cfb) }], now);
    return { cfb, now };
  });
}

/**
 * A Jam editor's merge, as a promotion's merge writes one: the survivor takes `draft` (its
 * content with the other's labels and sources) and the other CFB points to it
 * (`mergedIntoId`), each a `merge` revision conditional on the version the editor saw, both
 * live; an audit event on each.
 */
async function mergeCfbs(
  sql: TSqlDriver,
  m: { survivorId: string; survivorVersion: number; mergedId: string; mergedVersion: number; draft: TCfbDraft },
  audit: TAuditActor,
): Promise<TCfb> {
  return sql.transaction(async (tx) => {
    const now = new Date();
    const cfb = await rewriteCfb(tx, {
      cfbId: m.survivorId,
      expectedVersion: m.survivorVersion,
      change: { draft: m.draft },
      revision: "merge",
      promotionId: null,
      now,
      liveOnly: true,
      fields: EDIT_FIELDS,
    });
    const merged = await rewriteCfb(tx, {
      cfbId: m.mergedId,
      expectedVersion: m.mergedVersion,
      change: { mergedInto: m.survivorId },
      revision: "merge",
      promotionId: null,
      now,
      liveOnly: true,
      fields: MERGED_FIELDS,
    });
    await insertAudit(
      tx,
      [
        {
          ...audit,
          action: "cfb.merge",
          targetType: "cfb",
          targetId: m.survivorId,
          details: { merged_cfb_id: m.mergedId, version: cfb.version },
        },
        {
          ...audit,
          action: "cfb.merged_into",
          targetType: "cfb",
          targetId: m.mergedId,
          details: { merged_into_cfb_id: m.survivorId, version: merged.version },
        },
      ],
      now,
    );
    return cfb;
  });
}

/** The CFB writes of the CFB repository (cfbs.ts spreads them in). */
export function cfbEditRepository(sql: TSqlDriver) {
  return {
    /** A CFB authored directly (a Jam editor, demo data), not through a proposal; audited when an actor is given. */
    async create(draft: TCfbDraft, audit?: TAuditActor): Promise<TCfb> {
      return sql.transaction(async (tx) => {
        const now = new Date();
        const [cfb] = await insertCfbs(tx, [draft], { promotionId: null, now });
        if (!cfb) throw new Error("the CFB was not written");
        if (audit)
          await insertAudit(
            tx,
            [{ ...audit, action: "cfb.create", targetType: "cfb", targetId: cfb.cfb_id, details: {} }],
            now,
          );
        return cfb;
      });
    },

    /**
     * A Jam editor's edit: version + 1, a revision with the new state, an audit event. The write is
     * conditional on `expectedVersion`, so an edit based on a stale read is CONFLICT, not a lost update.
     */
    async update(cfbId: string, expectedVersion: number, draft: TCfbDraft, audit: TAuditActor): Promise<TCfb> {
      const { cfb } = await editorRewrite(sql, {
        cfbId,
        expectedVersion,
        change: { draft },
        revision: "edit",
        liveOnly: false,
        audit,
        action: "cfb.update",
        details: (c) => ({ version: c.version }),
      });
      return cfb;
    },

    /**
     * A Jam editor endorses a private CFB into shared knowledge (issue 19): version + 1 conditional
     * on the version they saw (they vouch for that content), a revision "endorse", an audit event.
     * Written as a version so the candidate index's log (and every process's index) sees it.
     * CONFLICT when it moved, was merged or is shared already.
     */
    async endorse(cfbId: string, expectedVersion: number, audit: TAuditActor, privateTo: string | null): Promise<TCfb> {
      const { cfb } = await editorRewrite(sql, {
        cfbId,
        expectedVersion,
        change: { endorse: true },
        revision: "endorse",
        liveOnly: true,
        audit,
        action: "cfb.endorse",
        details: (c) => ({ version: c.version, was_private_to: privateTo }),
      });
      return cfb;
    },

    /**
     * A Jam editor's revert: version `toVersion`'s content as a new version (revision `revert`),
     * conditional on `expectedVersion`, with an audit event. Revisions never change, so both
     * snapshots are read before the transaction, whose first statement is the conditional write.
     * Reverting to the content the CFB has at `expectedVersion` is BAD_INPUT: nothing would change.
     */
    async revert(cfbId: string, expectedVersion: number, toVersion: number, audit: TAuditActor): Promise<TCfb> {
      const [target, seen] = await Promise.all([
        revisionSnapshot(sql, cfbId, toVersion),
        revisionSnapshot(sql, cfbId, expectedVersion),
      ]);
      if (!target) {
        if (!(await readCfbRow(sql, cfbId)))
          throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field: "cfb_id" });
        throw new DomainError("NOT_FOUND", `CFB ${cfbId} has no version ${toVersion}`, {
          field: "to_version",
        });
      }
      if (seen && sameCfbContent(target, seen)) {
        throw new DomainError(
          "BAD_INPUT",
          `to_version: version ${toVersion} of CFB ${cfbId} holds the same content as version ${expectedVersion}; choose another version`,
          { field: "to_version" },
        );
      }
      const { cfb } = await editorRewrite(sql, {
        cfbId,
        expectedVersion,
        change: { draft: cfbDraftOf(target) },
        revision: "revert",
        liveOnly: false,
        audit,
        action: "cfb.revert",
        details: (c) => ({ from_version: expectedVersion, to_version: toVersion, version: c.version }),
      });
      return cfb;
    },

    /**
     * Retires a live CFB (`retired`), or restores a retired one: a new version (revision `retire`
     * or `restore`, content unchanged) conditional on `expectedVersion`, with an audit event.
     * A CFB merged, already retired or not retired is CONFLICT saying so.
     */
    async setRetired(
      cfbId: string,
      expectedVersion: number,
      retired: boolean,
      audit: TAuditActor,
    ): Promise<{ cfb: TCfb; retiredAt: Date | null }> {
      const { cfb, now } = await editorRewrite(sql, {
        cfbId,
        expectedVersion,
        change: { retired },
        revision: retired ? "retire" : "restore",
        liveOnly: false,
        audit,
        action: retired ? "cfb.retire" : "cfb.restore",
        details: (c) => ({ version: c.version }),
      });
      return { cfb, retiredAt: retired ? now : null };
    },

    /** A Jam editor's merge of two CFBs (see mergeCfbs). */
    merge: (m: Parameters<typeof mergeCfbs>[1], audit: TAuditActor) => mergeCfbs(sql, m, audit),

    /**
     * Many CFBs at once (a knowledge base brought in from elsewhere, the benchmarks): the same rows
     * `create` writes, in one transaction of multi-row INSERTs, so 100,000 CFBs take seconds. Ids in
     * draft order.
     */
    async import(drafts: readonly TCfbDraft[]): Promise<string[]> {
      const written = await sql.transaction((tx) => insertCfbs(tx, drafts, { promotionId: null, now: new Date() }));
      return written.map((c) => c.cfb_id);
    },
  };
}

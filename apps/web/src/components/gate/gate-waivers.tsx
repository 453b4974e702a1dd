"use client";
import type { TGateDecision } from "@solserver/contracts";

// Waivers on the gate page: the same entries a CI config holds (codes, reason, owner,
// expires_at), edited as rows. The quickest way in is from a result: each finding's code has a
// "Waive" button that starts a row for it. The server validates the rows (an unknown code or a
// date in the past is named in the error), so the page does not keep its own list of codes.

export type TWaiverRow = { key: number; codes: string; reason: string; owner: string; expires_at: string };

let nextKey = 1;

export function newWaiverRow(code = "", owner = ""): TWaiverRow {
  const inMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  return { key: nextKey++, codes: code, reason: "", owner, expires_at: inMonth };
}

/** The rows as the config's `waivers` (codes split on commas and spaces). */
export function waiversOf(rows: readonly TWaiverRow[]) {
  return rows.map((r) => ({
    codes: r.codes
      .split(/[\s,]+/)
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
    reason: r.reason,
    owner: r.owner,
    expires_at: r.expires_at,
  }));
}

export function WaiverRows({ rows, onChange }: { rows: TWaiverRow[]; onChange: (rows: TWaiverRow[]) => void }) {
  const update = (key: number, patch: Partial<TWaiverRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset className="stack" data-testid="waivers">
      <legend>Waivers</legend>
      <p className="muted">
        A waiver accepts a finding until it expires: its codes stop counting, and the decision lists it. After the date
        the finding counts again.
      </p>
      {rows.map((r, i) => (
        <div key={r.key} className="row wrap" data-testid="waiver-row">
          <label className="stack">
            <span>Codes</span>
            <input value={r.codes} onChange={(e) => update(r.key, { codes: e.target.value })} />
          </label>
          <label className="stack grow">
            <span>Reason</span>
            <input value={r.reason} onChange={(e) => update(r.key, { reason: e.target.value })} />
          </label>
          <label className="stack">
            <span>Owner</span>
            <input value={r.owner} onChange={(e) => update(r.key, { owner: e.target.value })} />
          </label>
          <label className="stack">
            <span>Expires</span>
            <input type="date" value={r.expires_at} onChange={(e) => update(r.key, { expires_at: e.target.value })} />
          </label>
          <button
            type="button"
            aria-label={`Remove waiver ${i + 1}`}
            onClick={() => onChange(rows.filter((x) => x.key !== r.key))}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button type="button" onClick={() => onChange([...rows, newWaiverRow()])}>
          Add a waiver
        </button>
      </div>
    </fieldset>
  );
}

/** What the waivers did to this decision: applied (with the codes covered) and expired. */
export function WaiverOutcome({ waivers }: { waivers: TGateDecision["waivers"] }) {
  if (!waivers || (waivers.applied.length === 0 && waivers.expired.length === 0)) return null;
  return (
    <ul data-testid="waiver-outcome">
      {waivers.applied.map((w) => (
        <li key={`a-${w.codes.join()}-${w.expires_at}`}>
          Waived {w.matched.join(", ")} until {w.expires_at} (owner {w.owner}): {w.reason}
        </li>
      ))}
      {waivers.expired.map((w) => (
        <li key={`e-${w.codes.join()}-${w.expires_at}`}>
          Waiver for {w.codes.join(", ")} expired on {w.expires_at} (owner {w.owner})
          {w.matched.length > 0 ? ": the finding counts again" : ""}
        </li>
      ))}
    </ul>
  );
}

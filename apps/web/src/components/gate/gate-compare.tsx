"use client";
import { GATE_PRESETS, type TGatePresetName } from "@solserver/contracts";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { ErrorAlert } from "../ui/ui";
import { newWaiverRow, type TWaiverRow, WaiverOutcome, WaiverRows, waiversOf } from "./gate-waivers";
import { GateBadge, HighlightedPii, PolicyLines } from "./gate-words";

/**
 * Compare two outputs by hand: the CLI's `evaluate`, stored like any other evaluation, with the
 * same options a CI config has (mode, strict, a preset, waivers).
 */
export function CompareForm({ onDone }: { onDone: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const [baseline, setBaseline] = useState("");
  const [candidate, setCandidate] = useState("");
  const [mode, setMode] = useState<"lite" | "full">("lite");
  const [strict, setStrict] = useState(false);
  const [preset, setPreset] = useState<TGatePresetName | "">("");
  const [waivers, setWaivers] = useState<TWaiverRow[]>([]);
  const evaluate = useMutation(trpc.gate.evaluate.mutationOptions({ onSuccess: onDone }));
  const [problem, setProblem] = useState<string | null>(null);
  // What was evaluated (the result's highlights refer to it, not to the box as edited since).
  const [judged, setJudged] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    const empty = [!baseline.trim() && "the baseline output", !candidate.trim() && "the candidate output"].filter(
      Boolean,
    );
    setProblem(empty.length > 0 ? `Enter ${empty.join(" and ")}: an empty output is nothing to compare.` : null);
    if (empty.length > 0) return;
    setJudged(candidate);
    evaluate.mutate({
      baseline: { output: baseline },
      candidate: { output: candidate },
      mode,
      strict,
      ...(preset ? { preset } : {}),
      ...(waivers.length > 0 ? { config: { waivers: waiversOf(waivers) } } : {}),
      label: "dashboard",
    });
  }
  const decision = evaluate.data?.decision;
  const waivable = decision ? [...new Set(decision.reason_codes)] : [];
  const waived = new Set(waiversOf(waivers).flatMap((w) => w.codes));
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="compare-heading">
      <h2 id="compare-heading">Compare two outputs</h2>
      <div className="row wrap">
        <label className="stack grow">
          <span>Baseline output (known good)</span>
          <textarea rows={4} value={baseline} onChange={(e) => setBaseline(e.target.value)} />
        </label>
        <label className="stack grow">
          <span>Candidate output</span>
          <textarea rows={4} value={candidate} onChange={(e) => setCandidate(e.target.value)} />
        </label>
      </div>
      <div className="row wrap">
        <label className="row">
          <span className="muted">Mode</span>
          <select className="inline" value={mode} onChange={(e) => setMode(e.target.value as "lite" | "full")}>
            <option value="lite">lite</option>
            <option value="full">full</option>
          </select>
        </label>
        <label className="row">
          <span className="muted">Preset</span>
          <select className="inline" value={preset} onChange={(e) => setPreset(e.target.value as TGatePresetName | "")}>
            <option value="">none (the seed's thresholds)</option>
            {GATE_PRESETS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label className="row">
          <input type="checkbox" checked={strict} onChange={(e) => setStrict(e.target.checked)} />
          <span>strict (WARN blocks)</span>
        </label>
        <button type="submit" disabled={evaluate.isPending}>
          {evaluate.isPending ? "Evaluating…" : "Evaluate"}
        </button>
      </div>
      {waivers.length > 0 ? <WaiverRows rows={waivers} onChange={setWaivers} /> : null}
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      <ErrorAlert what="Could not evaluate" error={evaluate.error} />
      {decision ? (
        <div className="stack" data-testid="gate-result" aria-live="polite">
          <p>
            Final decision: <GateBadge status={decision.status} />
          </p>
          <PolicyLines policies={decision.policies} />
          <HighlightedPii text={judged} policies={decision.policies} />
          {decision.reasons.length > 0 ? (
            <ul>
              {decision.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          ) : null}
          <WaiverOutcome waivers={decision.waivers} />
          {waivable.length > 0 ? (
            <div className="row wrap">
              <span className="muted">Accept a finding for a while:</span>
              {waivable.map((code) => (
                <button
                  key={code}
                  type="button"
                  disabled={waived.has(code)}
                  onClick={() => setWaivers([...waivers, newWaiverRow(code)])}
                >
                  Waive {code}
                </button>
              ))}
            </div>
          ) : waivers.length === 0 ? (
            <div>
              <button type="button" onClick={() => setWaivers([newWaiverRow()])}>
                Add a waiver
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

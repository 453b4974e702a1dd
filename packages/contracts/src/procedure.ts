import { z } from "zod";
import { ZThreadId } from "./ids";

// Procedure mode (issue 9, seed 004): a thread bound to a diagnostic procedure is steered by the
// context engine. These are the API's views of it; the engine's own state lives in
// packages/engine (context/state.ts) and is stored as JSON with the thread.

/** A system id of the procedure catalog ("water_pump"). */
export const ZSystemId = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]*$/, { error: 'must be a system id of the procedure catalog, e.g. "water_pump"' })
  .max(64, { error: "must be at most 64 characters" });

/**
 * How a turn picks its procedure, while the thread is not bound to one: a system id binds it to
 * that system's procedure; "auto" detects the system from this message (nothing detected: the
 * thread stays unbound and the model asks which system); "none" keeps it a plain chat.
 */
export const ZProcedureChoice = z.union([z.enum(["auto", "none"]), ZSystemId]);
export type TProcedureChoice = z.infer<typeof ZProcedureChoice>;

const ZLabor = z.object({
  draft_minutes: z.number().int(),
  /** One line per completed step; "@technician" lines are the technician's own labor changes. */
  lines: z.array(z.object({ step: z.string(), minutes: z.number().int(), note: z.string().optional() })),
});

const ZNotChecked = z.object({ step: z.string(), question: z.string(), reason: z.string() });
const ZObservation = z.object({ rule: z.string(), label: z.string(), text: z.string() });
const ZDoctrine = z.object({ id: z.string(), rule: z.string() });

/** The final report: what the diagnosis found and what was done about it. */
export const ZProcedureReport = z.object({
  complaint: z.string(),
  cause: z.string(),
  correction: z.string(),
  steps_performed: z.array(z.object({ step: z.string(), question: z.string(), finding: z.string() })),
  evidence: z.record(z.string(), z.string()),
  labor: ZLabor,
  authorized: z.boolean().nullable(),
  /** "warranty": not allowed under warranty; "evidence": what was found needs the dealer first. */
  escalation: z.enum(["warranty", "evidence"]).nullable(),
  /** "fixed_by_technician": the technician reported the repair done. */
  resolution: z.literal("fixed_by_technician").nullable(),
  repair: z.string().nullable(),
  /** Steps passed without a finding ("no idea", "no meter", "skip"), and why. */
  not_checked: z.array(ZNotChecked),
  observations: z.array(ZObservation),
  /** The catalog doctrine the conclusion follows instead of the last finding, cited. */
  doctrine: z.array(ZDoctrine),
  /** What the technician added after the report. */
  notes: z.array(z.string()),
  /** 1, then one more with every revision (a correction, a labor change, a note). */
  revision: z.number().int().min(1),
  revised_because: z.string().nullable(),
  /** The report's texts in the technician's language (the report itself is English). */
  translation: z
    .object({
      language: z.string(),
      cause: z.string(),
      correction: z.string(),
      steps_performed: z.array(z.object({ step: z.string(), question: z.string(), finding: z.string() })),
      not_checked: z.array(ZNotChecked),
      observations: z.array(ZObservation),
      doctrine: z.array(ZDoctrine),
    })
    .nullable(),
});
export type TProcedureReport = z.infer<typeof ZProcedureReport>;

/** Where a thread's diagnosis stands: returned with every procedure turn and by procedures.get. */
export const ZProcedureView = z.object({
  system_id: z.string(),
  system_title: z.string(),
  procedure_id: z.string(),
  procedure_title: z.string(),
  /** "safety_stop": a safety rule stopped the case until the technician says it is safe. */
  mode: z.enum(["diagnostic", "authorization", "final_report", "safety_stop"]),
  /** The technician's language ("en", "es", "ru"): step texts and options are in it. */
  language: z.string(),
  submode: z.enum(["main", "locate", "explain", "howto", "replan"]),
  /** The step being asked, with its question; null once the diagnosis is complete. */
  active_step: z.object({ id: z.string(), question: z.string(), options: z.array(z.string()) }).nullable(),
  /** What this turn's directive told the model to do (ask_step, replan, final_report, ...). */
  directive_kind: z.string().nullable(),
  /** `label`: the recorded answer as the technician reads it (the finding is the catalog's key). */
  completed_steps: z.array(
    z.object({ id: z.string(), question: z.string(), finding: z.string().nullable(), label: z.string().nullable() }),
  ),
  /** Steps of the procedure, in catalog order (branches included): for progress displays. */
  total_steps: z.number().int(),
  evidence: z.record(z.string(), z.string()),
  labor: ZLabor,
  /** Steps the technician could not answer: `passed` once the procedure went on without them. */
  unchecked_steps: z.array(z.object({ id: z.string(), question: z.string(), reason: z.string(), passed: z.boolean() })),
  /** The safety stop in force: its rule and instruction. */
  safety: z.object({ rule: z.string(), instruction: z.string() }).nullable(),
  observations: z.array(ZObservation),
  report: ZProcedureReport.nullable(),
  /** Earlier revisions of the report, oldest first. */
  report_history: z.array(ZProcedureReport),
  /** The state's version: the number of the diagnosis's turns so far (one more with every turn). */
  version: z.number().int().min(0),
  /**
   * "stored": read from the database; "rebuilt": the stored state was missing or no longer fits
   * the catalog, so it was rebuilt by replaying the thread's messages through the engine.
   */
  state_source: z.enum(["stored", "rebuilt"]),
  updated_ts: z.string(),
});
export type TProcedureView = z.infer<typeof ZProcedureView>;

export const ZProcedureGetRequest = z.object({ thread_id: ZThreadId }).strict();

/** The catalog's systems, for pickers: what a technician can choose for a new thread. */
export const ZProcedureCatalog = z.object({
  catalog_id: z.string(),
  title: z.string(),
  systems: z.array(
    z.object({
      system_id: z.string(),
      title: z.string(),
      procedure_id: z.string(),
      procedure_title: z.string(),
      steps: z.number().int(),
      /** What a first message should mention for "auto" to pick this system. */
      keywords: z.array(z.string()),
    }),
  ),
});
export type TProcedureCatalog = z.infer<typeof ZProcedureCatalog>;

// Parsed requests, as a service receives them (defaults applied).
export type TProcedureGetRequest = z.output<typeof ZProcedureGetRequest>;

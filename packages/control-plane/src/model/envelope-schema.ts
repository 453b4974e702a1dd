import { ZOutputEnvelope, ZThreadMementoShape } from "@solserver/contracts";
import { z } from "zod";

// The OutputEnvelope as JSON Schema, built once: the structured-output format sent to
// OpenAI-compatible servers, and the output contract the output gate checks every attempt against.

/** A JSON Schema without the `$schema` marker, which some local servers' grammar converters reject. */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // io "input": the shape the model sends, i.e. what safeParse accepts (defaulted fields optional).
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return rest;
}

/** The summary update a model may propose: the memento shape's fields and bounds (extra keys dropped). */
export const ZSummaryUpdate = z.object(ZThreadMementoShape.shape);

// Two response schemas: the envelope alone, and the envelope plus `summary` for turns that may
// update the thread summary.
export const ENVELOPE_SCHEMA = jsonSchemaOf(ZOutputEnvelope);
export const ENVELOPE_WITH_SUMMARY_SCHEMA = {
  ...ENVELOPE_SCHEMA,
  properties: { ...(ENVELOPE_SCHEMA.properties as object), summary: jsonSchemaOf(ZSummaryUpdate) },
  required: [...(ENVELOPE_SCHEMA.required as string[]), "summary"],
};

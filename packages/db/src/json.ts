// Json columns come back as Prisma's JsonValue. These narrow them to the shapes the code wrote,
// failing loudly (not silently coercing) if a row was written by something else.

export function asStringArray(value: unknown, column: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new Error(`column ${column} does not hold a string array`);
  }
  return value;
}

export function asObject(value: unknown, column: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`column ${column} does not hold an object`);
  }
  return value as Record<string, unknown>;
}

// The one error the gate throws. Callers (the CLI, the API route) turn it into a usage error
// or a 400: it always names the offending field, so the message can be shown as is.

export class GateInputError extends Error {
  /** Dotted path of the bad input, e.g. `candidate.output` or `config.cost.warn_increase_pct`. */
  readonly field: string;

  constructor(field: string, rule: string) {
    super(`${field}: ${rule}`);
    this.name = "GateInputError";
    this.field = field;
  }
}

/**
 * Why `db:copy` will not start, as one line naming the option and the rule; `exitCode` 2 for
 * arguments (bad, missing, the same database twice, a source that does not exist), 3 for a
 * target that already holds rows. Nothing was written when one is thrown.
 */
export class CopyRefusal extends Error {
  constructor(
    message: string,
    readonly exitCode: 2 | 3,
  ) {
    super(message);
    this.name = "CopyRefusal";
  }
}

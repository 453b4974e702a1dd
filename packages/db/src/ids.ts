import { uuidv7 } from "uuidv7";
import { prepare } from "./prepared-sql";
import type { TSql } from "./sql";
import { rows, typed } from "./typed-sql";

// Id families and their zero-padded width: CFB-0001, UP-0001, P-0001 ...
const ID_FAMILIES = {
  cfb: { prefix: "CFB", width: 4 },
  proposal: { prefix: "UP", width: 4 },
  packet: { prefix: "P", width: 4 },
  transmission: { prefix: "T", width: 4 },
  attempt: { prefix: "A", width: 4 },
  response: { prefix: "R", width: 4 },
  promotion: { prefix: "PE", width: 4 },
  workflowRun: { prefix: "WR", width: 4 },
  resolveRule: { prefix: "RR", width: 4 },
  routingExample: { prefix: "RX", width: 4 },
} as const;
type TIdFamily = keyof typeof ID_FAMILIES;

export type TIdRequest = Partial<Record<TIdFamily, number>>;
export type TIdBatch = Record<TIdFamily, string[]>;

/**
 * One statement that reserves ids of several families at once: a multi-row upsert on the named
 * counters that returns each counter's new value (SQLite and PostgreSQL both accept it).
 */
const allocation = prepare(
  (v: { counters: { name: string; value: number }[] }) =>
    typed
      .insertInto("IdSequence")
      .values(v.counters)
      .onConflict((oc) =>
        oc.column("name").doUpdateSet((eb) => ({ value: eb("IdSequence.value", "+", eb.ref("excluded.value")) })),
      )
      .returning(["name", "value"]),
  ["counters"],
);

function format(family: TIdFamily, value: number, count: number): string[] {
  const { prefix, width } = ID_FAMILIES[family];
  const first = value - count + 1;
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(first + i).padStart(width, "0")}`);
}

/**
 * Reserves ids of several families in one statement (the one id allocator), called by the
 * transaction that writes the rows. On SQLite it runs inside that transaction, so a rolled-back
 * write gives its ids back. On PostgreSQL it commits on its own (`tx.outside`), like a sequence:
 * a rolled-back write leaves a gap, and concurrent writers never wait on or conflict over a
 * counter row.
 */
export async function allocateIds(tx: TSql, request: TIdRequest): Promise<TIdBatch> {
  const batch = Object.fromEntries(Object.keys(ID_FAMILIES).map((f) => [f, [] as string[]])) as TIdBatch;
  const wanted = (Object.entries(request) as [TIdFamily, number][]).filter(([, count]) => count > 0);
  if (wanted.length === 0) return batch;
  const counted = allocation({ counters: wanted.map(([name, value]) => ({ name, value })) }, tx.dialect);
  const counters = await rows(tx.outside ?? tx, counted);
  for (const [family, count] of wanted) {
    const row = counters.find((r) => r.name === family);
    if (!row) throw new Error(`could not allocate ${family} ids`);
    batch[family] = format(family, Number(row.value), count);
  }
  return batch;
}

/** The number in an id (CFB-0042 → 42): the `seq` column lists order by, since ids order as text. */
export function idNumber(id: string): number {
  const n = Number(id.slice(id.lastIndexOf("-") + 1));
  if (!Number.isSafeInteger(n)) throw new Error(`not a numbered id: ${id}`);
  return n;
}

/**
 * An id for rows listed newest first by (createdAt, id): a UUIDv7, whose order within one
 * millisecond is the order it was made in (this process), so two events written in the same
 * millisecond (a token created and revoked at once) still list in the order they happened.
 */
export function timeOrderedId(): string {
  return uuidv7();
}

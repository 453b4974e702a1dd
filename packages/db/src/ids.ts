import type { Prisma } from "./generated/prisma/client";

type Tx = Prisma.TransactionClient;

// Id families and their zero-padded width: CFB-0001, UP-0001, P-0001 ...
export const ID_FAMILIES = {
  cfb: { prefix: "CFB", width: 4 },
  proposal: { prefix: "UP", width: 4 },
  packet: { prefix: "P", width: 4 },
  transmission: { prefix: "T", width: 4 },
  attempt: { prefix: "A", width: 4 },
  response: { prefix: "R", width: 4 },
  promotion: { prefix: "PE", width: 4 },
} as const;
export type TIdFamily = keyof typeof ID_FAMILIES;

/**
 * Reserves `count` consecutive ids of a family inside the caller's transaction, so a rolled-back
 * write also gives its ids back. The counter row is the serialisation point on PostgreSQL too.
 */
export async function allocateIds(tx: Tx, family: TIdFamily, count = 1): Promise<string[]> {
  if (count === 0) return [];
  const { prefix, width } = ID_FAMILIES[family];
  const row = await tx.idSequence.upsert({
    where: { name: family },
    create: { name: family, value: count },
    update: { value: { increment: count } },
  });
  const first = row.value - count + 1;
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(first + i).padStart(width, "0")}`);
}

export async function allocateId(tx: Tx, family: TIdFamily): Promise<string> {
  const [id] = await allocateIds(tx, family, 1);
  if (id === undefined) throw new Error(`could not allocate a ${family} id`);
  return id;
}

// Driving the context engine in tests: a conversation from a fresh case on the shipped catalog.
import { contextTurn, RV_SERVICE_CATALOG, startContext, type TCatalog, type TContextTurn } from "../src/index";

/** Runs a conversation from a fresh case; the first message is the complaint. */
export function drive(
  systemId: string,
  messages: readonly string[],
  catalog: TCatalog = RV_SERVICE_CATALOG,
): TContextTurn[] {
  let state = startContext(catalog, systemId);
  return messages.map((message) => {
    const turn = contextTurn(catalog, state, message);
    state = turn.state;
    return turn;
  });
}

/** The last turn of a conversation. */
export function last(turns: readonly TContextTurn[]): TContextTurn {
  const turn = turns[turns.length - 1];
  if (turn === undefined) throw new Error("no turns");
  return turn;
}

// `pnpm token` (issue 39): API tokens for service accounts without a browser, as a Jam editor on
// the server's own database (the same services, checks and audit events as the tokens page).
//   pnpm token create --as <jam email> --for <account email> --name <name> [--expires 90d]
//                                                                     prints the token once
//   pnpm token list --as <jam email>
//   pnpm token revoke <token id> --as <jam email>
// Exit codes: 0 done, 2 a usage error, 1 refused by the server (named, with its reason).
import { parseArgs } from "node:util";
import { isDomainError, ZTokenCreateRequest, ZTokenRevokeRequest } from "@solserver/contracts";
import { openControlPlaneFromEnv } from "../control-plane";
import { loadServerEnv } from "../env";
import { parseInput } from "../parse";
import type { TServiceContext } from "../services/context";
import { createToken, listTokens, revokeToken } from "../services/tokens";

export type TTokenIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
};

const USAGE = `usage: pnpm token create --as <jam email> --for <account email> --name <name> [--expires <days>d]
       pnpm token list --as <jam email>
       pnpm token revoke <token id> --as <jam email>`;

export async function runTokenCli(argv: readonly string[], io: TTokenIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { command, as, forEmail, name, tokenId, expiresInDays } = parsed;
  const opened = await openControlPlaneFromEnv(loadServerEnv(io.env));
  try {
    const editor = await opened.repos.accounts.byEmail(as);
    if (editor?.role !== "jam") {
      io.err(
        `--as ${as}: ${editor ? "is not a Jam editor" : "no such account"}; API tokens are Jam editors' to manage`,
      );
      return 2;
    }
    const ctx: TServiceContext = {
      deps: opened.deps,
      caller: { kind: "user", userId: editor.id, email: editor.email, role: "jam", via: "cli" },
    };
    if (command === "list") {
      const { items } = await listTokens(ctx);
      if (items.length === 0) io.out("no API tokens");
      for (const t of items)
        io.out(
          `${t.id}  ${t.prefix}…  ${t.name}  for ${t.user_email}  ${t.revoked_ts ? `revoked ${t.revoked_ts}` : t.expires_ts ? `expires ${t.expires_ts}` : "active"}`,
        );
      return 0;
    }
    if (command === "revoke") {
      const revoked = await revokeToken(ctx, parseInput(ZTokenRevokeRequest, { token_id: tokenId }));
      io.out(`revoked ${revoked.id} (${revoked.name}, for ${revoked.user_email})`);
      return 0;
    }
    const subject = await opened.repos.accounts.byEmail(forEmail as string);
    if (!subject) {
      io.err(`--for ${forEmail}: no such account (create it at /admin/users first)`);
      return 2;
    }
    const created = await createToken(
      ctx,
      parseInput(ZTokenCreateRequest, {
        user_id: subject.id,
        name,
        ...(expiresInDays === undefined ? {} : { expires_in_days: Number(expiresInDays) }),
      }),
    );
    const until = created.expires_ts ? `, expires ${created.expires_ts}` : "";
    io.err(`created ${created.id} "${created.name}" for ${created.user_email}${until}; shown once, keep it secret:`);
    io.out(created.token);
    return 0;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    io.err(`refused (${error.code}): ${error.message}`);
    return 1;
  } finally {
    await opened.db.$disconnect();
  }
}

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { as: { type: "string" }, for: { type: "string" }, name: { type: "string" }, expires: { type: "string" } },
  });
  const [command, tokenId] = positionals;
  if (command !== "create" && command !== "list" && command !== "revoke")
    throw new Error(`unknown command ${command === undefined ? "(none)" : `"${command}"`}`);
  if (!values.as) throw new Error("--as: the Jam editor acting is required");
  if (command === "create" && (!values.for || !values.name)) throw new Error("create needs --for and --name");
  if (command === "revoke" && !tokenId) throw new Error("revoke needs the token id (pnpm token list shows them)");
  const days = values.expires === undefined ? undefined : /^([1-9]\d{0,3})d?$/.exec(values.expires.trim())?.[1];
  if (values.expires !== undefined && days === undefined)
    throw new Error("--expires: must be a number of days from 1, such as 90d");
  return { command, as: values.as, forEmail: values.for, name: values.name, tokenId, expiresInDays: days };
}

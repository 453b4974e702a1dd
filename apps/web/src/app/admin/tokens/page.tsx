import type { Metadata } from "next";
import { AdminTokens } from "@/components/admin-tokens";
import { RequireSession } from "@/components/require-session";

export const metadata: Metadata = { title: "API tokens · Solserver" };

export default function TokensPage() {
  return (
    <RequireSession jamOnly what="Managing API tokens">
      <AdminTokens />
    </RequireSession>
  );
}

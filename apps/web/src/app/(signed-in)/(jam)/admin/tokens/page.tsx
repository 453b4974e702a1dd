import type { Metadata } from "next";
import { AdminTokens } from "@/components/admin/admin-tokens";

export const metadata: Metadata = { title: "API tokens" };

export default function TokensPage() {
  return (
    <div className="stack">
      <h1 className="page-title">API tokens</h1>
      <AdminTokens />
    </div>
  );
}

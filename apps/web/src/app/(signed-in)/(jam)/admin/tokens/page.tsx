import type { Metadata } from "next";
import { AdminTokens } from "@/components/admin-tokens";

export const metadata: Metadata = { title: "API tokens · Solserver" };

export default function TokensPage() {
  return <AdminTokens />;
}

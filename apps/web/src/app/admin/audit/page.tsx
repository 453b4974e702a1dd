import type { Metadata } from "next";
import { AdminAudit } from "@/components/admin-audit";
import { RequireSession } from "@/components/require-session";

export const metadata: Metadata = { title: "Audit log · Solserver" };

export default function AuditPage() {
  return (
    <RequireSession jamOnly what="The audit log">
      <AdminAudit />
    </RequireSession>
  );
}

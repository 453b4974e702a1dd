import type { Metadata } from "next";
import { RequireSession } from "@/components/require-session";
import { WorkflowDashboard } from "@/components/workflow-dashboard";

export const metadata: Metadata = { title: "Checkpoints · Solserver" };

export default function WorkflowsPage() {
  return (
    <RequireSession jamOnly what="Checkpoint workflows">
      <WorkflowDashboard />
    </RequireSession>
  );
}

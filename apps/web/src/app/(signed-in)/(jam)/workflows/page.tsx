import type { Metadata } from "next";
import { WorkflowDashboard } from "@/components/workflows/workflow-dashboard";

export const metadata: Metadata = { title: "Checkpoints" };

export default function WorkflowsPage() {
  return <WorkflowDashboard />;
}

import type { Metadata } from "next";
import { WorkflowDashboard } from "@/components/workflow-dashboard";

export const metadata: Metadata = { title: "Checkpoints" };

export default function WorkflowsPage() {
  return <WorkflowDashboard />;
}

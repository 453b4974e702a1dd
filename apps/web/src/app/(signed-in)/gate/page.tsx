import type { Metadata } from "next";
import { GateEvaluations } from "@/components/gate/gate-evaluations";

export const metadata: Metadata = { title: "Output gate" };

export default function GatePage() {
  return (
    <div className="stack">
      <h1 className="page-title">Output gate</h1>
      <GateEvaluations />
    </div>
  );
}

import type { Metadata } from "next";
import { GateEvaluations } from "@/components/gate-evaluations";
import { RequireSession } from "@/components/require-session";

export const metadata: Metadata = { title: "Output gate · Solserver" };

export default function GatePage() {
  return (
    <RequireSession what="The output gate">
      <GateEvaluations />
    </RequireSession>
  );
}

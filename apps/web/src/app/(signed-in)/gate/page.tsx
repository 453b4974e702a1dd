import type { Metadata } from "next";
import { GateEvaluations } from "@/components/gate-evaluations";

export const metadata: Metadata = { title: "Output gate · Solserver" };

export default function GatePage() {
  return <GateEvaluations />;
}

import type { Metadata } from "next";
import { ResolveLearning } from "@/components/admin/resolve-learning";

export const metadata: Metadata = { title: "Resolve" };

export default function ResolvePage() {
  return <ResolveLearning />;
}

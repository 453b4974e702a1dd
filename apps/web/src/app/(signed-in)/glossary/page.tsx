import type { Metadata } from "next";
import { Glossary } from "@/components/knowledge/glossary-page";

export const metadata: Metadata = { title: "Glossary" };

export default function GlossaryPage() {
  return <Glossary />;
}

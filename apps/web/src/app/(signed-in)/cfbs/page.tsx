import type { Metadata } from "next";
import { CfbList } from "@/components/knowledge/cfb-list";

export const metadata: Metadata = { title: "Knowledge" };

export default function CfbsPage() {
  return <CfbList />;
}

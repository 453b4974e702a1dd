import type { Metadata } from "next";
import { CfbDetail } from "@/components/knowledge/cfb-detail";

type TProps = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  return { title: `${decodeURIComponent((await params).id)}` };
}

export default async function CfbPage({ params }: TProps) {
  const { id } = await params;
  return <CfbDetail cfbId={decodeURIComponent(id)} />;
}

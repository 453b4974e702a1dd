import { CfbDetail } from "@/components/cfb-detail";

export default async function CfbPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <CfbDetail cfbId={decodeURIComponent(id)} />;
}

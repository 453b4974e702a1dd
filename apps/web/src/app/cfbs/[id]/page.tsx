import { CfbDetail } from "@/components/cfb-detail";
import { RequireSession } from "@/components/require-session";

export default async function CfbPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <RequireSession>
      <CfbDetail cfbId={decodeURIComponent(id)} />
    </RequireSession>
  );
}

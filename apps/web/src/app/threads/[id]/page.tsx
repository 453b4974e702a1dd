import { RequireSession } from "@/components/require-session";
import { ThreadDetail } from "@/components/thread-detail";

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <RequireSession>
      <ThreadDetail threadId={decodeURIComponent(id)} />
    </RequireSession>
  );
}

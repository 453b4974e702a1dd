import { ProposalReview } from "@/components/proposal-review";
import { RequireSession } from "@/components/require-session";

export default async function ProposalPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <RequireSession>
      <ProposalReview proposalId={decodeURIComponent(id)} />
    </RequireSession>
  );
}

import type { Metadata } from "next";
import { ProposalReview } from "@/components/review/proposal-review";

type TProps = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  return { title: `Proposal ${decodeURIComponent((await params).id)}` };
}

export default async function ProposalPage({ params }: TProps) {
  const { id } = await params;
  return <ProposalReview proposalId={decodeURIComponent(id)} />;
}

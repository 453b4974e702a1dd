import type { Metadata } from "next";
import { Suspense } from "react";
import { ProposalQueue } from "@/components/review/proposal-queue";

export const metadata: Metadata = { title: "Review queue" };

// The queue reads its filters from the URL (useSearchParams), which needs a Suspense boundary.
export default function ReviewPage() {
  return (
    <Suspense fallback={<p className="muted">Loading the queue…</p>}>
      <ProposalQueue />
    </Suspense>
  );
}

import { ChatPanel } from "@/components/chat-panel";
import { ProposalQueue } from "@/components/proposal-queue";

export default function DashboardPage() {
  return (
    <div className="grid">
      <ChatPanel />
      <ProposalQueue />
    </div>
  );
}

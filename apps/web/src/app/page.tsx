import { ChatPanel } from "@/components/chat-panel";
import { ProposalQueue } from "@/components/proposal-queue";
import { RequireSession } from "@/components/require-session";

export default function DashboardPage() {
  return (
    <RequireSession>
      <div className="grid">
        <ChatPanel />
        <ProposalQueue />
      </div>
    </RequireSession>
  );
}

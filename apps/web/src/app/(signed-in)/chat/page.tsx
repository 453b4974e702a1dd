import type { Metadata } from "next";
import { Suspense } from "react";
import { ChatPanel } from "@/components/chat/chat-panel";

export const metadata: Metadata = { title: "Chat" };

// The chat reads ?thread= (continue a thread) with useSearchParams, which needs a Suspense boundary.
export default function ChatPage() {
  return (
    <Suspense fallback={<p className="muted">Loading the chat…</p>}>
      <ChatPanel />
    </Suspense>
  );
}

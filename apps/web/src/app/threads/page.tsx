import type { Metadata } from "next";
import { RequireSession } from "@/components/require-session";
import { ThreadList } from "@/components/thread-list";

export const metadata: Metadata = { title: "Threads · Solserver" };

export default function ThreadsPage() {
  return (
    <RequireSession>
      <ThreadList />
    </RequireSession>
  );
}

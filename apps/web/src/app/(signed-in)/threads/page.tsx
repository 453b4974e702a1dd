import type { Metadata } from "next";
import { ThreadList } from "@/components/chat/thread-list";

export const metadata: Metadata = { title: "Threads" };

export default function ThreadsPage() {
  return <ThreadList />;
}

import type { Metadata } from "next";
import { ThreadDetail } from "@/components/chat/thread-detail";

type TProps = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  return { title: `Thread ${decodeURIComponent((await params).id)}` };
}

export default async function ThreadPage({ params }: TProps) {
  const { id } = await params;
  return <ThreadDetail threadId={decodeURIComponent(id)} />;
}

import type { ReactNode } from "react";
import { JamOnly } from "@/components/session/signed-in";

// The Jam editors' pages (components/session/jam-pages.ts lists them): anyone else is told they have no access.
export default function JamLayout({ children }: { children: ReactNode }) {
  return <JamOnly>{children}</JamOnly>;
}

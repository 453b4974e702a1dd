import type { ReactNode } from "react";
import { SignedIn } from "@/components/session/signed-in";

// Every page but /sign-in: shown to a signed-in account only (the group adds nothing to the URLs).
export default function SignedInLayout({ children }: { children: ReactNode }) {
  return <SignedIn>{children}</SignedIn>;
}

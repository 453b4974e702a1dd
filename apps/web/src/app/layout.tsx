import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { SessionNav } from "@/components/session-nav";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Solserver",
  description: "Control plane for LLM assistants: turns, knowledge proposals, promotion.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <header className="topbar">
            <Link href="/" className="brand">
              Solserver
            </Link>
            <SessionNav />
          </header>
          <main>{children}</main>
        </Providers>
      </body>
    </html>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SessionNav } from "@/components/session-nav";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Solserver",
  description: "Control plane for LLM assistants: turns, knowledge proposals, promotion.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request, never prerendered: Next puts the proxy's per-request CSP nonce on its
  // scripts only while rendering (a static page would carry none, and its scripts would not run).
  await connection();
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

import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
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
        <header className="topbar">
          <Link href="/" className="brand">
            Solserver
          </Link>
          <nav>
            <Link href="/">Dashboard</Link>
            <Link href="/cfbs">Knowledge</Link>
          </nav>
        </header>
        <Providers>
          <main>{children}</main>
        </Providers>
      </body>
    </html>
  );
}

import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SessionNav } from "@/components/session/session-nav";
import { ConnectionBanner } from "@/components/ui/connection-banner";
import { THEME_COOKIE, themeOf } from "@/components/ui/theme";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  // Every page names itself ("Review queue · Solserver"), so tabs and history tell pages apart.
  title: { default: "Solserver", template: "%s · Solserver" },
  description: "Control plane for LLM assistants: turns, knowledge proposals, promotion.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request, never prerendered: Next puts the proxy's per-request CSP nonce on its
  // scripts only while rendering (a static page would carry none, and its scripts would not run).
  await connection();
  // The chosen theme is a cookie read here, so the first paint is already in it (no flash, no
  // inline script the CSP would have to allow). Without a choice the browser's preference rules.
  const theme = themeOf((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Providers>
          <header className="topbar">
            <Link href="/" className="brand">
              Solserver
            </Link>
            <SessionNav />
            <ThemeToggle initial={theme} />
          </header>
          <ConnectionBanner />
          <main id="main" tabIndex={-1}>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}

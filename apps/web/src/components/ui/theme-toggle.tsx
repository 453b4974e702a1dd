"use client";
import { useState } from "react";
import { THEME_COOKIE, THEMES, type TTheme } from "./theme";

const LABELS: Record<TTheme, string> = { system: "Theme: system", light: "Theme: light", dark: "Theme: dark" };

/** Cycles system → light → dark; applied at once and remembered in a cookie for the next page load. */
export function ThemeToggle({ initial }: { initial: TTheme }) {
  const [theme, setTheme] = useState<TTheme>(initial);
  function next() {
    const chosen = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length] as TTheme;
    setTheme(chosen);
    const root = document.documentElement;
    if (chosen === "system") delete root.dataset.theme;
    else root.dataset.theme = chosen;
    // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie the server layout reads
    document.cookie = `${THEME_COOKIE}=${chosen}; path=/; max-age=31536000; samesite=lax`;
  }
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={next}
      data-testid="theme-toggle"
      aria-label={`${LABELS[theme]} (change)`}
    >
      {theme === "dark" ? "☾" : theme === "light" ? "☀" : "◐"}
    </button>
  );
}

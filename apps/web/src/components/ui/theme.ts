/** The colour theme: the browser's preference (`prefers-color-scheme`) unless a person chose one. */
export const THEMES = ["system", "light", "dark"] as const;
export type TTheme = (typeof THEMES)[number];

/** The cookie that remembers the choice for a year (read by the root layout, so the first paint is right). */
export const THEME_COOKIE = "solserver-theme";

export function themeOf(value: string | undefined): TTheme {
  return (THEMES as readonly string[]).includes(value ?? "") ? (value as TTheme) : "system";
}

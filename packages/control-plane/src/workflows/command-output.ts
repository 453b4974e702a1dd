// The text a command step shows (command-step.ts): its argv on the progress line, and the end of
// its output for the failure message and the context data.

/**
 * argv as a person reads it, quoted the way a POSIX shell would take it back (for the progress
 * line only: nothing is ever run through a shell). Line breaks and tabs show as \n and \t.
 */
export function displayArgv(argv: readonly string[]): string {
  return argv
    .map((arg) => {
      if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
      const quoted = arg.includes("'") ? `"${arg.replace(/[$`\\"]/g, "\\$&")}"` : `'${arg}'`;
      return quoted.replace(/\n/g, "\\n").replace(/\t/g, "\\t");
    })
    .join(" ");
}

/** The end of `text` within `max` characters, cut at a line start when one is near. */
export function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const newline = cut.indexOf("\n");
  return newline >= 0 && newline < 200 ? cut.slice(newline + 1) : cut;
}

export function lastLine(text: string): string {
  const line =
    text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

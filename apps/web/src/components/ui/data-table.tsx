import type { ReactNode } from "react";

/**
 * The dashboard's data table, in the wrapper that scrolls it sideways on a narrow screen: the
 * "data" style, a header row, an optional caption or label for screen readers, and (with `stack`) cells stacked under their labels on narrow screens (each cell's
 * `data-label`). The body rows are the children (one or more `<tbody>`).
 */
export function DataTable({
  headers,
  caption,
  label,
  stack = false,
  className,
  testId,
  children,
}: {
  headers: readonly ReactNode[];
  caption?: string;
  label?: string;
  stack?: boolean;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table
        className={["data", stack ? "stack-narrow" : null, className].filter(Boolean).join(" ")}
        data-testid={testId}
        aria-label={label}
      >
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {headers.map((header, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the headers are fixed per table
              <th key={i}>{header}</th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

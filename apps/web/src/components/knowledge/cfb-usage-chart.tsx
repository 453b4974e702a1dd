"use client";
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  dayLabel,
  type TUsageDay,
  usageBars,
  usageScaleMax,
  usageSummary,
} from "@/lib/usage-chart";

const LEGEND = [
  { kind: "used", label: "used by the answer" },
  { kind: "ignored", label: "ignored" },
  { kind: "injected-only", label: "injected only" },
] as const;

/**
 * A CFB's usage per day as stacked bars (an inline SVG that scales to its box). Screen readers
 * get one sentence with the totals; each bar has a tooltip with its day's counts.
 */
export function CfbUsageChart({ days }: { days: readonly TUsageDay[] }) {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return null;
  return (
    <figure className="usage-chart">
      <div className="usage-chart-plot">
        <span className="usage-chart-max muted" aria-hidden="true">
          {usageScaleMax(days)}
        </span>
        <svg
          viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={usageSummary(days)}
          data-testid="cfb-usage-chart"
        >
          <line className="axis" x1={0} y1={CHART_HEIGHT} x2={CHART_WIDTH} y2={CHART_HEIGHT} />
          {usageBars(days).map((bar) => (
            <g key={bar.day}>
              <title>{bar.label}</title>
              {/* A full-height transparent slot, so the tooltip shows on empty days too. */}
              <rect className="slot" x={bar.x} y={0} width={bar.width} height={CHART_HEIGHT} />
              {bar.segments.map((s) => (
                <rect key={s.kind} className={s.kind} x={bar.x} y={s.y} width={bar.width} height={s.height} />
              ))}
            </g>
          ))}
        </svg>
      </div>
      <div className="usage-chart-axis muted" aria-hidden="true">
        <span>{dayLabel(first.day)}</span>
        <span>{days.length > 1 ? dayLabel(last.day) : null}</span>
      </div>
      <figcaption className="row muted">
        {LEGEND.map((l) => (
          <span key={l.kind} className="usage-legend">
            <span className={`swatch ${l.kind}`} aria-hidden="true" />
            {l.label}
          </span>
        ))}
        <span>(per UTC day)</span>
      </figcaption>
    </figure>
  );
}

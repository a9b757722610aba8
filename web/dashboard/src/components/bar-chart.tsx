import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration } from 'chart.js';
import { useEffect, useRef, useSyncExternalStore } from 'react';

// Only what bar charts need: Chart.js is tree-shaken down to these.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface BarSeries {
  label: string;
  values: readonly number[];
  /** A colour custom property of the stylesheets (styles/base.css) (`--chart-1`, `--success`…): its light or dark value is drawn. */
  color: string;
}

/** What a chart draws: its props but the summary and height. */
interface Drawing {
  categories: readonly string[];
  series: readonly BarSeries[];
  /** Bars along the vertical axis, for long category names. */
  horizontal?: boolean;
  /** Series stacked in one bar per category. */
  stacked?: boolean;
  /** A legend under the chart, for several series. */
  legend?: boolean;
  /** Category names longer than this are cut on the axis (the tooltip shows them whole). */
  tickChars?: number;
}

interface BarChartProps extends Drawing {
  /** What the chart shows, in a sentence: the picture's accessible name. */
  summary: string;
  /** In CSS pixels; the width follows the container. */
  height: number;
}

const cut = (text: string, chars: number | undefined) =>
  chars === undefined || text.length <= chars ? text : `${text.slice(0, chars - 1).trimEnd()}…`;

const DARK = '(prefers-color-scheme: dark)';

function subscribeToScheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The system's colour scheme, followed as it changes: a canvas is drawn in colours, not in CSS. */
function useColorScheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribeToScheme, () => (window.matchMedia(DARK).matches ? 'dark' : 'light'));
}

/**
 * A bar chart drawn by Chart.js on a canvas, in the stylesheet's colours of the current scheme, redrawn when
 * the scheme changes. The canvas is an image named by `summary`; callers give the figures as text beside it.
 */
export function BarChart({ summary, height, ...drawing }: BarChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();
  // Rebuilt when what it draws changes: arrays made anew on each render are no change.
  const drawn = JSON.stringify(drawing);

  useEffect(() => {
    const element = canvas.current;
    if (element === null) return undefined;
    const style = getComputedStyle(element);
    const color = (name: string) => style.getPropertyValue(name).trim();
    const font = { family: style.fontFamily, size: 12 };
    const { categories, series, horizontal = false, stacked = false, legend = false, tickChars } = JSON.parse(drawn) as Drawing;
    const categoryAxis = {
      stacked,
      grid: { display: false },
      border: { color: color('--border-strong') },
      ticks: {
        color: color('--muted'),
        font,
        autoSkipPadding: 12,
        maxRotation: 0,
        callback: (value: string | number) => cut(categories[Number(value)] ?? String(value), tickChars),
      },
    };
    const valueAxis = {
      stacked,
      beginAtZero: true,
      grid: { color: color('--border') },
      border: { display: false },
      ticks: { color: color('--muted'), font, precision: 0 },
    };
    const config: ChartConfiguration<'bar', number[], string> = {
      type: 'bar',
      data: {
        labels: [...categories],
        datasets: series.map((one) => ({
          label: one.label,
          data: [...one.values],
          backgroundColor: color(one.color),
          borderRadius: 3,
          maxBarThickness: 36,
        })),
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: {
            display: legend,
            position: 'bottom',
            labels: { color: color('--fg'), font, boxWidth: 12, boxHeight: 12, padding: 14 },
          },
          tooltip: {
            backgroundColor: color('--surface-raised'),
            titleColor: color('--fg'),
            bodyColor: color('--fg'),
            borderColor: color('--border-strong'),
            borderWidth: 1,
            titleFont: { ...font, weight: 'bold' },
            bodyFont: font,
            // A stacked day lists only the series it has.
            filter: (item) => item.parsed[horizontal ? 'x' : 'y'] !== 0,
          },
        },
      },
    };
    const chart = new Chart(element, config);
    return () => chart.destroy();
  }, [drawn, scheme]);

  return (
    <div className="chart" style={{ height }}>
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}

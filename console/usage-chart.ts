// Usage per day as an SVG bar chart: items per day, failed ones in their own colour.
// Labels are HTML beside it, so they stay readable however the chart is scaled.
import type { UsageReport } from "./api";
import { h } from "./dom";
import { count, num } from "./words";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 160;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, text?: string) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

export function usageChart(report: UsageReport): HTMLElement {
  const { days, totals } = report;
  const top = Math.max(1, ...days.map((day) => day.items));
  const slot = WIDTH / Math.max(1, days.length);
  const busiest = days.reduce((a, b) => (b.items > a.items ? b : a), days[0] ?? { date: "-", items: 0 });
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    preserveAspectRatio: "none",
    role: "img",
    "aria-label": `${totals.items} items from ${report.from} to ${report.to}: ${totals.found} found, ${totals.failed} failed; busiest day ${busiest.date} with ${busiest.items}.`,
  });
  days.forEach((day, i) => {
    const x = i * slot + slot * 0.15;
    const width = slot * 0.7;
    const height = (day.items / top) * HEIGHT;
    const failed = (day.failed / top) * HEIGHT;
    const group = svg("g", {});
    group.append(
      svg("title", {}, `${day.date}: ${count(day.items, "row")}, ${num(day.found)} found, ${num(day.failed)} failed`),
    );
    group.append(svg("rect", { class: "bar", x, width, y: HEIGHT - height, height }));
    if (failed > 0) group.append(svg("rect", { class: "bar-failed", x, width, y: HEIGHT - failed, height: failed }));
    chart.append(group);
  });
  chart.append(svg("line", { x1: 0, x2: WIDTH, y1: HEIGHT, y2: HEIGHT, class: "axis" }));
  return h(
    "div",
    { class: "chart" },
    h("span", { class: "chart-top" }, count(top, "row")),
    chart,
    h("span", { class: "chart-axis" }, h("span", {}, report.from), h("span", {}, report.to)),
  );
}

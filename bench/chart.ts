// Minimal SVG charts for bench/README.md: no plotting dependency needed.
const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export function barChart(
  title: string,
  bars: { label: string; value: number; note?: string }[],
  unit: string,
  markers: { at: number; label: string }[] = [],
): string {
  const width = 720;
  const rowHeight = 34;
  const left = 230;
  const height = 60 + bars.length * rowHeight;
  const max = Math.max(...bars.map((bar) => bar.value), ...markers.map((m) => m.at)) * 1.1;
  // Room on the right for the value labels.
  const x = (value: number) => left + ((width - left - 170) * value) / max;
  const rows = bars.map((bar, i) => {
    const y = 40 + i * rowHeight;
    return `<text x="${left - 8}" y="${y + 18}" text-anchor="end">${escapeXml(bar.label)}</text>
<rect x="${left}" y="${y + 4}" width="${x(bar.value) - left}" height="20" fill="#4f7cac"/>
<text x="${x(bar.value) + 6}" y="${y + 18}">${bar.value.toFixed(0)} ${escapeXml(unit)}${bar.note ? ` (${escapeXml(bar.note)})` : ""}</text>`;
  });
  const lines = markers.map(
    (m) => `<line x1="${x(m.at)}" y1="36" x2="${x(m.at)}" y2="${height - 16}" stroke="#c0392b" stroke-dasharray="4 3"/>
<text x="${x(m.at) + 4}" y="${height - 4}" fill="#c0392b">${escapeXml(m.label)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="13">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>
${rows.join("\n")}
${lines.join("\n")}
</svg>
`;
}

export function lineChart(
  title: string,
  series: { name: string; color: string; points: { x: number; y: number }[] }[],
  xLabel: string,
  yLabel: string,
): string {
  const width = 720;
  const height = 380;
  const pad = { left: 70, right: 30, top: 40, bottom: 50 };
  const xs = series.flatMap((s) => s.points.map((p) => Math.log10(p.x)));
  const ys = series.flatMap((s) => s.points.map((p) => Math.log10(Math.max(p.y, 1e-3))));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys))];
  const px = (x: number) => pad.left + ((Math.log10(x) - x0) / (x1 - x0 || 1)) * (width - pad.left - pad.right);
  const py = (y: number) =>
    height - pad.bottom - ((Math.log10(Math.max(y, 1e-3)) - y0) / (y1 - y0 || 1)) * (height - pad.top - pad.bottom);
  const grid = Array.from({ length: y1 - y0 + 1 }, (_, i) => 10 ** (y0 + i)).map(
    (y) =>
      `<line x1="${pad.left}" y1="${py(y)}" x2="${width - pad.right}" y2="${py(y)}" stroke="#ddd"/><text x="${pad.left - 6}" y="${py(y) + 4}" text-anchor="end">${y >= 1 ? y : y.toFixed(3)}</text>`,
  );
  const xTicks = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].map(
    (x) => `<text x="${px(x)}" y="${height - pad.bottom + 18}" text-anchor="middle">${x.toLocaleString("en")}</text>`,
  );
  const lines = series.map(
    (
      s,
      i,
    ) => `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${s.points.map((p) => `${px(p.x)},${py(p.y)}`).join(" ")}"/>
${s.points.map((p) => `<circle cx="${px(p.x)}" cy="${py(p.y)}" r="4" fill="${s.color}"/>`).join("")}
<text x="${pad.left + 10}" y="${pad.top + 16 + i * 18}" fill="${s.color}">${escapeXml(s.name)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>
${grid.join("\n")}
${xTicks.join("\n")}
<text x="${width / 2}" y="${height - 10}" text-anchor="middle">${escapeXml(xLabel)} (log scale)</text>
<text x="16" y="${height / 2}" transform="rotate(-90 16 ${height / 2})" text-anchor="middle">${escapeXml(yLabel)} (log scale)</text>
${lines.join("\n")}
</svg>
`;
}

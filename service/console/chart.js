// Playouts as pictures: win rates with their 95% intervals, and score histograms (SVG).
const NS = "http://www.w3.org/2000/svg";

function svg(width, height) {
  const root = document.createElementNS(NS, "svg");
  root.setAttribute("width", width);
  root.setAttribute("height", height);
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  return root;
}

function add(parent, name, attributes, text) {
  const el = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  parent.appendChild(el);
  return el;
}

const COLOURS = ["#3b6bc7", "#c7553b", "#3b9c5a", "#9a5bc7", "#c79a3b", "#3bb0c7"];

// One bar per seat: its win rate, the 95% Wilson interval as an error bar.
export function winRates(result, title, seatName) {
  const rows = result.win_rate;
  const width = 360, barH = 22, top = 28, left = 80, plot = width - left - 40;
  const root = svg(width, top + rows.length * (barH + 10) + 24);
  root.classList.add("win-rates");
  add(root, "text", { x: 8, y: 16 }, title);
  rows.forEach((row, i) => {
    const y = top + i * (barH + 10);
    add(root, "text", { x: 8, y: y + 15 }, seatName(row.player));
    add(root, "rect", { x: left, y, width: Math.max(1, row.rate * plot), height: barH,
                        fill: COLOURS[i % COLOURS.length], "data-rate": row.rate });
    const [lo, hi] = row.ci95;
    add(root, "line", { x1: left + lo * plot, x2: left + hi * plot, y1: y + barH / 2,
                        y2: y + barH / 2, stroke: "#111", "stroke-width": 2 });
    add(root, "text", { x: left + plot + 4, y: y + 15 }, `${Math.round(row.rate * 100)}%`);
  });
  const axis = top + rows.length * (barH + 10);
  add(root, "line", { x1: left, x2: left + plot, y1: axis, y2: axis, stroke: "#999" });
  for (const tick of [0, 0.5, 1]) {
    add(root, "text", { x: left + tick * plot - 8, y: axis + 14 }, `${tick * 100}%`);
  }
  return root;
}

// A seat's score histogram: one bar per bin (`histogram.edges`, `histogram.counts`).
export function histogram(score, title, colour = COLOURS[0]) {
  const { edges, counts } = score.histogram;
  const width = 360, height = 170, left = 30, bottom = 24, top = 24;
  const plotW = width - left - 10, plotH = height - top - bottom;
  const most = Math.max(1, ...counts);
  const root = svg(width, height);
  root.classList.add("histogram");
  add(root, "text", { x: 8, y: 16 }, title);
  const barW = plotW / counts.length;
  counts.forEach((count, i) => {
    const h = (count / most) * plotH;
    add(root, "rect", { x: left + i * barW, y: top + plotH - h, width: Math.max(1, barW - 1),
                        height: h, fill: colour });
  });
  add(root, "line", { x1: left, x2: left + plotW, y1: top + plotH, y2: top + plotH, stroke: "#999" });
  add(root, "text", { x: left, y: height - 6 }, String(edges[0]));
  add(root, "text", { x: left + plotW, y: height - 6, "text-anchor": "end" },
      String(edges[edges.length - 1]));
  add(root, "text", { x: 2, y: top + 8 }, String(most));
  return root;
}

export { COLOURS };

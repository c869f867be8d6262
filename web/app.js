// The page's glue: inputs to a request, gpulint.wasm's JSON answer to the
// DOM. Every number shown comes from the WebAssembly module; this file only
// lays it out.
"use strict";

const gpulint = {
  exports: null,
  // One request ("cmd=occupancy&threads=256") to its parsed JSON answer.
  call(request) { return this.send(request, "web_run"); },
  // A calculator command as the command line takes it.
  command(line) { return this.send(line, "web_command"); },
  send(request, entry) {
    const e = this.exports;
    const bytes = new TextEncoder().encode(request);
    if (bytes.length + 1 > e.web_request_size())
      return { error: "the request is too long" };
    const mem = new Uint8Array(e.memory.buffer);
    const at = e.web_request();
    mem.set(bytes, at);
    mem[at + bytes.length] = 0;
    const out = e[entry]();
    const view = new Uint8Array(e.memory.buffer);
    let end = out;
    while (view[end]) end++;
    return JSON.parse(new TextDecoder().decode(view.subarray(out, end)));
  },
};

async function loadModule() {
  const text = document.getElementById("gpulint-wasm");
  if (!text) throw new Error("open the built page (build/src/web/gpulint.html), not web/index.html");
  const bin = atob(text.textContent.trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  // The module calls no system function on its paths; any WASI import
  // answers ENOSYS (52) rather than reaching anything.
  const wasi = new Proxy({}, { get: () => () => 52 });
  const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi });
  gpulint.exports = instance.exports;
  if (instance.exports._initialize) instance.exports._initialize();
}

const FIELDS = ["threads", "regs", "smem", "dynamic-smem", "carveout", "barriers", "max-dynamic-smem",
  "cluster", "gpc-sms"];
const $ = (id) => document.getElementById(id);

function request() {
  const p = new URLSearchParams();
  p.set("cmd", "occupancy");
  const kind = $("target-kind").value;
  p.set(kind, $(kind).value.trim());
  for (const f of FIELDS) {
    const v = $(f).value.trim();
    if (v !== "") p.set(f, v);
  }
  if ($("non-portable").checked) p.set("non-portable", "yes");
  return p;
}

// The request as web_api reads it: key=value&..., values not URL-encoded;
// a value holding '&' could not be told apart, so it is refused here.
function requestText(p) {
  const items = [];
  for (const [k, v] of p) {
    if (v.includes("&")) return { error: `--${k}: '&' is not allowed`, option: k };
    items.push(`${k}=${v}`);
  }
  return items.join("&");
}

function showErrors(option, message) {
  for (const el of document.querySelectorAll(".err")) el.textContent = "";
  for (const el of document.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  if (!message) return;
  const err = option && $("err-" + option);
  if (err) {
    err.textContent = message;
    $(option).setAttribute("aria-invalid", "true");
  }
  $("status").textContent = message;
  $("status").className = "status error";
}

const pct = (x) => (x * 100).toFixed(1) + "%";
const LIMIT_NAMES = { warps: "warps", registers: "registers", shared_memory: "shared memory",
  blocks: "blocks per SM", barriers: "barriers" };

function render(a) {
  $("answer").hidden = false;
  $("occupancy").textContent = pct(a.occupancy);
  $("blocks").textContent = String(a.blocks_per_sm);
  $("warps").textContent = `${a.warps_per_sm} of ${a.max_warps_per_sm}`;
  $("limiter").textContent = a.limiters.length ? a.limiters.map((l) => LIMIT_NAMES[l]).join(", ") : "cannot launch";
  $("limits").textContent = Object.entries(a.limits)
    .map(([k, v]) => `${LIMIT_NAMES[k]} ${v === null ? "any" : v}`)
    .join(" · ");
  const adv = $("advice");
  adv.replaceChildren(...a.advice.map((t) => { const li = document.createElement("li"); li.textContent = t; return li; }));
  $("advice-box").hidden = a.advice.length === 0;
  $("explain").textContent = a.explain;
  // The clusters part of the command line's text, one block per shape.
  const at = a.clusters ? a.text.indexOf("\nclusters of ") : -1;
  $("clusters-box").hidden = at < 0;
  $("clusters").textContent = at < 0 ? "" : a.text.slice(at + 1);
  for (const k of ["threads", "registers", "shared_memory"]) drawCurve($("chart-" + k), a.curves && a.curves[k], current(a, k), k);
  const st = $("status");
  if (a.launch_error || a.cluster_error) {
    st.textContent = a.launch_error || a.cluster_error; st.className = "status error";
  }
  else { st.textContent = a.target; st.className = "status"; }
}

function current(a, k) {
  if (k === "threads") return a.threads_per_block;
  if (k === "registers") return a.registers_per_thread;
  return a.static_smem + a.dynamic_smem;
}

const SVG = "http://www.w3.org/2000/svg";
function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function fmtX(k, v) {
  if (k !== "shared_memory") return String(v);
  return v >= 1024 ? (v / 1024).toFixed(v % 1024 ? 1 : 0) + " KiB" : v + " B";
}

// A step curve of occupancy (0-100%) against one resource, the current
// launch marked.
function drawCurve(svg, c, x0, k) {
  const W = 320, H = 200, L = 40, R = 10, T = 10, B = 30;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  if (!c || !c.x.length) return;
  const xmax = Math.max(c.x[c.x.length - 1], x0), xmin = c.x[0];
  const X = (v) => L + ((v - xmin) / (xmax - xmin || 1)) * (W - L - R);
  const Y = (v) => T + (1 - v / 100) * (H - T - B);
  for (const y of [0, 25, 50, 75, 100]) {
    svg.append(el("line", { x1: L, x2: W - R, y1: Y(y), y2: Y(y), class: "grid" }));
    svg.append(el("text", { x: L - 4, y: Y(y) + 4, class: "tick", "text-anchor": "end" }, y + "%"));
  }
  const anchors = ["start", "middle", "end"];
  [xmin, (xmin + xmax) / 2, xmax].forEach((t, i) => {
    const v = k === "shared_memory" ? Math.round(t / 1024) * 1024 : Math.round(t);
    svg.append(el("text", { x: X(v), y: H - B + 16, class: "tick", "text-anchor": anchors[i] }, fmtX(k, v)));
  });
  let d = `M${X(c.x[0])},${Y(c.y[0])}`;
  for (let i = 1; i < c.x.length; i++) d += `H${X(c.x[i])}V${Y(c.y[i])}`;
  svg.append(el("path", { d, class: "curve" }));
  let y0 = 0;
  for (let i = 0; i < c.x.length && c.x[i] <= x0; i++) y0 = c.y[i];
  svg.append(el("circle", { cx: X(x0), cy: Y(y0), r: 5, class: "now" }));
}

function update() {
  if (currentView !== "occupancy") return null;
  const p = request();
  const text = requestText(p);
  const answer = typeof text === "string" ? gpulint.call(text) : text;
  history.replaceState(null, "", "#" + p.toString());
  $("permalink").href = "#" + p.toString();
  $("tab-occupancy").href = "#" + p.toString();
  if (answer.error) { showErrors(answer.option, answer.error); return answer; }
  showErrors(null, null);
  render(answer);
  return answer;
}

function syncKind() {
  const kind = $("target-kind").value;
  for (const row of document.querySelectorAll("[data-kind]")) row.hidden = row.dataset.kind !== kind;
}

let currentView = "occupancy";
function showView(name) {
  currentView = name;
  $("view-occupancy").hidden = name !== "occupancy";
  $("view-exercises").hidden = name !== "exercises";
  $("view-report").hidden = name !== "report";
  $("view-line").hidden = name !== "line";
  for (const v of ["occupancy", "exercises", "line", "report"]) {
    if (v === name) $("tab-" + v).setAttribute("aria-current", "page");
    else $("tab-" + v).removeAttribute("aria-current");
  }
}

function setText(id, text) {
  $(id).textContent = text || "";
  const box = $(id + "-box");
  if (box) box.hidden = !text;
}

// One exercise: the page's answer to its command beside the book's.
function showExercise(id) {
  const explain = $("exercise-explain").checked;
  const r = gpulint.call(`cmd=exercise&id=${id}&explain=${explain ? "yes" : "no"}`);
  if (r.error) { $("ex-answer").textContent = r.error; return; }
  const x = r.exercise, a = r.answer;
  $("exercise-pick").value = x.id;
  setText("ex-title", `${x.id} ${x.title}`);
  setText("ex-source", x.source);
  setText("ex-question", x.question);
  setText("ex-command", "gpulint " + x.command);
  setText("ex-answer", a.error ? a.error : (a.text || a.launch_error));
  setText("ex-book", x.book);
  setText("ex-differs", x.differs);
  setText("ex-simplifies", x.simplifies);
  const open = $("ex-open");
  open.hidden = !(r.request && r.request.threads);
  open.onclick = () => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(r.request)) if (k !== "explain" && k !== "format") p.set(k, v);
    location.hash = p.toString();
  };
  history.replaceState(null, "", `#cmd=exercise&id=${encodeURIComponent(x.id)}${explain ? "&explain=yes" : ""}`);
}

function fillExercises() {
  const list = gpulint.call("cmd=exercises").exercises;
  for (const x of list)
    $("exercise-pick").append(new Option(`${x.id} ${x.title}${x.in_page ? "" : " (command line)"}`, x.id));
  $("exercise-pick").addEventListener("change", () => showExercise($("exercise-pick").value));
  $("exercise-explain").addEventListener("change", () => showExercise($("exercise-pick").value));
}

// The address decides the view: #cmd=exercise&id=13.1, #cmd=exercises, or
// the calculator's inputs.
function route() {
  const p = new URLSearchParams(location.hash.slice(1));
  const cmd = p.get("cmd");
  if (cmd === "report") { showView("report"); return; }
  if (cmd === "line") {
    showView("line");
    if (p.has("line")) $("line").value = p.get("line");
    runLine();
    return;
  }
  if (cmd === "exercises" || cmd === "exercise") {
    showView("exercises");
    $("exercise-explain").checked = p.get("explain") === "yes";
    showExercise(p.get("id") || $("exercise-pick").options[0].value);
    return;
  }
  showView("occupancy");
  fromHash();
  syncKind();
  update();
}

function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  // A permalink holds every input given; one with none keeps the form.
  if (![...p.keys()].some((k) => FIELDS.includes(k) || ["gpu", "arch", "machine"].includes(k))) return;
  for (const kind of ["gpu", "arch", "machine"]) {
    if (p.has(kind)) { $("target-kind").value = kind; $(kind).value = p.get(kind); }
  }
  for (const f of FIELDS) $(f).value = p.get(f) || "";
  $("non-portable").checked = p.get("non-portable") === "yes";
  for (const f of ["threads", "regs"]) if (/^\d+$/.test($(f).value)) $(f + "-range").value = $(f).value;
}

function fillModels() {
  const m = gpulint.call("cmd=models");
  for (const p of m.products) $("gpu").append(new Option(`${p.name} (${p.id}, ${p.arch})`, p.id));
  for (const a of m.archs) $("arch").append(new Option(`${a.name} — ${a.family}, cc ${a.cc}`, a.name));
  $("gpu").value = m.default_gpu;
  $("arch").value = "sm_90";
}

async function main() {
  const t0 = performance.now();
  try { await loadModule(); } catch (e) {
    $("status").textContent = "The calculator could not start: " + e.message;
    $("status").className = "status error";
    return;
  }
  fillModels();
  fillExercises();
  setupReport();
  for (const f of ["threads", "regs"]) {
    $(f + "-range").addEventListener("input", () => { $(f).value = $(f + "-range").value; update(); });
    $(f).addEventListener("input", () => { if (/^\d+$/.test($(f).value)) $(f + "-range").value = $(f).value; });
  }
  $("target-kind").addEventListener("change", () => { syncKind(); update(); });
  $("occ-form").addEventListener("input", (e) => { if (!e.target.id.endsWith("-range")) update(); });
  $("occ-form").addEventListener("change", () => update());
  $("occ-form").addEventListener("submit", (e) => e.preventDefault());
  $("line-form").addEventListener("submit", (e) => { e.preventDefault(); runLine(); });
  window.addEventListener("hashchange", route);
  route();
  // For the browser test: how long the first answer took to reach the page.
  window.gpulintFirstAnswerMs = performance.now() - t0;
  document.body.dataset.ready = "1";
}

window.gpulint = gpulint;
main();

// ---- The report viewer: a `gpulint --format json` report, opened from a
// file, dropped on the page, or embedded by `gpulint --format html`.

function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.append(td);
}

function table(id, head, rows) {
  const t = typeof id === "string" ? $(id) : id;
  t.replaceChildren();
  const hr = document.createElement("tr");
  for (const [h, cls] of head) { const th = document.createElement("th"); th.textContent = h; if (cls) th.className = cls; hr.append(th); }
  t.append(hr);
  for (const r of rows) {
    const tr = document.createElement("tr");
    if (r.cls) tr.className = r.cls;
    r.cells.forEach((c, i) => cell(tr, c, head[i][1]));
    t.append(tr);
  }
}

const dims = (d) => (Array.isArray(d) ? d.join("×") : "–");
function fmtTime(s) {
  if (typeof s !== "number" || !isFinite(s)) return "–";
  if (s < 1e-3) return (s * 1e6).toPrecision(3) + " µs";
  if (s < 1) return (s * 1e3).toPrecision(3) + " ms";
  return s.toPrecision(3) + " s";
}
function fmtSI(v, unit) {
  const p = [[1e15, "P"], [1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "K"]];
  for (const [f, n] of p) if (v >= f) return (v / f).toPrecision(3) + " " + n + unit;
  return v.toPrecision(3) + " " + unit;
}

// Refuses what is not a gpulint report, or is from a newer gpulint, with
// one message; the report shown before stays.
function checkReport(obj, pageVersion) {
  if (!obj || typeof obj !== "object" || obj.tool !== "gpulint")
    return "not a gpulint report: expected the JSON of `gpulint FILE.cu --format json` or `gpulint verify --format json` (\"tool\": \"gpulint\")";
  if (obj.command === "verify") {
    if (!Array.isArray(obj.results)) return "not a gpulint verify report: it has no \"results\" list";
  } else if (!Array.isArray(obj.kernels)) return "not a gpulint report: it has no \"kernels\" list";
  const v = String(obj.version || "0").split(".").map(Number), p = pageVersion.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    if ((v[i] || 0) > (p[i] || 0)) return `this report is from gpulint ${obj.version}, newer than this page (${pageVersion}): open it with that gpulint's page (gpulint FILE.cu --format html)`;
    if ((v[i] || 0) < (p[i] || 0)) break;
  }
  return null;
}

let pageVersion = "0";
let shownReport = null;

function loadReport(text, from) {
  let obj;
  try { obj = JSON.parse(text); } catch (e) {
    reportError(`${from}: not JSON (${e.message.split("\n")[0]}); is the file complete?`);
    return false;
  }
  const why = checkReport(obj, pageVersion);
  if (why) { reportError(`${from}: ${why}`); return false; }
  const isVerify = obj.command === "verify";
  $("report-status").textContent = `${from}: gpulint ${obj.version} ${isVerify ? "verify report" : "report"}`;
  $("report-status").className = "status";
  shownReport = obj;
  $("report").hidden = isVerify;
  $("verify").hidden = !isVerify;
  if (isVerify) renderVerify(obj);
  else renderReport(obj);
  return true;
}

function reportError(msg) {
  $("report-status").textContent = msg;
  $("report-status").className = "status error";
}

function allLaunches(r) {
  const out = [];
  for (const k of r.kernels) for (const l of k.launches || []) out.push({ k, l });
  return out;
}

function renderReport(r) {
  $("report").hidden = false;
  const t = (r.targets || []).map((x) => x.label).join(", ");
  const files = (r.sources || []).map((s) => s.file).join(", ");
  $("report-summary").textContent = `${r.kernels.length} kernel${r.kernels.length === 1 ? "" : "s"} in ${files || "the report"}, for ${t || "its target"}.`;
  table("kernels-table",
    [["kernel"], ["arch"], ["registers", "num"], ["shared memory", "num"], ["stack", "num"], ["spills (stores/loads)", "num"], ["launches", "num"], ["best block", "num"]],
    r.kernels.map((k) => ({ cells: [
      k.demangled || k.name, k.arch, String(k.registers), `${k.static_smem} B`, `${k.stack} B`,
      `${k.spill_stores} / ${k.spill_loads} B`, String((k.launches || []).length),
      k.best_block ? `${k.best_block.threads_per_block} threads: ${pct(k.best_block.occupancy)}` : "–"] })));
  const ls = allLaunches(r);
  table("launches-table",
    [["kernel"], ["where"], ["grid"], ["block"], ["occupancy", "num"], ["limited by"], ["predicted time", "num"], ["time limited by"]],
    ls.map(({ k, l }) => ({ cells: [
      l.kernel || k.demangled, `${l.file}:${l.line}` + (l.call_paths > 1 ? ` (×${l.call_paths} paths)` : ""), dims(l.grid), dims(l.block),
      l.occupancy ? pct(l.occupancy.occupancy) : "–",
      l.occupancy ? (l.occupancy.limiters || []).map((x) => LIMIT_NAMES[x] || x).join(", ") : "–",
      l.time ? fmtTime(l.time.predicted_s) : "–", l.time ? l.time.limiter : "–"] })));
  drawEntry(r.entry);
  const pick = $("launch-pick");
  pick.replaceChildren(...ls.map(({ k, l }, i) => new Option(`${l.kernel || k.demangled} (${l.file}:${l.line})`, String(i))));
  pick.onchange = () => launchCurves(ls[Number(pick.value)]);
  if (ls.length) launchCurves(ls[0]);
  else $("launch-occ").textContent = "no launches found in the source: nothing to draw";
  drawRoofline(r);
  table("findings-table", [["severity"], ["check"], ["where"], ["message"]],
    (r.findings || []).map((f) => ({ cls: f.severity, cells: [f.severity, f.check, `${f.file}:${f.line}`, f.message] })));
}

// A launch's three occupancy curves, computed by the same engine from the
// kernel's registers and shared memory and the launch's block.
function launchCurves({ k, l }) {
  const o = l.occupancy;
  if (!o) { $("launch-occ").textContent = "no occupancy for this launch"; return; }
  const req = `cmd=occupancy&arch=${o.arch}&threads=${o.threads_per_block}&regs=${o.registers_per_thread}` +
    `&smem=${o.static_smem}&dynamic-smem=${o.dynamic_smem}&barriers=${o.barriers}` +
    (o.carveout_percent !== null && o.carveout_percent !== undefined ? `&carveout=${o.carveout_percent}` : "") +
    (l.smem_optin ? `&max-dynamic-smem=${o.dynamic_smem}` : "");
  const a = gpulint.call(req);
  if (a.error) { $("launch-occ").textContent = a.error; return; }
  $("launch-occ").textContent = `${k.demangled || k.name}: ${pct(a.occupancy)}, ${a.blocks_per_sm} blocks of ${a.threads_per_block} threads per SM, limited by ${a.limiters.map((x) => LIMIT_NAMES[x]).join(", ")}`;
  for (const c of ["threads", "registers", "shared_memory"]) drawCurve($("rchart-" + c), a.curves && a.curves[c], current(a, c), c);
}

// --entry FUNCTION: each launch's total over one call of it, as bars
// (share of the known total), then the table the text report prints.
function drawEntry(e) {
  $("entry").hidden = !e;
  if (!e) return;
  $("entry-title").textContent = `Where the time of one call of ${e.entry} goes`;
  const rows = e.launches || [];
  $("entry-note").textContent = `${rows.length} launch site${rows.length === 1 ? "" : "s"} on ${e.arch || "the target"}, ` +
    `${e.complete ? "" : "at least "}${fmtTime(e.total_s)} predicted in all` +
    (e.complete ? "." : "; a count or a time gpulint does not know leaves a row out of the bars (see its reason in the table), " +
      "and each share shown is of the known part, so at most the row's share of the whole.");
  const svg = $("entry-chart");
  svg.replaceChildren();
  const known = rows.filter((r) => typeof r.share === "number");
  const bar = 22, left = 330, width = 560;
  svg.setAttribute("viewBox", `0 0 ${left + width + 70} ${Math.max(1, known.length) * bar + 8}`);
  // A site's rows told apart by the arguments that differ between them.
  const parts = (r) => (r.arguments ? r.arguments.split(", ") : []);
  const differs = (r) => {
    const same = rows.filter((o) => o.file === r.file && o.line === r.line);
    if (same.length < 2) return "";
    return parts(r).filter((p) => !same.every((o) => parts(o).includes(p))).join(", ");
  };
  known.forEach((r, i) => {
    const y = 4 + i * bar, w = Math.max(1, r.share * width);
    svg.append(
      el("text", { x: left - 8, y: y + bar * 0.65, "text-anchor": "end" }, `${r.kernel.slice(0, 30)} (:${r.line}${differs(r) ? ", " + differs(r).slice(0, 24) : ""})`),
      el("rect", { x: left, y: y + 3, width: w, height: bar - 6, class: "bar" }),
      el("text", { x: left + w + 6, y: y + bar * 0.65 }, (r.share_upper_bound ? "≤ " : "") + pct(r.share)));
  });
  table("entry-table", [["launch"], ["kernel"], ["launches", "num"], ["each", "num"], ["total", "num"], ["share", "num"], ["arguments"], ["unknown"]],
    rows.map((r) => ({ cells: [`${r.file}:${r.line}`, r.kernel,
      r.launches === null ? "?" : String(r.launches), fmtTime(r.each_s), fmtTime(r.total_s),
      typeof r.share === "number" ? (r.share_upper_bound ? "at most " : "") + pct(r.share) : "?", r.arguments || "",
      [r.launches_unknown ? `launches: ${r.launches_unknown}` : "", r.time_unknown ? `time: ${r.time_unknown}` : ""].filter(Boolean).join("; ")] })));
}

function flopsOf(e) {
  const f = e.flops || {};
  return (f.fp16 || 0) + (f.fp32 || 0) + (f.fp64 || 0) + (f.tensor || 0);
}

// The roofs of the report's GPU (FP32 and DRAM, at boost clock, as
// `gpulint roofline --gpu` gives them) and each launch at its arithmetic
// intensity and the FLOP rate its predicted time implies.
function drawRoofline(r) {
  const svg = $("roofline-chart");
  svg.replaceChildren();
  const gpu = ((r.targets || [])[0] || {}).gpu;
  const roof = gpulint.call(`cmd=roof${gpu ? "&gpu=" + gpu : ""}`);
  const fp32 = roof.ceilings && roof.ceilings.find((c) => c.precision === "fp32");
  if (!fp32) { $("roofline-note").textContent = roof.error || "no FP32 ceiling for this GPU"; return; }
  const pts = [], off = [];
  for (const e of r.roofline || []) {
    const f = flopsOf(e), t = e.predicted_time_s;
    if (e.ai > 0 && f > 0 && t > 0) pts.push({ x: e.ai, y: f / t, name: e.kernel });
    else off.push(e.kernel);
  }
  roofChart(svg, fp32.flops, fp32.bandwidth, pts);
  $("roofline-note").textContent = `${roof.name}: FP32 ${fmtSI(fp32.flops, "FLOP/s")}, DRAM ${fmtSI(fp32.bandwidth, "B/s")} (boost clock); each point is a launch at its FLOPs over its predicted time.` +
    (off.length ? ` Not on the chart (no floating-point work to place): ${[...new Set(off)].join(", ")}.` : "");
}

// A roofline on log axes: the memory slope up to the ridge, the compute
// roof after it, and the points ({x: FLOP/B, y: FLOP/s, name}).
function roofChart(svg, peak, bandwidth, pts) {
  svg.replaceChildren();
  const W = 700, H = 360, L = 70, R = 20, T = 16, B = 40;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const ridge = peak / bandwidth;
  const xs = pts.map((p) => p.x).concat([ridge]);
  const x0 = Math.pow(10, Math.floor(Math.log10(Math.min(...xs) / 2))), x1 = Math.pow(10, Math.ceil(Math.log10(Math.max(...xs) * 4)));
  const ys = pts.map((p) => p.y).concat([peak, bandwidth * x0]);
  const y0 = Math.pow(10, Math.floor(Math.log10(Math.min(...ys) / 2))), y1 = Math.pow(10, Math.ceil(Math.log10(peak * 2)));
  const X = (v) => L + (Math.log10(v / x0) / Math.log10(x1 / x0)) * (W - L - R);
  const Y = (v) => T + (1 - Math.log10(v / y0) / Math.log10(y1 / y0)) * (H - T - B);
  for (let v = x0; v <= x1 * 1.001; v *= 10) {
    svg.append(el("line", { x1: X(v), x2: X(v), y1: T, y2: H - B, class: "grid" }));
    svg.append(el("text", { x: X(v), y: H - B + 14, class: "tick", "text-anchor": "middle" }, String(v)));
  }
  for (let v = y0; v <= y1 * 1.001; v *= 10) {
    svg.append(el("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: "grid" }));
    svg.append(el("text", { x: L - 4, y: Y(v) + 4, class: "tick", "text-anchor": "end" }, fmtSI(v, "FLOP/s")));
  }
  svg.append(el("text", { x: (L + W - R) / 2, y: H - 6, class: "tick", "text-anchor": "middle" }, "arithmetic intensity (FLOP per DRAM byte)"));
  const d = `M${X(x0)},${Y(bandwidth * x0)}L${X(ridge)},${Y(peak)}L${X(x1)},${Y(peak)}`;
  svg.append(el("path", { d, class: "roof" }));
  for (const p of pts) {
    svg.append(el("circle", { cx: X(p.x), cy: Y(p.y), r: 5, class: "pt" }));
    svg.append(el("text", { x: X(p.x) + 7, y: Y(p.y) - 6, class: "lbl" }, p.name));
  }
}

// A verify report: the device, the measured ceilings, every check's rows
// (prediction beside measurement, the verdict) and the ladders.
const CHECK_TITLES = {
  occupancy: "Occupancy", bank: "Bank conflicts", coalescing: "Coalescing",
  divergence: "Divergence", roofline: "Roofline: the time against its bound",
  time: "Time: predicted against measured (within 25%, an estimate)",
};
const fmtVal = (v) => (typeof v !== "number" || !isFinite(v) ? "–" : Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4))));
const fmtPct = (v) => (typeof v === "number" && isFinite(v) ? (100 * v).toFixed(1) + "%" : "–");

function renderVerify(v) {
  const s = v.summary || {}, d = v.device || {};
  $("verify-summary").textContent = `${s.rows ?? v.results.length} rows: ${s.agrees} agree, ${s.differs} differ, ${s.not_comparable} not comparable` +
    (s.time ? `; predicted times within 25%: ${s.time.within} of ${s.time.rows} (median error ${(100 * s.time.median_error).toFixed(0)}%)` : "") +
    (s.dram ? `; DRAM estimates within 25% of dram__bytes: ${s.dram.within} of ${s.dram.rows} (median error ${(100 * s.dram.median_error).toFixed(0)}%)` : "") +
    (v.dry_run ? " (a dry run: the predictions, nothing measured)" : "");
  $("verify-device").textContent = v.dry_run || !d.driver
    ? `${d.name || "no GPU"}: planned for ${d.arch || "?"}, nothing measured`
    : `${d.name} (${d.arch}, ${d.sms} SMs, SM ${d.sm_clock_mhz} MHz, memory ${d.memory_clock_mhz} MHz × ${d.memory_bus_bits} bit), driver ${d.driver}, runtime ${d.runtime}; counters ${v.counters}${v.counters_note ? ": " + v.counters_note : ""}`;
  const ceil = Object.entries(v.ceilings || {});
  table("verify-ceilings", [["ceiling"], ["kernel"], ["measured", "num"], ["spec", "num"], ["datasheet", "num"], ["measured / spec", "num"]],
    ceil.map(([name, c]) => ({ cells: [name, c.kernel || "–", c.measured ? fmtSI(c.measured, c.unit) : "–",
      c.spec ? fmtSI(c.spec, c.unit) : "–", c.datasheet ? fmtSI(c.datasheet, c.unit) : "–", fmtPct(c.measured / c.spec)] })));
  const box = $("verify-checks");
  box.replaceChildren();
  const groups = new Map();
  for (const r of v.results) { if (!groups.has(r.check)) groups.set(r.check, []); groups.get(r.check).push(r); }
  for (const [check, rows] of groups) {
    const h = document.createElement("h2");
    h.textContent = `${CHECK_TITLES[check] || check}: ${rows.filter((r) => r.verdict === "agrees").length} of ${rows.length} agree`;
    const how = document.createElement("p");
    how.className = "help";
    how.textContent = [...new Set(rows.map((r) => `${r.unit}: ${r.method}; tolerance ${r.tolerance}`))].join(" · ");
    const t = document.createElement("table");
    t.className = "data";
    t.id = `verify-${check}`;
    table(t, [["kernel"], ["launch"], ["predicted", "num"], ["measured", "num"], ["unit"], ["verdict", "verdict"]],
      rows.map((r) => ({ cls: r.verdict, cells: [r.kernel, r.launch, fmtVal(r.predicted), fmtVal(r.measured), r.unit, String(r.verdict || "–").replace("_", " ")] })));
    const wrap = document.createElement("div");
    wrap.className = "scroll";
    wrap.append(t);
    box.append(h, how, wrap);
    // One line per reason, with the kernels it is given for (a dry run
    // gives every row the same one).
    const why = new Map();
    for (const r of rows) if (r.reason) why.set(r.reason, [...new Set([...(why.get(r.reason) || []), r.kernel])]);
    if (why.size) box.append(notesList([...why].map(([reason, ks]) => `${ks.join(", ")}: ${reason}`)));
  }
  renderLadders(v.ladders || {});
}

function notesList(items) {
  const ul = document.createElement("ul");
  ul.className = "notes";
  for (const n of items) { const li = document.createElement("li"); li.textContent = n; ul.append(li); }
  return ul;
}

// Each ladder: its steps' measured times as bars (the book's time, where it
// gives one, as an outline), then the table and the notes.
function renderLadders(ladders) {
  const box = $("verify-ladders");
  box.replaceChildren();
  for (const [name, l] of Object.entries(ladders)) {
    const h = document.createElement("h2");
    h.textContent = `Ladder: ${name}${l.book ? " (book: " + l.book + ")" : ""}`;
    const fig = document.createElement("figure");
    fig.className = "ladder";
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Measured time of each step of the ${name} ladder`);
    svg.id = `ladder-${name}`;
    fig.append(svg);
    ladderChart(svg, l.steps || []);
    const t = document.createElement("table");
    t.className = "data";
    table(t, [["kernel"], ["step"], ["measured", "num"], ["book", "num"], ["of the ceiling", "num"], ["predicted bound"], ["result"]],
      (l.steps || []).map((st) => ({ cells: [st.kernel, st.step, fmtTime(st.ms / 1e3), st.book_ms ? fmtTime(st.book_ms / 1e3) : "–",
        fmtPct(st.fraction_of_ceiling), (st.predicted || {}).bound || "–", st.result || "–"] })));
    const wrap = document.createElement("div");
    wrap.className = "scroll";
    wrap.append(t);
    box.append(h, fig, wrap);
    if ((l.notes || []).length) box.append(notesList(l.notes));
  }
}

function ladderChart(svg, steps) {
  const W = 700, row = 22, L = 150, R = 70, T = 6;
  const H = T + steps.length * row + 24;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const top = Math.max(1e-9, ...steps.map((s) => Math.max(s.ms || 0, s.book_ms || 0)));
  const X = (ms) => L + (ms / top) * (W - L - R);
  steps.forEach((s, i) => {
    const y = T + i * row;
    svg.append(el("text", { x: L - 6, y: y + row / 2 + 4, class: "tick", "text-anchor": "end" }, s.kernel));
    if (s.ms > 0) {
      svg.append(el("rect", { x: L, y: y + 3, width: X(s.ms) - L, height: row - 8, class: "bar" }));
      svg.append(el("text", { x: X(s.ms) + 4, y: y + row / 2 + 4, class: "lbl" }, fmtTime(s.ms / 1e3)));
    }
    if (s.book_ms > 0) svg.append(el("rect", { x: L, y: y + 1, width: X(s.book_ms) - L, height: row - 4, class: "bar book" }));
  });
  svg.append(el("text", { x: L, y: H - 6, class: "tick" }, "measured time per step (filled); the book's time on its own GPU (outline) where it gives one"));
}

function setupReport() {
  pageVersion = gpulint.call("cmd=models").version || "0";
  const readFile = (file) => {
    const fr = new FileReader();
    fr.onload = () => { if (loadReport(String(fr.result), file.name)) location.hash = "cmd=report"; };
    fr.onerror = () => reportError(`${file.name}: cannot be read`);
    fr.readAsText(file);
  };
  $("report-file").addEventListener("change", (e) => { if (e.target.files[0]) readFile(e.target.files[0]); });
  const drop = $("drop");
  for (const ev of ["dragenter", "dragover"]) drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add("over"); });
  for (const ev of ["dragleave", "drop"]) drop.addEventListener(ev, () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]); });
  const embedded = $("gpulint-embedded");
  if (embedded && embedded.textContent.trim()) {
    loadReport(embedded.textContent, "this report");
    if (!location.hash) history.replaceState(null, "", "#cmd=report");
  }
}

// ---- The command tab: a calculator command run by the same entry points
// as the exercises (words split as a shell would; nothing is run).
function runLine() {
  const line = $("line").value;
  const a = gpulint.command(line);
  $("err-line").textContent = a.error || "";
  if (a.error) { $("line").setAttribute("aria-invalid", "true"); return; }
  $("line").removeAttribute("aria-invalid");
  $("line-out").textContent = a.text || "";
  drawBanks(a.banks);
  drawLineRoof(a);
  history.replaceState(null, "", "#cmd=line&line=" + encodeURIComponent(line));
}

// `gpulint roofline` with ceilings: the first precision's roof and the
// points, as `--plot` draws them.
function drawLineRoof(a) {
  const show = !!(a.peak_flops && a.peak_bandwidth);
  $("roof-figure").hidden = !show;
  if (!show) return;
  const pts = (a.points || []).filter((p) => p.ai > 0 && p.attainable_flops > 0)
    .map((p, i) => ({ x: p.ai, y: p.attainable_flops, name: p.label || `point ${i + 1}` }));
  roofChart($("roof-chart"), a.peak_flops, a.peak_bandwidth, pts);
}

// The lanes-to-banks picture: how many distinct words each of the 32 banks
// must serve for the worst request; the tallest bar is the wavefront count.
function drawBanks(banks) {
  $("banks-figure").hidden = !banks;
  if (!banks) return;
  const svg = $("banks-chart"), W = 640, H = 150, L = 30, B = 24, T = 8;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const top = Math.max(1, ...banks), bw = (W - L - 4) / 32;
  for (let y = 0; y <= top; y += Math.max(1, Math.ceil(top / 4))) {
    const yy = T + (1 - y / top) * (H - T - B);
    svg.append(el("line", { x1: L, x2: W, y1: yy, y2: yy, class: "grid" }));
    svg.append(el("text", { x: L - 4, y: yy + 4, class: "tick", "text-anchor": "end" }, String(y)));
  }
  banks.forEach((n, k) => {
    const h = (n / top) * (H - T - B);
    svg.append(el("rect", { x: L + k * bw + 1, y: H - B - h, width: bw - 2, height: h, class: n > 1 ? "bank bad" : "bank" }));
    if (k % 4 === 0) svg.append(el("text", { x: L + k * bw + bw / 2, y: H - 8, class: "tick", "text-anchor": "middle" }, String(k)));
  });
}

// The public API, as the console calls it: JSON in, {ok, status, body} out.
import { language, t } from "/console/i18n.js";

// States hold 64-bit integers (seeds, generator states) that a JS number would round,
// so an integer beyond 2^53 is kept as its exact text (JSON.rawJSON) and sent back
// as it came: a state returns to the service unchanged (and its signature still holds).
// JSON.rawJSON is newer than TypeScript's lib (ES2024+ browsers): read through a typed view
const RAW = /** @type {JSON & {rawJSON?: (text: string) => unknown}} */ (JSON);
const EXACT = typeof RAW.rawJSON === "function";

function keepBigIntegers(key, value, context) {
  if (EXACT && typeof value === "number" && !Number.isSafeInteger(value) && context
      && /^-?\d+$/.test(context.source)) {
    return RAW.rawJSON?.(context.source);
  }
  return value;
}

export function parse(text) { return JSON.parse(text, keepBigIntegers); }

export async function call(method, path, body) {
  const headers = { "Accept-Language": language(), "Accept": "application/json" };
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {  // no answer at all: the server is down or the network is gone
    return { ok: false, status: 0, body: { detail: t("no.server") }, headers: new Headers() };
  }
  const text = await response.text();
  let parsed = null;
  try { parsed = text ? parse(text) : null; } catch { parsed = { detail: text }; }
  return { ok: response.ok, status: response.status, body: parsed, headers: response.headers };
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);

// A started evaluation, polled until it ends (bounded: `seconds`).
export async function evaluate(request, seconds = 120) {
  const started = await post("/v1/evaluations", request);
  if (!started.ok) return started;
  const where = started.headers.get("Location");
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const found = await get(where);
    if (!found.ok || ["finished", "failed", "canceled"].includes(found.body.status)) return found;
    if (Date.now() > deadline) return { ok: false, status: 0, body: { detail: t("timed.out") } };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

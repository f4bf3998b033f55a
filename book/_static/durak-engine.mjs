// The reference engine in the page: Pyodide (CPython in WebAssembly) running the durak_spec
// package, both served with the site from engine/ (made by book/web/pack.py). Nothing is
// loaded until a reader asks to play; then the runtime starts once per page and every
// board of the page shares it. The page only draws what the engine answers: every legal
// move, refusal and position comes from durak_spec.play.web (see its docstring).

const ROOT = new URL("../", import.meta.url);
const ENGINE = new URL("engine/", ROOT);
const TIMEOUT_MS = 90_000;

let starting = null;
const listeners = new Set();

function say(text) {
  for (const listener of listeners) listener(text);
}

function withTimeout(promise, ms, what) {
  // loadPyodide never settles when the host serves the .wasm file with another MIME type
  // than application/wasm: give up with a message instead of waiting for ever.
  return Promise.race([promise, new Promise((_, reject) => setTimeout(
    () => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms))]);
}

async function fetchOk(url, what) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${what} (${url.pathname}) could not be loaded: ` +
                                    `HTTP ${response.status}`);
  return response;
}

async function start() {
  const t0 = performance.now();
  const times = {};
  say("Loading the Python runtime…");
  const { loadPyodide } = await import(new URL("pyodide.mjs", ENGINE).href);
  const pyodide = await withTimeout(loadPyodide({
    indexURL: ENGINE.href,
    stdLibURL: new URL("python_stdlib_pyc.zip", ENGINE).href,
  }), TIMEOUT_MS, "Starting the Python runtime");
  times.runtime_ms = performance.now() - t0;
  say("Loading the reference engine…");
  const [zip, links] = await Promise.all([
    fetchOk(new URL("durak_spec.zip", ENGINE), "The engine").then((r) => r.arrayBuffer()),
    fetchOk(new URL("_static/durak-links.json", ROOT), "The list of rule sections")
      .then((r) => r.json()),
  ]);
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(zip, "zip", { extractDir: sitePackages });
  const t1 = performance.now();
  const web = pyodide.pyimport("durak_spec.play.web");
  times.import_ms = performance.now() - t1;
  times.total_ms = performance.now() - t0;
  const engine = { pyodide, web, links, root: ROOT, times };
  window.durakEngine = engine;  // for the browser tests and the benchmark
  return engine;
}

// The engine, started on the first call; `progress` hears what is being loaded.
export function loadEngine(progress) {
  if (progress) listeners.add(progress);
  if (starting === null) {
    starting = start().catch((error) => {
      starting = null;
      throw error;
    });
  }
  return starting.finally(() => listeners.delete(progress));
}

// The address of a rule ID's section (or an example's number), if the site shows it.
export function ruleLink(engine, ident) {
  const place = engine.links[ident];
  return place ? new URL(place, engine.root).href : null;
}

// What a reader is told when the engine fails: one short line, never a Python traceback.
// The whole error goes to the console for whoever debugs the page.
export function shortError(error) {
  console.error(error);
  const text = String(error?.message ?? error ?? "unknown error").trim();
  if (!error?.type && !text.includes("Traceback")) return text.split("\n")[0];
  const last = text.split("\n").map((line) => line.trim()).filter(Boolean).pop() || text;
  // "durak_spec.play.web.RequestError: the message" -> "the message"
  return last.replace(/^[\w.]+(Error|Exception|Warning)?: /, "");
}

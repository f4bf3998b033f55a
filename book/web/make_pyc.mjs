// Precompile Python for the browser with this very Pyodide (its CPython's own bytecode), so
// that the page does not compile every module from source each time it starts.
//
//   node make_pyc.mjs --stdlib OUT.zip
//       the npm package's python_stdlib.zip with each .py replaced by a sourceless .pyc
//       (what zipimport of /lib/python3XX.zip looks for); the page passes it to loadPyodide
//       as stdLibURL
//   node make_pyc.mjs --package SOURCES.zip OUT.zip
//       SOURCES.zip plus __pycache__/*.pyc next to each source (for unpackArchive into
//       site-packages; tracebacks keep their source lines)
//
// The .pyc files are "unchecked hash-based" (PEP 552): Python never compares them with the
// sources, so pack.py makes them together with the zip they belong to, every time.
import { loadPyodide } from "pyodide";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const jobs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--stdlib") jobs.push({ kind: "stdlib", out: args[++i] });
  else if (args[i] === "--package") jobs.push({ kind: "package", src: args[++i], out: args[++i] });
  else throw new Error(`unknown argument ${args[i]}`);
}
if (!jobs.length || jobs.some((j) => !j.out || (j.kind === "package" && !j.src))) {
  console.error("usage: node make_pyc.mjs [--stdlib OUT.zip] [--package SOURCES.zip OUT.zip]");
  process.exit(2);
}

const py = await loadPyodide({ indexURL: join(here, "node_modules/pyodide/") });
py.runPython(`
import importlib.util, marshal, sys, zipfile

def _pyc(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True)
    flags = 0b01  # hash-based, check_source off
    return importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little") + bytes(8) + marshal.dumps(code)

def compile_zip(src_path, dst_path, sourceless):
    n = kept = 0
    with zipfile.ZipFile(src_path) as src, zipfile.ZipFile(dst_path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if not info.filename.endswith(".py"):
                dst.writestr(info, data)
                continue
            try:
                pyc = _pyc(data, info.filename)
            except SyntaxError:  # the stdlib's deliberately broken test files stay source
                dst.writestr(info, data)
                kept += 1
                continue
            n += 1
            if sourceless:
                dst.writestr(info.filename + "c", pyc)
            else:
                dst.writestr(info, data)
                dst.writestr(importlib.util.cache_from_source(info.filename), pyc)
    return f"{n} modules compiled, {kept} kept as source"

stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))
`);
const compileZip = py.globals.get("compile_zip");
for (const job of jobs) {
  let source = py.globals.get("stdlib_zip");
  if (job.kind === "package") {
    py.FS.writeFile("/tmp/package.zip", new Uint8Array(readFileSync(job.src)));
    source = "/tmp/package.zip";
  }
  const said = compileZip(source, "/tmp/out.zip", job.kind === "stdlib");
  writeFileSync(job.out, py.FS.readFile("/tmp/out.zip"));
  console.log(`${job.out}: ${said}`);
}
compileZip.destroy();

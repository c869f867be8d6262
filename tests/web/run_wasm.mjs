// run_wasm.mjs: gpulint.wasm under Node, as web_native runs natively: one
// request per line on stdin ("$ " before a command line), one JSON answer
// per line on stdout. The module
// is instantiated as the page does (the same exports, every WASI import
// answering ENOSYS).
//
//   node run_wasm.mjs build/src/web/gpulint.wasm < requests
import { readFileSync } from "node:fs";

const bytes = readFileSync(process.argv[2]);
const wasi = new Proxy({}, { get: () => () => 52 });
const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi });
const e = instance.exports;
if (e._initialize) e._initialize();
const enc = new TextEncoder(), dec = new TextDecoder();
const lines = readFileSync(0, "utf8").split("\n");
if (lines[lines.length - 1] === "") lines.pop();
const out = [];
for (const line of lines) {
  const text = line.replace(/\r$/, "");
  const command = text.startsWith("$ ");
  const req = enc.encode(command ? text.slice(2) : text);
  if (req.length + 1 > e.web_request_size()) throw new Error("request too long: " + line.slice(0, 80));
  let mem = new Uint8Array(e.memory.buffer);
  const at = e.web_request();
  mem.set(req, at);
  mem[at + req.length] = 0;
  const p = command ? e.web_command() : e.web_run();
  mem = new Uint8Array(e.memory.buffer);
  let end = p;
  while (mem[end]) end++;
  out.push(dec.decode(mem.subarray(p, end)));
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));

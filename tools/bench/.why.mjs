import { build } from "esbuild";
const [entry, ...targets] = process.argv.slice(2);
const r = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: "esm", platform: "neutral", mainFields: ["browser","module","main"], conditions: ["workerd","worker","browser","@latchkey/source"], external: ["node:*","cloudflare:*","kysely"], logLevel: "error" });
const inputs = r.metafile.inputs; const start = Object.keys(inputs).find(p=>p.endsWith(entry.split("/").pop()));
for (const target of targets) {
const prev = new Map([[start, null]]); const q = [start];
while (q.length) { const p = q.shift(); for (const im of inputs[p]?.imports ?? []) if (!prev.has(im.path)) { prev.set(im.path, p); q.push(im.path); } }
const t = Object.keys(inputs).find(p => p.includes(target)); const chain = []; for (let p = t; p; p = prev.get(p)) chain.push(p.replace(/^(\.\.\/)+packages\/core\/src\//,"").replace(/.*node_modules\//,""));
console.log(chain.reverse().join(" -> "));
}

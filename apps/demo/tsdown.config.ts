import { defineConfig } from "tsdown";

// Emits dist/index.js + index.d.ts, the paths package.json's exports name (as the packages do).
export default defineConfig({
  entry: ["src/index.ts"],
  format: "esm",
  dts: true,
  platform: "node",
  fixedExtension: false,
  clean: true,
});

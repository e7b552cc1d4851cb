import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts", "src/client.ts"],
  format: "esm",
  dts: true,
  platform: "neutral",
  fixedExtension: false,
  clean: true,
});

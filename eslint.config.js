import { builtinModules } from "node:module";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { moduleBoundaries } from "./tools/eslint/module-boundaries.js";

const NODE_BUILTIN = "Node builtin: not available on workerd; feature-detect it (process.getBuiltinModule).";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/.build/**", "**/node_modules/**", "**/.nx/**", "**/coverage/**", "apps/demo/public/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { latchkey: { rules: { "module-boundaries": moduleBoundaries } } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "max-lines": ["warn", { max: 400, skipBlankLines: true, skipComments: true }],
      "latchkey/module-boundaries": "error",
    },
  },
  {
    // Issue 5 §2: core, the adapter's dialect-neutral parts, the client and every plugin load on
    // Node, Bun, Deno and workerd alike, so no static import of a Node builtin (`node:*` or bare
    // `crypto`, `fs`, …). Node-only fast paths are feature-detected through
    // `process.getBuiltinModule` with a web-standard fallback (core/src/crypto, scrypt).
    // Type-only imports are erased at build time and stay allowed. The runtime smoke bundle
    // (packages/runtime-tests, platform "neutral") fails to build on a violation too.
    // adapter-kysely needs no exception: its dialect code duck-types the drivers and imports
    // none, and its one Node import (executor.ts, node:async_hooks) is type-only.
    files: ["packages/*/src/**/*.ts"],
    ignores: [
      // A Redis client is a TCP driver (ioredis needs node:net); the package is Node-only by nature.
      "packages/redis-storage/src/**",
      // The adapter conformance suite runs inside vitest on Node only.
      "packages/adapter-tests/src/**",
      // Shared test parts (a real IdP, child processes) run inside vitest on Node only.
      "packages/test-support/src/**",
      // One launcher per runtime: each imports its runtime's own server and database modules.
      "packages/runtime-tests/src/serve/**",
    ],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: builtinModules
            .filter((name) => !name.startsWith("_"))
            .map((name) => ({ name, message: NODE_BUILTIN, allowTypeImports: true })),
          patterns: [{ group: ["node:*"], message: NODE_BUILTIN, allowTypeImports: true }],
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly" } },
    rules: { "@typescript-eslint/consistent-type-imports": "off" },
  },
);

import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { moduleBoundaries } from "./tools/eslint/module-boundaries.js";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.nx/**", "**/coverage/**", "apps/demo/public/**"] },
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
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly" } },
    rules: { "@typescript-eslint/consistent-type-imports": "off" },
  },
);

import { latchkeyProject } from "../../vitest.shared.ts";

// Isolated, unlike most projects: test/e2e-browser.ts keeps one demo process and one Chromium per
// test file in module scope, started by the file's first test and closed by its afterAll.
export default latchkeyProject("demo", { isolate: true });

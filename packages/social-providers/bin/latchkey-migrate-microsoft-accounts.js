#!/usr/bin/env node
// The `latchkey-migrate-microsoft-accounts` executable: the built command (dist/, made by
// `pnpm build`). A file of its own so package managers can link the bin before a build.
await import("../dist/migrate-microsoft-accounts.js");

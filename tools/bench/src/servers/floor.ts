// The cold-start floor: a bare node:http server answering /api/auth/ok, no auth library at all.
import { createServer } from "node:http";
import { readServerConfig } from "../server-config.js";

const config = readServerConfig();
createServer((_, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"ok":true}');
}).listen(config.port, "127.0.0.1");

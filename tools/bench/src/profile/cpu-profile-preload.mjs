// Preloaded into a bench server by profile-server.ts (NODE_OPTIONS does not take --cpu-prof):
// writes the process id (so the CPU time it uses can be read from /proc) and, unless
// PROFILE_CPU=0, profiles the whole process with the inspector, writing the profile on SIGTERM.
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.PROFILE_DIR ?? ".";
writeFileSync(join(dir, "server.pid"), String(process.pid));
if (process.env.PROFILE_CPU !== "0") {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable", () =>
    session.post("Profiler.setSamplingInterval", { interval: 200 }, () => session.post("Profiler.start")),
  );
  process.on("SIGTERM", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error)
        writeFileSync(join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      process.exit(0);
    });
  });
}

// Starts every cluster of CLUSTERS side by side before the test files run, and stops them all
// after, whatever the tests did. A node that crashed or printed anything has its output shown.
import type { TestProject } from "vitest/node";
import { startCluster, type Cluster, type ClusterInfo } from "./cluster.ts";
import { CLUSTERS, type ClusterName } from "./clusters.ts";
import { READY_LINE } from "./node-config.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const names = Object.keys(CLUSTERS) as ClusterName[];
  const started = await Promise.allSettled(names.map((name) => startCluster(CLUSTERS[name])));
  const running = new Map<ClusterName, Cluster>();
  const failed: string[] = [];
  for (const [i, result] of started.entries()) {
    if (result.status === "fulfilled") running.set(names[i]!, result.value);
    else failed.push(`${names[i]}: ${String(result.reason)}`);
  }
  const teardown = async (): Promise<void> => {
    for (const [name, cluster] of running) report(name, cluster);
    await Promise.all([...running.values()].map((cluster) => cluster.close()));
  };
  if (failed.length > 0) {
    await teardown();
    throw new Error(`scale-out clusters did not start:\n${failed.join("\n")}`);
  }
  const infos = Object.fromEntries([...running].map(([name, cluster]) => [name, cluster.info]));
  project.provide("scaleOutClusters", infos as Record<ClusterName, ClusterInfo>);
  return teardown;
}

function report(name: ClusterName, cluster: Cluster): void {
  for (const node of cluster.nodes) {
    const said = node
      .output()
      .split("\n")
      .filter((line) => line && !line.startsWith(READY_LINE))
      .join("\n");
    if (node.crashed() || said) {
      const state = node.crashed() ? " (crashed)" : "";
      console.warn(`scale-out node ${name}/${node.address.name}${state}:\n${said.slice(-4000)}`);
    }
  }
}

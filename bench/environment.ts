/** The machine and versions a run happened on, for the head of `bench/results.md`. */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem, type as osType } from 'node:os';
import { createRequire } from 'node:module';
import type { Environment } from './report.ts';

const require = createRequire(import.meta.url);

/** The installed version of a package, read from its package.json. */
export function packageVersion(name: string): string {
  try {
    const manifest = require(`${name}/package.json`) as { version: string };
    return manifest.version;
  } catch {
    // Packages whose `exports` hide package.json: find it next to the resolved entry.
    const entry = require.resolve(name);
    const root = entry.slice(0, entry.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}/`.length);
    return (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
  }
}

function ownVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

function osDescription(): string {
  try {
    const prettyName = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (prettyName) return `${prettyName} (${osType()} ${release()}, ${platform()})`;
  } catch {
    // Not Linux, or no os-release: fall back to what node:os knows.
  }
  return `${osType()} ${release()} (${platform()})`;
}

/** The 1-minute load average, to show how busy the machine was besides the benchmark. */
export function currentLoad(): number {
  return loadavg()[0] ?? Number.NaN;
}

export function describeEnvironment(extraVersions: readonly (readonly [string, string])[], loadAtStart: number): Environment {
  const processors = cpus();
  return {
    date: new Date().toISOString(),
    os: osDescription(),
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    load: `${loadAtStart.toFixed(2)} at start, ${currentLoad().toFixed(2)} at end (1-minute load average, benchmark included)`,
    versions: [
      ['Node.js', process.versions.node],
      ['V8', process.versions.v8],
      ['pg-checkout', ownVersion()],
      ...(['lit', 'zod', 'vite', '@adyen/adyen-web', 'braintree-web-drop-in', 'autocannon', 'playwright-core'] as const).map(
        (name) => [name, packageVersion(name)] as const,
      ),
      ...extraVersions,
    ],
  };
}

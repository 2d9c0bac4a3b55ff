/**
 * Real `pg-checkout serve` processes for the fault tests: spawned with `node --import tsx
 * src/cli/bin.ts serve` on a free loopback port, their JSON log lines collected, killed with
 * SIGKILL (or SIGTERM) when a test says so, and every one still alive killed when the test file
 * ends, whatever happened to it. Also: the CLI run as a child (never synchronously, so that the
 * loopback shop and gateway of the test process keep answering meanwhile), a free port, and a
 * bounded wait.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BIN = join(ROOT, 'src', 'cli', 'bin.ts');

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Waits until `condition` holds, polling; fails naming `what` after `ms`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string | (() => string), ms = 20_000, stepMs = 25): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** The test process's environment without any PG_* setting or the test runner's markers. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith('PG_') || name.startsWith('NODE_TEST')) continue;
    env[name] = value;
  }
  return env;
}

/** One log line of `serve` (createJsonLogger). */
export interface LogLine {
  readonly time: string;
  readonly level: 'info' | 'warn' | 'error';
  readonly event: string;
  readonly [field: string]: unknown;
}

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the endpoint's URL too (no base path). */
  readonly url: string;
  /** Every JSON log line written so far. */
  readonly logs: LogLine[];
  /** Everything else written to stdout and stderr, for failure messages. */
  readonly output: string[];
  events(event: string): LogLine[];
  /** Log lines at level `error`. */
  errors(): LogLine[];
  /** Kills the process (SIGKILL by default) and waits until it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  readonly exited: Promise<number | null>;
}

const alive = new Set<ChildProcess>();

/** Kills every process started here that still runs (a test's `after`). */
export async function killAll(): Promise<void> {
  await Promise.all(
    [...alive].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  alive.clear();
}

// A test file that dies halfway must not leave servers behind.
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

export interface StartServeOptions {
  /** PG_* settings (PG_PORT is set from `port`). */
  readonly env: Record<string, string>;
  readonly port: number;
  /** `serve --sandbox`. */
  readonly sandbox?: boolean;
  /** How long start-up may take. */
  readonly timeoutMs?: number;
}

/** Spawns `pg-checkout serve` and resolves once it says it listens. */
export async function startServe(options: StartServeOptions): Promise<ServeProcess> {
  const args = ['--import', 'tsx', BIN, 'serve', ...(options.sandbox ? ['--sandbox'] : [])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...baseEnv(), ...options.env, PG_PORT: String(options.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  const logs: LogLine[] = [];
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      alive.delete(child);
      resolve(code);
    });
  });
  let ready: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    ready = resolve;
  });
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('{')) {
        try {
          logs.push(JSON.parse(line) as LogLine);
          continue;
        } catch {
          // not a log line after all
        }
      }
      output.push(line);
      if (line.includes('listening on')) ready();
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const timeoutMs = options.timeoutMs ?? 20_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      listening,
      exited.then((code) => {
        throw new Error(`pg-checkout serve exited with ${code} before listening:\n${output.join('\n')}`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`pg-checkout serve did not listen within ${timeoutMs} ms:\n${output.join('\n')}`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    child,
    port: options.port,
    url: `http://127.0.0.1:${options.port}`,
    logs,
    output,
    events: (event) => logs.filter((line) => line.event === event),
    errors: () => logs.filter((line) => line.level === 'error'),
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    exited,
  };
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `pg-checkout <args>` as a child process with these PG_* settings. */
export async function runCli(args: readonly string[], env: Record<string, string>, timeoutMs = 20_000): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  alive.delete(child);
  return { code, stdout, stderr };
}

/** A temporary folder, removed by `removeTempDirs()`. */
const folders: string[] = [];
export function tempDir(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

export function removeTempDirs(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

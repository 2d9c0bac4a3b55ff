// Makes a fresh clone ready for `npm start` and `npm test`, with Node built-ins only:
//   --deps      installs the locked dependencies when node_modules is missing or stale (npm ci);
//   --chromium  finds the Chromium the browser tests drive, or installs Debian's package when it
//               can (root + apt), or stops with the exact command to run;
//   --php       the same for PHP's command line (Debian's php-cli), which runs the example PHP shop
//               in the end-to-end suite;
//   --postgres  the same for PostgreSQL (Debian's postgresql), whose initdb and server the store's
//               tests run in a throwaway folder, unless PG_TEST_DATABASE_URL names a server to use.
// No step downloads a browser build of its own: that fails on a closed network.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const want = new Set(process.argv.slice(2));

function ensureDependencies() {
  const installed = 'node_modules/.package-lock.json';
  const stale = !existsSync(installed) || statSync('package-lock.json').mtimeMs > statSync(installed).mtimeMs + 1000;
  if (!stale) return;
  console.log('dependencies: installing the locked versions (npm ci)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
}

function ensureChromium() {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((path) => existsSync(path));
  if (found) {
    console.log(`chromium: ${found}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log("chromium: not found, installing Debian's chromium package");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (existsSync('/usr/bin/chromium')) return;
  }
  console.error(
    "chromium: not found. Install Debian's package and run the tests again:\n" +
      '  sudo apt-get update && sudo apt-get install -y chromium\n' +
      'or point CHROME_PATH at an existing Chromium or Chrome binary.',
  );
  process.exit(1);
}

function hasPhp() {
  try {
    execFileSync('php', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function ensurePhp() {
  if (hasPhp()) {
    console.log(`php: ${execFileSync('php', ['-r', 'echo PHP_VERSION;']).toString()}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log("php: not found, installing Debian's php-cli package");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'php-cli'], { stdio: 'inherit', env });
    if (hasPhp()) return;
  }
  console.error(
    "php: not found. Install Debian's package and run the tests again:\n" +
      '  sudo apt-get update && sudo apt-get install -y php-cli',
  );
  process.exit(1);
}

function findInitdb() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .map((version) => `${root}/${version}/bin/initdb`)
    .find((path) => existsSync(path));
}

function ensurePostgres() {
  if (process.env.PG_TEST_DATABASE_URL) {
    console.log('postgres: the server PG_TEST_DATABASE_URL names');
    return;
  }
  const found = findInitdb();
  if (found) {
    console.log(`postgres: ${found}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log("postgres: not found, installing Debian's postgresql package");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env });
    if (findInitdb()) return;
  }
  console.error(
    "postgres: not found. Install Debian's package and run the tests again:\n" +
      '  sudo apt-get update && sudo apt-get install -y postgresql\n' +
      'or set PG_TEST_DATABASE_URL to a PostgreSQL server where the tests may create databases.',
  );
  process.exit(1);
}

if (want.has('--deps')) ensureDependencies();
if (want.has('--chromium')) ensureChromium();
if (want.has('--php')) ensurePhp();
if (want.has('--postgres')) ensurePostgres();

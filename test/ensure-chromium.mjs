// Finds the Chromium the browser tests drive, or installs Debian's package when it can.
// No step downloads a browser build of its own: that fails on a closed network.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
const found = candidates.find((path) => existsSync(path));
if (found) {
  console.log(`chromium: ${found}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt) {
  console.log('chromium: not found, installing Debian\'s chromium package (apt-get install -y chromium)');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (existsSync('/usr/bin/chromium')) process.exit(0);
}
console.error(
  'chromium: not found. Install Debian\'s package and run the tests again:\n' +
    '  sudo apt-get update && sudo apt-get install -y chromium\n' +
    'or point CHROME_PATH at an existing Chromium or Chrome binary.',
);
process.exit(1);

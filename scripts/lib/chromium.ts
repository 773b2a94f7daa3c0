/**
 * Finds a Chromium for the browser tests, installing one when it can:
 * Debian's `chromium` package where apt is available and we are root, Playwright's own download elsewhere.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export interface ChromiumChoice {
  /** Path to a system Chromium, or undefined when Playwright's own browser is used. */
  executablePath?: string;
  how: string;
}

export function findSystemChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((candidate) => fs.existsSync(candidate));
}

function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function ensureChromium(log: (line: string) => void = console.log): ChromiumChoice {
  const found = findSystemChromium();
  if (found) return { executablePath: found, how: `using the Chromium found at ${found}` };

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && commandExists('apt-get')) {
    log("No Chromium found: installing Debian's chromium package with apt-get (this takes a minute)...");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    const installed = findSystemChromium();
    if (installed) return { executablePath: installed, how: `installed Debian's chromium package at ${installed}` };
    throw new Error('apt-get installed chromium but no chromium binary was found');
  }

  log("No system Chromium and no apt as root: downloading Playwright's own Chromium (npx playwright install chromium)...");
  execFileSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
  return { how: "installed Playwright's own Chromium download" };
}

/** Launch arguments that work headless as root on a machine without outside network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

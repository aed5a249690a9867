import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_SECRET_KEY } from './helpers';

/**
 * Python run by `manage.py shell` against the test server's own database and media folder, as
 * scripts/e2e-server.sh set them up (var/e2e-<port>/, PostgreSQL or SQLite): for states a test cannot
 * reach through the app, such as a job a killed worker left behind. Not with E2E_BASE_URL (a server
 * the tests did not start), unless E2E_PORT names the port of a server that script started here:
 * `SERVER_SHELL_AVAILABLE` says so.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BACKEND = path.join(ROOT, 'backend');

export const SERVER_SHELL_AVAILABLE =
  !process.env.E2E_BASE_URL || existsSync(path.join(ROOT, 'var', `e2e-${process.env.E2E_PORT ?? ''}`, 'database'));

function serverEnvironment(): NodeJS.ProcessEnv {
  const port = process.env.E2E_PORT ?? '';
  const varDir = path.join(ROOT, 'var', `e2e-${port}`);
  const [engine, name] = readFileSync(path.join(varDir, 'database'), 'utf8').trim().split(' ');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_VAR_DIR: varDir,
    SQLITE_PATH: path.join(varDir, 'db.sqlite3'),
    MEDIA_ROOT: path.join(varDir, 'media'),
    DJANGO_SECRET_KEY: E2E_SECRET_KEY,
  };
  // The local EU system the server files with (scripts/e2e-server.sh), for a task run here.
  const traces = path.join(varDir, 'traces.url');
  if (existsSync(traces)) {
    const url = readFileSync(traces, 'utf8').trim();
    env.EUDR_TRACES_URLS = JSON.stringify({ acceptance: url, production: url });
  }
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  if (engine === 'postgresql') {
    const url = new URL(process.env.E2E_DATABASE_URL ?? process.env.DATABASE_URL ?? '');
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
  }
  return env;
}

const UV = existsSync(path.join(ROOT, '.tools', 'bin', 'uv')) ? path.join(ROOT, '.tools', 'bin', 'uv') : 'uv';

/** Runs `code` in the test server's Django; `env` adds variables the code reads. Answers its output. */
export function serverShell(code: string, env: Record<string, string> = {}): string {
  return execFileSync(UV, ['run', '--frozen', 'python', 'manage.py', 'shell', '-c', code], {
    cwd: BACKEND,
    env: { ...serverEnvironment(), ...env },
    encoding: 'utf8',
  });
}

/**
 * Runs a management command of the backend (`manage.py <args>`) in the test server's environment when
 * there is one here, else in the backend's own defaults (a command that reads files only, such as
 * `check_einvoice`, needs no server): answers its exit status and output, whatever the status.
 */
export function manage(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = SERVER_SHELL_AVAILABLE ? serverEnvironment() : { ...process.env, DJANGO_SECRET_KEY: E2E_SECRET_KEY };
  const run = spawnSync(UV, ['run', '--frozen', 'python', 'manage.py', ...args], { cwd: BACKEND, env, encoding: 'utf8', timeout: 300_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

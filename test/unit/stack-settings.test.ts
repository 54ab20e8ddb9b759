// One derivation of a local stack's settings (dev/stack-settings.ts), read by `npm start`,
// `npm run start:cluster` and the scripts the README names; and the Temporal UI links that follow
// TEMPORAL_UI_PORT (src/config.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  projectRoot,
  readStackState,
  removeStackState,
  scriptStack,
  stackSettings,
  writeStackState,
  type StackState,
} from '../../dev/stack-settings.js';
import { loadConfig } from '../../src/config.js';
import { temporalUiBookingUrl } from '../../src/ops/links.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-stack-'));
  dirs.push(d);
  return d;
};
// A pid above Linux's largest (4194304): no process runs as it.
const GONE = 2_000_000_000;

function state(over: Partial<StackState> & Pick<StackState, 'dataDir'>): StackState {
  return {
    kind: 'start',
    pid: process.pid,
    startedAt: new Date().toISOString(),
    apiUrl: 'http://localhost:41000',
    databaseUrl: 'postgres://postgres:postgres@127.0.0.1:41001/taxi',
    postgresDataDir: path.join(over.dataDir, 'postgres'),
    temporalAddress: 'localhost:41002',
    temporalUiUrl: 'http://localhost:41003',
    workerMetricsPorts: [41004],
    ...over,
  };
}

describe('stackSettings', () => {
  it("npm start's defaults: .data in the project, the embedded Postgres on 54329, Temporal 7233, its UI 8233, the API on 3000", () => {
    const s = stackSettings('start', {});
    expect(s).toMatchObject({
      dataDir: path.join(projectRoot, '.data'),
      stackDir: path.join(projectRoot, '.data'),
      stateFile: path.join(projectRoot, '.data', 'stack.json'),
      apiUrl: 'http://localhost:3000',
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54329/taxi',
      embeddedPostgres: { port: 54329, dataDir: path.join(projectRoot, '.data', 'postgres') },
      temporalAddress: 'localhost:7233',
      ownTemporal: true,
      temporalUiUrl: 'http://localhost:8233',
      workerMetricsPort: 9464,
      workerMetricsPortSet: false,
    });
  });

  it("start:cluster's: DATA_DIR/cluster, CLUSTER_PG_PORT 54339, TEMPORAL_SERVER_PORT", () => {
    const s = stackSettings('cluster', {
      DATA_DIR: '/srv/taxi',
      TEMPORAL_SERVER_PORT: '17233',
      WORKER_METRICS_PORT: '19464',
    });
    expect(s).toMatchObject({
      dataDir: '/srv/taxi',
      stackDir: '/srv/taxi/cluster',
      stateFile: '/srv/taxi/cluster/stack.json',
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54339/taxi',
      embeddedPostgres: { port: 54339, dataDir: '/srv/taxi/cluster/postgres' },
      temporalAddress: 'localhost:17233',
      workerMetricsPort: 19464,
      workerMetricsPortSet: true,
    });
  });

  it('a relative DATA_DIR is taken from where the command was typed (npm INIT_CWD), else the current directory', () => {
    expect(stackSettings('start', { DATA_DIR: 'stacks/b' }, '/home/ada/taxi').dataDir).toBe('/home/ada/taxi/stacks/b');
    expect(
      stackSettings('start', { DATA_DIR: '../b', INIT_CWD: '/home/ada/taxi/docs' }, '/home/ada/taxi').stackDir,
    ).toBe('/home/ada/taxi/b');
    expect(stackSettings('cluster', { DATA_DIR: './b' }, '/home/ada/taxi').embeddedPostgres?.dataDir).toBe(
      '/home/ada/taxi/b/cluster/postgres',
    );
  });

  it('EMBEDDED_PG_PORT names the embedded database; DATABASE_URL replaces it; an empty variable counts as unset', () => {
    expect(stackSettings('start', { EMBEDDED_PG_PORT: '55432' }).databaseUrl).toBe(
      'postgres://postgres:postgres@127.0.0.1:55432/taxi',
    );
    const external = stackSettings('start', {
      DATABASE_URL: 'postgres://u:p@db.example:5432/taxi',
      TEMPORAL_ADDRESS: 'temporal.example:7233',
    });
    expect(external).toMatchObject({
      databaseUrl: 'postgres://u:p@db.example:5432/taxi',
      embeddedPostgres: null,
      temporalAddress: 'temporal.example:7233',
      ownTemporal: false,
    });
    expect(stackSettings('start', { DATABASE_URL: '', EMBEDDED_PG_PORT: '' }).databaseUrl).toBe(
      'postgres://postgres:postgres@127.0.0.1:54329/taxi',
    );
  });

  it('a bad value is refused with the variable named', () => {
    expect(() => stackSettings('start', { EMBEDDED_PG_PORT: 'postgres' })).toThrow(/EMBEDDED_PG_PORT/);
    expect(() => stackSettings('start', { DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });
});

describe('scriptStack: where a script run with the same settings goes', () => {
  it("the running stack's stack.json in DATA_DIR, for the database and the API", () => {
    const dataDir = tmp();
    writeStackState(path.join(dataDir, 'stack.json'), state({ dataDir }));
    expect(scriptStack({ DATA_DIR: dataDir })).toMatchObject({
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:41001/taxi',
      postgresDataDir: path.join(dataDir, 'postgres'),
      apiUrl: 'http://localhost:41000',
    });
  });

  it('a relative DATA_DIR finds the same file', () => {
    const dataDir = tmp();
    writeStackState(path.join(dataDir, 'stack.json'), state({ dataDir }));
    const relative = path.relative(projectRoot, dataDir);
    expect(scriptStack({ DATA_DIR: relative }, projectRoot).databaseUrl).toBe(
      'postgres://postgres:postgres@127.0.0.1:41001/taxi',
    );
  });

  it('what the environment says wins over the file: DATABASE_URL, EMBEDDED_PG_PORT, PORT', () => {
    const dataDir = tmp();
    writeStackState(path.join(dataDir, 'stack.json'), state({ dataDir }));
    expect(scriptStack({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u:p@db.example/taxi' })).toMatchObject({
      databaseUrl: 'postgres://u:p@db.example/taxi',
      postgresDataDir: null,
    });
    expect(scriptStack({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: '42000', PORT: '42001' })).toMatchObject({
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:42000/taxi',
      postgresDataDir: path.join(dataDir, 'postgres'),
      apiUrl: 'http://localhost:42001',
    });
  });

  it("a file whose starter is gone is ignored: the defaults then, still this DATA_DIR's Postgres", () => {
    const dataDir = tmp();
    writeStackState(path.join(dataDir, 'stack.json'), state({ dataDir, pid: GONE }));
    expect(readStackState(path.join(dataDir, 'stack.json'))).toBeNull();
    expect(scriptStack({ DATA_DIR: dataDir })).toMatchObject({
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54329/taxi',
      postgresDataDir: path.join(dataDir, 'postgres'),
      apiUrl: 'http://localhost:3000',
    });
  });

  it("start:cluster's file when only the cluster runs in DATA_DIR, or when STACK=cluster says so", () => {
    const dataDir = tmp();
    const cluster = state({
      dataDir,
      kind: 'cluster',
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:43000/taxi',
      postgresDataDir: path.join(dataDir, 'cluster', 'postgres'),
    });
    writeStackState(path.join(dataDir, 'cluster', 'stack.json'), cluster);
    expect(scriptStack({ DATA_DIR: dataDir }).databaseUrl).toBe(cluster.databaseUrl);
    writeStackState(path.join(dataDir, 'stack.json'), state({ dataDir }));
    expect(scriptStack({ DATA_DIR: dataDir }).databaseUrl).toBe('postgres://postgres:postgres@127.0.0.1:41001/taxi');
    expect(scriptStack({ DATA_DIR: dataDir, STACK: 'cluster' })).toMatchObject({
      databaseUrl: cluster.databaseUrl,
      postgresDataDir: cluster.postgresDataDir,
    });
    expect(scriptStack({ DATA_DIR: dataDir, STACK: 'cluster', CLUSTER_PG_PORT: '43001' }).databaseUrl).toBe(
      'postgres://postgres:postgres@127.0.0.1:43001/taxi',
    );
  });

  it('the file is readable by its owner only, and a starter removes only its own', () => {
    const dataDir = tmp();
    const file = path.join(dataDir, 'stack.json');
    writeStackState(file, state({ dataDir, pid: GONE }));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    removeStackState(file);
    expect(fs.existsSync(file)).toBe(true);
    writeStackState(file, state({ dataDir }));
    removeStackState(file);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('Temporal UI links', () => {
  const base = { DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:54329/taxi' };

  it('follow TEMPORAL_UI_PORT and TEMPORAL_UI_HOST', () => {
    expect(loadConfig(base).TEMPORAL_UI_URL).toBe('http://localhost:8233');
    const config = loadConfig({ ...base, TEMPORAL_UI_PORT: '18233' });
    expect(temporalUiBookingUrl(config, 'AB12CD')).toBe(
      'http://localhost:18233/namespaces/default/workflows/booking:AB12CD',
    );
    expect(loadConfig({ ...base, TEMPORAL_UI_HOST: 'ops-box.lan', TEMPORAL_UI_PORT: '18233' }).TEMPORAL_UI_URL).toBe(
      'http://ops-box.lan:18233',
    );
    expect(loadConfig({ ...base, TEMPORAL_UI_HOST: '::1' }).TEMPORAL_UI_URL).toBe('http://[::1]:8233');
  });

  it('TEMPORAL_UI_URL, when set, is used as given (without a trailing slash)', () => {
    const config = loadConfig({ ...base, TEMPORAL_UI_PORT: '18233', TEMPORAL_UI_URL: 'https://temporal.example/ui/' });
    expect(temporalUiBookingUrl(config, 'AB12CD')).toBe(
      'https://temporal.example/ui/namespaces/default/workflows/booking:AB12CD',
    );
  });

  it('a bad port is refused with its name', () => {
    expect(() => loadConfig({ ...base, TEMPORAL_UI_PORT: '70000' })).toThrow(/TEMPORAL_UI_PORT/);
  });
});

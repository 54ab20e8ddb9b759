// What anonymous driver applications cost the API in memory and storage, on this code and on the
// code before issue 20 (6) (BENCH_BASELINE_REF, default cef3b47: a 48 MB body limit, six documents
// of 5 MB, no cap on uploads in flight), measured in the same run on the same servers.
//   npx tsx bench/driver-applications.ts          (BENCH_CONCURRENCY=4; BENCH_BASELINE=0 skips the old code)
//
// Each scenario runs on a fresh API process (src/server.ts, as `npm start` runs it), so the kernel's
// high-water mark of its resident memory (VmHWM in /proc/<pid>/status) is that scenario's peak:
// RSS once warmed up (one small application), then BENCH_CONCURRENCY applications sent at once, each
// from its own address (X-Forwarded-For, TRUST_PROXY on) and phone, so no per-address or per-phone
// rule is what refuses them; then the peak and the RSS a second after the last answer. Stored: the
// bytes of documents the burst left in driver_documents.
//   attack:   six documents of 5 MB (base64 6,990,000 characters each): a 41.9 MB body, the largest the old code took.
//   largest:  four documents of 3 MB: a 16.8 MB body, the largest this code takes.
//   burst:    four times BENCH_CONCURRENCY of the largest at once.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../dev/free-port.js';
import { stopChild } from '../dev/temporal-dev-server.js';
import { migrate } from '../src/db/migrate.js';
import { createSql } from '../src/db/sql.js';
import { MAX_DOCUMENT_BYTES } from '../src/drivers/application-limits.js';
import { root, startBenchStack, waitForHttp } from './support.js';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const baselineRef = process.env.BENCH_BASELINE_REF ?? 'cef3b47';
const withBaseline = process.env.BENCH_BASELINE !== '0';
const MB = 1024 * 1024;

/** A PDF of `bytes` bytes as base64 (only its first bytes are ever looked at). */
function pdf(bytes: number): string {
  const data = Buffer.alloc(bytes, 0x20);
  data.write('%PDF-1.4\n');
  return data.toString('base64');
}
const OLD_MAX_DOC = pdf(Math.floor((6_990_000 * 3) / 4)); // 6,990,000 base64 characters, 5,242,500 bytes
const NEW_MAX_DOC = pdf(MAX_DOCUMENT_BYTES);

let serial = 0;
function applicationBody(docs: string[]): string {
  const n = serial++;
  return JSON.stringify({
    name: 'Bench Applicant',
    phone: `+4474008${String(10000 + (n % 89999)).padStart(5, '0')}`,
    email: 'bench@example.com',
    licensing_authority: 'Leeds City Council',
    driver_licence_number: 'LCC-D-1',
    driver_licence_expires: '2030-01-31',
    vehicle_licence_number: 'LCC-V-1',
    vehicle_licence_expires: '2029-06-30',
    vehicle_make: 'Toyota',
    vehicle_model: 'Prius',
    vehicle_registration: 'yx70 abc',
    vehicle_type: 'saloon',
    seats: 4,
    tier: 'local',
    home_area: 'leeds',
    documents: docs.map((data, i) => ({
      kind: i === 0 ? 'driver_licence' : i === 1 ? 'vehicle_licence' : 'other',
      content_type: 'application/pdf',
      data_base64: data,
    })),
  });
}

/** POSTs a body and answers its status (or the socket error), resolving on the answer, not on the upload. */
function post(port: number, body: string, address: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/drivers/applications',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-forwarded-for': address,
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve(String(res.statusCode));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!answered) resolve(err.code ?? 'error');
    });
    req.end(body);
  });
}

function memory(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

interface Api {
  port: number;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** The old code, as it was committed: its own src/, workflows/, activities/ and data/, with today's node_modules. */
function extractBaseline(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-baseline-'));
  const archive = execFileSync(
    'git',
    ['-C', root, 'archive', baselineRef, 'src', 'workflows', 'activities', 'data', 'package.json', 'tsconfig.json'],
    { maxBuffer: 512 * MB },
  );
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

async function startApi(codeDir: string, env: Record<string, string>): Promise<Api> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(codeDir, 'src/server.ts')], {
    cwd: codeDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', TRUST_PROXY: 'true', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHttp(`http://127.0.0.1:${port}/readyz`);
  return { port, child, stop: () => stopChild(child) };
}

interface Row {
  code: string;
  scenario: string;
  bodyMb: number;
  statuses: string;
  rssBefore: number;
  peak: number;
  rssAfter: number;
  storedMb: number;
  seconds: number;
}

const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
const sql = createSql(stack.databaseUrl, 4);
await migrate(sql);
const env = {
  DATABASE_URL: stack.databaseUrl,
  TEMPORAL_ADDRESS: stack.temporalAddress,
  TEMPORAL_TASK_QUEUE: 'bench-applications',
};
const baselineDir = withBaseline ? extractBaseline() : null;
const stored = async () =>
  Number((await sql<{ n: string }[]>`select coalesce(sum(size_bytes), 0)::text as n from driver_documents`)[0]!.n);
let address = 0;
const nextAddress = () => `198.51.${Math.floor(address / 250) % 250}.${address++ % 250}`;

async function scenario(code: string, codeDir: string, name: string, docs: string[], count: number): Promise<Row> {
  const api = await startApi(codeDir, env);
  try {
    const pid = api.child.pid!;
    const warm = await post(api.port, applicationBody([pdf(1024), pdf(1024)]), nextAddress());
    if (warm !== '201') throw new Error(`${code}: warm-up application answered ${warm}`);
    const rssBefore = memory(pid).rss;
    const storedBefore = await stored();
    const bodies = Array.from({ length: count }, () => applicationBody(docs));
    const started = performance.now();
    const statuses = await Promise.all(bodies.map((b) => post(api.port, b, nextAddress())));
    const seconds = (performance.now() - started) / 1000;
    const peak = memory(pid).hwm;
    await new Promise((r) => setTimeout(r, 1000));
    const rssAfter = memory(pid).rss;
    const counts = new Map<string, number>();
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
    return {
      code,
      scenario: name,
      bodyMb: Buffer.byteLength(bodies[0]!) / MB,
      statuses: [...counts]
        .sort()
        .map(([s, c]) => `${c}×${s}`)
        .join(' '),
      rssBefore,
      peak,
      rssAfter,
      storedMb: ((await stored()) - storedBefore) / MB,
      seconds,
    };
  } finally {
    await api.stop();
  }
}

const rows: Row[] = [];
try {
  const codes: Array<[string, string]> = [
    ...(baselineDir ? [[`before (${baselineRef})`, baselineDir] as [string, string]] : []),
    ['this code', root],
  ];
  const scenarios: Array<[string, string[], number]> = [
    ['attack: 6 × 5 MB', Array(6).fill(OLD_MAX_DOC), concurrency],
    ['largest: 4 × 3 MB', Array(4).fill(NEW_MAX_DOC), concurrency],
    ['burst: 4 × 3 MB', Array(4).fill(NEW_MAX_DOC), concurrency * 4],
  ];
  for (const [name, docs, count] of scenarios) {
    for (const [code, dir] of codes) {
      const row = await scenario(code, dir, `${name}, ${count} at once`, docs, count);
      rows.push(row);
      console.log(`${row.code} / ${row.scenario}: ${row.statuses}`);
    }
  }
  const mb = (b: number) => (b / MB).toFixed(0);
  console.log(
    `\n| code | applications | body MB | answers | RSS before MB | peak RSS MB | RSS after MB | peak − before MB | stored MB | seconds |`,
  );
  console.log('|---|---|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.code} | ${r.scenario} | ${r.bodyMb.toFixed(1)} | ${r.statuses} | ${mb(r.rssBefore)} | ${mb(r.peak)} | ${mb(r.rssAfter)} | ${mb(r.peak - r.rssBefore)} | ${r.storedMb.toFixed(1)} | ${r.seconds.toFixed(2)} |`,
    );
  }
} finally {
  await sql.end();
  await stack.stop();
  if (baselineDir) fs.rmSync(baselineDir, { recursive: true, force: true });
}

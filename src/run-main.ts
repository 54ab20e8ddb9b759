import { ConfigError } from './config.js';

/** Runs an entry point, printing configuration errors plainly (no stack) and exiting non-zero. */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError) console.error(`[${name}] ${err.message}`);
    else console.error(`[${name}] fatal:`, err);
    process.exit(1);
  });
}

import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

// Every `npm run <script>`'s flags (README, "Scripts"): --help prints the usage line and exits 0;
// a flag the script does not take, or one given without its value, prints what was wrong and the
// usage and exits 2, instead of Node's stack trace.

export function scriptArgs<const O extends ParseArgsOptionsConfig>(options: O, usage: string) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs<{ options: O }>({ options }).values;
  } catch (err) {
    const why = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    console.error(`${why}\n${usage}`);
    process.exit(2);
  }
}

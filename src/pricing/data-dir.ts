import { fileURLToPath } from 'node:url';

/** The project's data/ directory, found relative to this file so it works from any cwd. */
export const DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url));

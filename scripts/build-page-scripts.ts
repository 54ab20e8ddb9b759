// `npm run build` (scripts/build.sh): the pages' scripts bundled into the build, where production
// reads them (src/pages/page-scripts.ts) instead of bundling them as it starts.
import { writePageScripts } from '../src/pages/page-scripts.js';

const out = process.argv[2];
if (!out) throw new Error('usage: tsx scripts/build-page-scripts.ts <directory>');
writePageScripts(out);

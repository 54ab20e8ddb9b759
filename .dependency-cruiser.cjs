// Which folder may import which (docs/architecture.md, "Imports one way"). Run by
// scripts/check-import-directions.ts in `npm run lint`, which also counts the area pairs that import
// each other and fails above 5. Type-only imports count: they tie the folders together just the same.

const AREAS =
  '^src/(auth|billing|bookings|dispatch|drivers|exchange|mcp|ops|partners|passengers|quotes|schemas|screening|settlement)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'model-is-pure',
      comment:
        'src/model/ is the vocabulary every layer shares, workflows included: it imports only itself ' +
        '(and npm packages), never an area, infrastructure, Temporal or Node built-ins.',
      severity: 'error',
      from: { path: '^src/model/' },
      to: { path: '^(src|activities|workflows)/', pathNot: '^src/model/' },
    },
    {
      name: 'model-no-node',
      comment: 'src/model/ is loaded into the workflow sandbox: no Node built-ins.',
      severity: 'error',
      from: { path: '^src/model/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'infrastructure-knows-no-area',
      comment:
        'src/db, src/geo and src/pricing are infrastructure the areas build on; they import no area, ' +
        'no route, no page and no workflow (pass what they need in as an argument or a function).',
      severity: 'error',
      from: { path: '^src/(db|geo|pricing)/' },
      to: { path: AREAS + '|^src/(routes|pages|plugins|http|notify|temporal)/|^(activities|workflows)/' },
    },
    {
      name: 'http-knows-no-area',
      comment:
        'src/http is shared HTTP plumbing (problems, rate limits, addresses): it imports no area; ' +
        'an area that needs it imports it, never the other way round.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: AREAS + '|^src/(routes|pages|plugins)/' },
    },
    {
      name: 'notify-knows-no-area',
      comment:
        'src/notify sends what the areas give it; the texts an area sends take plain values, so ' +
        'notify imports no area (the types it needs come from src/model/).',
      severity: 'error',
      from: { path: '^src/notify/' },
      // src/screening is the shared check of what others typed: pure, it imports nothing back.
      to: { path: AREAS + '|^src/(routes|pages|plugins)/|^(activities|workflows)/', pathNot: '^src/screening/' },
    },
    {
      name: 'nothing-imports-routes',
      comment: 'Routes are the outside edge: only src/app.ts registers them; no area imports a route.',
      severity: 'error',
      from: { path: '^(src|activities|workflows)/', pathNot: '^src/(app\\.ts|routes/)' },
      to: { path: '^src/routes/' },
    },
    {
      name: 'nothing-imports-the-entry-points',
      comment: 'src/app.ts, src/server.ts and src/worker.ts wire everything together; nothing imports them.',
      severity: 'error',
      from: { path: '^(src|activities|workflows)/', pathNot: '^src/(server|worker)\\.ts$' },
      to: { path: '^src/(app|server|worker)\\.ts$' },
    },
    {
      name: 'kernel-knows-no-area',
      comment: 'src/config.ts and src/refusal.ts are imported by every area; they import no area themselves.',
      severity: 'error',
      from: { path: '^src/(config|production-config|refusal)\\.ts$' },
      to: { path: '^(src|activities|workflows)/', pathNot: '^src/(config|production-config|refusal)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

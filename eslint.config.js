// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'fs',
  'path',
  'os',
  'crypto',
  'http',
  'https',
  'net',
  'child_process',
  'worker_threads',
  'url',
  'util',
  'dns',
  'stream',
];

// What neither the Refusal nor the module turning Temporal failures into Refusals may import.
const REFUSAL_NOT_ENTRY_POINTS = {
  paths: [{ name: 'fastify', message: 'Refusals know nothing of HTTP; src/http/refusal-problem.ts translates them.' }],
  patterns: [
    {
      group: ['**/http/**', '**/plugins/**', '**/routes/**'],
      message: 'Refusals know nothing of HTTP; src/http/refusal-problem.ts translates them.',
    },
    {
      group: ['**/mcp/**', '@modelcontextprotocol/*'],
      message: 'Refusals know nothing of MCP; src/mcp/refusal-result.ts translates them.',
    },
  ],
};

// The booking workflow's messages: only its client (src/bookings/client.ts) sends them.
const BOOKING_MESSAGES = [
  'amendBookingUpdate',
  'assignFleetDriverUpdate',
  'bookingCreatedUpdate',
  'bookingStateQuery',
  'cancelBookingUpdate',
  'claimUpcomingJobUpdate',
  'driverDroppedSignal',
  'driverSuspendedSignal',
  'emailConfirmedSignal',
  'endTripUpdate',
  'exchangeStatusSignal',
  'offerSeenSignal',
  'offerToDriverUpdate',
  'reportTripUpdate',
  'respondToOfferUpdate',
  'settleBookingUpdate',
  'tripProgressSignal',
];

/** A workflow's messages (its defineUpdate/Signal/Query values), imported outside its one client. */
const messagesOnlyIn = (client, modules, importNames, use) => ({
  client,
  pattern: {
    group: modules.flatMap((m) => [`**/${m}.js`, `**/${m}`]),
    importNames,
    allowTypeImports: true,
    message: `Call the ${use} through its client (${client}).`,
  },
});

// Each workflow's one client (docs/refusals.md, "Temporal failures"), and the messages only it may
// import. Kept equal to the message values of each definitions module by
// test/unit/lint/workflow-client-imports.test.ts.
const WORKFLOW_CLIENTS = [
  messagesOnlyIn(
    'src/bookings/client.ts',
    ['workflows/bookings/definitions', 'workflows/bookings/v1/definitions'],
    BOOKING_MESSAGES,
    "booking workflow (Services['bookings'])",
  ),
  messagesOnlyIn(
    'src/partners/job-client.ts',
    ['workflows/partners/job-definitions'],
    ['submitJobUpdate', 'partnerJobQuery'],
    "partner job workflow (Services['partnerJobs'])",
  ),
  messagesOnlyIn(
    'src/quotes/client.ts',
    ['workflows/quotes/definitions'],
    ['redeemQuoteUpdate', 'quoteStateQuery'],
    "quote workflow (Services['quotes'])",
  ),
  messagesOnlyIn(
    'src/billing/subscription-client.ts',
    ['workflows/billing/definitions'],
    ['cancelSubscriptionSignal', 'extendTrialUpdate', 'subscriptionStateQuery'],
    "driver subscription workflow (Services['subscriptions'])",
  ),
  messagesOnlyIn(
    'src/billing/collection-client.ts',
    ['workflows/billing/definitions'],
    ['invoiceCollectionStateQuery', 'invoicePaymentSignal'],
    "invoice collection workflow (Services['invoiceCollections'])",
  ),
  messagesOnlyIn(
    'src/drivers/licence-client.ts',
    ['workflows/drivers/definitions'],
    ['licenceStateQuery', 'licencesRenewedSignal'],
    "licence watch (Services['licences'])",
  ),
  messagesOnlyIn(
    'src/drivers/location-watch-client.ts',
    ['workflows/drivers/definitions'],
    ['locationWatchStateQuery'],
    'location watch',
  ),
  messagesOnlyIn('src/ops/watch-client.ts', ['workflows/ops/definitions'], ['opsWatchStateQuery'], 'ops watch'),
  messagesOnlyIn(
    'src/partners/delivery-client.ts',
    ['workflows/partners/delivery-definitions'],
    ['eventsRecordedSignal'],
    "partner delivery workflow (Services['partnerDeliveries'])",
  ),
];
// The workflows that start no messages from outside (suspension, partner billing) have clients too:
// src/drivers/suspension-client.ts, src/billing/partner-billing-client.ts.

export default tseslint.config(
  {
    ignores: [
      // dependency-cruiser's CommonJS config is read by that tool alone (scripts/check-import-directions.ts).
      '.dependency-cruiser.cjs',
      'node_modules/**',
      '.data/**',
      '.tools/**',
      'dist/**',
      'build/**',
      'coverage/**',
      'test/histories/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // Workflow code is replayed: it must stay deterministic and free of I/O (see README). Only
    // types may come from activities, src (stores, clients) or dev; values must not, at any depth.
    // src/model/ is the exception: the vocabulary every layer shares, pure by the rule below.
    // test/unit/lint/workflow-imports.test.ts proves each of these is caught.
    files: ['workflows/**/*.ts'],
    rules: {
      // A workflow reads as the business process: long functions hide it (issues 21 and 34).
      'max-lines-per-function': ['error', { max: 60 }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...NODE_BUILTINS.flatMap((m) => [
              { name: m, message: 'Workflows must not use Node built-ins; use an activity.' },
              { name: `node:${m}`, message: 'Workflows must not use Node built-ins; use an activity.' },
            ]),
            { name: 'postgres', message: 'Workflows must not touch the database; use an activity.' },
            { name: 'fastify', message: 'Workflows must not do HTTP; use an activity.' },
            { name: '@temporalio/client', message: 'Workflows use @temporalio/workflow APIs.' },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/activities', '**/activities/**', '**/src/*', '!**/src/model', '**/dev/**'],
              allowTypeImports: true,
              message:
                'Workflows may import only types from activities, src (values from src/model/) and dev; do the work in an activity.',
            },
          ],
        },
      ],
    },
  },
  {
    // src/model/ is each area's vocabulary, imported by src/, activities/ and workflows/ alike, so it
    // runs in the workflow sandbox too: pure, it imports nothing outside src/model/ (docs/architecture.md).
    files: ['src/model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_BUILTINS.map((m) => ({
            name: m,
            message: 'src/model/ is pure (it runs in workflows too): no Node built-ins.',
          })),
          patterns: [
            { regex: '^node:', message: 'src/model/ is pure (it runs in workflows too): no Node built-ins.' },
            {
              regex: '^\\.\\./',
              message:
                'src/model/ imports nothing outside src/model/ (no area, infrastructure, activities or workflows): every layer imports it, never the other way.',
            },
            {
              group: ['@temporalio/*'],
              message: 'src/model/ knows nothing of Temporal; the contract is in workflows/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Each workflow has one client (WORKFLOW_CLIENTS above): it alone sends the workflow its
    // messages and reads Temporal's failures. Their ids, types and search attributes stay free to import.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'scripts/**/*.ts', 'dev/**/*.ts'],
    ignores: WORKFLOW_CLIENTS.map((c) => c.client),
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: WORKFLOW_CLIENTS.map((c) => c.pattern) }],
    },
  },
  // (One rule, so each client is exempt from its own pattern only.)
  ...WORKFLOW_CLIENTS.map(({ client }) => ({
    files: [client],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: WORKFLOW_CLIENTS.filter((c) => c.client !== client).map((c) => c.pattern) },
      ],
    },
  })),
  {
    // v1 is frozen as released in 0.4.0 (docs/versioning.md): exempt from the 60-line cap.
    files: ['workflows/bookings/v1/**/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // A Refusal is the domain's "no" (docs/refusals.md): it knows nothing of the entry points that
    // translate it, and Temporal's failures are read only where they become one.
    files: ['src/temporal/refusals.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: REFUSAL_NOT_ENTRY_POINTS.paths, patterns: REFUSAL_NOT_ENTRY_POINTS.patterns },
      ],
    },
  },
  {
    files: ['src/refusal.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: REFUSAL_NOT_ENTRY_POINTS.paths,
          patterns: [
            ...REFUSAL_NOT_ENTRY_POINTS.patterns,
            {
              group: ['@temporalio/*', '**/temporal/**', '**/workflows/**'],
              message: 'Temporal failures become Refusals in src/temporal/refusals.ts, not here.',
            },
          ],
        },
      ],
    },
  },
  {
    // Use cases refuse with a Refusal (src/refusal.ts), never with an HTTP problem: each entry point
    // translates a Refusal once (docs/refusals.md). ProblemError stays with HTTP (src/http,
    // src/plugins, src/routes, src/app.ts), the partner endpoints' credentials and body parsing
    // (src/partners/auth.ts, raw-body.ts), and the modules that render refusals for MCP and for a
    // partner's rejected job. test/unit/lint/refusal-imports.test.ts proves it is caught.
    files: [
      'src/bookings/**/*.ts',
      'src/quotes/**/*.ts',
      'src/drivers/**/*.ts',
      'src/passengers/**/*.ts',
      'src/settlement/**/*.ts',
      'src/billing/**/*.ts',
      'src/auth/**/*.ts',
      'src/partners/**/*.ts',
      'src/mcp/**/*.ts',
    ],
    ignores: [
      'src/partners/auth.ts',
      'src/partners/raw-body.ts',
      'src/partners/job-rejection.ts',
      'src/mcp/refusal-result.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/problem.js', '**/http/problem'],
              message:
                'A use case refuses with a Refusal (src/refusal.ts); only the entry points make HTTP problems (docs/refusals.md).',
            },
          ],
        },
      ],
    },
  },
);

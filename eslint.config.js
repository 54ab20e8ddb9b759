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

// The booking workflow's messages: only its client (src/bookings/client.ts) sends them. Kept equal to
// the message values of workflows/bookings/definitions.ts by test/unit/lint/booking-client-imports.test.ts.
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

/** The booking workflow's messages outside its client. */
const BOOKING_ONLY = {
  group: [
    '**/workflows/bookings/definitions.js',
    '**/workflows/bookings/definitions',
    '**/workflows/bookings/v1/definitions.js',
    '**/workflows/bookings/v1/definitions',
  ],
  importNames: BOOKING_MESSAGES,
  allowTypeImports: true,
  message: "Call the booking workflow through its client (src/bookings/client.ts, Services['bookings']).",
};

/** The partner job workflow's messages outside its client. */
const PARTNER_JOB_ONLY = {
  group: ['**/workflows/partners/job-definitions.js', '**/workflows/partners/job-definitions'],
  importNames: ['submitJobUpdate', 'partnerJobQuery'],
  allowTypeImports: true,
  message: "Call the partner job workflow through its client (src/partners/job-client.ts, Services['partnerJobs']).",
};

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
    // The booking workflow and the partner job workflow each have one client (docs/refusals.md,
    // "Temporal failures"; docs/partners.md): it alone sends the workflow its messages and reads
    // Temporal's failures. Their ids, types and search attributes stay free to import.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'scripts/**/*.ts', 'dev/**/*.ts'],
    ignores: ['src/bookings/client.ts', 'src/partners/job-client.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [BOOKING_ONLY, PARTNER_JOB_ONLY] }] },
  },
  // (One rule, so each client is exempt from its own pattern only.)
  {
    files: ['src/bookings/client.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [PARTNER_JOB_ONLY] }] },
  },
  {
    files: ['src/partners/job-client.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [BOOKING_ONLY] }] },
  },
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

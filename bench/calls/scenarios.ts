import { BATCH_SCENARIOS } from './batch-calls.js';
import type { CallScenario } from './call-scenario.js';
import { MIGRATION_SCENARIOS } from './migration-calls.js';
import { OFFBOARDING_SCENARIOS } from './offboarding-calls.js';
import { SYNC_SCENARIOS } from './sync-calls.js';

/**
 * Every workflow bench/calls.ts measures, in the order it prints them. A new workflow adds its scenarios here, as a
 * list of its own beside these.
 */
export const CALL_SCENARIOS: readonly CallScenario[] = [...OFFBOARDING_SCENARIOS, ...SYNC_SCENARIOS, ...BATCH_SCENARIOS, ...MIGRATION_SCENARIOS];

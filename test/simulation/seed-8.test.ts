import { describe } from 'vitest';
import { simulationGate } from './gate.js';

describe('the whole system, simulated', () => {
  simulationGate(8);
});

import { startReferenceServer } from '../../src/server/index.js';
const s = await startReferenceServer({ port: Number(process.argv[2]), rateLimit: 'off', faults: process.argv[3] ?? '' });
console.log(s.url);

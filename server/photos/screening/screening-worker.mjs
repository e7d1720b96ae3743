// The worker thread's entry (ADR 027): registers tsx in this thread, then runs the TypeScript worker.
import { tsImport } from 'tsx/esm/api';

await tsImport('./screening-worker.ts', import.meta.url);

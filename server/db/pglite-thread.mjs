// The embedded database's thread entry (ADR 049): registers tsx in this thread, then runs the
// TypeScript module that owns the PGlite instance.
import { tsImport } from 'tsx/esm/api';

await tsImport('./pglite-thread.ts', import.meta.url);

// The worker pool's thread entry (ADR 048): registers tsx in this thread, then runs the TypeScript
// tasks module. Piscina calls the default export with each task.
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport('./pool-tasks.ts', import.meta.url);

export default tasks.default;

import type { FastifyInstance } from 'fastify';
import { type Jobs, openJobs } from './jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Background jobs (server/jobs/jobs.ts): pg-boss on PostgreSQL, in process on PGlite. */
    jobs: Jobs;
  }
}

/** Open the job queue for the app's database (starting; stopped, waiting for running jobs, at close). */
export function jobsPlugin(app: FastifyInstance): void {
  const jobs = openJobs(app.database, app.log);
  app.decorate('jobs', jobs);
  app.addHook('onClose', () => jobs.stop());
}

import { z } from 'zod';

/**
 * GET /api/account/getting-started: the guided start after registering (issue 17). Each step is done
 * when the member has it (an area, a want, an item), whether or not they used the guide for it, so
 * the guide resumes where the member is. `completed`: finished or skipped (the guide is put away
 * until the member asks for it again).
 */
export const gettingStartedSchema = z.object({
  area: z.boolean(),
  want: z.boolean(),
  item: z.boolean(),
  completed: z.boolean(),
});

export type GettingStarted = z.infer<typeof gettingStartedSchema>;

/** PUT /api/account/getting-started: skip or finish it (true), or bring it back (false). */
export const gettingStartedUpdateSchema = z.strictObject({ completed: z.boolean() });

export type GettingStartedUpdate = z.infer<typeof gettingStartedUpdateSchema>;

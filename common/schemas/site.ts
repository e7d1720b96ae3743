import { z } from 'zod';

/** GET /api/site: public settings the pages show (contact addresses, public URL, demo login). */
export const siteInfoSchema = z.object({
  publicUrl: z.string(),
  supportEmail: z.string(),
  legalEmail: z.string(),
  licensingEmail: z.string(),
  demoLogin: z.boolean(),
  googleSignIn: z.boolean(),
});

export type SiteInfo = z.infer<typeof siteInfoSchema>;

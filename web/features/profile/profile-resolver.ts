import { zodResolver } from '@hookform/resolvers/zod';
import { profileFormSchema } from '#common/schemas/profile.ts';

/** The profile form's resolver, with zod and its schema: loaded when the form is first used (ADR 046). */
export const profileResolver = zodResolver(profileFormSchema);

import { zodResolver } from '@hookform/resolvers/zod';
import { ratingInputSchema, sendMessageSchema } from '#common/schemas/barters.ts';

/**
 * The barter page's form resolvers, with zod and the barter schemas: loaded when a form is first
 * used, not with the page (ADR 046).
 */
export const sendMessageResolver = zodResolver(sendMessageSchema);
export const ratingResolver = zodResolver(ratingInputSchema);

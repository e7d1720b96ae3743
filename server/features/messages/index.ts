/** Messages between members: unread counts and the inbox of conversations (ADR 076). */
export { messagesRoutes } from './messages-routes';

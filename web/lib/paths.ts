import type { BarterBox } from '#common/barter-machine.ts';

/** Every client route in one typed object (docs/architecture.md, habit 9). */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  /** /register with the e-mail field prefilled (spec section 2). */
  registerWithEmail: (email: string) => `/register?email=${encodeURIComponent(email)}`,
  demoLogin: '/demo-login',
  /** Ask for a password-reset link; set the new password from it; confirm an address (ADR 024). */
  forgotPassword: '/forgot-password',
  /** /forgot-password with the address typed on the login form. */
  forgotPasswordFor: (email: string) =>
    email.trim() ? `/forgot-password?email=${encodeURIComponent(email.trim())}` : '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  /** One-click unsubscribe from a digest e-mail (ADR 026). */
  unsubscribe: '/unsubscribe',
  /** The moderators' screen (ADR 025). */
  moderation: '/moderation',
  terms: '/terms',
  /** The accessibility statement (issue 17): the standard aimed at, how it is tested, known gaps. */
  accessibility: '/accessibility',
  flyer: '/flyer',
  /** Search results over all listings within the member's distance (issue 31, ADR 089). */
  search: '/search',
  /** /search for some text (none: everything near, with the filters). */
  searchFor: (q: string) => (q.trim() ? `/search?q=${encodeURIComponent(q.trim())}` : '/search'),
  profile: '/profile',
  /** /profile with one of its tabs selected. */
  profileTab: (tab: ProfileTab) => (tab === 'profile' ? '/profile' : `/profile?tab=${tab}`),
  /** The inbox: one row per conversation, newest message first (ADR 076). */
  messages: '/messages',
  /** The Barters screen (incoming, outgoing, active, past) and one barter's page. */
  barters: '/barters',
  /** The Barters screen with one of its lists selected (incoming is the default). */
  bartersBox: (box: BarterBox) => (box === 'incoming' ? '/barters' : `/barters?box=${box}`),
  barter: (id: number) => `/barters/${id}`,
  barterPattern: '/barters/:id',
  /** The member's trade circles (issue 16): waiting for an answer, and past ones. */
  circles: '/circles',
  /** A trade circle (issue 16): who gives what, accept or decline. */
  circle: (id: number) => `/circles/${id}`,
  circlePattern: '/circles/:id',
  /** Swap days near the member, one swap day, and its printable pick-up sheet (issue 16). */
  swapDays: '/swap-days',
  swapDay: (id: number) => `/swap-days/${id}`,
  swapDayPattern: '/swap-days/:id',
  swapDaySheet: (id: number) => `/swap-days/${id}/sheet`,
  swapDaySheetPattern: '/swap-days/:id/sheet',
  /** An item's page, to share (issue 31): anyone past the site gate may open it. */
  item: (id: number) => `/items/${id}`,
  itemPattern: '/items/:id',
  /** A member's public page. */
  member: (id: string) => `/members/${encodeURIComponent(id)}`,
  memberPattern: '/members/:id',
} as const;

/** The profile screen's tabs (spec section 2's five, then the member's account), in order. */
export const profileTabs = ['profile', 'items', 'wants', 'trades', 'saved', 'account'] as const;
export type ProfileTab = (typeof profileTabs)[number];

/** Server paths the browser navigates to (not fetches). */
export const serverPaths = {
  googleSignIn: '/api/auth/google',
} as const;

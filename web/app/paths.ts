/** Every client route in one typed object (docs/architecture.md, habit 9). */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  /** /register with the e-mail field prefilled (spec section 2). */
  registerWithEmail: (email: string) => `/register?email=${encodeURIComponent(email)}`,
  demoLogin: '/demo-login',
  terms: '/terms',
  flyer: '/flyer',
  profile: '/profile',
} as const;

/** Server paths the browser navigates to (not fetches). */
export const serverPaths = {
  googleSignIn: '/api/auth/google',
} as const;

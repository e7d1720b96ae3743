// Catalogues are imported as modules; @lingui/vite-plugin compiles them (ADR 036).
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}

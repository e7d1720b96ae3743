// web-push and its ASN.1 packages (about 230 KB bundled) are loaded at the first push or key pair,
// not at every start (ADR 116): the build refuses an import() of a bundled CommonJS package, so
// web-push.ts imports this module instead.
import webpush from 'web-push';

export default webpush;

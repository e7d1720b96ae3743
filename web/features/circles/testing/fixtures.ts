// The trade circle screens' test data lives in web/testing/fixtures/circles.ts, shared with the other
// features' tests without importing this feature (ADR 068).
export * from '#web/testing/fixtures/circles.ts';

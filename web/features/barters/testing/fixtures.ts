// The barter screens' test data lives in web/testing/fixtures/barters.ts, shared with the other
// features' tests (a trade circle's page, the feed's cards) without importing this feature (ADR 068).
export * from '#web/testing/fixtures/barters.ts';

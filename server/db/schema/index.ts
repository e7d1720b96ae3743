export * from './account';
export * from './barter';
export * from './items';
export * from './listing-changes';
export * from './match-graph';
export * from './search';
export * from './sessions';
export * from './users';

export * from './barter';
export * from './items';
export * from './listing-changes';
export * from './sessions';
export * from './users';

export * from './barter';
export * from './items';
export * from './sessions';
export * from './users';

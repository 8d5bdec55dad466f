export * from './entry/client';
export * from './entry/worker';

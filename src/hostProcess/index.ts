// The one door for host processes (invariant 15): see door.ts.
export * from './door';
export * from './environment';
export * from './git';

export * from './fakeAnthropic';

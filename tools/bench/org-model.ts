/** The generated organization lives with the sandbox, which serves it (`docops sandbox --seed large`). */
export * from '@docops/sandbox/generated-org';

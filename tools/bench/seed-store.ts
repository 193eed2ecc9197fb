/** Seeding a store with a generated organization lives with the sandbox (`docops sandbox --seed large`). */
export { seedStore } from '@docops/sandbox/seed-generated';

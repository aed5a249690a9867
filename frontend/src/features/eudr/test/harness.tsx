/** The EUDR tests' harness is the shared one (src/test/renderAt.tsx). */
export { renderAt } from '@/test/renderAt';

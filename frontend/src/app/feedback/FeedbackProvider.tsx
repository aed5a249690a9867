import AppContext from 'antd/es/app/context';
import type { useAppProps } from 'antd/es/app/context';
import { lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import styles from './FeedbackProvider.module.css';

/** The message, notification and modal APIs of Ant Design's App, once its holders are rendered. */
export type FeedbackApi = Required<Pick<useAppProps, 'message' | 'notification' | 'modal'>>;

const FeedbackHolders = lazy(async () => ({ default: (await import('./FeedbackHolders')).FeedbackHolders }));

type Call = (api: FeedbackApi) => unknown;

/**
 * What Ant Design's App gives the pages (App.useApp(): message, notification, modal), without loading
 * their code before the first page: most first pages show none of them. The context holds stable
 * stand-ins; the first call renders the holders (their own chunk, themed like the rest since they sit
 * inside the layout) and is made as soon as they are there. A call returns a promise of what the real
 * call returns. The wrapper carries the base text styles Ant Design's App gave its subtree.
 */
/** The stand-ins and the calls made before the holders were there. */
class Feedback {
  private api: FeedbackApi | null = null;
  private queue: Call[] = [];
  readonly value: FeedbackApi;

  constructor(private readonly want: () => void) {
    this.value = { message: this.standIn('message'), notification: this.standIn('notification'), modal: this.standIn('modal') };
  }

  private call(run: Call): unknown {
    if (this.api) return run(this.api);
    this.want();
    return new Promise((resolve) => this.queue.push((ready) => resolve(run(ready))));
  }

  private standIn<K extends keyof FeedbackApi>(kind: K): FeedbackApi[K] {
    return new Proxy({} as FeedbackApi[K], {
      // Only methods: not a thenable, nothing for symbols.
      get: (_target, method) =>
        typeof method !== 'string' || method === 'then'
          ? undefined
          : (...args: unknown[]) =>
              this.call((ready) => (ready[kind] as unknown as Record<string, (...a: unknown[]) => unknown>)[method](...args)),
    });
  }

  readonly ready = (loaded: FeedbackApi): void => {
    this.api = loaded;
    const pending = this.queue;
    this.queue = [];
    for (const run of pending) run(loaded);
  };
}

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  const [feedback] = useState(() => new Feedback(() => setWanted(true)));

  return (
    <AppContext.Provider value={feedback.value}>
      <div className={styles.app}>
        {wanted ? (
          <Suspense fallback={null}>
            <FeedbackHolders onReady={feedback.ready} />
          </Suspense>
        ) : null}
        {children}
      </div>
    </AppContext.Provider>
  );
}

/** The layouts' message, notification and modal APIs (the same as App.useApp() in a page). */
export function useFeedback(): FeedbackApi {
  return useContext(AppContext);
}

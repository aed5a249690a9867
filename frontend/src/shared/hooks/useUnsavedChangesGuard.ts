import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * While `dirty`, leaving the page asks first: in-app navigation through a confirm dialog, closing or
 * reloading the tab through the browser's own prompt.
 */
export function useUnsavedChangesGuard(dirty: boolean): void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('unsaved.title'),
      content: t('unsaved.description'),
      okText: t('unsaved.leave'),
      cancelText: t('unsaved.stay'),
      okButtonProps: { danger: true },
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t]);

  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}

/**
 * For a form in a drawer or modal: tracks whether it was edited (`markDirty` from `onValuesChange`),
 * guards leaving the page while it is open and edited, and `requestClose` (Cancel, the close icon, the
 * mask, Escape) asks before discarding the changes. `afterSave(next)` marks the form clean and runs
 * `next` (close, navigate) once the guard has let go, so a navigation right after saving is not
 * blocked.
 */
export function useUnsavedChangesClose(open: boolean, onClose: () => void) {
  const confirmDiscard = useConfirmDiscard();
  const [dirty, setDirty] = useState(false);
  const pending = useRef<(() => void) | null>(null);
  const [settled, setSettled] = useState(0);
  useUnsavedChangesGuard(open && dirty);

  // Declared after the guard: its effect has already released the route blocker when this one runs.
  useEffect(() => {
    const next = pending.current;
    if (next === null || dirty) return;
    pending.current = null;
    next();
  }, [settled, dirty]);

  const afterSave = useCallback((next: () => void) => {
    pending.current = next;
    setDirty(false);
    setSettled((n) => n + 1);
  }, []);

  const requestClose = useCallback(() => {
    confirmDiscard(dirty, () => (dirty ? afterSave(onClose) : onClose()));
  }, [afterSave, confirmDiscard, dirty, onClose]);

  const markDirty = useCallback(() => setDirty(true), []);
  return { dirty, markDirty, afterSave, requestClose };
}

/**
 * `confirmDiscard(dirty, discard)`: runs `discard` (close, switch) at once when nothing was edited, else
 * after the user confirms leaving the unsaved changes behind.
 */
export function useConfirmDiscard(): (dirty: boolean, discard: () => void) => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return useCallback(
    (dirty: boolean, discard: () => void) => {
      if (!dirty) {
        discard();
        return;
      }
      modal.confirm({
        title: t('common:unsaved.title'),
        content: t('common:unsaved.description'),
        okText: t('common:unsaved.leave'),
        cancelText: t('common:unsaved.stay'),
        okButtonProps: { danger: true },
        onOk: discard,
      });
    },
    [modal, t],
  );
}

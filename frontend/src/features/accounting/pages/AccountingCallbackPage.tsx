import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { type AuthorizationAnswer, type TestResult, finishAuthorization, useInvalidateAccounting } from '../api/accounting';
import { paths } from '@/shared/routing/paths';

type Outcome = { kind: 'working' } | { kind: 'done'; result: TestResult } | { kind: 'failed'; message: string };

/** States already posted by this page (React may mount it twice; a state is single-use on the server). */
const posted = new Map<string, Promise<TestResult>>();

function answerOf(params: URLSearchParams): AuthorizationAnswer | null {
  const state = params.get('state');
  if (!state) return null;
  const error = params.get('error');
  if (error) return { state, error, error_description: params.get('error_description') ?? '' };
  return { state, code: params.get('code') ?? '' };
}

/**
 * Where Visma sends the browser back after the eAccounting consent (the redirect URI): posts `code` and
 * `state` (or Visma's `error`) to the server, which checks the state, exchanges the code and stores the
 * tokens, and shows the outcome in words.
 */
export default function AccountingCallbackPage() {
  const { t } = useTranslation('accounting');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const invalidate = useInvalidateAccounting();
  const [params] = useSearchParams();
  const [answer] = useState(() => answerOf(params));
  const [outcome, setOutcome] = useState<Outcome>(answer ? { kind: 'working' } : { kind: 'failed', message: t('callback.noAnswer') });

  useEffect(() => {
    if (!answer) return;
    // the code is spent: keep it out of the address bar and the history
    window.history.replaceState(window.history.state, '', window.location.pathname);
    let request = posted.get(answer.state);
    if (!request) {
      request = finishAuthorization(answer);
      posted.set(answer.state, request);
    }
    let live = true;
    request.then(
      (result) => {
        if (!live) return;
        setOutcome({ kind: 'done', result });
        void invalidate();
      },
      (error: unknown) => {
        if (live) setOutcome({ kind: 'failed', message: errorText(error) });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once for the answer Visma sent
  }, [answer]);

  const back = (
    <Button type="primary" onClick={() => void navigate(paths.accounting())} data-testid="callback-back">
      {t('callback.back')}
    </Button>
  );
  return (
    <PageContainer>
      <Card title={t('callback.title')}>
        {outcome.kind === 'working' ? (
          <div role="status" aria-live="polite" style={{ padding: 24, textAlign: 'center' }}>
            <Spin />
            <div style={{ marginTop: 12 }}>{t('callback.working')}</div>
          </div>
        ) : outcome.kind === 'done' ? (
          <Result
            status={outcome.result.ok ? 'success' : 'warning'}
            title={t('callback.done')}
            subTitle={outcome.result.ok ? outcome.result.message : `${t('callback.doneWarning')} ${outcome.result.message}`}
            extra={back}
            data-testid="callback-done"
          />
        ) : (
          <Result status="error" title={t('callback.failed')} subTitle={outcome.message} extra={back} data-testid="callback-failed" />
        )}
      </Card>
    </PageContainer>
  );
}

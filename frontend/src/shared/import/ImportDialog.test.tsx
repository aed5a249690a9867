import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, fail, ok, type MockReply } from '@/test/mockAdapter';
import { signIn } from '@/test/session';
import { ImportDialog } from './ImportDialog';
import type { ImportJob } from './importApi';

const ENDPOINT = '/api/products/';
const JOB_URL = '/api/common/imports/41/';
const JOBS_URL = '/api/common/imports/';
const noJobs = ok({ count: 0, next: null, previous: null, results: [] });

function job(changes: Partial<ImportJob> = {}): ImportJob {
  return {
    id: 41,
    kind: 'products.product',
    dry_run: false,
    status: 'queued',
    phase: 'queued',
    file_name: 'products.csv',
    total_rows: 0,
    processed_rows: 0,
    progress: 0,
    rows_total: 0,
    rows_valid: 0,
    rows_invalid: 0,
    to_create: 0,
    to_update: 0,
    created: 0,
    updated: 0,
    errors: [],
    errors_truncated: false,
    ignored_columns: [],
    error: '',
    message: '',
    started_by: 7,
    started_by_name: 'Anna Berg',
    created_at: '2026-01-05T10:00:00Z',
    started_at: null,
    finished_at: null,
    stuck: false,
    can_retry: false,
    can_cancel: false,
    retry_of: null,
    ...changes,
  };
}

const accepted = (data: ImportJob): MockReply => ({ status: 202, data: { code: 200, message: 'success', data } });

let server: MockServer;

beforeEach(() => {
  initI18n('en', allResources());
  signIn({ tenant: '3' });
  server = new MockServer(http);
  server.on('GET', JOBS_URL, noJobs);
});

afterEach(() => server.restore());

/** GET of the job answers these replies in turn; a function reply waits for the test to release it. */
function jobReplies(...replies: (MockReply | (() => Promise<MockReply>))[]) {
  let index = 0;
  server.on('GET', JOB_URL, () => {
    const reply = replies[Math.min(index, replies.length - 1)];
    index += 1;
    return typeof reply === 'function' ? reply() : reply;
  });
}

function openDialog(onImported = vi.fn(), onClose = vi.fn()) {
  render(
    <App>
      <ImportDialog open onClose={onClose} endpoint={ENDPOINT} kind="products.product" resourceLabel="Products" fileStem="products" onImported={onImported} pollMs={5} />
    </App>,
  );
  return { onImported, onClose };
}

async function openWithFile(onImported = vi.fn()) {
  const user = userEvent.setup();
  render(
    <App>
      <ImportDialog open onClose={() => undefined} endpoint={ENDPOINT} kind="products.product" resourceLabel="Products" fileStem="products" onImported={onImported} pollMs={5} />
    </App>,
  );
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  expect(input).not.toBeNull();
  await user.upload(input!, new File(['Article number,Name\nCT-1,One\n'], 'products.csv', { type: 'text/csv' }));
  return { user, onImported };
}

describe('the import dialog', () => {
  it('shows the job’s progress while it runs, then the result, and refreshes the list', async () => {
    let release: (reply: MockReply) => void = () => undefined;
    server.on('POST', `${ENDPOINT}import/`, accepted(job({ dry_run: true })));
    jobReplies(
      ok(job({ dry_run: true, status: 'running', phase: 'validating', total_rows: 3, processed_rows: 1, progress: 33 })),
      () => new Promise<MockReply>((resolve) => (release = resolve)),
    );
    const { user, onImported } = await openWithFile();

    await user.click(screen.getByTestId('import-check'));
    const progress = await screen.findByTestId('import-progress');
    await waitFor(() => expect(progress).toHaveTextContent('Checking rows: 1 of 3'));
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    expect(screen.getByTestId('import-commit')).toBeDisabled();

    release(ok(job({ dry_run: true, status: 'done', phase: 'finished', progress: 100, rows_total: 3, rows_valid: 3, to_create: 2, to_update: 1 })));
    expect(await screen.findByText('All 3 rows are valid and ready to import.')).toBeInTheDocument();
    expect(screen.queryByTestId('import-progress')).not.toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.params).toMatchObject({ dry_run: 1 });

    // Now the import itself.
    server.on('POST', `${ENDPOINT}import/`, accepted(job()));
    jobReplies(
      ok(job({ status: 'running', phase: 'saving', total_rows: 3, processed_rows: 2, progress: 82 })),
      ok(job({ status: 'done', phase: 'finished', progress: 100, rows_total: 3, rows_valid: 3, created: 2, updated: 1 })),
    );
    await user.click(screen.getByTestId('import-commit'));
    expect((await screen.findAllByText('Imported: 2 created, 1 updated.')).length).toBeGreaterThan(0);
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(onImported.mock.calls[0][0]).toMatchObject({ created: 2, updated: 1 });
  });

  it('lists row errors by row number when the job is rejected, and nothing counts as imported', async () => {
    server.on('POST', `${ENDPOINT}import/`, accepted(job({ dry_run: true })));
    jobReplies(
      ok(
        job({
          dry_run: true,
          status: 'failed',
          phase: 'finished',
          error: 'import_rejected',
          message: '1 of 2 rows have errors; nothing was imported.',
          rows_total: 2,
          rows_valid: 1,
          rows_invalid: 1,
          errors: [{ row: 3, field: 'weight_per_carton_kg', column: 'Weight per carton (kg)', message: 'Enter a number.' }],
        }),
      ),
    );
    const { user, onImported } = await openWithFile();
    await user.click(screen.getByTestId('import-check'));

    const table = await screen.findByTestId('import-errors');
    const row = within(table).getByText('Enter a number.').closest('tr')!;
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(row).getByText('Weight per carton (kg)')).toBeInTheDocument();
    expect(screen.getByText('1 row has errors. Correct the file and check it again.')).toBeInTheDocument();
    expect(screen.getByTestId('import-commit')).toBeDisabled();
    expect(onImported).not.toHaveBeenCalled();
  });

  it('shows the server’s message when the upload is refused or another import is running', async () => {
    server.on('POST', `${ENDPOINT}import/`, fail(400, 'The workbook unpacks to more than 50 MB. Split it into smaller files.', 'import_file_too_large'));
    const { user } = await openWithFile();
    await user.click(screen.getByTestId('import-check'));
    expect(await screen.findByTestId('import-file-error')).toHaveTextContent('unpacks to more than 50 MB');
    expect(server.count('GET', JOB_URL)).toBe(0);

    server.on('POST', `${ENDPOINT}import/`, fail(409, 'An import of this kind is already running. Wait until it has finished.', 'import_in_progress', { job: 40 }));
    await user.click(screen.getByTestId('import-check'));
    await waitFor(() => expect(screen.getByTestId('import-file-error')).toHaveTextContent('already running'));
  });

  it('shows a failed job’s message when it failed without row errors', async () => {
    server.on('POST', `${ENDPOINT}import/`, accepted(job({ dry_run: true })));
    jobReplies(
      ok(job({ dry_run: true, status: 'failed', phase: 'finished', error: 'import_too_many_rows', message: 'The file has more than 10,000 rows. Split it into smaller files.' })),
    );
    const { user } = await openWithFile();
    await user.click(screen.getByTestId('import-check'));
    expect(await screen.findByTestId('import-file-error')).toHaveTextContent('more than 10,000 rows');
    expect(screen.queryByTestId('import-report')).not.toBeInTheDocument();
  });

  it('follows an import of its kind that is already running when it opens, then shows its result', async () => {
    let release: (reply: MockReply) => void = () => undefined;
    server.on('GET', JOBS_URL, ok({ count: 1, next: null, previous: null, results: [job({ status: 'running', phase: 'saving', total_rows: 3, processed_rows: 1, progress: 66 })] }));
    jobReplies(
      ok(job({ status: 'running', phase: 'saving', total_rows: 3, processed_rows: 2, progress: 82 })),
      () => new Promise<MockReply>((resolve) => (release = resolve)),
    );
    const { onImported } = openDialog();

    expect(await screen.findByTestId('import-running')).toHaveTextContent('An import of products.csv started by Anna Berg is running.');
    const progress = await screen.findByTestId('import-progress');
    await waitFor(() => expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '82'));
    expect(progress).toHaveTextContent('2 of 3');
    expect(server.requests.find((r) => r.url === JOBS_URL)?.params).toMatchObject({ kind: 'products.product', status: 'queued,running', dry_run: false, page_size: 1 });
    expect(screen.getByTestId('import-check')).toBeDisabled();
    expect(screen.getByTestId('import-commit')).toBeDisabled();
    expect(server.count('POST', `${ENDPOINT}import/`)).toBe(0);

    release(ok(job({ status: 'done', phase: 'finished', progress: 100, rows_total: 3, rows_valid: 3, created: 2, updated: 1 })));
    expect((await screen.findAllByText('Imported: 2 created, 1 updated.')).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('import-progress')).not.toBeInTheDocument();
    expect(onImported).toHaveBeenCalledTimes(1);
  });

  it('starts nothing and follows nothing when no import of its kind runs', async () => {
    openDialog();
    await waitFor(() => expect(server.count('GET', JOBS_URL)).toBe(1));
    expect(screen.queryByTestId('import-running')).not.toBeInTheDocument();
    expect(screen.queryByTestId('import-progress')).not.toBeInTheDocument();
    expect(server.count('GET', JOB_URL)).toBe(0);
  });

  it('may be closed while it follows an import it did not start', async () => {
    server.on('GET', JOBS_URL, ok({ count: 1, next: null, previous: null, results: [job({ status: 'running', phase: 'validating' })] }));
    jobReplies(() => new Promise<MockReply>(() => undefined));
    const { onClose } = openDialog();
    await screen.findByTestId('import-progress');
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(cancel).toBeEnabled();
    await userEvent.setup().click(cancel);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  describe('retry and cancel', () => {
    const RETRY_URL = `${JOB_URL}retry/`;
    const CANCEL_URL = `${JOB_URL}cancel/`;
    const NEW_JOB_URL = '/api/common/imports/42/';
    const stuckJob = job({ status: 'running', phase: 'reading', stuck: true, can_retry: true, can_cancel: true });

    function openStuck() {
      server.on('GET', JOBS_URL, ok({ count: 1, next: null, previous: null, results: [stuckJob] }));
      jobReplies(ok(stuckJob));
      return openDialog();
    }

    it('retries a stuck import with the same file and follows the new job to its result', async () => {
      let answer: (reply: MockReply) => void = () => undefined;
      server.on('POST', RETRY_URL, () => new Promise<MockReply>((resolve) => (answer = resolve)));
      server.on('GET', NEW_JOB_URL, ok(job({ id: 42, retry_of: 41, status: 'done', phase: 'finished', progress: 100, rows_total: 3, rows_valid: 3, created: 3 })));
      const { onImported } = openStuck();

      const actions = await screen.findByTestId('import-job-actions');
      expect(actions).toHaveTextContent('This import has stopped');
      const user = userEvent.setup();
      const retry = within(actions).getByRole('button', { name: /Retry import/ });
      await user.click(retry);
      await waitFor(() => expect(retry).toHaveClass(/loading/));
      expect(within(actions).getByRole('button', { name: /Cancel import/ })).toBeDisabled();

      answer(accepted(job({ id: 42, retry_of: 41 })));
      expect((await screen.findAllByText('Imported: 3 created, 0 updated.')).length).toBeGreaterThan(0);
      expect(onImported).toHaveBeenCalledTimes(1);
      expect(server.count('POST', RETRY_URL)).toBe(1);
      expect(server.count('POST', CANCEL_URL)).toBe(0);
      expect(screen.queryByTestId('import-job-actions')).not.toBeInTheDocument();
    });

    it('cancels a stuck import only after the confirmation', async () => {
      server.on('POST', CANCEL_URL, ok(job({ status: 'cancelled', phase: 'finished', error: 'import_cancelled', message: 'The import was cancelled; nothing was imported.' })));
      openStuck();
      const user = userEvent.setup();
      const actions = await screen.findByTestId('import-job-actions');

      await user.click(within(actions).getByRole('button', { name: /Cancel import/ }));
      expect(await screen.findByText('Cancel this import?')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Keep it' }));
      expect(server.count('POST', CANCEL_URL)).toBe(0);

      await user.click(within(actions).getByRole('button', { name: /Cancel import/ }));
      await screen.findByText('Cancel this import?');
      await user.click(screen.getAllByRole('button', { name: 'Cancel import' }).at(-1)!);
      expect(await screen.findByTestId('import-notice')).toHaveTextContent('The import was cancelled; nothing was imported.');
      expect(server.count('POST', CANCEL_URL)).toBe(1);
      expect(screen.queryByTestId('import-progress')).not.toBeInTheDocument();
      expect(screen.queryByTestId('import-job-actions')).not.toBeInTheDocument();
    });

    it('says why when the server refuses to cancel an import a worker is writing', async () => {
      server.on('POST', CANCEL_URL, fail(409, 'This import is being written by a worker right now and cannot be cancelled.', 'import_running'));
      server.on('GET', JOBS_URL, ok({ count: 1, next: null, previous: null, results: [job({ can_cancel: true })] }));
      jobReplies(ok(job({ can_cancel: true })));
      openDialog();
      const user = userEvent.setup();
      const actions = await screen.findByTestId('import-job-actions');
      expect(actions).toHaveTextContent('waiting for the server to start it');
      expect(within(actions).queryByRole('button', { name: /Retry import/ })).not.toBeInTheDocument();

      await user.click(within(actions).getByRole('button', { name: /Cancel import/ }));
      await screen.findByText('Cancel this import?');
      await user.click(screen.getAllByRole('button', { name: 'Cancel import' }).at(-1)!);
      expect(await screen.findByTestId('import-action-error')).toHaveTextContent('cannot be cancelled');
      expect(screen.getByTestId('import-progress')).toBeInTheDocument(); // still followed
    });

    it('offers Retry on a failed import whose file the server kept, and shows a refused retry', async () => {
      server.on('POST', `${ENDPOINT}import/`, accepted(job()));
      jobReplies(ok(job({ status: 'failed', phase: 'finished', error: 'import_worker_lost', message: 'The worker running this import stopped; nothing was imported.', can_retry: true })));
      server.on('POST', RETRY_URL, fail(409, 'An import of this kind is already running. Wait until it has finished.', 'import_in_progress', { job: 40 }));
      const { user } = await openWithFile();
      await user.click(screen.getByTestId('import-check'));
      const failure = await screen.findByTestId('import-file-error');
      expect(failure).toHaveTextContent('The worker running this import stopped');
      expect(within(failure).queryByRole('button', { name: /Cancel import/ })).not.toBeInTheDocument();

      await user.click(within(failure).getByRole('button', { name: /Retry import/ }));
      expect(await screen.findByTestId('import-action-error')).toHaveTextContent('already running');
      expect(server.count('POST', RETRY_URL)).toBe(1);
    });

    it('offers no Retry when the failure has row errors or the file is gone', async () => {
      server.on('POST', `${ENDPOINT}import/`, accepted(job({ dry_run: true })));
      jobReplies(ok(job({ dry_run: true, status: 'failed', phase: 'finished', error: 'import_too_many_rows', message: 'The file has more than 10,000 rows.' })));
      const { user } = await openWithFile();
      await user.click(screen.getByTestId('import-check'));
      const failure = await screen.findByTestId('import-file-error');
      expect(within(failure).queryByRole('button', { name: /Retry import/ })).not.toBeInTheDocument();
    });

    it('speaks Chinese', async () => {
      await i18n.changeLanguage('zh');
      try {
        openStuck();
        const actions = await screen.findByTestId('import-job-actions');
        expect(within(actions).getByRole('button', { name: /重试导入/ })).toBeInTheDocument();
        expect(within(actions).getByRole('button', { name: /取消导入/ })).toBeInTheDocument();
        expect(actions).toHaveTextContent('此导入已停止');
      } finally {
        await i18n.changeLanguage('en');
      }
    });
  });
});

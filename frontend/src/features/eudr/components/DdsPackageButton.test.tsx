import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { MockServer, fail, ok, type MockReply } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { DdsJob } from '../api/types';
import { deliveryFixture } from '../test/fixtures';
import { renderAt } from '../test/harness';
import { DdsPackageButton, ddsJobStorageKey } from './DdsPackageButton';

const START = '/api/eudr/raw-materials/12/dds-package/';
const JOB = '/api/eudr/raw-materials/12/dds-package/abc/';

function job(status: DdsJob['status'], done = 1): DdsJob {
  return {
    id: 'abc',
    delivery: 12,
    status,
    progress: { done, total: 4, step: status === 'done' ? 'stored' : 'documents' },
    warnings: [],
    errors: [],
    message: '',
    file_name: 'dds-SEP-DN-1.zip',
    size: 2048,
    created_at: '2026-11-21T10:00:00Z',
    finished_at: null,
    download_url: null,
  };
}

/** The start's answer: HTTP 202 with the envelope's code 200 (docs/specification.md section 8: only 200 or 0 is success, creates and 202 too). */
function accepted(data: DdsJob): MockReply {
  return { status: 202, data: { code: 200, message: 'success', data } };
}

/** A reply the test releases when it wants: the request stays in flight until then. */
function deferred() {
  let release: (reply: MockReply) => void = () => undefined;
  const promise = new Promise<MockReply>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  window.sessionStorage.clear();
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

function renderButton(onFix?: (code: string | null) => void) {
  return renderAt('/x', '/x', <DdsPackageButton material={deliveryFixture()} onFix={onFix} />);
}

describe('the DDS package button', () => {
  it('stays closed when a status answer arrives after closing, and opens the running job again', async () => {
    const user = userEvent.setup({ delay: null });
    server.on('POST', START, accepted(job('running', 1)));
    const pending = deferred();
    server.on('GET', JOB, () => pending.promise);
    renderButton();

    await user.click(screen.getByTestId('dds-package'));
    expect(await screen.findByTestId('dds-progress')).toBeInTheDocument();
    // The status request goes out after a second; close while it is in flight.
    await waitFor(() => expect(server.count('GET', JOB)).toBe(1), { timeout: 3000 });
    await user.click(screen.getByTestId('dds-close'));
    await waitFor(() => expect(screen.queryByTestId('dds-progress')).not.toBeVisible());
    pending.release(ok(job('running', 2)));

    // The answer updates the button, not the dialog.
    expect(await screen.findByText('DDS package 50 %')).toBeInTheDocument();
    expect(screen.queryByTestId('dds-progress')).not.toBeVisible();
    expect(window.sessionStorage.getItem(ddsJobStorageKey('3', 12))).toBe('abc');

    // The button shows the same job again; no second package is started.
    server.on('GET', JOB, ok(job('done', 4)));
    await user.click(screen.getByTestId('dds-package'));
    expect(await screen.findByTestId('dds-success', undefined, { timeout: 4000 })).toBeInTheDocument();
    expect(server.count('POST', START)).toBe(1);
    expect(window.sessionStorage.getItem(ddsJobStorageKey('3', 12))).toBeNull();
  }, 30_000);

  it('picks up a job started before the page was left', async () => {
    const user = userEvent.setup({ delay: null });
    window.sessionStorage.setItem(ddsJobStorageKey('3', 12), 'abc');
    server.on('GET', JOB, ok(job('running', 3)));
    renderButton();
    expect(await screen.findByText('DDS package 75 %')).toBeInTheDocument();
    await user.click(screen.getByTestId('dds-package'));
    await waitFor(() => expect(screen.getByTestId('dds-progress')).toBeVisible());
    expect(server.count('POST', START)).toBe(0);
  });

  it('forgets a remembered job the server no longer has', async () => {
    window.sessionStorage.setItem(ddsJobStorageKey('3', 12), 'abc');
    server.on('GET', JOB, fail(404, 'This package job does not exist or has expired.', 'dds_job_not_found'));
    renderButton();
    await waitFor(() => expect(window.sessionStorage.getItem(ddsJobStorageKey('3', 12))).toBeNull());
    expect(screen.getByTestId('dds-package')).toHaveTextContent('DDS package');
  });

  it('lists the missing information and leads to the edit form', async () => {
    const user = userEvent.setup({ delay: null });
    const onFix = vi.fn();
    server.on(
      'POST',
      START,
      fail(400, 'Required information is missing.', 'dds_information_missing', {
        errors: [
          { code: 'operator_name_missing', message: "The operator's name is missing.", severity: 'error', feature: null },
          { code: 'harvest_period_missing', message: 'The harvest period is missing.', severity: 'error', feature: null },
        ],
        warnings: [],
      }),
    );
    renderButton(onFix);
    await user.click(screen.getByTestId('dds-package'));
    expect(await screen.findByTestId('dds-missing')).toHaveTextContent('The harvest period is missing.');
    await user.click(screen.getByTestId('dds-fix'));
    expect(onFix).toHaveBeenCalledWith('harvest_period_missing');
  });

  it('tells what comes next when the package is ready, if asked to', async () => {
    const user = userEvent.setup({ delay: null });
    server.on('POST', START, accepted(job('done', 4)));
    renderAt('/x', '/x', <DdsPackageButton material={deliveryFixture()} filingHint />);
    await user.click(screen.getByTestId('dds-package'));
    expect(await screen.findByTestId('dds-success')).toBeInTheDocument();
    expect(await screen.findByTestId('dds-next-step')).toHaveTextContent('record its reference and verification number');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { MockServer, ok } from '@/test/mockAdapter';
import { signIn } from '@/test/session';
import { reloadSession } from '@/shared/session/sessionStore';
import { preloadContentTypes } from './registry';

describe('preloadContentTypes', () => {
  it('is skipped when signed out', async () => {
    reloadSession();
    const server = new MockServer(http);
    await preloadContentTypes();
    expect(server.requests).toHaveLength(0);
    server.restore();
  });

  it('loads after sign-in and only logs a failure', async () => {
    signIn();
    const server = new MockServer(http);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.on('GET', '/api/common/content-types/', { status: 500, data: { code: 500, message: 'boom', error: 'server_error', data: null } });
    await expect(preloadContentTypes()).resolves.toBeUndefined();
    expect(error).toHaveBeenCalled();
    server.on('GET', '/api/common/content-types/', ok([]));
    server.restore();
  });
});

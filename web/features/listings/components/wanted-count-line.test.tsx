import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import { alertKeys, authKeys } from '#web/lib/query-keys.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { WantedCountLine } from './wanted-count-line';

/** Render the draft for a signed-in member, located unless `latitude` is null. */
function renderDraft(category?: string, latitude: number | null = 40.7) {
  const rendered = renderWithProviders(<Draft category={category} />);
  rendered.queryClient.setQueryData(authKeys.user, {
    latitude,
    longitude: latitude === null ? null : -74,
  } as CurrentUser);
  return rendered;
}

function Draft({ category = 'kitchen' }: { category?: string }) {
  const [title, setTitle] = useState('');
  return (
    <>
      <label>
        Title
        <input value={title} onChange={(event) => setTitle(event.target.value)} />
      </label>
      <WantedCountLine title={title} category={category} isService={false} />
    </>
  );
}

describe('the item form\'s "neighbours want this" line (ADR 084)', () => {
  it('asks once typing pauses, with the draft, and says how many neighbours within how far want it', async () => {
    const api = recordRequests();
    server.use(
      http.get('/api/alerts/wanted-count', ({ request }) => {
        const title = new URL(request.url).searchParams.get('title');
        return HttpResponse.json(
          title === 'Pasta maker' ? { count: 4, withinMiles: 2 } : { count: 0, withinMiles: null },
        );
      }),
    );
    const user = userEvent.setup();
    renderDraft();
    await user.type(screen.getByLabelText('Title'), 'Pasta maker');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('4 neighbours within 2 miles want this'),
    );
    const asked = api.to('GET /api/alerts/wanted-count');
    // Not one request per key: only the paused draft (and nothing under three letters).
    expect(asked).toHaveLength(1);
    expect(asked[0]?.query.get('title')).toBe('Pasta maker');
    expect(asked[0]?.query.get('category')).toBe('kitchen');
    expect(asked[0]?.query.get('isService')).toBe('false');
  });

  it('says one neighbour in the singular, and nothing while nobody wants it', async () => {
    server.use(
      http.get('/api/alerts/wanted-count', ({ request }) => {
        const title = new URL(request.url).searchParams.get('title');
        return HttpResponse.json(
          title === 'Kayak' ? { count: 1, withinMiles: 1 } : { count: 0, withinMiles: null },
        );
      }),
    );
    const user = userEvent.setup();
    renderDraft('');
    const title = screen.getByLabelText('Title');
    await user.type(title, 'Kayak');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('1 neighbour within 1 mile wants this'),
    );
    await user.clear(title);
    await user.type(title, 'Lawn mower');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/^$/));
  });

  it('asks nothing for a member without a location', async () => {
    const api = recordRequests();
    const user = userEvent.setup();
    const { queryClient } = renderDraft('kitchen', null);
    await user.type(screen.getByLabelText('Title'), 'Pasta maker');
    // The paused draft reaches the query (its entry appears), which stays idle: nothing is asked.
    const key = alertKeys.wantedCount({ title: 'Pasta maker', category: 'kitchen', isService: false });
    await waitFor(() => expect(queryClient.getQueryState(key)).toBeDefined());
    expect(queryClient.getQueryState(key)?.fetchStatus).toBe('idle');
    expect(api.to('GET /api/alerts/wanted-count')).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent(/^$/);
  });
});

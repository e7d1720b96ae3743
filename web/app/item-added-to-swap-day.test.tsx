import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { useCreateItem } from '../features/listings/api/items';
import { useSwapDay } from '../features/swap-days/api/swap-days';

// Two features together (listings' item creation, a swap day's page): web/app composes them (ADR 068).

/** What a swap day's page lists under "Your items" (its offerable items), and an Add Item button. */
function SwapDayWithAddItem() {
  const swapDay = useSwapDay(7);
  const create = useCreateItem();
  return (
    <>
      <ul aria-label="Offerable">
        {(swapDay.data?.offerableItems ?? []).map((item) => (
          <li key={item.id}>{item.title}</li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() =>
          create.mutate({
            title: 'Camping lantern',
            description: 'Bright, with batteries',
            category: 'rvs+camp',
            isService: false,
            imageUrl: null,
            estimatedValue: '',
            isActive: true,
          })
        }
      >
        Add Item
      </button>
    </>
  );
}

describe('adding an item (issue 28)', () => {
  it('shows the new item under a swap day’s "Your items" without a reload', async () => {
    const offerable: Array<{ id: number; title: string }> = [];
    server.use(
      http.get('/api/swap-days/7', () => HttpResponse.json({ id: 7, offerableItems: [...offerable] })),
      http.post('/api/items', () => {
        offerable.push({ id: 41, title: 'Camping lantern' });
        return HttpResponse.json({ id: 41, title: 'Camping lantern' }, { status: 201 });
      }),
    );
    const api = recordRequests();
    renderWithProviders(<SwapDayWithAddItem />);
    await vi.waitFor(() => expect(api.to('GET /api/swap-days/7')).toHaveLength(1));
    expect(screen.queryByText('Camping lantern')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add Item' }));

    expect(await screen.findByText('Camping lantern')).toBeInTheDocument();
    expect(api.to('GET /api/swap-days/7')).toHaveLength(2);
  });
});
